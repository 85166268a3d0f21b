import AsyncReactive
import AsyncReactiveTesting
import Observation
import Testing

/// Runs `body` with a fresh tracker and returns every state a consumer subscribed before `body` saw, in order:
/// the tracker is released after `body`, which finishes the consumer. `nil` (and a failed expectation) if
/// something still holds the tracker, rather than waiting forever.
private func recordStates(
  _ body: (ActivityTracker) async throws -> Void,
  sourceLocation: SourceLocation = #_sourceLocation
) async rethrows -> [Bool]? {
  let states: Property<Bool>.Subscription
  weak var released: ActivityTracker?
  do {
    let tracker = ActivityTracker()
    released = tracker
    states = tracker.subscribe()
    try await body(tracker)
    #expect(tracker.activeCount == 0, sourceLocation: sourceLocation)
    #expect(tracker.value == false, sourceLocation: sourceLocation)
  }
  guard released == nil else {
    Issue.record("something still holds the tracker", sourceLocation: sourceLocation)
    return nil
  }
  return await states.collect()
}

@Suite("ActivityTracker: counting tracked calls and sequences")
struct ActivityTrackerTests {
  @Test("one tracked call: false → true → false; the value is true during the call and the result comes back")
  func oneCall() async {
    let states = await recordStates { tracker in
      let result = await tracker.track { () -> Int in
        #expect(tracker.value)
        #expect(tracker.activeCount == 1)
        return 42
      }
      #expect(result == 42)
    }
    #expect(states == [false, true, false])
  }

  @Test("nested calls count 2 inside and never repeat a state")
  func nestedCalls() async {
    let states = await recordStates { tracker in
      await tracker.track {
        await tracker.track { #expect(tracker.activeCount == 2) }
        #expect(tracker.activeCount == 1)
        #expect(tracker.value)
      }
    }
    #expect(states == [false, true, false])
  }

  @Test("a failing call rethrows its typed error and ends the activity")
  func failingCall() async {
    let states = await recordStates { tracker in
      do throws(TestError) {
        try await tracker.track { () throws(TestError) -> Int in throw TestError(code: 7) }
        Issue.record("no error")
      } catch {
        #expect(error == TestError(code: 7))
      }
      await #expect(throws: TestError(code: 8)) {
        try await tracker.track { throw TestError(code: 8) }
      }
    }
    #expect(states == [false, true, false, true, false])
  }

  @Test("a cancelled call ends the activity")
  func cancelledCall() async {
    let states = await recordStates { tracker in
      let started = Gate()
      let call = Task {
        try await tracker.track {
          started.open()
          try await Latch().pass()  // throws when cancelled
        }
      }
      await started.wait()
      #expect(tracker.activeCount == 1)
      call.cancel()
      await #expect(throws: CancellationError.self) { try await call.value }
    }
    #expect(states == [false, true, false])
  }

  @Test("track runs on the caller's actor: its closure may touch the actor's state")
  func trackOnActor() async {
    actor Loader {
      let tracker = ActivityTracker()
      var items: [Int] = []
      func load() async -> Int {
        await tracker.track {
          items.append(items.count)
          return items.count
        }
      }
    }
    let loader = Loader()
    #expect(await loader.load() == 1)
    #expect(await loader.load() == 2)
    #expect(loader.tracker.activeCount == 0)
  }

  @Test("a sequence counts from its first next() until it finishes; values pass through")
  func sequenceFinishes() async {
    let states = await recordStates { tracker in
      let subject = AsyncPassthroughSubject<Int, Never>()
      var iterator = subject.subscribe().trackActivity(tracker).makeAsyncIterator()
      #expect(tracker.value == false)  // making the iterator is not activity yet
      subject.send(1)
      #expect(await iterator.next() == 1)
      #expect(tracker.activeCount == 1)
      subject.finish()
      #expect(await iterator.next() == nil)
      #expect(tracker.activeCount == 0)
      #expect(await iterator.next() == nil)  // a finished iteration does not start again
      #expect(tracker.activeCount == 0)
    }
    #expect(states == [false, true, false])
  }

