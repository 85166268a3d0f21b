import AsyncReactive
import AsyncReactiveTesting
import Testing

/// The smallest programs where a joining consumer, or a node's place among its source's observers, differed from
/// the API contracts' rule: each records what the rule (and RxSwift, for the creation order) gives.
@Suite("Late consumers and creation order: the contracts' rule on the smallest programs")
struct LateConsumerRuleTests {
  /// What a consumer attached now gets inside its registration.
  static func join<Element: Sendable, Failure: Error>(_ node: Signal<Element, Failure>, _ lifetime: Lifetime)
    -> [Element]
  {
    let log = Log<Element>()
    node.sink(in: lifetime, onValue: { log.append($0) }, onEnd: { _ in })
    return log.all
  }

  // MARK: merge gives nothing of an input that gives a new subscriber nothing

  @Test("merge(p, c): what the passthrough sent is not given to a consumer that joins")
  func mergeForgetsThePassthroughsValue() {
    let p = AsyncPassthroughSubject<Int, Never>()
    let c = AsyncCurrentValueSubject<Int, Never>(7)
    let node = merge(p, c)
    let lifetime = Lifetime()
    #expect(Self.join(node, lifetime) == [7])
    p.send(1)
    #expect(Self.join(node, lifetime) == [7])
    c.send(8)
    p.send(2)
    #expect(Self.join(node, lifetime) == [8])
    p.finish()
    #expect(Self.join(node, lifetime) == [8])
    lifetime.cancel()
  }

