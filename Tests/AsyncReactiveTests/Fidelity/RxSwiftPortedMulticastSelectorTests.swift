import AsyncReactive
import AsyncReactiveTesting
import Testing

// RxSwift 6's own tests of `multicast(_:selector:)` (Tests/RxSwiftTests/Observable+MulticastTests.swift, the
// `testMulticast_Cold_*` and selector-throws cases), ported line by line as RxSwiftPortedOperatorTests ports the
// others. RxSwift's `PublishSubject` is `AsyncPassthroughSubject`, and its selector's `Observable.zip($0, $0)` is
// `zip(shared, shared)`.

private let testError = TestError(code: 0)

@Suite("RxSwift's multicast(_:selector:) tests, ported line by line", .timeLimit(.minutes(1)))
struct RxSwiftPortedMulticastSelectorTests {
  /// The hot timeline of the `Cold` tests, ending with `end` (none: it never ends).
  private static func xs(_ end: Recorded<Int, TestError>?, clock: TestClock) -> HotTimeline<Int, TestError> {
    let values: [Recorded<Int, TestError>] = [
      .value(0, at: .seconds(40)), .value(1, at: .seconds(90)), .value(2, at: .seconds(150)),
      .value(3, at: .seconds(210)), .value(4, at: .seconds(240)), .value(5, at: .seconds(270)),
      .value(6, at: .seconds(330)), .value(7, at: .seconds(340)),
    ]
    return clock.hotTimeline(values + (end.map { [$0] } ?? []))
  }

  private static let threeToSeven: [Recorded<Int, TestError>] = [
    .value(3, at: .seconds(210)), .value(4, at: .seconds(240)), .value(5, at: .seconds(270)),
    .value(6, at: .seconds(330)), .value(7, at: .seconds(340)),
  ]

  @Test("testMulticast_Cold_Completed")
  func testMulticast_Cold_Completed() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = Self.xs(.finished(at: .seconds(390)), clock: clock)

      let res = await clock.start {
        xs.multicast(makeSubject: { AsyncPassthroughSubject<Int, TestError>() }, selector: { $0 })
      }

      #expect(res.events == Self.threeToSeven + [.finished(at: .seconds(390))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(390))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMulticast_Cold_Error")
  func testMulticast_Cold_Error() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = Self.xs(.failed(testError, at: .seconds(390)), clock: clock)

      let res = await clock.start {
        xs.multicast(makeSubject: { AsyncPassthroughSubject<Int, TestError>() }, selector: { $0 })
      }

      #expect(res.events == Self.threeToSeven + [.failed(testError, at: .seconds(390))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(390))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMulticast_Cold_Dispose")
  func testMulticast_Cold_Dispose() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = Self.xs(nil, clock: clock)

      let res = await clock.start {
        xs.multicast(makeSubject: { AsyncPassthroughSubject<Int, TestError>() }, selector: { $0 })
      }

      #expect(res.events == Self.threeToSeven)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMulticast_Cold_Zip")
  func testMulticast_Cold_Zip() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = Self.xs(.finished(at: .seconds(390)), clock: clock)

      let res = await clock.start {
        xs.multicast(
          makeSubject: { AsyncPassthroughSubject<Int, TestError>() },
          selector: { shared in zip(shared, shared).map { $0 + $1 } })
      }

      let expected: [Recorded<Int, TestError>] = [
        .value(6, at: .seconds(210)), .value(8, at: .seconds(240)), .value(10, at: .seconds(270)),
        .value(12, at: .seconds(330)), .value(14, at: .seconds(340)), .finished(at: .seconds(390)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(390))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMulticast_SubjectSelectorThrows")
  func testMulticast_SubjectSelectorThrows() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(210)), .value(2, at: .seconds(240)), .finished(at: .seconds(300)),
      ])

      let res = await clock.start {
        xs.multicast(
          makeSubject: { () throws(TestError) -> AsyncPassthroughSubject<Int, TestError> in throw testError },
          selector: { $0 })
      }

      #expect(res.events == [.failed(testError, at: .seconds(200))])
      #expect(xs.subscriptions == [])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMulticast_SelectorThrows")
  func testMulticast_SelectorThrows() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(210)), .value(2, at: .seconds(240)), .finished(at: .seconds(300)),
      ])

      let res = await clock.start {
        xs.multicast(
          makeSubject: { AsyncPassthroughSubject<Int, TestError>() },
          selector: { (_: Signal<Int, TestError>) throws(TestError) -> Signal<Int, TestError> in throw testError })
      }

      #expect(res.events == [.failed(testError, at: .seconds(200))])
      #expect(xs.subscriptions == [])
      await clock.expectNoLeaks()
    }
  }

  @Test("a cold source runs once per run of the result, however many parts read it")
  func coldSourceOncePerRun() async throws {
    let runs = Counter()
    let source = Signal<Int, Never> { (emitter) async throws(Never) in
      _ = runs.increment()
      for value in 1...3 { await emitter.send(value) }
    }
    let pairs = source.multicast(
      makeSubject: { AsyncPassthroughSubject<Int, Never>() },
      selector: { shared in zip(shared, shared.dropFirst()).map { $0 * 10 + $1 } })
    #expect(await pairs.collect() == [12, 23])
    #expect(await pairs.collect() == [12, 23])
    #expect(runs.value == 2)
  }
}