  @Test("a failing sequence passes its typed failure through and ends the activity")
  func sequenceFails() async {
    let states = await recordStates { tracker in
      let result = await Signal<Int, TestError>.fail(TestError(code: 3)).trackActivity(tracker).collectResult()
      #expect(result.values == [])
      #expect(result.failure == TestError(code: 3))
      #expect(await Signal<Int, Never>([1, 2, 3]).trackActivity(tracker).collect() == [1, 2, 3])
    }
    #expect(states == [false, true, false, true, false])
  }

  @Test("a consumer cancelled while waiting ends the activity")
  func sequenceCancelled() async {
    let states = await recordStates { tracker in
      let subject = AsyncPassthroughSubject<Int, Never>()
      let received = Gate()
      let subscription = subject.subscribe().trackActivity(tracker)
      let consumer = Task {
        for await _ in subscription { received.open() }
      }
      subject.send(1)
      await received.wait()
      #expect(tracker.activeCount == 1)
      consumer.cancel()
      await consumer.value
      #expect(subject.consumerCount == 0)
    }
    #expect(states == [false, true, false])
  }

  @Test("dropping the iterator ends the activity")
  func droppedIterator() async {
    let states = await recordStates { tracker in
      let subject = AsyncPassthroughSubject<Int, Never>()
      var iterator = subject.subscribe().trackActivity(tracker).makeAsyncIterator() as Optional
      subject.send(1)
      #expect(await iterator?.next() == 1)
      #expect(tracker.activeCount == 1)
      iterator = nil
      #expect(tracker.activeCount == 0)
      #expect(subject.consumerCount == 0)
    }
    #expect(states == [false, true, false])
  }

  @Test("breaking out of the loop ends the activity")
  func breakOut() async {
    let states = await recordStates { tracker in
      let subject = AsyncPassthroughSubject<Int, Never>()
      let subscription = subject.subscribe()
      subject.send(1)
      subject.send(2)
      for await value in subscription.trackActivity(tracker) {
        #expect(tracker.value)
        if value == 1 { break }
      }
      #expect(tracker.activeCount == 0)
    }
    #expect(states == [false, true, false])
  }

