extension HotSequence {
  /// Shifts every value, and the finish, later by `duration`, measured from its send, keeping their order and
  /// spacing (RxSwift `delay`, ReactiveSwift `Signal.delay(_:on:)`).
  ///
  /// The operator on any sequence, typed as a ``HotSignal``: it runs inside the upstream's `send`, once for all
  /// of its consumers, and observes the upstream from its first consumer to its last.
  ///
  /// ```swift
  /// let hides = toasts.delay(for: .seconds(2))   // HotSignal<Toast, Never>
  /// toasts.send(saved)                           // `hides` emits `saved` 2 s after this send
  /// ```
  /// - Parameters:
  ///   - duration: how long each value and the finish are held back; not negative.
  ///   - clock: the clock that measures the delay; a `TestClock` in tests.
  /// - Returns: a ``HotSignal`` of the upstream's values, each `duration` after its send.
  @inlinable package func hotDelay<C: Clock>(
    for duration: Duration,
    clock: C = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> where C.Duration == Duration {
    precondition(duration >= .zero, "delay(for: \(duration)): the delay must not be negative")
    return hotTime(fileID: fileID, line: line, clock: clock) { _ in
      DelayRule<Element, Failure, C.Instant>(delay: duration)
    }
  }
}
