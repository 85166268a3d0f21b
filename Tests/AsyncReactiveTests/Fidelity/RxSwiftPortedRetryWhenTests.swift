import AsyncReactive
import AsyncReactiveTesting
import Testing

// RxSwift 6's retryWhen tests (Observable+RetryWhenTests.swift), ported line by line: `retryWhen { errors in … }` is
// `retry(when: { failures in … })`, whose handler gets the run's failures as a hot signal. Not ported:
// testRetryWhen_IgnoresDifferentErrorTypes (the failures here have the sequence's own type) and the
// tail-recursion test (a synchronous stack-depth check of RxSwift's scheduler).

private let retryError = TestError(code: 9)
private let testError1 = TestError(code: 1)

@Suite("RxSwift's retryWhen tests, ported", .timeLimit(.minutes(1)))
struct RxSwiftPortedRetryWhenTests {
  @Test("testRetryWhen_Never")
  func never() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)), .finished(at: .seconds(250)),
      ])
      let empty: HotTimeline<Int, Never> = clock.hotTimeline([
        .value(1, at: .seconds(150)), .finished(at: .seconds(210)),
      ])
      let res = await clock.start(disposed: .seconds(300)) { Signal(xs).retry(when: { _ in empty }) }
      #expect(res.events == [.finished(at: .seconds(250))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
    }
  }

  @Test("testRetryWhen_ObservableNever")
  func observableNever() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)), .value(2, at: .seconds(210)), .value(3, at: .seconds(220)),
        .value(4, at: .seconds(230)), .value(5, at: .seconds(240)), .failed(retryError, at: .seconds(250)),
      ])
      let never: HotTimeline<Int, Never> = clock.hotTimeline([.value(1, at: .seconds(150))])
      let res = await clock.start { Signal(xs).retry(when: { _ in never }) }
      #expect(
        res.events == [
          .value(2, at: .seconds(210)), .value(3, at: .seconds(220)), .value(4, at: .seconds(230)),
          .value(5, at: .seconds(240)),
        ])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
    }
  }

  @Test("testRetryWhen_ObservableNeverComplete")
  func observableNeverComplete() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)), .value(2, at: .seconds(210)), .value(3, at: .seconds(220)),
        .value(4, at: .seconds(230)), .value(5, at: .seconds(240)), .finished(at: .seconds(250)),
      ])
      let never: HotTimeline<Int, Never> = clock.hotTimeline([.value(1, at: .seconds(150))])
      let res = await clock.start { Signal(xs).retry(when: { _ in never }) }
      #expect(
        res.events == [
          .value(2, at: .seconds(210)), .value(3, at: .seconds(220)), .value(4, at: .seconds(230)),
          .value(5, at: .seconds(240)), .finished(at: .seconds(250)),
        ])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
    }
  }

  @Test("testRetryWhen_ObservableEmpty")
  func observableEmpty() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(1, at: .seconds(100)), .value(2, at: .seconds(150)), .value(3, at: .seconds(200)),
        .finished(at: .seconds(250)),
      ])
      let empty: HotTimeline<Int, Never> = clock.hotTimeline([.value(0, at: .seconds(150)), .finished(at: .zero)])
      let res = await clock.start { xs.retry(when: { _ in empty }) }
      #expect(
        res.events == [
          .value(1, at: .seconds(300)), .value(2, at: .seconds(350)), .value(3, at: .seconds(400)),
          .finished(at: .seconds(450)),
        ])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(450))])
    }
  }

  /// RxSwift's cold source of the next tests: 1, 2, then the failure.
  static func failingTwice(_ clock: TestClock) -> ColdTimeline<Int, TestError> {
    clock.coldTimeline([
      .value(1, at: .seconds(10)), .value(2, at: .seconds(20)), .failed(retryError, at: .seconds(30)),
      .finished(at: .seconds(40)),
    ])
  }

  @Test("testRetryWhen_ObservableNextError")
  func observableNextError() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = Self.failingTwice(clock)
      let res = await clock.start(disposed: .seconds(300)) {
        xs.retry(when: { failures in
          failures.scan(0) { (count: Int, _: TestError) throws -> Int in
            if count + 1 == 2 { throw testError1 }
            return count + 1
          }
        })
      }
      let expected: [Recorded<Int, any Error>] = [
        .value(1, at: .seconds(210)), .value(2, at: .seconds(220)), .value(1, at: .seconds(240)),
        .value(2, at: .seconds(250)), .failed(testError1, at: .seconds(260)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(200), .seconds(230)), TimelineSubscription(.seconds(230), .seconds(260)),
        ])
    }
  }

  @Test("testRetryWhen_ObservableComplete")
  func observableComplete() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = Self.failingTwice(clock)
      let empty: HotTimeline<Int, Never> = clock.hotTimeline([
        .value(1, at: .seconds(150)), .finished(at: .seconds(230)),
      ])
      let res = await clock.start { xs.retry(when: { _ in empty }) }
      #expect(res.events == [.value(1, at: .seconds(210)), .value(2, at: .seconds(220)), .finished(at: .seconds(230))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(230))])
    }
  }

  @Test("testRetryWhen_ObservableNextComplete")
  func observableNextComplete() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = Self.failingTwice(clock)
      let res = await clock.start(disposed: .seconds(300)) {
        xs.retry(when: { failures in failures.scan(0) { count, _ in count + 1 }.prefix(while: { $0 < 2 }) })
      }
      #expect(
        res.events == [
          .value(1, at: .seconds(210)), .value(2, at: .seconds(220)), .value(1, at: .seconds(240)),
          .value(2, at: .seconds(250)), .finished(at: .seconds(260)),
        ])
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(200), .seconds(230)), TimelineSubscription(.seconds(230), .seconds(260)),
        ])
    }
  }

  @Test("testRetryWhen_ObservableInfinite")
  func observableInfinite() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = Self.failingTwice(clock)
      let never: HotTimeline<Int, Never> = clock.hotTimeline([.value(1, at: .seconds(150))])
      let res = await clock.start { xs.retry(when: { _ in never }) }
      #expect(res.events == [.value(1, at: .seconds(210)), .value(2, at: .seconds(220))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(230))])
    }
  }

  @Test("testRetryWhen_Incremental_BackOff")
  func incrementalBackOff() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(1, at: .seconds(5)), .failed(retryError, at: .seconds(10)),
      ])
      let maxAttempts = 4
      let res = await clock.start(disposed: .seconds(800)) {
        xs.retry(when: { failures in
          failures.enumerated().flatMap { attempt, failure -> Signal<Int, TestError> in
            if attempt >= maxAttempts - 1 { return .fail(failure) }
            return Signal.timer(after: .seconds((attempt + 1) * 50), clock: clock)
              .flatMap { tick in Signal<Int, TestError>.just(tick) }
          }
        })
      }
      #expect(
        res.events == [
          .value(1, at: .seconds(205)), .value(1, at: .seconds(265)), .value(1, at: .seconds(375)),
          .value(1, at: .seconds(535)), .failed(retryError, at: .seconds(540)),
        ])
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(200), .seconds(210)), TimelineSubscription(.seconds(260), .seconds(270)),
          TimelineSubscription(.seconds(370), .seconds(380)), TimelineSubscription(.seconds(530), .seconds(540)),
        ])
    }
  }

  @Test("RxSwift's resource tests: a finishing source, and a failing one retried by a handler that ends")
  func endsAndLeavesNothing() async throws {
    #expect(try await Signal<Int, TestError>.just(1).retry(when: { failures in failures }).collect() == [1])
    let result = try await Signal<Int, TestError>.fail(retryError).retry(when: { failures in failures.prefix(1) })
      .collect()
    #expect(result == [])
  }
}
