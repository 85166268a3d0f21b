import AsyncReactive
import AsyncReactiveTesting
import Testing

/// "Why did nothing arrive?": each traced node says what it did with its last event, beside it in the dump; and a
/// leak report names the node a leaked consumer observes.
@Suite("debugGraph: why nothing arrived, and leaks that name the node")
struct TraceAndLeakTests {
  static let file = "AsyncReactiveTests/TraceAndLeakTests.swift"

  /// The `last:` part of the line of the node `name` in `graph`.
  func last(_ name: String, in graph: DebugGraph) -> String? {
    let line = graph.description.split(separator: "\n").first { $0.contains(" \(name) → ") }
    return line?.split(separator: " · ").first { $0.hasPrefix("last: ") }.map { String($0.dropFirst(6)) }
  }

  @Test("a value sent on, and to how many consumers; delivered to no consumer")
  func sent() async {
    let lifetime = Lifetime()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let (doubled, lonely) = AsyncReactiveDebug.tracing {
      (subject.map { $0 * 2 }, AsyncPassthroughSubject<Int, Never>())
    }
    doubled.sink(in: lifetime) { _ in }
    doubled.sink(in: lifetime) { _ in }
    subject.send(3)
    #expect(last("map", in: doubled.debugGraph()) == "sent 6 to 2 consumers")
    #expect(last("AsyncPassthroughSubject", in: lonely.debugGraph()) == nil)  // nothing sent yet
    lonely.send(5)
    #expect(last("AsyncPassthroughSubject", in: lonely.debugGraph()) == "sent 5 to no consumer")
    lifetime.cancel()
  }

  @Test("dropped by filter, by compactMap, equal to the previous for removeDuplicates, skipped by dropFirst")
  func dropped() async {
    let lifetime = Lifetime()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let evens = AsyncReactiveDebug.tracing { subject.filter { $0 % 2 == 0 } }
    let parsed = AsyncReactiveDebug.tracing { subject.compactMap { $0 > 0 ? $0 : nil } }
    let distinct = AsyncReactiveDebug.tracing { subject.removeDuplicates() }
    let later = AsyncReactiveDebug.tracing { subject.dropFirst(2) }
    for node in [evens, parsed, distinct, later] { node.sink(in: lifetime) { _ in } }
    subject.send(-1)
    #expect(last("filter", in: evens.debugGraph()) == "received -1, dropped by filter")
    #expect(last("compactMap", in: parsed.debugGraph()) == "received -1, dropped by compactMap (nil)")
    #expect(last("removeDuplicates", in: distinct.debugGraph()) == "sent -1 to 1 consumer")
    #expect(last("dropFirst", in: later.debugGraph()) == "received -1, skipped by dropFirst")
    subject.send(-1)
    #expect(
      last("removeDuplicates", in: distinct.debugGraph())
        == "received -1, dropped by removeDuplicates: equal to the previous value")
    subject.send(4)
    #expect(last("filter", in: evens.debugGraph()) == "sent 4 to 1 consumer")
    #expect(last("dropFirst", in: later.debugGraph()) == "sent 4 to 1 consumer")
    lifetime.cancel()
  }

  @Test("combineLatest waiting for an input; withLatestFrom with no latest value")
  func waiting() async {
    let lifetime = Lifetime()
    let username = AsyncPassthroughSubject<String, Never>()
    let password = AsyncPassthroughSubject<String, Never>()
    let taps = AsyncPassthroughSubject<Void, Never>()
    let (form, submits) = AsyncReactiveDebug.tracing {
      (combineLatest(username, password), taps.withLatestFrom(username))
    }
    form.sink(in: lifetime) { _ in }
    submits.sink(in: lifetime) { _ in }
    taps.send(())
    #expect(
      last("withLatestFrom", in: submits.debugGraph()) == "received from input 1, dropped: input 2 has no value yet")
    username.send("ann")
    #expect(last("combineLatest", in: form.debugGraph()) == "received from input 1, waiting for input 2")
    #expect(
      last("withLatestFrom", in: submits.debugGraph())
        == "received a value of input 2, kept for the next element of input 1")
    password.send("hunter22")
    #expect(last("combineLatest", in: form.debugGraph()) == "sent (\"ann\", \"hunter22\") to 1 consumer")
    lifetime.cancel()
  }

  @Test("debounce holding a value until an instant; flatMapFirst ignoring a value while an inner runs")
  func heldAndIgnored() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let lifetime = Lifetime()
      let query = AsyncPassthroughSubject<String, Never>()
      let taps = AsyncPassthroughSubject<Int, Never>()
      let (quiet, loads) = AsyncReactiveDebug.tracing {
        (
          query.debounce(for: .milliseconds(300), clock: clock),
          taps.flatMapFirst { _ in Signal<Int, Never>.never }
        )
      }
      quiet.sink(in: lifetime) { _ in }
      loads.sink(in: lifetime) { _ in }
      await clock.advance(by: .seconds(1))
      query.send("sw")
      #expect(last("debounce", in: quiet.debugGraph()) == "received \"sw\", held by debounce until t=1.3s")
      taps.send(1)
      taps.send(2)
      #expect(last("flatMapFirst", in: loads.debugGraph()) == "received 2, ignored by flatMapFirst: an inner runs")
      lifetime.cancel()
      await clock.settle()
    }
  }

  @Test("the whole signup form, traced: the button is off because combineLatest waits for the password")
  func signupWhy() async {
    let lifetime = Lifetime()
    let username = AsyncPassthroughSubject<String, Never>()
    let password = AsyncPassthroughSubject<String, Never>()
    let line = #line + 2
    let isEnabled = AsyncReactiveDebug.tracing {
      combineLatest(username.map { $0.count >= 3 }, password.map { $0.count >= 8 }).map { $0 && $1 }
    }
    isEnabled.sink(in: lifetime) { _ in }
    username.send("ann")
    #expect(
      isEnabled.debugGraph().description == """
        #1 map → Bool (\(Self.file):\(line)) · connected · observers: sink
        └─ #2 combineLatest → (Bool, Bool) (\(Self.file):\(line)) · connected · observers: #1 · last: received from input 1, waiting for input 2
           ├─ #3 map → Bool (\(Self.file):\(line)) · connected · observers: #2 · last: sent true to 1 consumer
           │  └─ #4 AsyncPassthroughSubject → String · observers: #3
           └─ #5 map → Bool (\(Self.file):\(line)) · connected · observers: #2
              └─ #6 AsyncPassthroughSubject → String · observers: #5
        """)
    lifetime.cancel()
  }

  @Test("a leaked consumer is named with the node it observes and the line that made it")
  func leakNamesTheNode() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let kept = Locked<SubjectSubscription<Int, Never>?>(nil)
    let line = #line + 3
    await withKnownIssue {
      await expectNoLeaks(timeout: .milliseconds(100)) {
        let doubled = subject.map { $0 * 2 }
        kept.withLock { $0 = doubled.subscribe() }  // never released inside the block: a leak
      }
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("1 × subject consumer")
        && text.contains("an iterator (subscribe or for await) of map → Int (\(Self.file):\(line)) · connected")
    }
    kept.withLock { $0 = nil }
  }
}