  @Test("merge(s, s.delay(for:)): the time node's value is not given again")
  func mergeOfATimeNode() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let s = AsyncCurrentValueSubject<Int, Never>(5)
      let node = merge(s, s.delay(for: .seconds(1), clock: clock))
      let lifetime = Lifetime()
      let first = Log<Int>()
      node.sink(in: lifetime) { first.append($0) }
      await clock.advance(by: .seconds(1))
      #expect(first.all == [5, 5])
      #expect(Self.join(node, lifetime) == [5])
      lifetime.cancel()
    }
  }

  @Test("merge(s, s.dropFirst()) and merge(zip(…), c): only the inputs with a current value")
  func mergeOfStatefulInputs() {
    let s = AsyncCurrentValueSubject<Int, Never>(5)
    let t = AsyncCurrentValueSubject<Int, Never>(1)
    let c = AsyncCurrentValueSubject<Int, Never>(7)
    let lifetime = Lifetime()
    let dropped = merge(s, s.dropFirst())
    _ = Self.join(dropped, lifetime)
    s.send(6)
    #expect(Self.join(dropped, lifetime) == [6])
    let zipped = merge(zip(s, t).map { $0 + $1 }, c)
    #expect(Self.join(zipped, lifetime) == [7, 7])  // the first consumer: zip's pair (6, 1), then c
    s.send(2)
    #expect(Self.join(zipped, lifetime) == [7])
    lifetime.cancel()
  }

  // MARK: An inner attached during a connection is created then

  @Test(
    "c.flatMap { _ in p }.withLatestFrom(p): the inner made at connection observes p after withLatestFrom does",
    arguments: [true, false])
  func innerAttachedDuringTheConnection(outerHasCurrentValue: Bool) {
    let c = AsyncCurrentValueSubject<Int, Never>(4)
    let q = AsyncPassthroughSubject<Int, Never>()
    let p = AsyncPassthroughSubject<Int, Never>()
    let outer = outerHasCurrentValue ? c.hotSignal : q.hotSignal
    let node = outer.flatMap { _ in p }.withLatestFrom(p) { $0 * 10 + $1 }
    let log = Log<Int>()
    let lifetime = Lifetime()
    node.sink(in: lifetime) { log.append($0) }
    if !outerHasCurrentValue { q.send(4) }
    p.send(1)
    p.send(2)
    #expect(log.all == [11, 22])  // RxSwift: the same in both cases
    lifetime.cancel()
  }

  @Test("a catch fallback attached at connection observes its source after a later node that reads it")
  func fallbackAttachedDuringTheConnection() {
    let failed = AsyncPassthroughSubject<Int, TestError>()
    failed.fail(TestError())
    let p = AsyncPassthroughSubject<Int, TestError>()
    let node = failed.catch { _ in p }.withLatestFrom(p) { $0 * 10 + $1 }
    let log = Log<Int>()
    let lifetime = Lifetime()
    node.sink(in: lifetime, onValue: { log.append($0) }, onEnd: { _ in })
    p.send(1)
    #expect(log.all == [11])
    lifetime.cancel()
  }

  // MARK: A node whose input changed without it emitting

  @Test("withLatestFrom: the pair of both current values, after the other input changed")
  func withLatestFromFollowsTheOtherInput() {
    let c1 = AsyncCurrentValueSubject<Int, TestError>(1)
    let c2 = AsyncCurrentValueSubject<Int, TestError>(1)
    let node = c1.withLatestFrom(c2) { $0 * 10 + $1 }
    let lifetime = Lifetime()
    #expect(Self.join(node, lifetime) == [11])
    c2.send(2)
    #expect(Self.join(node, lifetime) == [12])
    c1.send(3)
    #expect(Self.join(node, lifetime) == [32])
    c2.finish()  // the documented exception: a finished other input's last element stays in use
    #expect(Self.join(node, lifetime) == [32])
    lifetime.cancel()
  }

  @Test("withLatestFrom a property: the pair of both current values, after the property changed")
  func withLatestFromFollowsTheProperty() {
    let c1 = AsyncCurrentValueSubject<Int, Never>(1)
    let c2 = AsyncCurrentValueSubject<Int, Never>(1)
    let node = c1.withLatestFrom(c2.property.map { $0 * 2 }) { $0 * 10 + $1 }
    let lifetime = Lifetime()
    let first = Log<Int>()
    node.sink(in: lifetime) { first.append($0) }
    #expect(Self.join(node, lifetime) == [12])
    c2.send(2)
    #expect(Self.join(node, lifetime) == [14])
    c1.send(3)
    #expect(Self.join(node, lifetime) == [34])
    #expect(first.all == [12, 34])  // a change of the property alone sends nothing
    lifetime.cancel()
  }

  @Test("withLatestFrom an input with no current value: nothing, whatever it sent before")
  func withLatestFromAPassthrough() {
    let c1 = AsyncCurrentValueSubject<Int, Never>(1)
    let p = AsyncPassthroughSubject<Int, Never>()
    let node = c1.withLatestFrom(p) { $0 * 10 + $1 }
    let lifetime = Lifetime()
    let first = Log<Int>()
    node.sink(in: lifetime) { first.append($0) }
    p.send(5)
    c1.send(2)
    #expect(first.all == [25])
    #expect(Self.join(node, lifetime) == [])  // RxSwift: a fresh subscription drops c1's value, p has none
    lifetime.cancel()
  }

  @Test("sample(on:): the base's current value, after it changed without a trigger")
  func sampleFollowsTheBase() {
    let base = AsyncCurrentValueSubject<Int, Never>(1)
    let trigger = AsyncCurrentValueSubject<Int, Never>(0)
    let node = base.sample(on: trigger)
    let lifetime = Lifetime()
    let first = Log<Int>()
    node.sink(in: lifetime) { first.append($0) }
    base.send(0)
    #expect(Self.join(node, lifetime) == [0])
    #expect(first.all == [1])
    lifetime.cancel()
  }

  @Test("catch: after the switch, what the fallback gives a new observer, nothing of the failed input's value")
  func catchFollowsTheFallback() {
    let c = AsyncCurrentValueSubject<Int, TestError>(3)
    let p = AsyncPassthroughSubject<Int, TestError>()
    let node = c.catch { _ in p }
    let lifetime = Lifetime()
    #expect(Self.join(node, lifetime) == [3])
    c.fail(TestError())
    #expect(Self.join(node, lifetime) == [])
    let t = AsyncCurrentValueSubject<Int, TestError>(4)
    let u = AsyncCurrentValueSubject<Int, TestError>(8)
    let switched = t.catch { _ in u }
    _ = Self.join(switched, lifetime)
    t.fail(TestError())
    #expect(Self.join(switched, lifetime) == [8])
    // An input with no current value that fails over to one that has one (the catch guide: its current value).
    let q = AsyncPassthroughSubject<Int, TestError>()
    let d = AsyncCurrentValueSubject<Int, TestError>(4)
    let recovered = q.catch { _ in d }
    _ = Self.join(recovered, lifetime)
    q.send(1)
    #expect(Self.join(recovered, lifetime) == [])
    q.fail(TestError())
    #expect(Self.join(recovered, lifetime) == [4])
    d.send(5)
    #expect(Self.join(recovered, lifetime) == [5])
    // A current value that fails over to a passthrough: nothing, even after the passthrough sent.
    p.send(2)
    #expect(Self.join(node, lifetime) == [])
    lifetime.cancel()
  }

  // MARK: The documented limits (the API contracts' list, with its examples)

  @Test("documented limit: a node after a node that gives several values remembers its own last output")
  func nodeAfterAMultiValueNode() {
    let s = AsyncCurrentValueSubject<Int, Never>(6)
    let t = AsyncCurrentValueSubject<Int, Never>(7)
    let p = AsyncPassthroughSubject<Int, Never>()
    let c = AsyncCurrentValueSubject<Int, Never>(8)
    let lifetime = Lifetime()
    let merged = merge(s, t)
    let mapped = merged.map { $0 * 10 }
    #expect(Self.join(merged, lifetime) == [6, 7])
    #expect(Self.join(mapped, lifetime) == [60, 70])  // the first consumer: both, as they come
    #expect(Self.join(mapped, lifetime) == [70])  // RxSwift: 60, 70
    let shared = p.share(replay: 2).map { $0 * 10 }
    _ = Self.join(shared, lifetime)
    p.send(1)
    p.send(2)
    #expect(Self.join(shared, lifetime) == [20])  // RxSwift: 10, 20
    let evens = merge(p, c).filter { $0.isMultiple(of: 2) }
    _ = Self.join(evens, lifetime)
    p.send(1)
    #expect(Self.join(evens, lifetime) == [])  // RxSwift: 8
    lifetime.cancel()
  }

  @Test("documented limit: a node after a withLatestFrom whose other input changed keeps its own last output")
  func nodeAfterWithLatestFrom() {
    let s = AsyncCurrentValueSubject<Int, TestError>(6)
    let t = AsyncCurrentValueSubject<Int, TestError>(7)
    let paired = s.withLatestFrom(t) { $0 * 10 + $1 }
    let doubled = paired.map { $0 * 2 }
    let lifetime = Lifetime()
    #expect(Self.join(doubled, lifetime) == [134])
    t.send(8)
    #expect(Self.join(paired, lifetime) == [68])
    #expect(Self.join(doubled, lifetime) == [134])  // RxSwift: 136
    lifetime.cancel()
  }

  @Test("documented limit: a prepend after a prepend gives the inner one's value as current")
  func prependAfterPrepend() {
    let c = AsyncCurrentValueSubject<Int, Never>(4)
    let node = c.drop(while: { $0 < 7 }).prepend(7).prepend(9)
    let lifetime = Lifetime()
    #expect(Self.join(node, lifetime) == [9, 7])
    #expect(Self.join(node, lifetime) == [9, 7])  // RxSwift: 9
    lifetime.cancel()
  }
}
