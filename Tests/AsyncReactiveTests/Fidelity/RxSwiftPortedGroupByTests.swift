import AsyncReactive
import AsyncReactiveTesting
import Synchronization
import Testing

// RxSwift 6's own tests of `groupBy` (Tests/RxSwiftTests/Observable+GroupByTests.swift), ported line by line as
// RxSwiftPortedOperatorTests ports the others. RxSwift's observers of the groups subscribe inside the outer
// `onNext`; here a `sink` of the groups makes a `Recorder` of each group as it arrives (a hot group is recorded from
// that instant), and RxSwift's `innerSubscriptions[key].dispose()` is that recorder's `cancel()`. RxSwift's
// `trimWhitespace()` (Foundation) is `trimmed` below.

private let testError = TestError(code: 0)

extension String {
  /// The string without its leading and trailing spaces.
  fileprivate var trimmed: String {
    String(String(drop(while: { $0 == " " }).reversed()).drop(while: { $0 == " " }).reversed())
  }
}

/// The timeline most of RxSwift's groupBy tests share, ending at 570 with `end`.
private func words(_ end: Recorded<String, TestError>) -> [Recorded<String, TestError>] {
  [
    .value("abc", at: .seconds(90)), .value("zoo", at: .seconds(110)), .value("oof", at: .seconds(130)),
    .value("  foo", at: .seconds(220)), .value(" FoO ", at: .seconds(240)), .value("baR  ", at: .seconds(270)),
    .value("foO ", at: .seconds(310)), .value(" Baz   ", at: .seconds(350)), .value("  qux ", at: .seconds(360)),
    .value("   bar", at: .seconds(390)), .value(" BAR  ", at: .seconds(420)), .value("FOO ", at: .seconds(470)),
    .value("baz  ", at: .seconds(480)), .value(" bAZ ", at: .seconds(510)), .value("    fOo    ", at: .seconds(530)),
    end,
    .value("error", at: .seconds(580)), .finished(at: .seconds(600)), .failed(testError, at: .seconds(650)),
  ]
}

/// RxSwift's key selector: lower-cased and trimmed; `"error"` throws.
@Sendable private func normalised(_ x: String) throws(TestError) -> String {
  if x == "error" { throw testError }
  return x.lowercased().trimmed
}

/// The groups a test's outer observer received, with a recorder per group, by key.
private final class Groups: Sendable {
  let clock: TestClock
  let lifetime = Lifetime()
  let state = Mutex<(keys: [String], recorders: [String: Recorder<String, TestError>])>(([], [:]))

  init(clock: TestClock) { self.clock = clock }

  /// Observes `outer`, recording each group from the moment it arrives (or `delay` later).
  func observe(_ outer: Signal<GroupedSignal<String, String, TestError>, TestError>, delay: Duration? = nil) {
    outer.sink(in: lifetime) { [self] group in
      let recorder = Recorder<String, TestError>(clock: clock)
      state.withLock {
        $0.keys.append(group.key)
        $0.recorders[group.key] = recorder
      }
      if let delay {
        clock.schedule(at: clock.now + delay) { recorder.subscribe(to: group) }
      } else {
        recorder.subscribe(to: group)
      }
    }
  }

  var keys: [String] { state.withLock { $0.keys } }
  subscript(key: String) -> [Recorded<String, TestError>] { state.withLock { $0.recorders[key]?.events ?? [] } }
  func cancel(_ key: String) { state.withLock { $0.recorders[key] }?.cancel() }
  func cancelAll() {
    lifetime.cancel()
    for recorder in state.withLock({ Array($0.recorders.values) }) { recorder.cancel() }
  }
}

@Suite("RxSwift's groupBy tests, ported line by line", .timeLimit(.minutes(1)))
struct RxSwiftPortedGroupByTests {

  @Test("testGroupBy_TwoGroup")
  func testGroupBy_TwoGroup() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, Never> = clock.hotTimeline([
        .value(1, at: .seconds(205)), .value(2, at: .seconds(210)), .value(3, at: .seconds(240)),
        .value(4, at: .seconds(280)), .value(5, at: .seconds(320)), .value(6, at: .seconds(350)),
        .value(7, at: .seconds(370)), .value(8, at: .seconds(420)), .value(9, at: .seconds(470)),
        .finished(at: .seconds(600)),
      ])

