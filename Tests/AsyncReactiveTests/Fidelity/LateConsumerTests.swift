import AsyncReactive
import AsyncReactiveTesting
import Testing

/// What a consumer that joins a running shared node gets at once, and what one that joins after the end gets, for
/// every operator: the rule of the API contracts. A stateless node gives what a fresh RxSwift subscription would
/// give at once, computed from its inputs' replays; a stateful node gives what its guide says; after the end every
/// node gives only the end, as a subject does (a `prepend`'s values and a `share(replay:)` buffer excepted).
@Suite("Late consumers: one rule for every operator")
struct LateConsumerTests {
  /// The sources every shape may use: `s` is a current value (5, then 6 before the late consumer joins), `t` a
  /// current value 7, `p` a passthrough that sends nothing.
  struct Sources: Sendable {
    let s = AsyncCurrentValueSubject<Int, TestError>(5)
    let t = AsyncCurrentValueSubject<Int, TestError>(7)
    let p = AsyncPassthroughSubject<Int, TestError>()
    let clock = TestClock()

    func finishAll() {
      s.finish()
      t.finish()
      p.finish()
    }
  }

  /// An operator over the sources, and what a late consumer gets at once while it runs and after its end.
  struct Shape: Sendable, CustomTestStringConvertible {
    let name: String
    let running: [Int]
    let afterEnd: [Int]
    let make: @Sendable (Sources) -> Signal<Int, TestError>
    var testDescription: String { name }

    init(
      _ name: String, running: [Int], afterEnd: [Int] = [],
      _ make: @escaping @Sendable (Sources) -> Signal<Int, TestError>
    ) {
      self.name = name
      self.running = running
      self.afterEnd = afterEnd
      self.make = make
    }
  }

  static let shapes: [Shape] = [
    // Stateless: what a fresh subscription gives at once.
    Shape("map", running: [60]) { $0.s.map { $0 * 10 } },
    Shape("filter, current value passes", running: [6]) { $0.s.filter { $0.isMultiple(of: 2) } },
    Shape("filter, current value dropped", running: []) { $0.s.filter { !$0.isMultiple(of: 2) } },
    Shape("compactMap, current value kept", running: [60]) { $0.s.compactMap { $0 == 6 ? 60 : nil } },
    Shape("compactMap, current value dropped", running: []) { $0.s.compactMap { $0 == 5 ? 50 : nil } },
    Shape("removeDuplicates", running: [6]) { $0.s.removeDuplicates() },
    Shape("mapError", running: [6]) { $0.s.mapError { $0 } },
    Shape("handleEvents", running: [6]) { $0.s.handleEvents(onValue: { _ in }) },
    Shape("debug", running: [6]) { $0.s.debug("late") },
    Shape("catch", running: [6]) { sources in sources.s.catch { _ in sources.p } },
    Shape("replaceError", running: [6]) { $0.s.replaceError(with: 0).mapError { _ -> TestError in } },
    Shape("take(until:)", running: [6]) { $0.s.take(until: $0.p) },
    Shape("merge(s, p): s's current value", running: [6]) { merge($0.s, $0.p) },
    Shape("merge(s, t): each input's current value, in input order", running: [6, 7]) { merge($0.s, $0.t) },
    Shape("merge(t, s)", running: [7, 6]) { merge($0.t, $0.s) },
    Shape("merge of an array", running: [7, 6]) { merge([$0.t.hotSignal, $0.p.hotSignal, $0.s.hotSignal]) },
    Shape("combineLatest(s, p): nothing, p has no value", running: []) {
      combineLatest($0.s, $0.p).map { $0 * 10 + $1 }
    },
    Shape("combineLatest(s, t)", running: [67]) { combineLatest($0.s, $0.t).map { $0 * 10 + $1 } },
    Shape("withLatestFrom", running: [67]) { $0.s.withLatestFrom($0.t) { $0 * 10 + $1 } },
    Shape("sample(on: p): nothing, p has no value", running: []) { $0.s.sample(on: $0.p) },
    // Stateful: as each guide says.
    Shape("scan: its accumulation", running: [11]) { $0.s.scan(0, +) },
    Shape("dropFirst: nothing", running: []) { $0.s.dropFirst() },
    Shape("buffer(count:): nothing, its arrays are used", running: []) {
      $0.s.buffer(count: 2).map { $0.reduce(0, +) }
    },
    Shape("drop(while:): the current value once it stopped dropping", running: [6]) { $0.s.drop(while: { $0 < 6 }) },
    Shape("prefix: the current value, while it takes values", running: [6]) { $0.s.prefix(3) },
    Shape("prepend: its values, then the current value", running: [1, 6], afterEnd: [1]) { $0.s.prepend(1) },
    Shape("zip: nothing, its pairs are used", running: []) { zip($0.s, $0.t).map { $0 * 10 + $1 } },
    Shape("flatMapLatest: the current inner's last value", running: [67]) { sources in
      sources.s.flatMapLatest { v in sources.t.map { v * 10 + $0 } }
    },
    Shape("flatMap: nothing", running: []) { sources in
      sources.s.flatMap { v in sources.t.map { v * 10 + $0 } }
    },
    Shape("share: the node itself (already shared)", running: [6]) { $0.s.share() },
    Shape("share(replay: 1): its buffer while connected", running: [6]) { $0.s.share(replay: 1) },
    Shape("delay: nothing", running: []) { $0.s.delay(for: .seconds(1), clock: $0.clock) },
    Shape("debounce: nothing", running: []) { $0.s.debounce(for: .seconds(1), clock: $0.clock) },
    Shape("throttle: nothing", running: []) { $0.s.throttle(for: .seconds(1), clock: $0.clock) },
  ]

