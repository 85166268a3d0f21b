import AsyncReactive
import AsyncReactiveTesting
import Testing

/// RxExample's GitHubSignup view model, ported 1:1 as a reusable view model is written in Swift: over any sequence.
/// Whatever the inputs' static type, subjects given to it are observed inside their sends.
private struct GenericSignupViewModel: Sendable {
  let signups: Signal<String, Never>

  init(
    username: some AsyncSequence<String, Never> & Sendable,
    password: some AsyncSequence<String, Never> & Sendable,
    taps: some AsyncSequence<Void, Never> & Sendable
  ) {
    signups = taps.withLatestFrom(combineLatest(username, password)) { $1 }.map { "\($0):\($1)" }
  }
}

/// Every operator with several inputs, over inputs constrained only as a generic view model constrains them: each
/// line compiles as written (no `AsyncIterator: SendableMetatype` clause), and records what the concrete form does.
private func everyInputForm(
  _ a: some AsyncSequence<Int, Never> & Sendable, _ b: some AsyncSequence<Int, Never> & Sendable
) -> [Signal<String, Never>] {
  [
    a.withLatestFrom(b).map { "withLatestFrom \($0)+\($1)" },
    combineLatest(a, b).map { "combineLatest \($0)+\($1)" },
    merge(a, b).map { "merge \($0)" },
    zip(a, b).map { "zip \($0)+\($1)" },
    b.sample(on: a).map { "sample \($0)" },
    b.take(until: a).map { "take(until:) \($0)" },
    // The library's operators on the inner: the standard library's `map` over a `some AsyncSequence` would make a
    // foreign sequence (its closure is `async`), which a task reads.
    a.flatMapLatest { x in b.eraseToSignal().map { "flatMapLatest \(x)+\($0)" } },
    a.flatMap(.merge) { x in b.eraseToSignal().prefix(1).map { "flatMap \(x)+\($0)" } },
  ]
}

/// What a view model declared with hot inputs does with its trigger (CleanArchitectureRxSwift's posts screen).
private struct PostsViewModel: Sendable {
  let posts: Signal<[String], Never>

  init(trigger: HotSignal<Void, Never>) {
    posts = trigger.map { ["first post"] }
  }
}

@Suite("OneEngine edges: generic inputs, foreign sequences, back-pressure, constants and released subjects")
struct OneEngineEdgeTests {
  @Test("a generic view model given subjects pairs the tap with the password sent just before it, every time")
  func genericViewModelBehavesAsConcrete() {
    for _ in 0..<20 {
      let clock = TestClock()
      let username = AsyncCurrentValueSubject<String, Never>("swift")
      let password = AsyncCurrentValueSubject<String, Never>("secret")
      let taps = AsyncPassthroughSubject<Void, Never>()
      let viewModel = GenericSignupViewModel(username: username, password: password, taps: taps)
      let recorder = Recorder(viewModel.signups, clock: clock)
      password.send("secret2")
      taps.send(())
      // Recorded inside the tap's send: the generic chain is the hot graph the concrete types would build.
      #expect(recorder.values.map(\.value) == ["swift:secret2"])
      recorder.cancel()
    }
  }