      let res = await clock.start {
        xs.groupBy { $0 % 2 }.enumerated().flatMap { i, go in go.map { "\(i) \($0)" } }
      }

      let expected: [Recorded<String, Never>] = [
        .value("0 1", at: .seconds(205)), .value("1 2", at: .seconds(210)), .value("0 3", at: .seconds(240)),
        .value("1 4", at: .seconds(280)), .value("0 5", at: .seconds(320)), .value("1 6", at: .seconds(350)),
        .value("0 7", at: .seconds(370)), .value("1 8", at: .seconds(420)), .value("0 9", at: .seconds(470)),
        .finished(at: .seconds(600)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(600))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testGroupBy_OuterComplete")
  func testGroupBy_OuterComplete() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let keyInvoked = Atomic(0)
      let xs: HotTimeline<String, TestError> = clock.hotTimeline(
        Array(words(.finished(at: .seconds(570))).dropFirst(3)))

      let res = await clock.start {
        xs.groupBy { (x: String) throws(TestError) -> String in
          keyInvoked.add(1, ordering: .relaxed)
          return try normalised(x)
        }.map { $0.key }
      }

      let expected: [Recorded<String, TestError>] = [
        .value("foo", at: .seconds(220)), .value("bar", at: .seconds(270)), .value("baz", at: .seconds(350)),
        .value("qux", at: .seconds(360)), .finished(at: .seconds(570)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(570))])
      #expect(keyInvoked.load(ordering: .relaxed) == 12)
      await clock.expectNoLeaks()
    }
  }

  @Test("testGroupBy_OuterError")
  func testGroupBy_OuterError() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let keyInvoked = Atomic(0)
      let xs: HotTimeline<String, TestError> = clock.hotTimeline(words(.failed(testError, at: .seconds(570))))

      let res = await clock.start {
        xs.groupBy { (x: String) throws(TestError) -> String in
          keyInvoked.add(1, ordering: .relaxed)
          return try normalised(x)
        }.map { $0.key }
      }

      let expected: [Recorded<String, TestError>] = [
        .value("foo", at: .seconds(220)), .value("bar", at: .seconds(270)), .value("baz", at: .seconds(350)),
        .value("qux", at: .seconds(360)), .failed(testError, at: .seconds(570)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(570))])
      #expect(keyInvoked.load(ordering: .relaxed) == 12)
      await clock.expectNoLeaks()
    }
  }

  @Test("testGroupBy_OuterDispose")
  func testGroupBy_OuterDispose() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let keyInvoked = Atomic(0)
      let xs: HotTimeline<String, TestError> = clock.hotTimeline(words(.finished(at: .seconds(570))))

      let res = await clock.start(disposed: .seconds(355)) {
        xs.groupBy { (x: String) throws(TestError) -> String in
          keyInvoked.add(1, ordering: .relaxed)
          return try normalised(x)
        }.map { $0.key }
      }

      let expected: [Recorded<String, TestError>] = [
        .value("foo", at: .seconds(220)), .value("bar", at: .seconds(270)), .value("baz", at: .seconds(350)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(355))])
      #expect(keyInvoked.load(ordering: .relaxed) == 5)
      await clock.expectNoLeaks()
    }
  }

  @Test("testGroupBy_OuterKeySelectorThrows")
  func testGroupBy_OuterKeySelectorThrows() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let keyInvoked = Atomic(0)
      let xs: HotTimeline<String, TestError> = clock.hotTimeline(words(.finished(at: .seconds(570))))

      let res = await clock.start {
        xs.groupBy { (x: String) throws(TestError) -> String in
          let count = keyInvoked.add(1, ordering: .relaxed).newValue
          if x == "error" { throw testError }
          if count == 10 { throw testError }
          return x.lowercased().trimmed
        }.map { $0.key }
      }

      let expected: [Recorded<String, TestError>] = [
        .value("foo", at: .seconds(220)), .value("bar", at: .seconds(270)), .value("baz", at: .seconds(350)),
        .value("qux", at: .seconds(360)), .failed(testError, at: .seconds(480)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(480))])
      #expect(keyInvoked.load(ordering: .relaxed) == 10)
      await clock.expectNoLeaks()
    }
  }

  @Test("testGroupBy_InnerComplete")
  func testGroupBy_InnerComplete() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<String, TestError> = clock.hotTimeline(words(.finished(at: .seconds(570))))
      let groups = Groups(clock: clock)
      clock.schedule(at: .seconds(200)) { groups.observe(xs.groupBy(normalised), delay: .seconds(100)) }
      clock.schedule(at: .seconds(1000)) { groups.cancelAll() }
      await clock.run()

      #expect(groups.keys.count == 4)
      #expect(
        groups["foo"] == [
          .value("FOO ", at: .seconds(470)), .value("    fOo    ", at: .seconds(530)), .finished(at: .seconds(570)),
        ])
      #expect(
        groups["bar"] == [
          .value("   bar", at: .seconds(390)), .value(" BAR  ", at: .seconds(420)), .finished(at: .seconds(570)),
        ])
      #expect(
        groups["baz"] == [
          .value("baz  ", at: .seconds(480)), .value(" bAZ ", at: .seconds(510)), .finished(at: .seconds(570)),
        ])
      #expect(groups["qux"] == [.finished(at: .seconds(570))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(570))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testGroupBy_InnerCompleteAll")
  func testGroupBy_InnerCompleteAll() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<String, TestError> = clock.hotTimeline(words(.finished(at: .seconds(570))))
      let groups = Groups(clock: clock)
      clock.schedule(at: .seconds(200)) { groups.observe(xs.groupBy(normalised)) }
      clock.schedule(at: .seconds(1000)) { groups.cancelAll() }
      await clock.run()

      #expect(groups.keys.count == 4)
      #expect(
        groups["foo"] == [
          .value("  foo", at: .seconds(220)), .value(" FoO ", at: .seconds(240)), .value("foO ", at: .seconds(310)),
          .value("FOO ", at: .seconds(470)), .value("    fOo    ", at: .seconds(530)), .finished(at: .seconds(570)),
        ])
      #expect(
        groups["bar"] == [
          .value("baR  ", at: .seconds(270)), .value("   bar", at: .seconds(390)), .value(" BAR  ", at: .seconds(420)),
          .finished(at: .seconds(570)),
        ])
      #expect(
        groups["baz"] == [
          .value(" Baz   ", at: .seconds(350)), .value("baz  ", at: .seconds(480)), .value(" bAZ ", at: .seconds(510)),
          .finished(at: .seconds(570)),
        ])
      #expect(groups["qux"] == [.value("  qux ", at: .seconds(360)), .finished(at: .seconds(570))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(570))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testGroupBy_InnerError")
  func testGroupBy_InnerError() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<String, TestError> = clock.hotTimeline(words(.failed(testError, at: .seconds(570))))
      let groups = Groups(clock: clock)
      clock.schedule(at: .seconds(200)) { groups.observe(xs.groupBy(normalised), delay: .seconds(100)) }
      clock.schedule(at: .seconds(1000)) { groups.cancelAll() }
      await clock.run()

      #expect(groups.keys.count == 4)
      #expect(
        groups["foo"] == [
          .value("FOO ", at: .seconds(470)), .value("    fOo    ", at: .seconds(530)),
          .failed(testError, at: .seconds(570)),
        ])
      #expect(
        groups["bar"] == [
          .value("   bar", at: .seconds(390)), .value(" BAR  ", at: .seconds(420)),
          .failed(testError, at: .seconds(570)),
        ])
      #expect(
        groups["baz"] == [
          .value("baz  ", at: .seconds(480)), .value(" bAZ ", at: .seconds(510)), .failed(testError, at: .seconds(570)),
        ])
      #expect(groups["qux"] == [.failed(testError, at: .seconds(570))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(570))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testGroupBy_InnerDispose")
  func testGroupBy_InnerDispose() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<String, TestError> = clock.hotTimeline(words(.finished(at: .seconds(570))))
      let groups = Groups(clock: clock)
      clock.schedule(at: .seconds(200)) { groups.observe(xs.groupBy(normalised)) }
      clock.schedule(at: .seconds(400)) { groups.cancelAll() }
      await clock.run()

      #expect(groups.keys.count == 4)
      #expect(
        groups["foo"] == [
          .value("  foo", at: .seconds(220)), .value(" FoO ", at: .seconds(240)), .value("foO ", at: .seconds(310)),
        ])
      #expect(groups["bar"] == [.value("baR  ", at: .seconds(270)), .value("   bar", at: .seconds(390))])
      #expect(groups["baz"] == [.value(" Baz   ", at: .seconds(350))])
      #expect(groups["qux"] == [.value("  qux ", at: .seconds(360))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(400))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testGroupBy_InnerKeyThrow")
  func testGroupBy_InnerKeyThrow() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let keyInvoked = Atomic(0)
      let xs: HotTimeline<String, TestError> = clock.hotTimeline(words(.finished(at: .seconds(570))))
      let groups = Groups(clock: clock)
      let outer = Mutex<Signal<GroupedSignal<String, String, TestError>, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) {
        let made = xs.groupBy { (x: String) throws(TestError) -> String in
          let count = keyInvoked.add(1, ordering: .relaxed).newValue
          if x == "error" { throw testError }
          if count == 6 { throw testError }
          return x.lowercased().trimmed
        }
        outer.withLock { $0 = made }
      }
      clock.schedule(at: .seconds(200)) { groups.observe(outer.withLock { $0! }) }
      clock.schedule(at: .seconds(1000)) { groups.cancelAll() }
      await clock.run()

      #expect(groups.keys.count == 3)
      #expect(
        groups["foo"] == [
          .value("  foo", at: .seconds(220)), .value(" FoO ", at: .seconds(240)), .value("foO ", at: .seconds(310)),
          .failed(testError, at: .seconds(360)),
        ])
      #expect(groups["bar"] == [.value("baR  ", at: .seconds(270)), .failed(testError, at: .seconds(360))])
      #expect(groups["baz"] == [.value(" Baz   ", at: .seconds(350)), .failed(testError, at: .seconds(360))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(360))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testGroupBy_OuterIndependence")
  func testGroupBy_OuterIndependence() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<String, TestError> = clock.hotTimeline(words(.finished(at: .seconds(570))))
      let groups = Groups(clock: clock)
      clock.schedule(at: .seconds(200)) { groups.observe(xs.groupBy(normalised)) }
      clock.schedule(at: .seconds(320)) { groups.lifetime.cancel() }
      clock.schedule(at: .seconds(1000)) { groups.cancelAll() }
      await clock.run()

      #expect(groups.keys == ["foo", "bar"])
      #expect(
        groups["foo"] == [
          .value("  foo", at: .seconds(220)), .value(" FoO ", at: .seconds(240)), .value("foO ", at: .seconds(310)),
          .value("FOO ", at: .seconds(470)), .value("    fOo    ", at: .seconds(530)), .finished(at: .seconds(570)),
        ])
      #expect(
        groups["bar"] == [
          .value("baR  ", at: .seconds(270)), .value("   bar", at: .seconds(390)), .value(" BAR  ", at: .seconds(420)),
          .finished(at: .seconds(570)),
        ])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(570))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testGroupBy_InnerIndependence")
  func testGroupBy_InnerIndependence() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<String, TestError> = clock.hotTimeline(words(.finished(at: .seconds(570))))
      let groups = Groups(clock: clock)
      clock.schedule(at: .seconds(200)) { groups.observe(xs.groupBy(normalised)) }
      clock.schedule(at: .seconds(320)) { groups.cancel("foo") }
      clock.schedule(at: .seconds(1000)) { groups.cancelAll() }
      await clock.run()

      #expect(groups.keys == ["foo", "bar", "baz", "qux"])
      #expect(
        groups["foo"] == [
          .value("  foo", at: .seconds(220)), .value(" FoO ", at: .seconds(240)), .value("foO ", at: .seconds(310)),
        ])
      #expect(
        groups["bar"] == [
          .value("baR  ", at: .seconds(270)), .value("   bar", at: .seconds(390)), .value(" BAR  ", at: .seconds(420)),
          .finished(at: .seconds(570)),
        ])
      #expect(
        groups["baz"] == [
          .value(" Baz   ", at: .seconds(350)), .value("baz  ", at: .seconds(480)), .value(" bAZ ", at: .seconds(510)),
          .finished(at: .seconds(570)),
        ])
      #expect(groups["qux"] == [.value("  qux ", at: .seconds(360)), .finished(at: .seconds(570))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(570))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testGroupBy_InnerMultipleIndependence")
  func testGroupBy_InnerMultipleIndependence() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<String, TestError> = clock.hotTimeline(words(.finished(at: .seconds(570))))
      let groups = Groups(clock: clock)
      clock.schedule(at: .seconds(200)) { groups.observe(xs.groupBy(normalised)) }
      clock.schedule(at: .seconds(1000)) { groups.cancelAll() }
      clock.schedule(at: .seconds(320)) { groups.cancel("foo") }
      clock.schedule(at: .seconds(280)) { groups.cancel("bar") }
      clock.schedule(at: .seconds(355)) { groups.cancel("baz") }
      clock.schedule(at: .seconds(400)) { groups.cancel("qux") }
      await clock.run()

      #expect(groups.keys.count == 4)
      #expect(
        groups["foo"] == [
          .value("  foo", at: .seconds(220)), .value(" FoO ", at: .seconds(240)), .value("foO ", at: .seconds(310)),
        ])
      #expect(groups["bar"] == [.value("baR  ", at: .seconds(270))])
      #expect(groups["baz"] == [.value(" Baz   ", at: .seconds(350))])
      #expect(groups["qux"] == [.value("  qux ", at: .seconds(360))])
      // The outer observer is there until 1000, so the input is observed until it ends.
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(570))])
      await clock.expectNoLeaks()
    }
  }

  /// RxSwift's three "escape" tests: one group is kept by the outer observer and subscribed at 600.
  private func escape(
    _ end: Recorded<String, TestError>, outerDisposed: Duration?
  ) async -> (events: [Recorded<String, TestError>], subscriptions: [TimelineSubscription]) {
    let clock = TestClock()
    return await clock.withVirtualTime {
      let xs: HotTimeline<String, TestError> = clock.hotTimeline([
        .value("  foo", at: .seconds(220)), .value(" FoO ", at: .seconds(240)), .value("foO ", at: .seconds(310)),
        .value("FOO ", at: .seconds(470)), .value("    fOo    ", at: .seconds(530)), end,
      ])
      let lifetime = Lifetime()
      let inner = Mutex<GroupedSignal<String, String, TestError>?>(nil)
      let results = Recorder<String, TestError>(clock: clock)
      clock.schedule(at: .seconds(200)) {
        xs.groupBy { $0.lowercased().trimmed }.sink(in: lifetime) { group in inner.withLock { $0 = group } }
      }
      if let outerDisposed { clock.schedule(at: outerDisposed) { lifetime.cancel() } }
      clock.schedule(at: .seconds(600)) { if let group = inner.withLock({ $0 }) { results.subscribe(to: group) } }
      clock.schedule(at: .seconds(1000)) {
        lifetime.cancel()
        results.cancel()
      }
      await clock.run()
      await clock.expectNoLeaks()
      return (results.events, xs.subscriptions)
    }
  }

  @Test("testGroupBy_InnerEscapeComplete")
  func testGroupBy_InnerEscapeComplete() async {
    let (events, subscriptions) = await escape(.finished(at: .seconds(570)), outerDisposed: nil)
    #expect(events == [.finished(at: .seconds(600))])
    #expect(subscriptions == [TimelineSubscription(.seconds(200), .seconds(570))])
  }

  @Test("testGroupBy_InnerEscapeError")
  func testGroupBy_InnerEscapeError() async {
    let (events, subscriptions) = await escape(.failed(testError, at: .seconds(570)), outerDisposed: nil)
    #expect(events == [.failed(testError, at: .seconds(600))])
    #expect(subscriptions == [TimelineSubscription(.seconds(200), .seconds(570))])
  }

  @Test("testGroupBy_InnerEscapeDispose")
  func testGroupBy_InnerEscapeDispose() async {
    let (events, subscriptions) = await escape(.failed(testError, at: .seconds(570)), outerDisposed: .seconds(400))
    #expect(events == [])
    #expect(subscriptions == [TimelineSubscription(.seconds(200), .seconds(400))])
  }
}
