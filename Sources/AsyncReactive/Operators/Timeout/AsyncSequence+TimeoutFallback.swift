// The entry points of `timeout(_:clock:fallback:)`, in three overloads for the failure type (the rule the API contracts state for
// every operator with two inputs): a shared type (`Never` included), then, disfavored, the other side `Never` (this
// side's type is kept) and `any Error` when the types differ. Only the first is a plain overload, so that a call
// where several apply picks it at once. Edit them together.

extension AsyncSequence where Self: Sendable, Element: Sendable {

  /// Switches to `fallback` if the next value, or the end, does not arrive within `interval` (RxSwift
  /// `timeout(_:other:scheduler:)`).
  ///
  /// The deadlines are those of ``_Concurrency/AsyncSequence/timeout(_:clock:fileID:line:)->Signal<Self.Element,TimeoutError>``:
  /// the first event is due `interval` after the iteration starts, each next one `interval` after the previous
  /// value, and an event must arrive strictly before its deadline. When a deadline passes, the upstream is
  /// cancelled and the result continues with `fallback`'s elements, with no deadline. An upstream failure that
  /// arrives in time is passed through, not replaced by the fallback. With `interval` 100 ms:
  ///
  /// | time   | upstream              | fallback          | output                                 |
  /// |--------|-----------------------|-------------------|----------------------------------------|
  /// | 0 ms   | (iteration starts)    |                   |                                        |
  /// | 40 ms  | `a`                   |                   | `a`                                    |
  /// | 110 ms | `b`                   |                   | `b`                                    |
  /// | 210 ms |                       | (iteration starts) | (upstream cancelled; fallback from now) |
  /// | 260 ms |                       | `x`               | `x`                                    |
  /// | 410 ms |                       | `y`               | `y`                                    |
  /// | 530 ms |                       | finish            | finish                                 |
  ///
  /// **Finishes:** when the upstream finishes in time, or after a timeout when the fallback finishes.
  ///
  /// **Throws:** the upstream's failure if it arrives in time (it is not replaced by the fallback), or the
  /// fallback's failure after a timeout.
  ///
  /// **Cancellation:** when the consumer stops, the upstream, the timer and a running fallback stop.
  ///
  /// **Buffering:** each event is taken when the upstream produces it, so a slow consumer never causes a timeout;
  /// what the result emits waits for it in its own queue. The fallback starts at the timeout, as a catch's does.
  ///
  /// ```swift
  /// let readings = sensor.readings.timeout(.seconds(5), fallback: Signal.just(.unavailable))
  /// for await reading in readings { show(reading) }
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  ///   - fallback: the sequence to continue with after a timeout.
  /// - Returns: the upstream's values, then after a timeout the fallback's.
  public func timeout<C: Clock, Fallback: AsyncSequence & Sendable>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fallback: Fallback,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure>
  where C.Duration == Duration, Fallback.Element == Element, Fallback.Failure == Failure {
    precondition(interval > .zero, "timeout(\(interval), fallback:): the interval must be positive")
    return Signal(self).lift(synchronous: false, input: "timeout upstream") {
      $0.hotTimeout(
        fileID: fileID, line: line, interval, clock: clock, fallback: fallback, baseFailure: { $0 },
        fallbackFailure: { $0 })
    }
  }

  /// Switches to `fallback` if the next value, or the end, does not arrive within `interval`; the fallback
  /// cannot fail, and the result keeps the upstream's failure type.
  ///
  /// **Throws:** the upstream's failure if it arrives in time (it is not replaced by the fallback).
  ///
  /// ```swift
  /// let profile = Signal.future { try await api.profile() }
  ///   .timeout(.seconds(5), fallback: Signal.just(cache.profile))
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  ///   - fallback: the sequence to continue with after a timeout.
  /// - Returns: the upstream's values, then after a timeout the fallback's.
  @_disfavoredOverload public func timeout<C: Clock, Fallback: AsyncSequence & Sendable>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fallback: Fallback,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure>
  where C.Duration == Duration, Fallback.Element == Element, Fallback.Failure == Never {
    precondition(interval > .zero, "timeout(\(interval), fallback:): the interval must be positive")
    return Signal(self).lift(synchronous: false, input: "timeout upstream") {
      $0.hotTimeout(
        fileID: fileID, line: line, interval, clock: clock, fallback: fallback, baseFailure: { $0 },
        fallbackFailure: neverFailure)
    }
  }

  /// Switches to `fallback` if the next value, or the end, does not arrive within `interval`; the two sequences
  /// fail with different types, so the result fails with `any Error`.
  ///
  /// **Throws:** the upstream's failure if it arrives in time, or the fallback's failure after a timeout.
  ///
  /// ```swift
  /// let feed = remoteFeed.timeout(.seconds(10), fallback: diskCache.feed)  // APIError, DiskError
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  ///   - fallback: the sequence to continue with after a timeout.
  /// - Returns: the upstream's values, then after a timeout the fallback's.
  @_disfavoredOverload public func timeout<C: Clock, Fallback: AsyncSequence & Sendable>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fallback: Fallback,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, any Error>
  where C.Duration == Duration, Fallback.Element == Element {
    precondition(interval > .zero, "timeout(\(interval), fallback:): the interval must be positive")
    return Signal(self).lift(synchronous: false, input: "timeout upstream") {
      $0.hotTimeout(
        fileID: fileID, line: line, interval, clock: clock, fallback: fallback, baseFailure: { $0 as any Error },
        fallbackFailure: { $0 as any Error })
    }
  }
}
