import AsyncReactive
import AsyncReactiveTesting
import Testing

/// A registration gets its replay inside the registration, also while the source is delivering (an observer of
/// the source registering another observer of it), as RxSwift's subjects replay inside `subscribe`. The expected
/// outputs are RxSwift 6's.
@Suite("RxSwift fidelity: a registration's replay arrives inside the registration, also during a delivery")
struct RxSwiftReplayTests {
  struct E: Error, Equatable {}

  /// Records the values of `signal` and how it ended, inside the sends.
  final class Events: Sendable {
    let log = Log<String>()
    let lifetime = Lifetime()

    init<Failure>(_ signal: Signal<Int, Failure>) {
      let log = log
      #expect(signal.isHot)
      signal.sink(in: lifetime) {
        log.append("\($0)")
      } onEnd: { failure in
        log.append(failure == nil ? "finished" : "failed")
      }
    }
  }

  @Test("s.flatMap { v in s.map { $0 + v } } over current 7: s.send(1) → 14, 2, 8")
  func flatMapReadsItsSource() {
    let s = AsyncCurrentValueSubject<Int, any Error>(7)
    let events = Events(s.flatMap { v in s.map { $0 + v } })
    s.send(1)
    #expect(events.log.all == ["14", "2", "8"])
  }

  @Test("merge(t, t).flatMapLatest { v in t.map { $0 + v } } over current 9: t.send(1) → 18, 18, 2, 2")
  func flatMapLatestOverAMergeOfItsSource() {
    let t = AsyncCurrentValueSubject<Int, any Error>(9)
    let events = Events(merge(t, t).flatMapLatest { v in t.map { $0 + v } })
    t.send(1)
    #expect(events.log.all == ["18", "18", "2", "2"])
  }

  @Test("combineLatest(u.flatMapLatest { _ in u }, u).map { $0 * 10 + $1 } over current 2: u.send(0) → 22, 2, 0")
  func combineLatestOfAFlattenOfItsSource() {
    let u = AsyncCurrentValueSubject<Int, any Error>(2)
    let events = Events(combineLatest(u.flatMapLatest { _ in u }, u).map { $0 * 10 + $1 })
    u.send(0)
    #expect(events.log.all == ["22", "2", "0"])
  }

  @Test("merge(p.catch { _ in p }.replaceError(with: 9), p): p.fail(E()) → 9, failed")
  func catchSwitchingToTheSourceThatFailed() {
    let p = AsyncPassthroughSubject<Int, any Error>()
    let events = Events(merge(p.catch { _ in p }.replaceError(with: 9), p))
    p.fail(E())
    #expect(events.log.all == ["9", "failed"])
  }

  @Test("flatMap(maxConcurrent:), concatMap and flatMapFirst replay the source inside the outer value's delivery")
  func otherFlattens() {
    let a = AsyncCurrentValueSubject<Int, any Error>(7)
    let limited = Events(a.flatMap(maxConcurrent: 2) { v in a.map { $0 + v } })
    a.send(1)
    #expect(limited.log.all == ["14", "2", "8"])

    let b = AsyncCurrentValueSubject<Int, any Error>(7)
    let concatenated = Events(b.concatMap { v in b.map { $0 + v }.prefix(1) })
    b.send(1)
    #expect(concatenated.log.all == ["14", "2"])

    let c = AsyncCurrentValueSubject<Int, any Error>(7)
    let first = Events(c.flatMapFirst { v in c.map { $0 + v }.prefix(1) })
    c.send(1)
    #expect(first.log.all == ["14", "2"])
  }

  @Test("a registration from another thread than the delivering one still gets its replay first, then later values")
  func concurrentRegistrationKeepsItsOrder() async {
    for _ in 0..<200 {
      let s = AsyncCurrentValueSubject<Int, Never>(0)
      let sender = Task.detached {
        for value in 1...50 { s.send(value) }
      }
      let log = Log<Int>()
      let lifetime = Lifetime()
      s.sink(in: lifetime) { log.append($0) }
      await sender.value
      let values = log.all
      #expect(values == values.sorted())
      #expect(values.last == 50)
      lifetime.cancel()
    }
  }
}
