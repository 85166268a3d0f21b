extension HotSequence {
  /// Emits at most one value per `interval`, taking each value at its send: the first value at once, then either
  /// nothing more until the interval has passed (`latest: false`) or the latest value at the interval's end
  /// (`latest: true`) (RxSwift `throttle(_:latest:)` on a shared source).
  ///
  /// The operator on any sequence, typed as a ``HotSignal``: it runs inside the upstream's `send`, once for all
  /// of its consumers, and observes the upstream from its first consumer to its last.
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
  @inlinable package func hotThrottle<C: Clock>(
    for interval: Duration,
    clock: C = ContinuousClock(),
    latest: Bool = true,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> where C.Duration == Duration {
    precondition(interval >= .zero, "throttle(for: \(interval)): the interval must not be negative")
    return hotTime(fileID: fileID, line: line, clock: clock) { _ in
      ThrottleRule<Element, Failure, C.Instant>(interval: interval, latest: latest)
    }
  }
}
