import AsyncReactive
import AsyncReactiveTesting
import Testing

// RxSwift 6's own tests of `skip(until:)` (Tests/RxSwiftTests/Observable+SkipUntilTests.swift), ported line by line
// as RxSwiftPortedOperatorTests ports the others. One deliberate difference, named in the tests it touches: when the
// source ends while the gate is still shut, RxSwift's result never ends; this library's ends with its source, so
// that a `for await` over it returns.

private let testError = TestError(code: 0)

@Suite("RxSwift's skip(until:) tests, ported line by line", .timeLimit(.minutes(1)))
struct RxSwiftPortedSkipUntilTests {

  @Test("testSkipUntil_SomeData_Next")
  func testSkipUntil_SomeData_Next() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let l: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(230)),
        .value(5, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ])
      let r: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(99, at: .seconds(225)),
        .finished(at: .seconds(230)),
      ])

      let res = await clock.start { l.skip(until: r) }

      let expected: [Recorded<Int, TestError>] = [
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

  @Test("testSkipUntil_SomeData_Error")
  func testSkipUntil_SomeData_Error() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let l: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(230)),
        .value(5, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ])
      let r: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .failed(testError, at: .seconds(225)),
      ])

      let res = await clock.start { l.skip(until: r) }

      let expected: [Recorded<Int, TestError>] = [
        .failed(testError, at: .seconds(225))
      ]
      #expect(res.events == expected)
      #expect(l.subscriptions == [TimelineSubscription(.seconds(200), .seconds(225))])
      #expect(r.subscriptions == [TimelineSubscription(.seconds(200), .seconds(225))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSkipUntil_Error_SomeData")
  func testSkipUntil_Error_SomeData() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let l: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(210)),
        .failed(testError, at: .seconds(220)),
      ])
      let r: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(230)),
        .finished(at: .seconds(250)),
      ])

      let res = await clock.start { l.skip(until: r) }

      let expected: [Recorded<Int, TestError>] = [
        .failed(testError, at: .seconds(220))
      ]
      #expect(res.events == expected)
      #expect(l.subscriptions == [TimelineSubscription(.seconds(200), .seconds(220))])
      #expect(r.subscriptions == [TimelineSubscription(.seconds(200), .seconds(220))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSkipUntil_SomeData_Empty (RxSwift never ends the result here; this library ends it with its source)")
  func testSkipUntil_SomeData_Empty() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let l: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(230)),
        .value(5, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ])
      let r: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .finished(at: .seconds(225)),
      ])

      let res = await clock.start { l.skip(until: r) }

      let expected: [Recorded<Int, TestError>] = [
        .finished(at: .seconds(250))
      ]
      #expect(res.events == expected)
      #expect(l.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
      #expect(r.subscriptions == [TimelineSubscription(.seconds(200), .seconds(225))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSkipUntil_Never_Next")
  func testSkipUntil_Never_Next() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let l: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150))
      ])
      let r: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(225)),
        .finished(at: .seconds(250)),
      ])

      let res = await clock.start { l.skip(until: r) }

      let expected: [Recorded<Int, TestError>] = []
      #expect(res.events == expected)
      #expect(l.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
      #expect(r.subscriptions == [TimelineSubscription(.seconds(200), .seconds(225))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSkipUntil_Never_Error1")
  func testSkipUntil_Never_Error1() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let l: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150))
      ])
      let r: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .failed(testError, at: .seconds(225)),
      ])

      let res = await clock.start { l.skip(until: r) }

      let expected: [Recorded<Int, TestError>] = [
        .failed(testError, at: .seconds(225))
      ]
      #expect(res.events == expected)
      #expect(l.subscriptions == [TimelineSubscription(.seconds(200), .seconds(225))])
      #expect(r.subscriptions == [TimelineSubscription(.seconds(200), .seconds(225))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSkipUntil_SomeData_Error2 (RxSwift never ends the result here; this library ends it with its source)")
  func testSkipUntil_SomeData_Error2() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let l: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(230)),
        .value(5, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ])
      let r: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .failed(testError, at: .seconds(300)),
      ])

      let res = await clock.start { l.skip(until: r) }

      let expected: [Recorded<Int, TestError>] = [
        .finished(at: .seconds(250))
      ]
      #expect(res.events == expected)
      #expect(l.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
      #expect(r.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSkipUntil_SomeData_Never (RxSwift never ends the result here; this library ends it with its source)")
  func testSkipUntil_SomeData_Never() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let l: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(230)),
        .value(5, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ])
      let r: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150))
      ])

      let res = await clock.start { l.skip(until: r) }

      let expected: [Recorded<Int, TestError>] = [
        .finished(at: .seconds(250))
      ]
      #expect(res.events == expected)
      #expect(l.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
      #expect(r.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSkipUntil_Never_Empty")
  func testSkipUntil_Never_Empty() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let l: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150))
      ])
      let r: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .finished(at: .seconds(225)),
      ])

      let res = await clock.start { l.skip(until: r) }

      let expected: [Recorded<Int, TestError>] = []
      #expect(res.events == expected)
      #expect(l.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
      #expect(r.subscriptions == [TimelineSubscription(.seconds(200), .seconds(225))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSkipUntil_Never_Never")
  func testSkipUntil_Never_Never() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let l: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150))
      ])
      let r: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150))
      ])

      let res = await clock.start { l.skip(until: r) }

      let expected: [Recorded<Int, TestError>] = []
      #expect(res.events == expected)
      #expect(l.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
      #expect(r.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSkipUntil_HasCompletedCausesDisposal (the result ends with its source here; RxSwift's never ends)")
  func testSkipUntil_HasCompletedCausesDisposal() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let l: HotTimeline<Int, Never> = clock.hotTimeline([
        .value(1, at: .seconds(150)),
        .value(2, at: .seconds(210)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(230)),
        .value(5, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ])
      // RxSwift's `Observable.create` that only notes its disposal: a trigger that never sends, whose
      // subscription log shows when it was let go.
      let r: HotTimeline<Int, Never> = clock.hotTimeline([])

      let res = await clock.start { l.skip(until: r) }

      #expect(res.events == [.finished(at: .seconds(250))])
      #expect(r.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
      await clock.expectNoLeaks()
    }
  }
}
