import AsyncReactive
import AsyncReactiveTesting
import Synchronization
import Testing

/// Observations and bindings of hot sources: a sink plus a drain task that lives only while values wait.
@Suite("Observing hot sources: no task while idle")
struct HotObservationTests {
  /// Runs `body` with its resources counted in a scope of their own (tests run in parallel).
  func counted<R>(_ body: (ResourceScope) async throws -> R) async rethrows -> R {
    let scope = ResourceScope()
    return try await ResourceScope.$current.withValue(scope) { try await body(scope) }
  }

  @Test("an idle observe(in:) of a subject is a consumer and no task; a burst starts one drain that then ends")
  func idleObservationKeepsNoTask() async {
    await counted { scope in
      let lifetime = Lifetime()
      let subject = AsyncPassthroughSubject<Int, Never>()
      let log = Log<Int>()
      let seen = Gate()
      let observation = subject.observe(in: lifetime) { value in
        log.append(value)
        if value == 3 { seen.open() }
      }
      #expect(scope.live == ["subject consumer": 1])
      #expect(subject.consumerCount == 1)
      subject.send(1)
      subject.send(2)
      subject.send(3)
      await seen.wait()
      #expect(log.all == [1, 2, 3])
      await scope.waitUntil(atMost: 1)  // the drain ended: only the observation itself is left
      #expect(scope.live == ["subject consumer": 1])
      lifetime.cancel()
      await observation.value
      #expect(scope.total == 0)
      #expect(subject.consumerCount == 0)
    }
  }

  @Test("values sent from several threads at once are each handled once, one at a time, in the subject's order")
  func concurrentSendsAreSerial() async {
    for _ in 0..<50 {
      let lifetime = Lifetime()
      let subject = AsyncPassthroughSubject<Int, Never>()
      let order = Log<Int>()
      let handled = Log<Int>()
      let busy = Atomic<Int>(0)
      let overlaps = Atomic<Int>(0)
      let done = Gate()
      // The subject's own order, recorded inside send by a sink registered first.
      subject.sink(in: lifetime) { order.append($0) }
      subject.observe(in: lifetime) { value in
        if busy.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
        handled.append(value)
        busy.subtract(1, ordering: .acquiringAndReleasing)
        if handled.all.count == 400 { done.open() }
      }
      await withTaskGroup(of: Void.self) { group in
        for sender in 0..<4 {
          group.addTask { for index in 0..<100 { subject.send(sender * 1_000 + index) } }
        }
      }
      await done.wait()
      #expect(handled.all == order.all)
      #expect(overlaps.load(ordering: .relaxed) == 0)
      lifetime.cancel()
    }
  }

  @Test("once the lifetime ended, a value sent is never handled and the sink is gone, 1,000 rounds")
  func nothingAfterTheLifetimeEnds() async {
    for _ in 0..<1_000 {
      let lifetime = Lifetime()
      let subject = AsyncPassthroughSubject<Int, Never>()
      let log = Log<Int>()
      let observation = subject.observe(in: lifetime) { log.append($0) }
      subject.send(1)  // may or may not be handled before the lifetime ends
      lifetime.cancel()
      subject.send(2)
      await observation.value
      #expect(!log.all.contains(2))
      #expect(subject.consumerCount == 0)
    }
  }

  @Test("onFinish runs after the last value, then the observation is over; onFailure gets the typed error")
  func endsAreHandledAfterTheValues() async {
    let lifetime = Lifetime()
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let log = Log<String>()
    let observation = subject.observe(in: lifetime) {
      log.append("value \($0)")
    } onFailure: {
      log.append("failure \($0.code)")
    } onFinish: {
      log.append("finished")
    }
    subject.send(1)
    subject.send(2)
    subject.fail(TestError(code: 7))
    await observation.value
    #expect(log.all == ["value 1", "value 2", "failure 7"])

    let finishing = AsyncPassthroughSubject<Int, Never>()
    let finished = Log<String>()
    let second = finishing.observe(in: lifetime) {
      finished.append("value \($0)")
    } onFinish: {
      finished.append("finished")
    }
    finishing.send(5)
    finishing.finish()
    await second.value
    #expect(finished.all == ["value 5", "finished"])
    #expect(lifetime.observationCount == 0)  // both left the lifetime when they ended
  }