  @Test("each run of a cold sequence is its own activity: two consumers of one tracked stream count 2")
  func twoConsumers() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let tracker = ActivityTracker()
    // A cold sequence over the subject (a foreign wrapper: each run subscribes anew), whose runs are tracked one by
    // one; a hot tracked node (the subject itself, or `Signal(subject)`) counts one activity for all its consumers.
    let tracked = Signal(Foreign(subject)).trackActivity(tracker)
    var first = tracked.makeAsyncIterator()
    var second = tracked.makeAsyncIterator()
    subject.send(1)
    #expect(await first.next() == 1)
    #expect(await second.next() == 1)
    #expect(tracker.activeCount == 2)
    subject.finish()
    #expect(await first.next() == nil)
    #expect(tracker.activeCount == 1)
    #expect(tracker.value)
    #expect(await second.next() == nil)
    #expect(tracker.activeCount == 0)
  }

  @Test("trackActivity before retry: each attempt is an activity; after retry: one for all attempts")
  func retriedSignal() async throws {
    let attempts = Counter()
    let signal = Signal<Int, any Error> { emitter in
      let attempt = attempts.increment()
      emitter.send(attempt)
      if attempt % 3 != 0 { throw TestError(code: attempt) }
    }
    let perAttempt = try await recordStates { tracker throws in
      let values = try await signal.trackActivity(tracker).retry(2).collect()
      #expect(values == [1, 2, 3])
    }
    #expect(perAttempt == [false, true, false, true, false, true, false])
    let overall = try await recordStates { tracker throws in
      let values = try await signal.retry(2).trackActivity(tracker).collect()
      #expect(values == [4, 5, 6])
    }
    #expect(overall == [false, true, false])
  }

  @Test("a tracker is a property: Command(enabledIf: tracker.not()), combineLatest, map")
  func asProperty() async throws {
    let tracker = ActivityTracker()
    let save = Command(enabledIf: tracker.not()) { 42 }
    let page = AsyncCurrentValueSubject<Int, Never>(1)
    let combined: Property<(Bool, Int)> = combineLatest(tracker, page)
    let title: Property<String> = tracker.map { $0 ? "Loading…" : "Done" }
    // Without a type in context, the property forms win over the stream operators.
    let idle = tracker.not()
    let mapped = tracker.map { $0 ? 1 : 0 }
    let pair = combineLatest(tracker, idle)
    #expect(type(of: idle) == Property<Bool>.self)
    #expect(type(of: mapped) == Property<Int>.self)
    #expect(type(of: pair) == Property<(Bool, Bool)>.self)
    #expect(try await save.execute() == 42)

    let started = Gate()
    let release = Latch()
    let load = Task {
      try await tracker.track {
        started.open()
        try await release.pass()
      }
    }
    await started.wait()
    #expect(combined.value == (true, 1))
    #expect(title.value == "Loading…")
    #expect(save.isEnabled.value == false)
    await #expect(throws: CommandError<Never>.disabled) { try await save.execute() }
    release.open()
    try await load.value
    #expect(combined.value == (false, 1))
    #expect(save.isEnabled.value)
    #expect(try await save.execute() == 42)
  }

  @Test("iterating the tracker yields the current state first")
  func iterationStartsWithCurrent() async {
    let tracker = ActivityTracker()
    let subject = AsyncPassthroughSubject<Int, Never>()
    var iterator = subject.subscribe().trackActivity(tracker).makeAsyncIterator()
    subject.send(1)
    _ = await iterator.next()
    var states = tracker.makeAsyncIterator()
    #expect(await states.next() == true)
    subject.finish()
    _ = await iterator.next()
    #expect(await states.next() == false)
  }

  @Test("reading value is tracked by Observation; an onChange handler may read the tracker and start activity")
  func observation() async {
    let tracker = ActivityTracker()
    let fired = Log<(Bool, Int)>()
    let nested = Locked<ActivityToken?>(nil)
    withObservationTracking {
      _ = tracker.value
    } onChange: {
      // Runs synchronously inside the change (before it): neither a read nor a new activity may deadlock.
      fired.append((tracker.value, tracker.activeCount))
      if fired.all.count == 1 {
        let token = tracker.begin()
        nested.withLock { $0 = token }
      }
    }
    await tracker.track { #expect(tracker.activeCount == 2) }
    // Every call saw the state before the change. (Observation may call the handler a second time for the
    // nested change, which happens while the handler is still registered.)
    #expect(fired.all.allSatisfy { $0 == (false, 0) })
    #expect((1...2).contains(fired.all.count))
    #expect(tracker.activeCount == 1)
    nested.withLock { $0 = nil }
    #expect(tracker.activeCount == 0)
  }

  @Test("a token ends once: end() then release, or release alone")
  func tokenEndsOnce() {
    let tracker = ActivityTracker()
    let token = tracker.begin()
    token.end()
    token.end()
    #expect(tracker.activeCount == 0)
    do {
      let unended = tracker.begin()
      _ = unended
      #expect(tracker.activeCount == 1)
    }
    #expect(tracker.activeCount == 0)
  }
}

@Suite("ActivityTracker under concurrency")
struct ActivityTrackerConcurrencyTests {
  /// How one tracked consumer ends.
  enum Ending: CaseIterable {
    case finish, fail, breakOut, cancelWhileWaiting, cancelAnytime
  }

