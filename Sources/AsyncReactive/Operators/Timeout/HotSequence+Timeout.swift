// `timeout(_:clock:)` on hot sequences, with the failure-type overloads of the form on any sequence (`Never`,
// `any Error`, a typed failure): a `HotSignal`, the time node (`HotTime`) with the timeout rule.

extension HotSequence where Failure == Never {
  /// Fails with ``TimeoutError`` if the next value, or the end, is not sent within `interval` (RxSwift `timeout`
  /// on a shared source).
  ///
  /// The operator on any sequence, typed as a ``HotSignal``: it runs inside the upstream's `send`, once for all
  /// of its consumers, and observes the upstream from its first consumer to its last.
  ///
  /// ```swift
  /// let readings = sensor.readings.timeout(.seconds(5))   // HotSignal<Reading, TimeoutError>
  /// readings.sink(in: lifetime, onValue: { show($0) }, onEnd: { _ in showOffline() })
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  /// - Returns: a ``HotSignal`` of the upstream's values, failing with ``TimeoutError`` on a timeout.
  @inlinable package func hotTimeout<C: Clock>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, TimeoutError> where C.Duration == Duration {
    hotTimeout(fileID: fileID, line: line, interval, clock: clock, timedOut: TimeoutError(), failure: neverFailure)
  }
}

extension HotSequence where Failure == any Error {
  /// Fails with ``TimeoutError`` if the next value, or the end, is not sent within `interval`; the upstream's own
  /// errors pass through unchanged.
  ///
  /// ```swift
  /// let pages = pageResults.timeout(.seconds(10))   // HotSignal<Page, any Error>
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  /// - Returns: a ``HotSignal`` of the upstream's values, failing with ``TimeoutError`` on a timeout.
  @inlinable package func hotTimeout<C: Clock>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, any Error> where C.Duration == Duration {
    hotTimeout(fileID: fileID, line: line, interval, clock: clock, timedOut: TimeoutError(), failure: { $0 })
  }
}

extension HotSequence {
  /// Fails with ``TimeoutFailure/timedOut`` if the next value, or the end, is not sent within `interval`; the
  /// upstream's typed failure arrives as ``TimeoutFailure/upstream(_:)``.
  ///
  /// ```swift
  /// let pages = pageResults.timeout(.seconds(10))   // HotSignal<Page, TimeoutFailure<APIError>>
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  /// - Returns: a ``HotSignal`` of the upstream's values, failing with a ``TimeoutFailure``.
  @inlinable package func hotTimeout<C: Clock>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, TimeoutFailure<Failure>> where C.Duration == Duration {
    hotTimeout(fileID: fileID, line: line, interval, clock: clock, timedOut: .timedOut, failure: { .upstream($0) })
  }

  /// The node under every hot `timeout(_:clock:)`: the first deadline is one interval after the node connects.
  @inlinable func hotTimeout<C: Clock, ResultFailure: Error>(
    fileID: StaticString = "", line: UInt = 0,
    _ interval: Duration,
    clock: C,
    timedOut: ResultFailure,
    failure: @escaping @Sendable (Failure) -> ResultFailure
  ) -> HotSignal<Element, ResultFailure> where C.Duration == Duration {
    precondition(interval > .zero, "timeout(\(interval)): the interval must be positive")
    return hotTime(fileID: fileID, line: line, clock: clock, failure: failure) { start in
      TimeoutRule<Element, ResultFailure, C.Instant>(interval: interval, start: start, timedOut: timedOut)
    }
  }
}
