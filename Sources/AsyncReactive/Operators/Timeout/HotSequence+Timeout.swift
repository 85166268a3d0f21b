// The hot forms of `timeout(_:clock:)`, with the failure-type overloads of the stream forms (`Never`, `any Error`,
// a typed failure), so that a hot upstream never falls back to the pull form.

extension HotSequence where Failure == Never {
  /// Fails with ``TimeoutError`` if the next value, or the end, is not sent within `interval` (RxSwift `timeout`
  /// on a shared source).
  ///
  /// Works as ``_Concurrency/AsyncSequence/timeout(_:clock:)->AsyncTimeoutSequence<Self,C,TimeoutError>`` does,
  /// on a hot sequence: the first event is due `interval` after the node connects (its first consumer), each next
  /// one `interval` after the `send` of the previous value, and an event must be sent strictly before its
  /// deadline. Values pass through inside their `send`, once for all consumers; when the clock reaches a deadline
  /// first, the result fails and stops observing the upstream. While connected, its timer task sleeps until the
  /// next deadline.
  ///
  /// **Finishes:** when the upstream finishes in time.
  ///
  /// **Throws:** ``TimeoutError`` when the deadline passes.
  ///
  /// **Cancellation:** when the last consumer stops, the upstream is no longer observed and the timer's sleep is
  /// cancelled; a consumer that comes later starts the clock anew.
  ///
  /// ```swift
  /// let readings = sensor.readings.timeout(.seconds(5))   // HotSignal<Reading, TimeoutError>
  /// readings.sink(in: lifetime, onValue: { show($0) }, onEnd: { _ in showOffline() })
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  /// - Returns: a ``HotSignal`` of the upstream's values, failing with ``TimeoutError`` on a timeout.
  @inlinable public func timeout<C: Clock>(
    _ interval: Duration,
    clock: C = ContinuousClock()
  ) -> HotSignal<Element, TimeoutError> where C.Duration == Duration {
    hotTimeout(interval, clock: clock, timedOut: TimeoutError(), failure: neverFailure)
  }
}

extension HotSequence where Failure == any Error {
  /// Fails with ``TimeoutError`` if the next value, or the end, is not sent within `interval`; the upstream's own
  /// errors pass through unchanged.
  ///
  /// Works as ``timeout(_:clock:)->HotSignal<Self.Element,TimeoutError>`` does; only what differs is written here.
  ///
  /// **Throws:** ``TimeoutError`` when the deadline passes, or the upstream's error.
  ///
  /// ```swift
  /// let pages = pageResults.timeout(.seconds(10))   // HotSignal<Page, any Error>
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  /// - Returns: a ``HotSignal`` of the upstream's values, failing with ``TimeoutError`` on a timeout.
  @inlinable public func timeout<C: Clock>(
    _ interval: Duration,
    clock: C = ContinuousClock()
  ) -> HotSignal<Element, any Error> where C.Duration == Duration {
    hotTimeout(interval, clock: clock, timedOut: TimeoutError(), failure: { $0 })
  }
}

extension HotSequence {
  /// Fails with ``TimeoutFailure/timedOut`` if the next value, or the end, is not sent within `interval`; the
  /// upstream's typed failure arrives as ``TimeoutFailure/upstream(_:)``.
  ///
  /// Works as ``timeout(_:clock:)->HotSignal<Self.Element,TimeoutError>`` does; only what differs is written here.
  ///
  /// **Throws:** ``TimeoutFailure/timedOut`` when the deadline passes, or ``TimeoutFailure/upstream(_:)`` with the
  /// upstream's failure.
  ///
  /// ```swift
  /// let pages = pageResults.timeout(.seconds(10))   // HotSignal<Page, TimeoutFailure<APIError>>
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  /// - Returns: a ``HotSignal`` of the upstream's values, failing with a ``TimeoutFailure``.
  @inlinable public func timeout<C: Clock>(
    _ interval: Duration,
    clock: C = ContinuousClock()
  ) -> HotSignal<Element, TimeoutFailure<Failure>> where C.Duration == Duration {
    hotTimeout(interval, clock: clock, timedOut: .timedOut, failure: { .upstream($0) })
  }

  /// The node under every hot `timeout(_:clock:)`: the first deadline is one interval after the node connects.
  @inlinable func hotTimeout<C: Clock, ResultFailure: Error>(
    _ interval: Duration,
    clock: C,
    timedOut: ResultFailure,
    failure: @escaping @Sendable (Failure) -> ResultFailure
  ) -> HotSignal<Element, ResultFailure> where C.Duration == Duration {
    precondition(interval > .zero, "timeout(\(interval)): the interval must be positive")
    return hotTime(clock: clock, failure: failure) { start in
      TimeoutRule<Element, ResultFailure, C.Instant>(interval: interval, start: start, timedOut: timedOut)
    }
  }
}