  @Test("8 concurrent tracked sequences with seeded random endings always return to false with count 0")
  func randomEndings() async {
    for round in 0..<200 {
      var random = SplitMix64(seed: UInt64(round))
      let states = await recordStates { tracker in
        var consumers: [(task: Task<Void, Never>, ending: Ending, reached: Gate)] = []
        for index in 0..<8 {
          let ending = Ending.allCases.randomElement(using: &random)!
          let count = random.int(in: 1..<4)
          let reached = Gate()
          let source = Signal<Int, any Error> { emitter in
            for value in 0..<count { await emitter.send(value) }
            switch ending {
            case .finish: return
            case .fail: throw TestError(code: index)
            case .breakOut, .cancelWhileWaiting, .cancelAnytime: await waitForCancellation()
            }
          }
          let task = Task {
            var received = 0
            do {
              for try await value in source.trackActivity(tracker) {
                // A tracked call nested in a tracked sequence.
                received += await tracker.track { value == received ? 1 : 0 }
                if received == count {
                  reached.open()
                  if ending == .breakOut { break }
                }
              }
            } catch {}
          }
          consumers.append((task, ending, reached))
        }
        for (task, ending, reached) in consumers.shuffled(using: &random) {
          switch ending {
          case .cancelWhileWaiting:
            await reached.wait()
            task.cancel()
          case .cancelAnytime: task.cancel()
          case .finish, .fail, .breakOut: break
          }
        }
        for consumer in consumers { await consumer.task.value }
      }
      guard let states else { return }
      #expect(states.first == false, "round \(round)")
      #expect(states.last == false, "round \(round)")
      #expect(zip(states, states.dropFirst()).allSatisfy { $0 != $1 }, "round \(round): \(states)")
    }
  }
}

/// The view model of ``ActivityTracker``'s documentation (RxExample's GitHubSignup): one tracker for the
/// username checks and the sign-up, and a sign-up command disabled while anything loads.
private actor SignupViewModel {
  nonisolated let username = AsyncCurrentValueSubject<String, Never>("")
  nonisolated let loading = ActivityTracker()
  nonisolated let usernameAvailable: Property<Bool>
  nonisolated let signUp: Command<Void, Bool, any Error>

  init(api: SignupAPI) {
    let (username, loading) = (username, loading)
    let checks = username.subscribe().flatMapLatest { name in
      Signal.future { await api.isAvailable(name) }.trackActivity(loading)
    }
    usernameAvailable = Property(initial: false, then: checks)
    // Disabled while a check or the sign-up itself runs.
    signUp = Command(enabledIf: loading.not()) { try await loading.track { try await api.signUp() } }
  }
}

/// A fake API whose calls each wait for the test to answer them, in order.
private final class SignupAPI: Sendable {
  let calls = AsyncPassthroughSubject<String, Never>()
  let answers = Locked<[CheckedContinuation<Bool, Never>]>([])

  func isAvailable(_ name: String) async -> Bool { await call("check \(name)") }
  func signUp() async throws -> Bool { await call("sign up") }

  private func call(_ name: String) async -> Bool {
    await withCheckedContinuation { continuation in
      answers.withLock { $0.append(continuation) }
      calls.send(name)
    }
  }

  func answer(_ value: Bool) {
    let first = answers.withLock { $0.removeFirst() }
    first.resume(returning: value)
  }
}

@Suite("ActivityTracker in a ported screen")
struct ActivityTrackerScreenTests {
  @Test("GitHubSignup: a username check and the sign-up both drive the one tracker and the command's enabled state")
  func signup() async throws {
    let api = SignupAPI()
    let calls = api.calls.subscribe()
    var callNames = calls.makeAsyncIterator()
    let viewModel = SignupViewModel(api: api)
    let states = viewModel.loading.subscribe()
    var loading = states.makeAsyncIterator()
    // The check of the current username started in place, inside the view model's init (RxSwift's subscribe):
    // the tracker is already loading when the test subscribes to it.
    #expect(await loading.next() == true)
    #expect(await callNames.next() == "check ")
    #expect(viewModel.signUp.isEnabled.value == false)
    #expect(await Outcome { try await viewModel.signUp.execute() } == .disabled)
    api.answer(true)
    #expect(await loading.next() == false)
    #expect(viewModel.signUp.isEnabled.value)

    let signingUp = Task { try await viewModel.signUp.execute() }
    #expect(await callNames.next() == "sign up")
    #expect(await loading.next() == true)
    api.answer(true)
    #expect(try await signingUp.value)
    #expect(await loading.next() == false)
    #expect(viewModel.loading.activeCount == 0)
  }
}
