extension HotSequence {
  /// Shifts every value, and the finish, later by `duration`, measured from its send, keeping their order and
  /// spacing (RxSwift `delay`, ReactiveSwift `Signal.delay(_:on:)`).
  ///
  /// Works as ``_Concurrency/AsyncSequence/delay(for:clock:)->AsyncDelaySequence<Self,C>`` does, on a hot sequence: each value is due
  /// `duration` after the `send` that produced it (whether or not any consumer's task has run), and is emitted
  /// when the clock reaches that instant, once for all consumers. A failure is **not** delayed. The node observes
  /// the upstream from its first consumer to its last; a timer task runs only while values wait.
  ///
  /// **Finishes:** `duration` after the upstream finished, once every value has been released.
  ///
  /// **Throws:** the upstream's failure, at once (values still waiting are dropped).
  ///
  /// **Cancellation:** when the last consumer stops, the upstream is no longer observed, the values still
  /// waiting are dropped and the timer's sleep is cancelled.
  ///
  /// ```swift
  /// let hides = toasts.delay(for: .seconds(2))   // HotSignal<Toast, Never>
  /// toasts.send(saved)                           // `hides` emits `saved` 2 s after this send
  /// ```
  /// - Parameters:
  ///   - duration: how long each value and the finish are held back; not negative.
  ///   - clock: the clock that measures the delay; a `TestClock` in tests.
  /// - Returns: a ``HotSignal`` of the upstream's values, each `duration` after its send.
  @inlinable public func delay<C: Clock>(
    for duration: Duration,
    clock: C = ContinuousClock()
  ) -> HotSignal<Element, Failure> where C.Duration == Duration {
    precondition(duration >= .zero, "delay(for: \(duration)): the delay must not be negative")
    return hotTime(clock: clock) { _ in DelayRule<Element, Failure, C.Instant>(delay: duration) }
  }
}
