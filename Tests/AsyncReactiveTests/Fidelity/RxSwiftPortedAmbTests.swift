import AsyncReactive
import AsyncReactiveTesting
import Testing

// RxSwift 6's own tests of `amb` (Tests/RxSwiftTests/Observable+AmbTests.swift), ported line by line as
// RxSwiftPortedOperatorTests ports the others.

private let testError = TestError(code: 0)

@Suite("RxSwift's amb tests, ported line by line", .timeLimit(.minutes(1)))
struct RxSwiftPortedAmbTests {

  @Test("testAmb_Never2")
  func testAmb_Never2() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let x1: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150))
      ])
      let x2: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150))
      ])

      let res = await clock.start { x1.amb(x2) }

      let expected: [Recorded<Int, TestError>] = []
      #expect(res.events == expected)
      #expect(x1.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
      #expect(x2.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testAmb_Never3")
  func testAmb_Never3() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let x1: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150))
      ])
      let x2: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150))
      ])
      let x3: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150))
      ])

      let res = await clock.start { amb([x1, x2, x3]) }

      let expected: [Recorded<Int, TestError>] = []
      #expect(res.events == expected)
      #expect(x1.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
      #expect(x2.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
      #expect(x3.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testAmb_Never_Empty")
  func testAmb_Never_Empty() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let x1: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150))
      ])
      let x2: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .finished(at: .seconds(225)),
      ])

      let res = await clock.start { x1.amb(x2) }

      let expected: [Recorded<Int, TestError>] = [
        .finished(at: .seconds(225))
      ]
      #expect(res.events == expected)
      #expect(x1.subscriptions == [TimelineSubscription(.seconds(200), .seconds(225))])
      #expect(x2.subscriptions == [TimelineSubscription(.seconds(200), .seconds(225))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testAmb_RegularShouldDisposeLoser")
  func testAmb_RegularShouldDisposeLoser() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let x1: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(210)),
        .finished(at: .seconds(240)),
      ])
      let x2: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(3, at: .seconds(220)),
        .finished(at: .seconds(250)),
      ])

      let res = await clock.start { x1.amb(x2) }

      let expected: [Recorded<Int, TestError>] = [
        .value(2, at: .seconds(210)),
        .finished(at: .seconds(240)),
      ]
      #expect(res.events == expected)
      #expect(x1.subscriptions == [TimelineSubscription(.seconds(200), .seconds(240))])
      #expect(x2.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testAmb_WinnerThrows")
  func testAmb_WinnerThrows() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let x1: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(210)),
        .failed(testError, at: .seconds(220)),
      ])
      let x2: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(3, at: .seconds(220)),
        .finished(at: .seconds(250)),
      ])

      let res = await clock.start { x1.amb(x2) }

      let expected: [Recorded<Int, TestError>] = [
        .value(2, at: .seconds(210)),
        .failed(testError, at: .seconds(220)),
      ]
      #expect(res.events == expected)
      #expect(x1.subscriptions == [TimelineSubscription(.seconds(200), .seconds(220))])
      #expect(x2.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testAmb_LoserThrows")
  func testAmb_LoserThrows() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let x1: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(220)),
        .failed(testError, at: .seconds(230)),
      ])
      let x2: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(3, at: .seconds(210)),
        .finished(at: .seconds(250)),
      ])

      let res = await clock.start { x1.amb(x2) }

      let expected: [Recorded<Int, TestError>] = [
        .value(3, at: .seconds(210)),
        .finished(at: .seconds(250)),
      ]
      #expect(res.events == expected)
      #expect(x1.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      #expect(x2.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testAmb_ThrowsBeforeElectionLeft")
  func testAmb_ThrowsBeforeElectionLeft() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let x1: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .failed(testError, at: .seconds(210)),
      ])
      let x2: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(3, at: .seconds(220)),
        .finished(at: .seconds(250)),
      ])

      let res = await clock.start { x1.amb(x2) }

      let expected: [Recorded<Int, TestError>] = [
        .failed(testError, at: .seconds(210))
      ]
      #expect(res.events == expected)
      #expect(x1.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      #expect(x2.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testAmb_ThrowsBeforeElectionRight")
  func testAmb_ThrowsBeforeElectionRight() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let x1: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(3, at: .seconds(220)),
        .finished(at: .seconds(250)),
      ])
      let x2: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .failed(testError, at: .seconds(210)),
      ])

      let res = await clock.start { x1.amb(x2) }

      let expected: [Recorded<Int, TestError>] = [
        .failed(testError, at: .seconds(210))
      ]
      #expect(res.events == expected)
      #expect(x1.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      #expect(x2.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      await clock.expectNoLeaks()
    }
  }

  @Test("amb of cold inputs: the one that answers first wins, the other is cancelled; an empty array finishes")
  func coldInputs() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let slow: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(1, at: .seconds(20)), .finished(at: .seconds(30)),
      ])
      let fast: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(2, at: .seconds(10)), .finished(at: .seconds(40)),
      ])

      let res = await clock.start { slow.amb(fast) }

      #expect(res.events == [.value(2, at: .seconds(210)), .finished(at: .seconds(240))])
      #expect(slow.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      #expect(fast.subscriptions == [TimelineSubscription(.seconds(200), .seconds(240))])
      await clock.expectNoLeaks()
    }
    #expect(await amb([Signal<Int, Never>]()).collect() == [])
  }
}