  @Test("bind(to: subject) writes inside the source's send: the target holds the value when send returns")
  func bindToSubjectIsSynchronous() async {
    await counted { scope in
      let lifetime = Lifetime()
      let text = AsyncPassthroughSubject<String, Never>()
      let query = AsyncCurrentValueSubject<String, Never>("")
      text.bind(to: query, in: lifetime)
      #expect(scope.live == ["subject consumer": 1])
      for round in 0..<1_000 {
        text.send("q\(round)")
        #expect(query.value == "q\(round)")  // no await in between
      }
      lifetime.cancel()
      text.send("late")
      #expect(query.value == "q999")
      #expect(scope.total == 0)
    }
  }

  @Test("bind(to: command) admits or refuses each tap inside the send; the binding keeps the command")
  func bindToCommandIsSynchronous() async throws {
    let lifetime = Lifetime()
    let taps = AsyncPassthroughSubject<Void, Never>()
    let release = Gate()
    let command = Command<Void, Int, Never> {
      await release.wait()
      return 1
    }
    let refused = Counter()
    command.disabledErrors.sink(in: lifetime) { refused.increment() }
    let binding = taps.bind(to: command, in: lifetime)
    taps.send()
    #expect(command.executing.value)  // admitted and started during the send
    taps.send()
    #expect(refused.value == 1)  // refused during the send (.reject while the first runs)
    release.open()
    lifetime.cancel()
    await binding.value

    let second = Lifetime()
    var kept: Command<Void, Int, Never>? = Command { 2 }
    let keptBinding = taps.bind(to: kept!, in: second)
    weak let weakCommand = kept
    kept = nil
    #expect(weakCommand != nil)  // the binding keeps it while it lives (RxSwift's rx.action)
    second.cancel()
    await keptBinding.value
    #expect(weakCommand == nil)  // the lifetime ended: the binding let go of it
    #expect(taps.consumerCount == 0)
  }

  @Test("bind(to: object, keyPath) runs on the caller's actor, holds its target weakly, ends when it is gone")
  @MainActor
  func keyPathBindingRunsOnTheCallersActor() async {
    let lifetime = Lifetime()
    let text = AsyncCurrentValueSubject<String, Never>("a")
    var label: FakeLabel? = FakeLabel()
    let binding = text.bind(to: label!, \.text, in: lifetime)
    #expect(await label!.changes.wait(count: 1) == ["a"])  // FakeLabel asserts the main actor
    text.value = "b"
    #expect(await label!.changes.wait(count: 2) == ["a", "b"])
    label = nil
    text.value = "c"
    await binding.value
    #expect(text.consumerCount == 0)
    #expect(!lifetime.hasEnded)
  }

  @Test("an actor's observe(in:) over a hot source runs on the actor, in order, keeping no task while idle")
  func actorObserves() async {
    await counted { scope in
      let lifetime = Lifetime()
      let text = AsyncPassthroughSubject<String, Never>()
      let model = TextModel()
      let observation = await model.follow(text, in: lifetime)
      #expect(scope.live == ["subject consumer": 1])
      for value in ["a", "b", "c"] { text.send(value) }
      #expect(await model.waitFor(count: 3) == ["a", "b", "c"])
      await scope.waitUntil(atMost: 1)  // the drain ended: only the observation itself is left
      #expect(scope.live == ["subject consumer": 1])
      lifetime.cancel()
      await observation.value
      #expect(text.consumerCount == 0)
      #expect(scope.total == 0)
    }
  }
}

private actor TextModel {
  var values: [String] = []
  var waiters: [(Int, CheckedContinuation<Void, Never>)] = []

  func append(_ value: String) {
    values.append(value)
    let ready = waiters.filter { values.count >= $0.0 }
    waiters.removeAll { values.count >= $0.0 }
    for (_, waiter) in ready { waiter.resume() }
  }

  /// Appends each text; the closure runs isolated to this actor, the caller of `observe(in:)`.
  func follow(_ text: AsyncPassthroughSubject<String, Never>, in lifetime: Lifetime) -> ObservationHandle {
    text.observe(in: lifetime) { self.append($0) }
  }

  func waitFor(count: Int) async -> [String] {
    if values.count < count { await withCheckedContinuation { waiters.append((count, $0)) } }
    return values
  }
}
