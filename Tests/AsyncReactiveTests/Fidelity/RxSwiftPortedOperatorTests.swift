import AsyncReactive
import AsyncReactiveTesting
import Testing

// RxSwift 6's own operator tests (Tests/RxSwiftTests/Observable+*Tests.swift), ported line by line onto
// AsyncReactiveTesting: `createHotObservable` is `clock.hotTimeline`, `createColdObservable` `clock.coldTimeline`,
// `scheduler.start` `clock.start`, `Subscription(200, 450)` `TimelineSubscription(.seconds(200), .seconds(450))`,
// one tick one second. Each test records exactly RxSwift's expected events and subscriptions; the
// `#if TRACE_RESOURCES` checks end with `clock.expectNoLeaks()`.

private let testError = TestError(code: 0)
private let testError1 = TestError(code: 1)
private let testError2 = TestError(code: 2)

/// RxSwift's `isPrime`, for the filter tests.
private func isPrime(_ i: Int) -> Bool {
  i > 1 && !(2..<i).contains { j in j * j <= i && i % j == 0 }
}

@Suite("RxSwift's operator tests, ported line by line", .timeLimit(.minutes(1)))
struct RxSwiftPortedOperatorTests {
  // MARK: map (Observable+MapTests.swift)

  @Test("testMap_Range")
  func testMap_Range() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(0, at: .seconds(210)),
        .value(1, at: .seconds(220)),
        .value(2, at: .seconds(230)),
        .value(4, at: .seconds(240)),
        .finished(at: .seconds(300)),
      ])

      let res = await clock.start { xs.map { $0 * 2 } }

      let expected: [Recorded<Int, Never>] = [
        .value(0 * 2, at: .seconds(210)),
        .value(1 * 2, at: .seconds(220)),
        .value(2 * 2, at: .seconds(230)),
        .value(4 * 2, at: .seconds(240)),
        .finished(at: .seconds(300)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(300))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMap_Dispose")
  func testMap_Dispose() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(0, at: .seconds(210)),
        .value(1, at: .seconds(220)),
        .value(2, at: .seconds(230)),
        .value(4, at: .seconds(240)),
        .failed(testError, at: .seconds(300)),
      ])

      let res = await clock.start(disposed: .seconds(290)) { xs.map { $0 * 2 } }

      let expected: [Recorded<Int, TestError>] = [
        .value(0 * 2, at: .seconds(210)),
        .value(1 * 2, at: .seconds(220)),
        .value(2 * 2, at: .seconds(230)),
        .value(4 * 2, at: .seconds(240)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(290))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMap_SelectorThrows: a throwing closure fails with any Error, compared by RxTest's rule")
  func testMap_SelectorThrows() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(0, at: .seconds(210)),
        .value(1, at: .seconds(220)),
        .value(2, at: .seconds(230)),
        .value(4, at: .seconds(240)),
        .failed(testError, at: .seconds(300)),
      ])

      let res = await clock.start {
        xs.map { x throws -> Int in if x < 2 { return x * 2 } else { throw testError } }
      }

      let expected: [Recorded<Int, any Error>] = [
        .value(0 * 2, at: .seconds(210)),
        .value(1 * 2, at: .seconds(220)),
        .failed(testError, at: .seconds(230)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(230))])
      await clock.expectNoLeaks()
    }
  }

  // `#if TRACE_RESOURCES`: testMapReleasesResourcesOnComplete, testMap1ReleasesResourcesOnError,
  // testMap2ReleasesResourcesOnError.
  @Test("testMapReleasesResourcesOnComplete and OnError")
  func testMapReleasesResources() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      _ = Recorder(Signal<Int, Never>.just(1).map { _ in true }, clock: clock)
      _ = Recorder(Signal<Int, TestError>.fail(testError).map { _ in true }, clock: clock)
      _ = Recorder(Signal<Int, Never>.just(1).map { _ throws -> Bool in throw testError }, clock: clock)
      await clock.expectNoLeaks()
    }
  }

  // MARK: filter (Observable+FilterTests.swift)

  @Test("test_filterComplete")
  func test_filterComplete() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let invoked = Counter()

      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(110)),
        .value(2, at: .seconds(180)),
        .value(3, at: .seconds(230)),
        .value(4, at: .seconds(270)),
        .value(5, at: .seconds(340)),
        .value(6, at: .seconds(380)),
        .value(7, at: .seconds(390)),
        .value(8, at: .seconds(450)),
        .value(9, at: .seconds(470)),
        .value(10, at: .seconds(560)),
        .value(11, at: .seconds(580)),
        .finished(at: .seconds(600)),
        .value(12, at: .seconds(610)),
        .failed(testError, at: .seconds(620)),
        .finished(at: .seconds(630)),
      ])

      let res = await clock.start {
        xs.filter { (num: Int) -> Bool in
          invoked.increment()
          return isPrime(num)
        }
      }

      let expected: [Recorded<Int, TestError>] = [
        .value(3, at: .seconds(230)),
        .value(5, at: .seconds(340)),
        .value(7, at: .seconds(390)),
        .value(11, at: .seconds(580)),
        .finished(at: .seconds(600)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(600))])
      #expect(9 == invoked.value)
      await clock.expectNoLeaks()
    }
  }

  @Test("test_filterDisposed")
  func test_filterDisposed() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let invoked = Counter()

      let xs = clock.hotTimeline([
        .value(1, at: .seconds(110)),
        .value(2, at: .seconds(180)),
        .value(3, at: .seconds(230)),
        .value(4, at: .seconds(270)),
        .value(5, at: .seconds(340)),
        .value(6, at: .seconds(380)),
        .value(7, at: .seconds(390)),
        .value(8, at: .seconds(450)),
        .value(9, at: .seconds(470)),
        .value(10, at: .seconds(560)),
        .value(11, at: .seconds(580)),
        .finished(at: .seconds(600)),
      ])

      let res = await clock.start(disposed: .seconds(400)) {
        xs.filter { (num: Int) -> Bool in
          invoked.increment()
          return isPrime(num)
        }
      }

      let expected: [Recorded<Int, Never>] = [
        .value(3, at: .seconds(230)),
        .value(5, at: .seconds(340)),
        .value(7, at: .seconds(390)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(400))])
      #expect(5 == invoked.value)
      await clock.expectNoLeaks()
    }
  }

  // MARK: merge and flatMap (Observable+MergeTests.swift)

  @Test("testMerge_ObservableOfObservable_Data: inners sending at one instant go in subscription order")
  func testMerge_ObservableOfObservable_Data() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let ys1 = clock.coldTimeline([
        .value(101, at: .seconds(10)),
        .value(102, at: .seconds(20)),
        .value(103, at: .seconds(110)),
        .value(104, at: .seconds(120)),
        .value(105, at: .seconds(210)),
        .value(106, at: .seconds(220)),
        .finished(at: .seconds(230)),
      ])

      let ys2 = clock.coldTimeline([
        .value(201, at: .seconds(10)),
        .value(202, at: .seconds(20)),
        .value(203, at: .seconds(30)),
        .value(204, at: .seconds(40)),
        .finished(at: .seconds(50)),
      ])

      let ys3 = clock.coldTimeline([
        .value(301, at: .seconds(10)),
        .value(302, at: .seconds(20)),
        .value(303, at: .seconds(30)),
        .value(304, at: .seconds(40)),
        .value(305, at: .seconds(120)),
        .finished(at: .seconds(150)),
      ])

      let xs: HotTimeline<ColdTimeline<Int, Never>, Never> = clock.hotTimeline([
        .value(ys1, at: .seconds(300)),
        .value(ys2, at: .seconds(400)),
        .value(ys3, at: .seconds(500)),
        .finished(at: .seconds(600)),
      ])

      let res = await clock.start {
        xs.flatMap(.merge) { $0 }
      }

      let expected: [Recorded<Int, Never>] = [
        .value(101, at: .seconds(310)),
        .value(102, at: .seconds(320)),
        .value(103, at: .seconds(410)),
        .value(201, at: .seconds(410)),
        .value(104, at: .seconds(420)),
        .value(202, at: .seconds(420)),
        .value(203, at: .seconds(430)),
        .value(204, at: .seconds(440)),
        .value(105, at: .seconds(510)),
        .value(301, at: .seconds(510)),
        .value(106, at: .seconds(520)),
        .value(302, at: .seconds(520)),
        .value(303, at: .seconds(530)),
        .value(304, at: .seconds(540)),
        .value(305, at: .seconds(620)),
        .finished(at: .seconds(650)),
      ]
      #expect(res.events == expected)
      #expect(ys1.subscriptions == [TimelineSubscription(.seconds(300), .seconds(530))])
      #expect(ys2.subscriptions == [TimelineSubscription(.seconds(400), .seconds(450))])
      #expect(ys3.subscriptions == [TimelineSubscription(.seconds(500), .seconds(650))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMerge_ObservableOfObservable_InnerThrows")
  func testMerge_ObservableOfObservable_InnerThrows() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let ys1: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(101, at: .seconds(10)),
        .value(102, at: .seconds(20)),
        .value(103, at: .seconds(110)),
        .value(104, at: .seconds(120)),
        .value(105, at: .seconds(210)),
        .value(106, at: .seconds(220)),
        .finished(at: .seconds(230)),
      ])

      let ys2: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(201, at: .seconds(10)),
        .value(202, at: .seconds(20)),
        .value(203, at: .seconds(30)),
        .value(204, at: .seconds(40)),
        .failed(testError1, at: .seconds(50)),
      ])

      let ys3: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(301, at: .seconds(10)),
        .value(302, at: .seconds(20)),
        .value(303, at: .seconds(30)),
        .value(304, at: .seconds(40)),
        .finished(at: .seconds(150)),
      ])

      let xs: HotTimeline<ColdTimeline<Int, TestError>, TestError> = clock.hotTimeline([
        .value(ys1, at: .seconds(300)),
        .value(ys2, at: .seconds(400)),
        .value(ys3, at: .seconds(500)),
        .finished(at: .seconds(600)),
      ])

      let res = await clock.start {
        xs.flatMap(.merge) { $0 }
      }

      let expected: [Recorded<Int, TestError>] = [
        .value(101, at: .seconds(310)),
        .value(102, at: .seconds(320)),
        .value(103, at: .seconds(410)),
        .value(201, at: .seconds(410)),
        .value(104, at: .seconds(420)),
        .value(202, at: .seconds(420)),
        .value(203, at: .seconds(430)),
        .value(204, at: .seconds(440)),
        .failed(testError1, at: .seconds(450)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(450))])
      #expect(ys1.subscriptions == [TimelineSubscription(.seconds(300), .seconds(450))])
      #expect(ys2.subscriptions == [TimelineSubscription(.seconds(400), .seconds(450))])
      #expect(ys3.subscriptions == [])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMerge_MergeConcat_Basic: merge(maxConcurrent: 2) of cold inners")
  func testMerge_MergeConcat_Basic() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let ys1 = clock.coldTimeline([
        .value(1, at: .seconds(50)),
        .value(2, at: .seconds(100)),
        .value(3, at: .seconds(120)),
        .finished(at: .seconds(140)),
      ])

      let ys2 = clock.coldTimeline([
        .value(4, at: .seconds(20)),
        .value(5, at: .seconds(70)),
        .finished(at: .seconds(200)),
      ])

      let ys3 = clock.coldTimeline([
        .value(6, at: .seconds(10)),
        .value(7, at: .seconds(90)),
        .value(8, at: .seconds(110)),
        .finished(at: .seconds(130)),
      ])

      let ys4 = clock.coldTimeline([
        .value(9, at: .seconds(210)),
        .value(10, at: .seconds(240)),
        .finished(at: .seconds(300)),
      ])

      let xs: HotTimeline<ColdTimeline<Int, Never>, Never> = clock.hotTimeline([
        .value(ys1, at: .seconds(210)),
        .value(ys2, at: .seconds(260)),
        .value(ys3, at: .seconds(270)),
        .value(ys4, at: .seconds(320)),
        .finished(at: .seconds(400)),
      ])

      let res = await clock.start {
        xs.flatMap(maxConcurrent: 2) { $0 }
      }

      let expected: [Recorded<Int, Never>] = [
        .value(1, at: .seconds(260)),
        .value(4, at: .seconds(280)),
        .value(2, at: .seconds(310)),
        .value(3, at: .seconds(330)),
        .value(5, at: .seconds(330)),
        .value(6, at: .seconds(360)),
        .value(7, at: .seconds(440)),
        .value(8, at: .seconds(460)),
        .value(9, at: .seconds(670)),
        .value(10, at: .seconds(700)),
        .finished(at: .seconds(760)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(400))])
      #expect(ys1.subscriptions == [TimelineSubscription(.seconds(210), .seconds(350))])
      #expect(ys2.subscriptions == [TimelineSubscription(.seconds(260), .seconds(460))])
      #expect(ys3.subscriptions == [TimelineSubscription(.seconds(350), .seconds(480))])
      #expect(ys4.subscriptions == [TimelineSubscription(.seconds(460), .seconds(760))])
      await clock.expectNoLeaks()
    }
  }

  // MARK: concat (Observable+ConcatTests.swift)

  @Test("testConcat_SomeDataSomeData")
  func testConcat_SomeDataSomeData() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs1 = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(220)),
        .finished(at: .seconds(225)),
      ])

      let xs2 = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(4, at: .seconds(230)),
        .value(5, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ])

      let res = await clock.start {
        concat([xs1, xs2])
      }

      let expected: [Recorded<Int, Never>] = [
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(230)),
        .value(5, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ]
      #expect(res.events == expected)
      #expect(xs1.subscriptions == [TimelineSubscription(.seconds(200), .seconds(225))])
      #expect(xs2.subscriptions == [TimelineSubscription(.seconds(225), .seconds(250))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testConcat_ReturnThrow")
  func testConcat_ReturnThrow() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs1: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(220)),
        .finished(at: .seconds(230)),
      ])

      let xs2: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .failed(testError2, at: .seconds(250)),
      ])

      let res = await clock.start {
        concat([xs1, xs2])
      }

      let expected: [Recorded<Int, TestError>] = [
        .value(2, at: .seconds(220)),
        .failed(testError2, at: .seconds(250)),
      ]
      #expect(res.events == expected)
      #expect(xs1.subscriptions == [TimelineSubscription(.seconds(200), .seconds(230))])
      #expect(xs2.subscriptions == [TimelineSubscription(.seconds(230), .seconds(250))])
      await clock.expectNoLeaks()
    }
  }

  // MARK: sample (Observable+SampleTests.swift)

  @Test("testSample_Sampler_Simple1")
  func testSample_Sampler_Simple1() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(220)),
        .value(3, at: .seconds(240)),
        .value(4, at: .seconds(290)),
        .value(5, at: .seconds(300)),
        .value(6, at: .seconds(310)),
        .finished(at: .seconds(400)),
      ])

      let ys = clock.hotTimeline([
        .value("", at: .seconds(150)),
        .value("bar", at: .seconds(210)),
        .value("foo", at: .seconds(250)),
        .value("qux", at: .seconds(260)),
        .value("baz", at: .seconds(320)),
        .finished(at: .seconds(500)),
      ])

      let res = await clock.start {
        xs.sample(on: ys)
      }

      let expected: [Recorded<Int, Never>] = [
        .value(3, at: .seconds(250)),
        .value(6, at: .seconds(320)),
        .finished(at: .seconds(500)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(400))])
      #expect(ys.subscriptions == [TimelineSubscription(.seconds(200), .seconds(500))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSample_Sampler_SourceThrows: the source's 5 and the sampler's tick at 300 in creation order")
  func testSample_Sampler_SourceThrows() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(220)),
        .value(3, at: .seconds(240)),
        .value(4, at: .seconds(290)),
        .value(5, at: .seconds(300)),
        .value(6, at: .seconds(310)),
        .failed(testError, at: .seconds(320)),
      ])

      let ys = clock.hotTimeline([
        .value("", at: .seconds(150)),
        .value("bar", at: .seconds(210)),
        .value("foo", at: .seconds(250)),
        .value("qux", at: .seconds(260)),
        .value("baz", at: .seconds(300)),
        .finished(at: .seconds(400)),
      ])

      let res = await clock.start {
        xs.sample(on: ys)
      }

      let expected: [Recorded<Int, TestError>] = [
        .value(3, at: .seconds(250)),
        .value(5, at: .seconds(300)),
        .failed(testError, at: .seconds(320)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(320))])
      #expect(ys.subscriptions == [TimelineSubscription(.seconds(200), .seconds(320))])
      await clock.expectNoLeaks()
    }
  }

  // MARK: throttle (Observable+ThrottleTests.swift)

  @Test("test_ThrottleTimeSpan_Error: the error, scheduled with the timeline, comes before the window's end")
  func test_ThrottleTimeSpan_Error() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(250)),
        .value(4, at: .seconds(310)),
        .value(5, at: .seconds(350)),
        .failed(testError, at: .seconds(410)),
        .value(7, at: .seconds(450)),
        .finished(at: .seconds(500)),
      ])

      let res = await clock.start {
        xs.throttle(for: .seconds(200), clock: clock)
      }

      let expected: [Recorded<Int, TestError>] = [
        .value(2, at: .seconds(210)),
        .failed(testError, at: .seconds(410)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(410))])
      await clock.expectNoLeaks()
    }
  }

  @Test("test_ThrottleTimeSpan_NotLatest_Completed")
  func test_ThrottleTimeSpan_NotLatest_Completed() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(250)),
        .value(4, at: .seconds(310)),
        .value(5, at: .seconds(350)),
        .value(6, at: .seconds(410)),
        .value(7, at: .seconds(450)),
        .finished(at: .seconds(500)),
      ])

      let res = await clock.start {
        xs.throttle(for: .seconds(200), clock: clock, latest: false)
      }

      let expected: [Recorded<Int, Never>] = [
        .value(2, at: .seconds(210)),
        .value(6, at: .seconds(410)),
        .finished(at: .seconds(500)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(500))])
      await clock.expectNoLeaks()
    }
  }

  // MARK: retry (RxSwift counts attempts: its retry(3) is retry(2) here)

  @Test("testRetryCount_Basic: RxSwift's retry(3) is retry(2)")
  func testRetryCount_Basic() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(1, at: .seconds(5)),
        .value(2, at: .seconds(10)),
        .value(3, at: .seconds(15)),
        .failed(testError, at: .seconds(20)),
      ])

      let res = await clock.start {
        xs.retry(2)
      }

      let expected: [Recorded<Int, TestError>] = [
        .value(1, at: .seconds(205)),
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(215)),
        .value(1, at: .seconds(225)),
        .value(2, at: .seconds(230)),
        .value(3, at: .seconds(235)),
        .value(1, at: .seconds(245)),
        .value(2, at: .seconds(250)),
        .value(3, at: .seconds(255)),
        .failed(testError, at: .seconds(260)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(200), .seconds(220)),
          TimelineSubscription(.seconds(220), .seconds(240)),
          TimelineSubscription(.seconds(240), .seconds(260)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testRetry_Observable_Error: retry() until the disposal at 1100")
  func testRetry_Observable_Error() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(1, at: .seconds(100)),
        .value(2, at: .seconds(150)),
        .value(3, at: .seconds(200)),
        .failed(testError, at: .seconds(250)),
      ])

      let res = await clock.start(disposed: .seconds(1100)) {
        xs.retry()
      }

      let expected: [Recorded<Int, TestError>] = [
        .value(1, at: .seconds(300)),
        .value(2, at: .seconds(350)),
        .value(3, at: .seconds(400)),
        .value(1, at: .seconds(550)),
        .value(2, at: .seconds(600)),
        .value(3, at: .seconds(650)),
        .value(1, at: .seconds(800)),
        .value(2, at: .seconds(850)),
        .value(3, at: .seconds(900)),
        .value(1, at: .seconds(1050)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(200), .seconds(450)),
          TimelineSubscription(.seconds(450), .seconds(700)),
          TimelineSubscription(.seconds(700), .seconds(950)),
          TimelineSubscription(.seconds(950), .seconds(1100)),
        ])
      await clock.expectNoLeaks()
    }
  }

  // MARK: take(until:) (Observable+TakeUntilTests.swift)

  @Test("testTakeUntil_Preempt_SomeData_Next")
  func testTakeUntil_Preempt_SomeData_Next() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let l = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(230)),
        .value(5, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ])

      let r = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(99, at: .seconds(225)),
        .finished(at: .seconds(230)),
      ])

      let res = await clock.start {
        l.take(until: r)
      }

      let expected: [Recorded<Int, Never>] = [
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(220)),
        .finished(at: .seconds(225)),
      ]
      #expect(res.events == expected)
      #expect(l.subscriptions == [TimelineSubscription(.seconds(200), .seconds(225))])
      #expect(r.subscriptions == [TimelineSubscription(.seconds(200), .seconds(225))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testTakeUntil_NoPreempt_SomeData_Empty")
  func testTakeUntil_NoPreempt_SomeData_Empty() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let l = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(230)),
        .value(5, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ])

      let r = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .finished(at: .seconds(225)),
      ])

      let res = await clock.start {
        l.take(until: r)
      }

      let expected: [Recorded<Int, Never>] = [
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(230)),
        .value(5, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ]
      #expect(res.events == expected)
      #expect(l.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
      #expect(r.subscriptions == [TimelineSubscription(.seconds(200), .seconds(225))])
      await clock.expectNoLeaks()
    }
  }

  // MARK: combineLatest (Observable+CombineLatestTests.swift)

  @Test("testCombineLatest_InterleavedWithTailN: e0's end and e1's 5 at 230 in creation order")
  func testCombineLatest_InterleavedWithTailN() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let e0 = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(215)),
        .value(4, at: .seconds(225)),
        .finished(at: .seconds(230)),
      ])

      let e1 = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(3, at: .seconds(220)),
        .value(5, at: .seconds(230)),
        .value(6, at: .seconds(235)),
        .value(7, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ])

      let res = await clock.start {
        combineLatest([e0, e1]).map { $0.reduce(0, +) }
      }

      let expected: [Recorded<Int, Never>] = [
        .value(2 + 3, at: .seconds(220)),
        .value(3 + 4, at: .seconds(225)),
        .value(4 + 5, at: .seconds(230)),
        .value(4 + 6, at: .seconds(235)),
        .value(4 + 7, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ]
      #expect(res.events == expected)
      #expect(e0.subscriptions == [TimelineSubscription(.seconds(200), .seconds(230))])
      #expect(e1.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testCombineLatest_ErrorAfterCompletedN")
  func testCombineLatest_ErrorAfterCompletedN() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let e0: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(215)),
        .finished(at: .seconds(220)),
      ])

      let e1: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .failed(testError2, at: .seconds(230)),
      ])

      let res = await clock.start {
        combineLatest([e0, e1]).map { $0.reduce(0, +) }
      }

      let expected: [Recorded<Int, TestError>] = [
        .failed(testError2, at: .seconds(230))
      ]
      #expect(res.events == expected)
      #expect(e0.subscriptions == [TimelineSubscription(.seconds(200), .seconds(220))])
      #expect(e1.subscriptions == [TimelineSubscription(.seconds(200), .seconds(230))])
      await clock.expectNoLeaks()
    }
  }
}
