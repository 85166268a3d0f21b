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
  /// Each value is taken when the upstream produces it (inside the `send` of a hot upstream), and the result
  /// emits when the clock says; a slow consumer never delays the rule, and what is emitted waits for it in its
  /// own queue. On a hot upstream the result is hot, one rule and timer for all of its consumers; on a cold one
  /// each run has its own rule and timer.
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
    clock: C = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> where C.Duration == Duration {
    precondition(duration >= .zero, "delay(for: \(duration)): the delay must not be negative")
    return Signal(self).lift(synchronous: false, input: "delay upstream") {
      $0.hotDelay(for: duration, clock: clock, fileID: fileID, line: line)
    }
  }
}
