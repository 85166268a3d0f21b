extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Shifts every value, and the finish, later by `duration`, keeping their order (RxSwift `delay`, ReactiveSwift
  /// `delay(_:on:)`, Combine `delay(for:scheduler:)`).
  ///
  /// Each value is due `duration` after it arrived from the upstream; the finish likewise. A failure is **not**
  /// delayed: it is delivered at once and the values still waiting are dropped (as in RxSwift and ReactiveSwift;
  /// Combine delays failures too). With `duration` 300 ms:
  ///
  /// | time   | upstream | output        |
  /// |--------|----------|---------------|
  /// | 0 ms   | `a`      |               |
  /// | 100 ms | `b`      |               |
  /// | 150 ms | finish   |               |
  /// | 300 ms |          | `a`           |
  /// | 400 ms |          | `b`           |
  /// | 450 ms |          | finish        |
  ///
  /// The upstream is iterated by a task of its own from the first `next()` on, as fast as it produces; values
  /// wait for their due time, then for a slow consumer, in unbounded buffers. On a hot sequence (a subject, a
  /// property, a ``HotSignal``), ``HotSequence/delay(for:clock:)`` applies instead: each value is due `duration`
  /// after its send.
  ///
  /// **Finishes:** `duration` after the upstream finished, once every value has been released.
  ///
  /// **Throws:** the upstream's failure, at once (values still waiting are dropped).
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer's sleep.
  ///
  /// ```swift
  /// for await toast in toasts.delay(for: .seconds(2)) {
  ///   hide(toast)
  /// }
  /// ```
  /// - Parameters:
  ///   - duration: how long each value and the finish are held back; not negative.
  ///   - clock: the clock that measures the delay; a `TestClock` in tests.
  /// - Returns: the upstream's values, each `duration` later.
  public func delay<C: Clock>(
    for duration: Duration,
    clock: C = ContinuousClock()
  ) -> Signal<Element, Failure> where C.Duration == Duration {
    precondition(duration >= .zero, "delay(for: \(duration)): the delay must not be negative")
    return Signal(self).lift(synchronous: false, input: "delay upstream") { $0.delay(for: duration, clock: clock) }
  }
}