  @Test("every operator with several inputs takes generic inputs as written and evaluates subjects inside send")
  func genericInputsCompileAndStayHot() {
    let clock = TestClock()
    let a = AsyncPassthroughSubject<Int, Never>()
    let b = AsyncCurrentValueSubject<Int, Never>(0)
    let recorders = everyInputForm(a, b).map { Recorder($0, clock: clock) }
    a.send(1)
    b.send(10)
    a.send(2)
    let recorded = recorders.map { $0.values.map(\.value) }
    #expect(
      recorded == [
        ["withLatestFrom 1+0", "withLatestFrom 2+10"],
        ["combineLatest 1+0", "combineLatest 1+10", "combineLatest 2+10"],
        ["merge 0", "merge 1", "merge 10", "merge 2"],
        ["zip 1+0", "zip 2+10"],
        ["sample 0", "sample 10"],
        ["take(until:) 0"],
        ["flatMapLatest 1+0", "flatMapLatest 1+10", "flatMapLatest 2+10"],
        ["flatMap 1+0", "flatMap 2+10"],
      ])
    #expect(recorders[5].end?.value == .finished)
    for recorder in recorders { recorder.cancel() }
  }

  @Test("a sequence of your own that wraps a subject without conforming to HotSequence is foreign: read by a pump")
  func hotLookingForeignSequenceIsForeign() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let a = AsyncPassthroughSubject<Int, Never>()
      let b = AsyncPassthroughSubject<Int, Never>()
      let hot = Recorder(combineLatest(a, b).map { $0 * 10 + $1 }, clock: clock)
      let foreign = Recorder(combineLatest(Foreign(a), b).map { $0 * 10 + $1 }, clock: clock)
      await clock.settle()
      a.send(1)
      b.send(2)
      a.send(3)
      // The subjects' graph has run inside the sends; the wrapper's values wait for its pump task.
      #expect(hot.values.map(\.value) == [12, 32])
      #expect(foreign.values.map(\.value) == [])
      await clock.settle()
      // The pump hands over what the wrapper read, at the moment it reads it: by then `b` holds 2.
      #expect(foreign.values.map(\.value) == [12, 32])
      hot.cancel()
      foreign.cancel()
    }
  }

  @Test("a foreign sequence erased to a Signal is cold: each consumer iterates it once more")
  func foreignErasureIsCold() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let erased = Foreign(subject).eraseToSignal().map { $0 + 1 }
    var first = erased.makeAsyncIterator()
    var second = erased.makeAsyncIterator()
    // Each run made its own iterator of the wrapper, which subscribed to the subject: two consumers, not one shared.
    #expect(subject.consumerCount == 2)
    subject.send(1)
    subject.finish()
    #expect(await first.next() == 2)
    #expect(await second.next() == 2)
  }

  @Test("observe, bind and Property(initial:then:) of a subject through a generic parameter keep no task while idle")
  func genericObservationsAreTaskFree() async {
    /// What a generic helper does with the sequence it is given.
    func follow(
      _ texts: some AsyncSequence<String, Never> & Sendable, into log: Log<String>, in lifetime: Lifetime
    ) -> (ObservationHandle, Property<String>) {
      (texts.observe(in: lifetime) { log.append($0) }, Property(initial: "", then: texts))
    }
    let scope = ResourceScope()
    await ResourceScope.$current.withValue(scope) {
      let lifetime = Lifetime()
      let subject = AsyncPassthroughSubject<String, Never>()
      let target = AsyncCurrentValueSubject<String, Never>("")
      let log = Log<String>()
      let (observation, property) = follow(subject, into: log, in: lifetime)
      subject.eraseToSignal().bind(to: target, in: lifetime)
      // Sinks and consumers, no task: the generic and erased forms took the hot paths.
      #expect(scope.live.keys.allSatisfy { !$0.hasPrefix("task") })
      subject.send("a")
      // Inside the send: the property and the bound subject hold the value already.
      #expect(property.value == "a")
      #expect(target.value == "a")
      lifetime.cancel()
      await observation.value
    }
  }

  @Test("a cold chain of five operators to one consumer keeps no task: the consumer's own task reads it")
  func coldChainKeepsNoTask() async {
    // What the chain computes, by hand.
    var expected: [Int] = []
    var total = 0
    for value in 1...1_000 where value % 2 == 0 {
      total += value
      if expected.last != total * 3 { expected.append(total * 3) }
    }
    let scope = ResourceScope()
    let (fromSequence, fromStream, tasks) = await ResourceScope.$current.withValue(scope) {
      () -> ([Int], [Int], Int) in
      var mostTasks = 0
      func read(_ source: Signal<Int, Never>) async -> [Int] {
        var values: [Int] = []
        // Split, with its types: a chain in a local function inside a closure is type-checked with the closure, where
        // Swift's solver slows down sharply with every overload of each operator (seconds instead of milliseconds).
        let evens: Signal<Int, Never> = source.map { $0 + 1 }.filter { $0 % 2 == 0 }
        let chain: Signal<Int, Never> = evens.scan(0, +).removeDuplicates().map { $0 * 3 }
        for await value in chain {
          values.append(value)
          mostTasks = max(mostTasks, scope.live.keys.filter { $0.hasPrefix("task") }.count)
        }
        return values
      }
      let (stream, input) = AsyncStream.makeStream(of: Int.self)
      for value in 0..<1_000 { input.yield(value) }
      input.finish()
      return (await read(Signal(0..<1_000)), await read(Signal(stream)), mostTasks)
    }
    #expect(fromSequence == expected)
    #expect(fromStream == expected)
    #expect(tasks == 0)
  }

  @Test("a fast cold producer feeding a slow consumer holds at most two pacing batches, over 1,000,000 values")
  func backPressureBoundsWhatWaits() async {
    let count = 1_000_000
    let pauses = 10
    let clock = TestClock()
    let produced = Counter()
    let signal = Signal<Int, Never> { emitter in
      for value in 0..<count {
        await emitter.send(value)
        produced.increment()
      }
    }
    let (received, inOrder, mostAhead) = await clock.withVirtualTime { () -> (Int, Bool, Int) in
      let consumer = Task(executorPreference: TaskExecutorContext.preferred) { () -> (Int, Bool) in
        var next = 0
        var inOrder = true
        for await value in signal {
          inOrder = inOrder && value == next
          next += 1
          // A consumer slower than its producer: it waits on the clock every tenth of the way.
          if next % (count / pauses) == 0 { try? await clock.sleep(for: .seconds(1)) }
        }
        return (next, inOrder)
      }
      var mostAhead = 0
      for pause in 1...pauses {
        // Everything that can run has run: the producer is as far ahead of the sleeping consumer as it may be.
        await clock.settle()
        mostAhead = max(mostAhead, produced.value - pause * (count / pauses))
        await clock.advance(by: .seconds(1))
      }
      let (received, inOrder) = await consumer.value
      return (received, inOrder, mostAhead)
    }
    #expect(received == count)
    #expect(inOrder)
    // What the consumer took in its last batch plus what the producer queued since: at most two batches.
    #expect(mostAhead <= 2 * ColdPacing.limit)
    // And the producer did run ahead, as far as the bound let it: the bound is what held it back.
    #expect(mostAhead >= ColdPacing.limit)
  }

  @Test("a hot source never waits for a slow consumer: its sends return at once, the consumer buffers")
  func hotSourcesNeverWait() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    var iterator = subject.map { $0 * 2 }.makeAsyncIterator()
    for value in 0..<10_000 { subject.send(value) }
    subject.finish()
    var received: [Int] = []
    while let value = await iterator.next() { received.append(value) }
    #expect(received == (0..<10_000).map { $0 * 2 })
  }

  @Test("constants as inputs: a view model declared with a HotSignal input accepts Signal.just, .never and .empty")
  func constantsAsHotInputs() async {
    let clock = TestClock()
    let once = Recorder(PostsViewModel(trigger: HotSignal(Signal.just(()))).posts, clock: clock)
    #expect(await once.waitForEnd()?.value == .finished)
    #expect(once.values.map(\.value) == [["first post"]])
    let erased = Recorder(PostsViewModel(trigger: Signal.just(()).eraseToHotSignal()).posts, clock: clock)
    #expect(await erased.waitForEnd()?.value == .finished)
    #expect(erased.values.map(\.value) == [["first post"]])
    let empty = Recorder(PostsViewModel(trigger: HotSignal(Signal.empty)).posts, clock: clock)
    #expect(await empty.waitForEnd()?.value == .finished)
    #expect(empty.values.isEmpty)
    let never = Recorder(PostsViewModel(trigger: HotSignal(Signal.never)).posts, clock: clock)
    #expect(never.values.isEmpty && never.end == nil)
    never.cancel()
  }

  @Test("a released subject kept only in a hotSignal: the observer gets the end, and debug builds report it by name")
  func releasedSubjectIsReported() async {
    let reports = Log<String>()
    let clock = TestClock()
    let report = DebugReport.Handler { reports.append($0) }
    let recorder = DebugReport.$handler.withValue(report) {
      // What a default argument `= AsyncCurrentValueSubject<Void, Never>(()).hotSignal` does: nothing keeps the
      // subject, so it has finished by the time anything observes it.
      let trigger = AsyncCurrentValueSubject<Void, Never>(()).hotSignal
      return Recorder(PostsViewModel(trigger: trigger).posts, clock: clock)
    }
    #expect(recorder.values.isEmpty)
    #expect(recorder.end?.value == .finished)
    #if DEBUG
      #expect(reports.all.count == 1)
      #expect(reports.all.first?.contains("AsyncCurrentValueSubject<(), Never>") == true)
    #else
      #expect(reports.all.isEmpty)
    #endif
  }
}
