import AsyncReactive
import AsyncReactiveTesting
import Testing

// RxSwift 6's own tests of `ifEmpty(switchTo:)` (Observable+SwitchIfEmptyTests.swift) and `delaySubscription`
// (Observable+DelaySubscriptionTests.swift), ported line by line as RxSwiftPortedOperatorTests ports the others.

private let testError = TestError(code: 0)

@Suite("RxSwift's ifEmpty(switchTo:) and delaySubscription tests, ported line by line", .timeLimit(.minutes(1)))
struct RxSwiftPortedSwitchIfEmptyTests {
  private static let switchEvents: [Recorded<Int, TestError>] = [
    .value(0, at: .seconds(10)),
    .value(1, at: .seconds(20)),
    .value(2, at: .seconds(30)),
    .value(3, at: .seconds(40)),
    .finished(at: .seconds(50)),
  ]

  @Test("testSwitchIfEmpty_SourceNotEmpty_SwitchCompletes")
  func testSwitchIfEmpty_SourceNotEmpty_SwitchCompletes() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let source: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(205)),
        .finished(at: .seconds(210)),
      ])
      let switchSource = clock.coldTimeline(Self.switchEvents)

      let res = await clock.start { source.ifEmpty(switchTo: switchSource) }

      #expect(res.events == [.value(1, at: .seconds(205)), .finished(at: .seconds(210))])
      #expect(source.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      #expect(switchSource.subscriptions == [])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSwitchIfEmpty_SourceNotEmptyError_SwitchCompletes")
  func testSwitchIfEmpty_SourceNotEmptyError_SwitchCompletes() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let source: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(205)),
        .failed(testError, at: .seconds(210)),
      ])
      let switchSource = clock.coldTimeline(Self.switchEvents)

      let res = await clock.start { source.ifEmpty(switchTo: switchSource) }

      #expect(res.events == [.value(1, at: .seconds(205)), .failed(testError, at: .seconds(210))])
      #expect(source.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      #expect(switchSource.subscriptions == [])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSwitchIfEmpty_SourceEmptyError_SwitchCompletes")
  func testSwitchIfEmpty_SourceEmptyError_SwitchCompletes() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let source: HotTimeline<Int, TestError> = clock.hotTimeline([.failed(testError, at: .seconds(210))])
      let switchSource = clock.coldTimeline(Self.switchEvents)

      let res = await clock.start { source.ifEmpty(switchTo: switchSource) }

      #expect(res.events == [.failed(testError, at: .seconds(210))])
      #expect(source.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      #expect(switchSource.subscriptions == [])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSwitchIfEmpty_SourceEmpty_SwitchCompletes")
  func testSwitchIfEmpty_SourceEmpty_SwitchCompletes() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let source: HotTimeline<Int, TestError> = clock.hotTimeline([.finished(at: .seconds(210))])
      let switchSource = clock.coldTimeline(Self.switchEvents)

      let res = await clock.start { source.ifEmpty(switchTo: switchSource) }

      let expected: [Recorded<Int, TestError>] = [
        .value(0, at: .seconds(220)),
        .value(1, at: .seconds(230)),
        .value(2, at: .seconds(240)),
        .value(3, at: .seconds(250)),
        .finished(at: .seconds(260)),
      ]
      #expect(res.events == expected)
      #expect(source.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      #expect(switchSource.subscriptions == [TimelineSubscription(.seconds(210), .seconds(260))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSwitchIfEmpty_SourceEmpty_SwitchError")
  func testSwitchIfEmpty_SourceEmpty_SwitchError() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let source: HotTimeline<Int, TestError> = clock.hotTimeline([.finished(at: .seconds(210))])
      let switchSource: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(0, at: .seconds(10)),
        .value(1, at: .seconds(20)),
        .value(2, at: .seconds(30)),
        .value(3, at: .seconds(40)),
        .failed(testError, at: .seconds(50)),
      ])

      let res = await clock.start { source.ifEmpty(switchTo: switchSource) }

      let expected: [Recorded<Int, TestError>] = [
        .value(0, at: .seconds(220)),
        .value(1, at: .seconds(230)),
        .value(2, at: .seconds(240)),
        .value(3, at: .seconds(250)),
        .failed(testError, at: .seconds(260)),
      ]
      #expect(res.events == expected)
      #expect(source.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      #expect(switchSource.subscriptions == [TimelineSubscription(.seconds(210), .seconds(260))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSwitchIfEmpty_Never")
  func testSwitchIfEmpty_Never() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let source: HotTimeline<Int, TestError> = clock.hotTimeline([.value(0, at: .seconds(0))])
      let switchSource = clock.coldTimeline(Self.switchEvents)

      let res = await clock.start { source.ifEmpty(switchTo: switchSource) }

      #expect(res.events == [])
      #expect(source.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
      #expect(switchSource.subscriptions == [])
      await clock.expectNoLeaks()
    }
  }

  // MARK: delaySubscription (Observable+DelaySubscriptionTests.swift)

  @Test("testDelaySubscription_TimeSpan_Simple")
  func testDelaySubscription_TimeSpan_Simple() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(42, at: .seconds(50)),
        .value(43, at: .seconds(60)),
        .finished(at: .seconds(70)),
      ])

      let res = await clock.start { xs.delaySubscription(for: .seconds(30), clock: clock) }

      let expected: [Recorded<Int, TestError>] = [
        .value(42, at: .seconds(280)),
        .value(43, at: .seconds(290)),
        .finished(at: .seconds(300)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(230), .seconds(300))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testDelaySubscription_TimeSpan_Error")
  func testDelaySubscription_TimeSpan_Error() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(42, at: .seconds(50)),
        .value(43, at: .seconds(60)),
        .failed(testError, at: .seconds(70)),
      ])

      let res = await clock.start { xs.delaySubscription(for: .seconds(30), clock: clock) }

      let expected: [Recorded<Int, TestError>] = [
        .value(42, at: .seconds(280)),
        .value(43, at: .seconds(290)),
        .failed(testError, at: .seconds(300)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(230), .seconds(300))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testDelaySubscription_TimeSpan_Dispose")
  func testDelaySubscription_TimeSpan_Dispose() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(42, at: .seconds(50)),
        .value(43, at: .seconds(60)),
        .failed(testError, at: .seconds(70)),
      ])

      let res = await clock.start(disposed: .seconds(291)) { xs.delaySubscription(for: .seconds(30), clock: clock) }

      #expect(res.events == [.value(42, at: .seconds(280)), .value(43, at: .seconds(290))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(230), .seconds(291))])
      await clock.expectNoLeaks()
    }
  }
}
