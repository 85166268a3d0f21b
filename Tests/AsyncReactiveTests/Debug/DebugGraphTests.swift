import AsyncReactive
import AsyncReactiveTesting
import Testing

/// `debugGraph()`: the exact text, DOT and Mermaid pictures of live graphs.
@Suite("debugGraph: a picture of the live graph")
struct DebugGraphTests {
  static let file = "AsyncReactiveTests/DebugGraphTests.swift"

  @Test("a subject, a map and two consumers: operator, site, state and consumers, exact")
  func subjectMapTwoConsumers() async {
    let lifetime = Lifetime()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let line = #line + 1
    let doubled = subject.map { $0 * 2 }
    doubled.sink(in: lifetime) { _ in }
    let iterator = doubled.makeAsyncIterator()
    subject.send(1)
    let expected = """
      #1 map → Int (\(Self.file):\(line)) · connected · observers: sink · 1 iterator, 1 queued
      └─ #2 AsyncPassthroughSubject → Int · observers: #1
      """
    #expect(doubled.debugGraph().description == expected)
    #expect(subject.debugGraph().description == expected)  // the same picture from the source
    withExtendedLifetime(iterator) {}
    lifetime.cancel()
  }

  @Test("the signup form: combineLatest over two maps of current values, and a tap with the latest form")
  func signupForm() async {
    let lifetime = Lifetime()
    let username = AsyncCurrentValueSubject<String, Never>("")
    let password = AsyncCurrentValueSubject<String, Never>("")
    let taps = AsyncPassthroughSubject<Void, Never>()
    let line = #line + 1
    let usernameValid = username.map { $0.count >= 3 }
    let passwordValid = password.map { $0.count >= 8 }
    let isEnabled = combineLatest(usernameValid, passwordValid).map { $0 && $1 }.removeDuplicates()
    let submits = taps.withLatestFrom(isEnabled)
    isEnabled.sink(in: lifetime) { _ in }
    submits.sink(in: lifetime) { _ in }
    username.send("ann")
    // From the tap's node: a property read by withLatestFrom is read, not observed, so the picture from
    // `isEnabled` does not reach `submits`.
    let graph = submits.debugGraph()
    #expect(
      graph.description == """
        #1 withLatestFrom → ((), Bool) (\(Self.file):\(line + 3)) · connected · observers: sink
        ├─ #2 AsyncPassthroughSubject → () · observers: #1
        └─ #3 removeDuplicates → Bool (\(Self.file):\(line + 2)) · connected · current: false · observers: sink
           └─ #4 map → Bool (\(Self.file):\(line + 2)) · connected · current: false · observers: #3
              └─ #5 combineLatest → (Bool, Bool) (\(Self.file):\(line + 2)) · connected · current: (true, false) · observers: #4
                 ├─ #6 map → Bool (\(Self.file):\(line)) · connected · current: true · observers: #5
                 │  └─ #7 AsyncCurrentValueSubject → String · current: "ann" · observers: #6
                 └─ #8 map → Bool (\(Self.file):\(line + 1)) · connected · current: false · observers: #5
                    └─ #9 AsyncCurrentValueSubject → String · current: "" · observers: #8
        """)
    #expect(graph.nodeCount == 9)
    #expect(graph.edgeCount == 8)
    lifetime.cancel()
  }

  @Test("a node read by two others appears once; the text is the same on every call")
  func sharedNodeAppearsOnce() async {
    let lifetime = Lifetime()
    let query = AsyncCurrentValueSubject<String, Never>("swift")
    let line = #line + 1
    let trimmed = query.map { $0.lowercased() }
    let counts = trimmed.map { $0.count }
    let empties = trimmed.filter { $0.isEmpty }
    counts.sink(in: lifetime) { _ in }
    empties.sink(in: lifetime) { _ in }
    let text = query.debugGraph().description
    #expect(
      text == """
        #1 map → Int (\(Self.file):\(line + 1)) · connected · current: 5 · observers: sink
        └─ #2 map → String (\(Self.file):\(line)) · connected · current: "swift" · observers: #1, #4
           └─ #3 AsyncCurrentValueSubject → String · current: "swift" · observers: #2
        #4 filter → String (\(Self.file):\(line + 2)) · connected · observers: sink
        └─ #2 (above)
        """)
    for _ in 0..<10 { #expect(query.debugGraph().description == text) }
    lifetime.cancel()
  }

  @Test("a node whose consumers left is not connected; an ended node says how it ended; debug's name is shown")
  func stateAndLabel() async {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let line = #line + 1
    let named = subject.debug("numbers", sink: DebugSink { _ in }).map { $0 + 1 }
    #expect(
      named.debugGraph().description == """
        #1 map → Int, fails with TestError (\(Self.file):\(line)) · not connected
        └─ #2 debug "numbers" → Int, fails with TestError (\(Self.file):\(line)) · not connected
           └─ #3 AsyncPassthroughSubject → Int, fails with TestError
        """)
    subject.fail(TestError(code: 7))
    #expect(
      subject.debugGraph().description == """
        #1 AsyncPassthroughSubject → Int, fails with TestError · failed: TestError(code: 7)
        """)
  }

  @Test("a command's executing, observed: a property over the command's state")
  func commandExecuting() async throws {
    let lifetime = Lifetime()
    let command = Command<Int, Int, Never> { $0 * 2 }
    let line = #line + 1
    let spinnerHidden = command.executing.not()
    spinnerHidden.sink(in: lifetime) { _ in }
    _ = try await command.execute(1)
    #expect(
      spinnerHidden.debugGraph().description == """
        #1 map → Bool (\(Self.file):\(line)) · connected · current: true · observers: sink
        └─ #2 AsyncCurrentValueSubject → Bool · current: false · observers: #1
        """)
    lifetime.cancel()
  }

  @Test("a cold Signal chain while a Recorder records it: a node per operator of this run, gone with the run")
  func coldChainWhileIterated() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let gate = AsyncStream.makeStream(of: Void.self)
      let line = #line + 1
      let typed = Signal<Int, Never> { emitter in
        await emitter.send(1)
        await emitter.send(2)
        for await _ in gate.stream {}
      }
      .map { $0 + 1 }
      .removeDuplicates()
      .debounce(for: .seconds(1), clock: clock)
      let recorder = Recorder(typed, clock: clock)
      await clock.settle()
      #expect(
        recorder.debugGraph()?.description == """
          #1 debounce → Int (\(Self.file):\(line + 7)) · connected · timer due t=1s · observers: sink
          └─ #2 removeDuplicates → Int (\(Self.file):\(line + 6)) · connected · observers: #1
             └─ #3 map → Int (\(Self.file):\(line + 5)) · connected · observers: #2
                └─ #4 Signal emitter → Int · connected · observers: #3
          """)
      await clock.advance(by: .seconds(1))
      _ = await recorder.waitForValues(count: 1)
      #expect(recorder.values == [Timed(3, at: .seconds(1))])
      #expect(
        recorder.debugGraph()?.description.hasPrefix(
          "#1 debounce → Int (\(Self.file):\(line + 7)) · connected · no timer") == true)
      // A second recording is a second run: a graph of its own.
      let second = Recorder(typed, clock: clock)
      await clock.settle()
      #expect(second.debugGraph()?.nodeCount == 4)
      gate.continuation.finish()
      await recorder.waitForEnd()
      await second.waitForEnd()
      #expect(recorder.debugGraph() == nil)  // the run is over: its nodes are gone
    }
  }

  @Test("a cold chain over a foreign sequence: the pump that reads the source, and each operator")
  func coldChainOverForeignSequence() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
      let line = #line + 1
      let chain = Signal(stream).map { $0 * 10 }.filter { $0 > 10 }
      let recorder = Recorder(chain, clock: clock)
      continuation.yield(1)
      continuation.yield(2)
      _ = await recorder.waitForValues(count: 1)
      #expect(
        recorder.debugGraph()?.description == """
          #1 filter → Int (\(Self.file):\(line)) · connected · observers: sink
          └─ #2 map → Int (\(Self.file):\(line)) · connected · observers: #1
             └─ #3 pump → Int · connected · observers: #2
          """)
      continuation.finish()
      await recorder.waitForEnd()
      #expect(recorder.values.map(\.value) == [20])
      #expect(Recorder(AsyncStream<Int> { $0.finish() }, clock: clock).debugGraph() == nil)  // not a Signal
    }
  }

  @Test("a lifetime draws every graph it observes; an observation draws its own; both let go when they end")
  func lifetimeAndObservationGraphs() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let lifetime = Lifetime()
      let username = AsyncCurrentValueSubject<String, Never>("")
      let password = AsyncCurrentValueSubject<String, Never>("")
      let title = AsyncPassthroughSubject<String, Never>()
      let buttonEnabled = AsyncCurrentValueSubject<Bool, Never>(false)
      let line = #line + 1
      let isEnabled = combineLatest(username.map { !$0.isEmpty }, password.map { $0.count >= 8 }).map { $0 && $1 }
      isEnabled.bind(to: buttonEnabled, in: lifetime)
      title.sink(in: lifetime) { _ in }
      let observation = username.observe(in: lifetime) { _ in }
      await clock.settle()  // the observation's drain of the current value is over
      let screen = """
        #1 map → Bool (\(Self.file):\(line)) · connected · current: false · observers: bind(to:in:) \
        (\(Self.file):\(line + 1))
        └─ #2 combineLatest → (Bool, Bool) (\(Self.file):\(line)) · connected · current: (false, false) · observers: #1
           ├─ #3 map → Bool (\(Self.file):\(line)) · connected · current: false · observers: #2
           │  └─ #4 AsyncCurrentValueSubject → String · current: "" · observers: #3, observe(in:) \
        (\(Self.file):\(line + 3))
           └─ #5 map → Bool (\(Self.file):\(line)) · connected · current: false · observers: #2
              └─ #6 AsyncCurrentValueSubject → String · current: "" · observers: #5
        """
      // The lifetime: every graph it observes, in the order it started observing them.
      #expect(lifetime.debugGraph().description == screen + "\n#7 AsyncPassthroughSubject → String · observers: sink")
      // The observation: the graph around the username it observes.
      #expect(observation.debugGraph()?.description == screen)
      // An observation of a cold sequence is a task reading a run of its own: nothing to draw from the handle.
      let coldObservation = AsyncStream<Int> { _ in }.observe(in: lifetime) { _ in }
      #expect(coldObservation.debugGraph() == nil)
      lifetime.cancel()
      #expect(lifetime.debugGraph().nodeCount == 0)
      #expect(observation.debugGraph() == nil)
    }
  }

  @Test("a flatMapLatest with a running inner, then a concatMap with inners waiting")
  func flattenWithRunningInner() async {
    let lifetime = Lifetime()
    let query = AsyncPassthroughSubject<String, Never>()
    let line = #line + 1
    let results = query.flatMapLatest { text in Signal<Int, Never>.never.prepend(text.count) }
    let queued = query.concatMap { _ in Signal<Int, Never>.never }
    results.sink(in: lifetime) { _ in }
    queued.sink(in: lifetime) { _ in }
    query.send("swift")
    query.send("swiftui")
    #expect(
      query.debugGraph().description == """
        #1 flatMapLatest → Int (\(Self.file):\(line)) · connected · inners: 1 running · observers: sink
        ├─ #2 AsyncPassthroughSubject → String · observers: #1, #5
        └─ runs #3 prepend → Int (\(Self.file):\(line)) · connected · observers: #1
           └─ #4 Signal.never → Int · connected · observers: #3
        #5 concatMap → Int (\(Self.file):\(line + 1)) · connected · inners: 1 running, 1 waiting · observers: sink
        ├─ #2 (above)
        └─ runs #6 Signal.never → Int · connected · observers: #5
        """)
    query.finish()
    #expect(results.debugGraph().description.contains("inners: 1 running, outer finished"))
    lifetime.cancel()
    #expect(results.debugGraph().description.hasPrefix("#1 flatMapLatest → Int (\(Self.file):\(line)) · not connected"))
  }

  @Test("what a connection runs is drawn below its node: a cold input's pump, a flatten's inner graph")
  func runsOfAConnection() async throws {
    let clock = TestClock()
    try await clock.withVirtualTime {
      let lifetime = Lifetime()
      let threshold = AsyncCurrentValueSubject<Int, Never>(1)
      let (readings, continuation) = AsyncStream.makeStream(of: Int.self)
      let query = AsyncPassthroughSubject<String, Never>()
      let line = #line + 1
      let alerts = combineLatest(threshold, Signal(readings).map { $0 * 10 })
      let lengths = query.flatMapLatest { text in
        Signal<Int, Never> { emitter in
          await emitter.send(text.count)
          try? await clock.sleep(for: .seconds(10))
        }
        .map { $0 + 1 }
      }
      let recorder = Recorder(alerts, clock: clock)  // hot: the subject makes the combination hot
      lengths.sink(in: lifetime) { _ in }
      continuation.yield(5)
      query.send("swift")
      await clock.settle()
      #expect(recorder.values.map(\.value.1) == [50])
      let graph = try #require(recorder.debugGraph())
      #expect(
        graph.description == """
          #1 combineLatest → (Int, Int) (\(Self.file):\(line)) · connected · observers: sink
          ├─ #2 AsyncCurrentValueSubject → Int · current: 1 · observers: #1
          └─ runs #3 map → Int (\(Self.file):\(line)) · connected · observers: #1
             └─ #4 pump → Int · connected · observers: #3
          """)
      #expect(graph.edgeCount == 3)
      #expect(graph.dot.contains("  n3 -> n1 [style=dashed, label=\"runs\"];"))
      #expect(graph.mermaid.contains("  n3 -. runs .-> n1"))
      #expect(
        lengths.debugGraph().description == """
          #1 flatMapLatest → Int (\(Self.file):\(line + 1)) · connected · inners: 1 running · observers: sink
          ├─ #2 AsyncPassthroughSubject → String · observers: #1
          └─ runs #3 map → Int (\(Self.file):\(line + 6)) · connected · observers: #1
             └─ #4 Signal emitter → Int · connected · observers: #3
          """)
      lifetime.cancel()
      recorder.cancel()
      // Disconnected: nothing runs.
      #expect(recorder.debugGraph()?.nodeCount == 2)
      #expect(lengths.debugGraph().nodeCount == 2)
      continuation.finish()
      await clock.settle()
    }
  }

  @Test("share() of a cold signal draws the run it shares below it, while it runs")
  func sharedColdRun() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let lifetime = Lifetime()
      let line = #line + 1
      let ticks = Signal<Int, Never> { emitter in
        await emitter.send(1)
        try? await clock.sleep(for: .seconds(10))
      }
      .map { $0 * 2 }
      .share(replay: 1)
      ticks.sink(in: lifetime) { _ in }
      ticks.sink(in: lifetime) { _ in }
      await clock.settle()
      #expect(
        ticks.debugGraph().description == """
          #1 share → Int (\(Self.file):\(line + 5)) · connected · current: 2 · observers: sink, sink
          └─ runs #2 map → Int (\(Self.file):\(line + 4)) · connected · observers: #1
             └─ #3 Signal emitter → Int · connected · observers: #2
          """)
      lifetime.cancel()
      #expect(ticks.debugGraph().description.hasPrefix("#1 share → Int (\(Self.file):\(line + 5)) · not connected"))
      #expect(ticks.debugGraph().nodeCount == 1)
      await clock.settle()
    }
  }

  @Test("consumers are named (an observation, a binding, a plain sink); a time operator shows its timer")
  func consumersAndTimers() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let lifetime = Lifetime()
      let query = AsyncPassthroughSubject<String, Never>()
      let echo = AsyncPassthroughSubject<String, Never>()
      let line = #line + 1
      let quiet = query.debounce(for: .milliseconds(300), clock: clock)
      quiet.observe(in: lifetime) { _ in }
      quiet.bind(to: echo, in: lifetime)
      quiet.sink(in: lifetime) { _ in }
      await clock.advance(by: .seconds(1))
      #expect(
        quiet.debugGraph().description == """
          #1 debounce → String (\(Self.file):\(line)) · connected · no timer · observers: observe(in:) \
          (\(Self.file):\(line + 1)), bind(to:in:) (\(Self.file):\(line + 2)), sink
          └─ #2 AsyncPassthroughSubject → String · observers: #1
          """)
      query.send("sw")
      #expect(quiet.debugGraph().description.contains("· connected · timer due t=1.3s · observers:"))
      lifetime.cancel()
      await clock.settle()
    }
  }

  @Test("DOT and Mermaid: parsed back, one node per graph node and one edge per input")
  func dotAndMermaid() async {
    let lifetime = Lifetime()
    let a = AsyncCurrentValueSubject<Int, Never>(1)
    let b = AsyncCurrentValueSubject<Int, Never>(2)
    let sum = combineLatest(a.map { $0 * 10 }, b).map { $0 + $1 }
    let shared = a.map { -$0 }
    let both = merge(sum, shared)
    both.sink(in: lifetime) { _ in }
    let graph = both.debugGraph()
    #expect(graph.nodeCount == 7)
    #expect(graph.edgeCount == 7)

    let dot = graph.dot
    #expect(dot.hasPrefix("digraph AsyncReactive {\n") && dot.hasSuffix("\n}"))
    let dotNodes = dot.split(separator: "\n").filter { $0.contains(" [label=\"") }
    let dotEdges = dot.split(separator: "\n").filter { $0.contains(" -> ") }
    #expect(dotNodes.count == graph.nodeCount)
    #expect(dotEdges.count == graph.edgeCount)
    #expect(dotNodes.allSatisfy { $0.filter { $0 == "\"" }.count == 2 })  // labels escape their quotes

    let mermaid = graph.mermaid.split(separator: "\n")
    #expect(mermaid.first == "flowchart BT")
    #expect(mermaid.filter { $0.contains("[\"") || $0.contains("([\"") }.count == graph.nodeCount)
    #expect(mermaid.filter { $0.contains(" --> ") }.count == graph.edgeCount)
    #expect(!graph.mermaid.dropFirst().contains("\"\""))
    lifetime.cancel()
  }
}
