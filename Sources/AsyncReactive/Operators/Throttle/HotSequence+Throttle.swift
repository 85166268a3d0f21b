extension HotSequence {
  /// Emits at most one value per `interval`, taking each value at its send: the first value at once, then either
  /// nothing more until the interval has passed (`latest: false`) or the latest value at the interval's end
  /// (`latest: true`) (RxSwift `throttle(_:latest:)` on a shared source).
  ///
  /// Works as ``_Concurrency/AsyncSequence/throttle(for:clock:latest:)->AsyncThrottleSequence<Self,C>`` does, on a hot sequence: a value sent
  /// while the operator is idle is emitted inside its `send` and opens a window of `interval` from that instant;
  /// with `latest: true`, the latest value sent during the window is emitted when the clock reaches the window's
  /// end, which opens the next window; with `latest: false` values sent during a window are **dropped**. A value
  /// sent exactly at a window's end is outside it. One evaluation for all consumers; the node observes the
  /// upstream from its first consumer to its last. A timer task runs only while a window is open (`latest:
  /// true`, to emit what the window held back at its end); `latest: false` never needs one.
  ///
  /// **Finishes:** when the upstream finishes; with `latest: true`, right after emitting the value held back for
  /// the current window.
  ///
  /// **Throws:** the upstream's failure, at once; a value held back is dropped.
  ///
  /// **Cancellation:** when the last consumer stops, the upstream is no longer observed and the timer's sleep is
  /// cancelled.
  ///
  /// ```swift
  /// let submits = taps.throttle(for: .seconds(1), latest: false)   // HotSignal<Void, Never>
  /// taps.send()                                                    // `submits` emitted when this returns
  /// taps.send()                                                    // dropped: inside the window
  /// ```
  /// - Parameters:
  ///   - interval: the length of a window; not negative (zero lets every value through).
  ///   - clock: the clock that measures the windows; a `TestClock` in tests.
  ///   - latest: whether a window's end emits the latest value sent during it (`true`, the default) or the
  ///     values sent during a window are dropped (`false`).
  /// - Returns: a ``HotSignal`` of at most one value per `interval`.
  @inlinable public func throttle<C: Clock>(
    for interval: Duration,
    clock: C = ContinuousClock(),
    latest: Bool = true
  ) -> HotSignal<Element, Failure> where C.Duration == Duration {
    precondition(interval >= .zero, "throttle(for: \(interval)): the interval must not be negative")
    return hotTime(clock: clock) { _ in
      ThrottleRule<Element, Failure, C.Instant>(interval: interval, latest: latest)
    }
  }
}
