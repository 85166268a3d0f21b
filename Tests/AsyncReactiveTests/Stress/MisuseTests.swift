import AsyncReactive
import AsyncReactiveTesting
import Testing

/// Every programmer-error precondition of AsyncReactive and AsyncReactiveTesting traps, with a message that names
/// the call (APIContracts, "Bad input"). One exit test per precondition, named after it. The message is checked
/// only in builds that keep it (``expectTrapMessage(_:_:sourceLocation:)``); the trap itself in every build.
@Suite("Stress: misuse traps")
struct StressMisuseTests {
  @Test("retry(_:) with a negative count")
  func retryNegativeCount() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.just(1).retry(-1)
    }
    expectTrapMessage(result, "retry(-1): the number of retries must not be negative")
  }

  @Test("retry(_:delay:clock:) with a negative count")
  func retryWithDelayNegativeCount() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.just(1).retry(-2, delay: .constant(.seconds(1)))
    }
    expectTrapMessage(result, "retry(-2, delay:): the number of retries must not be negative")
  }

  @Test("RetryDelay.constant with a negative delay")
  func retryDelayConstantNegative() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = RetryDelay.constant(.seconds(-1))
    }
    expectTrapMessage(result, "RetryDelay.constant(")
  }

  @Test("RetryDelay.exponential with a negative initial delay")
  func retryDelayExponentialNegativeInitial() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = RetryDelay.exponential(initial: .seconds(-1))
    }
    expectTrapMessage(result, "RetryDelay.exponential(initial:")
  }

  @Test("RetryDelay.exponential with a multiplier below 1 or not finite")
  func retryDelayExponentialMultiplier() async throws {
    let below = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = RetryDelay.exponential(initial: .seconds(1), multiplier: 0.5)
    }
    expectTrapMessage(below, "RetryDelay.exponential(multiplier: 0.5)")
    let infinite = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = RetryDelay.exponential(initial: .seconds(1), multiplier: .infinity)
    }
    expectTrapMessage(infinite, "RetryDelay.exponential(multiplier: inf)")
  }

  @Test("RetryDelay.exponential with a maximum below the initial delay")
  func retryDelayExponentialMaximumBelowInitial() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = RetryDelay.exponential(initial: .seconds(2), maximum: .seconds(1))
    }
    expectTrapMessage(result, "the maximum must be at least the initial delay")
  }

  @Test("RetryJitter.proportional with a fraction outside 0...1")
  func retryJitterProportionalFraction() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = RetryJitter.proportional(1.5)
    }
    expectTrapMessage(result, "RetryJitter.proportional(1.5)")
  }

  @Test("debounce(for:) with a negative due time")
  func debounceNegativeDueTime() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.just(1).debounce(for: .seconds(-1))
    }
    expectTrapMessage(result, "debounce(for: -1.0 seconds)")
  }

  @Test("throttle(for:) with a negative interval")
  func throttleNegativeInterval() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.just(1).throttle(for: .seconds(-1))
    }
    expectTrapMessage(result, "throttle(for: -1.0 seconds)")
  }

  @Test("delay(for:) with a negative delay")
  func delayNegativeDuration() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.just(1).delay(for: .seconds(-1))
    }
    expectTrapMessage(result, "delay(for: -1.0 seconds)")
  }

  @Test("timeout(_:) on a non-failing sequence with a zero interval")
  func timeoutNonPositiveIntervalNever() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.just(1).timeout(.zero)
    }
    expectTrapMessage(result, "timeout(0.0 seconds): the interval must be positive")
  }

  @Test("timeout(_:) on an `any Error` sequence with a negative interval")
  func timeoutNonPositiveIntervalAnyError() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, any Error>.just(1).timeout(.seconds(-1))
    }
    expectTrapMessage(result, "timeout(-1.0 seconds): the interval must be positive")
  }

  @Test("timeout(_:) on a typed-failure sequence with a zero interval")
  func timeoutNonPositiveIntervalTyped() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, TestError>.just(1).timeout(.zero)
    }
    expectTrapMessage(result, "timeout(0.0 seconds): the interval must be positive")
  }

  @Test("Signal.timer(every:) with a zero interval")
  func timerNonPositiveInterval() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.timer(every: .zero)
    }
    expectTrapMessage(result, "Signal.timer(every: 0.0 seconds)")
  }

  @Test("share(replay:) with a negative count")
  func shareNegativeReplay() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.just(1).share(replay: -1)
    }
    expectTrapMessage(result, "share(replay:) needs a replay count of 0 or more")
  }

  @Test("flatMap(maxConcurrent:) below 1, in the stream and the hot form")
  func flattenConcurrentLimitBelowOne() async throws {
    let stream = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.just(1).flatMap(maxConcurrent: -1) { Signal<Int, Never>.just($0) }
    }
    expectTrapMessage(stream, "flatMap(maxConcurrent: -1): maxConcurrent must be at least 1")
    let hot = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let _: Signal<Int, Never> = AsyncPassthroughSubject<Int, Never>().flatMap(maxConcurrent: 0) {
        Signal<Int, Never>.just($0)
      }
    }
    expectTrapMessage(hot, "flatMap(maxConcurrent: 0): maxConcurrent must be at least 1")
  }

  @Test("CommandPolicy.concurrent(limit:) below 1")
  func commandConcurrentLimitBelowOne() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = CommandPolicy.concurrent(limit: 0)
    }
    expectTrapMessage(result, "CommandPolicy.concurrent(limit: 0)")
  }

  @Test("AsyncReplaySubject(bufferSize:) with a negative size")
  func replaySubjectNegativeBufferSize() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = AsyncReplaySubject<Int, Never>(bufferSize: -1)
    }
    expectTrapMessage(result, "AsyncReplaySubject(bufferSize: -1)")
  }

  @Test("BufferingPolicy.bufferingNewest(_:) below 1")
  func bufferingNewestBelowOne() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = BufferingPolicy.bufferingNewest(0)
    }
    expectTrapMessage(result, "BufferingPolicy.bufferingNewest(0)")
  }

  @Test("BufferingPolicy.bufferingOldest(_:) below 1")
  func bufferingOldestBelowOne() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = BufferingPolicy.bufferingOldest(-3)
    }
    expectTrapMessage(result, "BufferingPolicy.bufferingOldest(-3)")
  }

  @Test("SubjectSubscription iterated twice")
  func subscriptionIteratedTwice() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let subscription = AsyncPassthroughSubject<Int, Never>().subscribe()
      _ = subscription.makeAsyncIterator()
      _ = subscription.makeAsyncIterator()
    }
    expectTrapMessage(result, "SubjectSubscription was iterated twice")
  }

  @Test("TestClock.advance(by:) with a negative duration")
  func testClockAdvanceByNegative() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await TestClock().advance(by: .seconds(-1))
    }
    expectTrapMessage(result, "TestClock.advance(by: -1.0 seconds): time cannot move backward")
  }

  @Test("TestClock.advance(to:) to an instant in the past")
  func testClockAdvanceToThePast() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let clock = TestClock(now: TestClock.Instant(offset: .seconds(2)))
      await clock.advance(to: TestClock.Instant(offset: .seconds(1)))
    }
    expectTrapMessage(result, "time cannot move backward from")
  }
}