  /// What a consumer attached now gets inside its registration, and whether it got the end.
  static func joinNow(_ node: Signal<Int, TestError>, _ lifetime: Lifetime) -> (values: [Int], ended: Bool) {
    let log = Log<Int>()
    let ended = Log<Bool>()
    node.sink(in: lifetime, onValue: { log.append($0) }, onEnd: { _ in ended.append(true) })
    return (log.all, !ended.all.isEmpty)
  }

  @Test("joining while the node runs", arguments: shapes)
  func joiningWhileRunning(_ shape: Shape) {
    let sources = Sources()
    let node = shape.make(sources)
    let lifetime = Lifetime()
    _ = Self.joinNow(node, lifetime)  // the first consumer connects the node
    sources.s.send(6)
    let late = Self.joinNow(node, lifetime)
    #expect(late.values == shape.running)
    #expect(late.ended == false)
    lifetime.cancel()
  }

  @Test("joining after the end: only the end", arguments: shapes)
  func joiningAfterTheEnd(_ shape: Shape) async {
    let sources = Sources()
    await sources.clock.withVirtualTime {
      let node = shape.make(sources)
      let lifetime = Lifetime()
      let first = Log<Bool>()
      node.sink(in: lifetime, onValue: { _ in }, onEnd: { _ in first.append(true) })
      sources.s.send(6)
      sources.finishAll()
      await sources.clock.advance(by: .seconds(2))  // the time operators' ends are due after their delay
      #expect(first.all == [true])
      let late = Self.joinNow(node, lifetime)
      #expect(late.values == shape.afterEnd)
      #expect(late.ended)
      lifetime.cancel()
    }
  }

  @Test("merge gives each input's latest value, and nothing of an input that ended")
  func mergeFollowsEachInput() {
    let sources = Sources()
    let node = merge(sources.s, sources.t)
    let lifetime = Lifetime()
    _ = Self.joinNow(node, lifetime)
    sources.s.send(6)
    sources.s.send(8)
    sources.t.send(9)
    #expect(Self.joinNow(node, lifetime).values == [8, 9])
    sources.t.finish()
    #expect(Self.joinNow(node, lifetime).values == [8])
    sources.s.finish()
    #expect(Self.joinNow(node, lifetime) == ([], true))
    lifetime.cancel()
  }

  @Test("flatMapLatest forgets the old inner's value when it switches to an inner with none")
  func flatMapLatestForgetsOnSwitch() {
    let sources = Sources()
    let inners = [7: sources.t.hotSignal, 8: sources.p.hotSignal]
    let node = sources.s.flatMapLatest { v in inners[v] ?? sources.t.hotSignal }
    let lifetime = Lifetime()
    _ = Self.joinNow(node, lifetime)
    sources.s.send(7)
    #expect(Self.joinNow(node, lifetime).values == [7])
    sources.s.send(8)  // the passthrough: no value yet
    #expect(Self.joinNow(node, lifetime).values == [])
    sources.p.send(3)
    #expect(Self.joinNow(node, lifetime).values == [3])
    lifetime.cancel()
  }

  @Test("a documented limit: a node after a filter keeps its last output when the filter drops a later value")
  func nodeAfterFilterKeepsItsOutput() {
    let sources = Sources()
    let evens = sources.s.filter { $0.isMultiple(of: 2) }
    let node = evens.map { $0 * 10 }
    let lifetime = Lifetime()
    _ = Self.joinNow(node, lifetime)
    sources.s.send(6)
    sources.s.send(7)  // dropped by the filter
    #expect(Self.joinNow(evens, lifetime).values == [])
    #expect(Self.joinNow(node, lifetime).values == [60])  // RxSwift: nothing
    lifetime.cancel()
  }
}
