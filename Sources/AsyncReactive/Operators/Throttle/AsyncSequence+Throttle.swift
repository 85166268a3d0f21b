extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits at most one value per `interval`: the first value at once, then either nothing more until the
  /// interval has passed (`latest: false`) or the latest value at the interval's end (`latest: true`) (RxSwift
  /// `throttle(_:latest:)`).
  ///
  /// A value that arrives while the operator is idle is emitted at once and opens a window of `interval`. With
  /// `latest: false`, values arriving during the window are **dropped**: the next value emitted is the first
  /// one after the window. With `latest: true`, the latest value that arrived during the window is held back
  /// and emitted when the window ends, which opens the next window; a window that ends with nothing held back
  /// makes the operator idle again. A value arriving exactly at a window's end is outside it. With `interval`
  /// 300 ms:
  ///
  /// | time    | upstream | `latest: true`       | `latest: false`      |
  /// |---------|----------|----------------------|----------------------|
  /// | 0 ms    | `a`      | `a` (opens a window) | `a` (opens a window) |
  /// | 100 ms  | `b`      |                      | (dropped)            |
  /// | 200 ms  | `c`      |                      | (dropped)            |
  /// | 300 ms  |          | `c` (next window)    | (window over: idle)  |
  /// | 400 ms  | `d`      |                      | `d` (opens a window) |
  /// | 600 ms  |          | `d` (next window)    |                      |
  /// | 900 ms  |          | (nothing: idle)      |                      |
  /// | 1000 ms | `e`      | `e` (opens a window) | `e` (opens a window) |
  /// | 1100 ms | `f`      |                      | (dropped)            |
  /// | 1200 ms | finish   | `f`, finish          | finish               |
  ///
  /// Each value is taken when the upstream produces it (inside the `send` of a hot upstream), and the result
  /// emits when the clock says; a slow consumer never delays the rule, and what is emitted waits for it in its
  /// own queue. On a hot upstream the result is hot, one rule and timer for all of its consumers; on a cold one
  /// each run has its own rule and timer.
  ///
  /// **Finishes:** when the upstream finishes. With `latest: true`, right after emitting the value held back
  /// for the current window, without waiting for the window to end (RxSwift waits); `latest: false` holds
  /// nothing back.
  ///
  /// **Throws:** the upstream's failure, at once; a value held back is dropped.
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer's sleep.
  ///
  /// **Buffering:** `latest: true` holds one value per window; `latest: false` holds none.
  ///
  /// ```swift
  /// for await position in scrollOffsets.throttle(for: .milliseconds(100), latest: true) {
  ///   await model.loadMoreIfNeeded(at: position)
  /// }
  /// // A button that ignores taps for a second after each accepted one:
  /// for await _ in taps.throttle(for: .seconds(1), latest: false) { viewModel.submit.trigger() }
  /// // In tests: scrollOffsets.throttle(for: .milliseconds(100), clock: testClock, latest: true)
  /// ```
  /// - Parameters:
  ///   - interval: the length of a window; not negative (zero lets every value through).
  ///   - clock: the clock that measures the windows; a `TestClock` in tests.
  ///   - latest: whether a window's end emits the latest value that arrived during it (`true`, the default) or
  ///     the values arriving during a window are dropped (`false`).
  /// - Returns: a ``Signal`` of at most one value per `interval`.
  public func throttle<C: Clock>(
    for interval: Duration,
    clock: C = ContinuousClock(),
    latest: Bool = true,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> where C.Duration == Duration {
    precondition(interval >= .zero, "throttle(for: \(interval)): the interval must not be negative")
    return Signal(self).lift(synchronous: false, input: "throttle upstream") {
      $0.hotThrottle(for: interval, clock: clock, latest: latest, fileID: fileID, line: line)
    }
  }
}
