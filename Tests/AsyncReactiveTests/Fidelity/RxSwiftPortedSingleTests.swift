import AsyncReactive
import AsyncReactiveTesting
import Testing

// RxSwift 6's own tests of `single()` and `single(_:)` (Tests/RxSwiftTests/Observable+SingleTests.swift), ported
// line by line as RxSwiftPortedOperatorTests ports the others. RxSwift's `RxError.noElements` and
// `RxError.moreThanOneElement` are `SingleFailure.noElements` and `.moreThanOneElement`; its other errors come
// wrapped in `SingleFailure.failed`.

private let testError = TestError(code: 0)

private typealias Failure = SingleFailure<TestError>

@Suite("RxSwift's single tests, ported line by line", .timeLimit(.minutes(1)))
struct RxSwiftPortedSingleTests {
  /// RxSwift's timeline of the predicate tests: 1 before the subscription, 2 to 5, the end at 250.
  private static func twoToFive(clock: TestClock) -> HotTimeline<Int, TestError> {
    clock.hotTimeline([
      .value(1, at: .seconds(150)), .value(2, at: .seconds(210)), .value(3, at: .seconds(220)),
      .value(4, at: .seconds(230)), .value(5, at: .seconds(240)), .finished(at: .seconds(250)),
    ])
  }

  @Test("testSingle_Empty")
  func testSingle_Empty() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)), .finished(at: .seconds(250)),
      ])
      let res = await clock.start { xs.single() }
      let expected: [Recorded<Int, Failure>] = [.failed(.noElements, at: .seconds(250))]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSingle_One")
  func testSingle_One() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)), .value(2, at: .seconds(210)), .finished(at: .seconds(250)),
      ])
      let res = await clock.start { xs.single() }
      let expected: [Recorded<Int, Failure>] = [.value(2, at: .seconds(210)), .finished(at: .seconds(250))]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSingle_Many")
  func testSingle_Many() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)), .value(2, at: .seconds(210)), .value(3, at: .seconds(220)),
        .finished(at: .seconds(250)),
      ])
      let res = await clock.start { xs.single() }
      let expected: [Recorded<Int, Failure>] = [
        .value(2, at: .seconds(210)), .failed(.moreThanOneElement, at: .seconds(220)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(220))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSingle_Error")
  func testSingle_Error() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)), .failed(testError, at: .seconds(210)),
      ])
      let res = await clock.start { xs.single() }
      let expected: [Recorded<Int, Failure>] = [.failed(.failed(testError), at: .seconds(210))]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSinglePredicate_Empty")
  func testSinglePredicate_Empty() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)), .finished(at: .seconds(250)),
      ])
      let res = await clock.start { xs.single(where: { $0 % 2 == 1 }) }
      let expected: [Recorded<Int, Failure>] = [.failed(.noElements, at: .seconds(250))]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSinglePredicate_One")
  func testSinglePredicate_One() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = Self.twoToFive(clock: clock)
      let res = await clock.start { xs.single(where: { $0 == 4 }) }
      let expected: [Recorded<Int, Failure>] = [.value(4, at: .seconds(230)), .finished(at: .seconds(250))]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSinglePredicate_Many")
  func testSinglePredicate_Many() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = Self.twoToFive(clock: clock)
      let res = await clock.start { xs.single(where: { $0 % 2 == 1 }) }
      let expected: [Recorded<Int, Failure>] = [
        .value(3, at: .seconds(220)), .failed(.moreThanOneElement, at: .seconds(240)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(240))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSinglePredicate_Error")
  func testSinglePredicate_Error() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)), .failed(testError, at: .seconds(210)),
      ])
      let res = await clock.start { xs.single(where: { $0 % 2 == 1 }) }
      let expected: [Recorded<Int, Failure>] = [.failed(.failed(testError), at: .seconds(210))]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(210))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testSinglePredicate_Throws")
  func testSinglePredicate_Throws() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = Self.twoToFive(clock: clock)
      let res = await clock.start {
        xs.single(where: { (e: Int) throws(TestError) -> Bool in
          guard e < 4 else { throw testError }
          return false
        })
      }
      let expected: [Recorded<Int, Failure>] = [.failed(.failed(testError), at: .seconds(230))]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(230))])
      await clock.expectNoLeaks()
    }
  }

  @Test("on a cold sequence: the value, then the end; each run counts anew")
  func cold() async throws {
    let one = Signal<Int, Never>([7]).single()
    #expect(try await one.collect() == [7])
    #expect(try await one.collect() == [7])
    await #expect(throws: SingleFailure<Never>.moreThanOneElement) {
      try await Signal<Int, Never>([1, 2]).single().collect()
    }
    await #expect(throws: SingleFailure<Never>.noElements) { try await Signal<Int, Never>.empty.single().collect() }
  }
}
