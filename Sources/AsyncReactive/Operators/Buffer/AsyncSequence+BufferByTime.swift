extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Collects the values into arrays, one per `interval` (RxSwift `buffer(timeSpan:count:scheduler:)`, Combine
  /// `collect(.byTime)` / `.byTimeOrCount`).
  ///
  /// Windows of `interval` follow each other from the start of the iteration (its first `next()`). When a
  /// window ends, the values that arrived during it are emitted as one array, **even when it is empty** (as in
  /// RxSwift; Combine skips empty windows: add `.filter { !$0.isEmpty }` for that). With a `count`, a window that
  /// has collected `count` values ends at once, and the next window starts then. A value arriving exactly at a
  /// window's end belongs to the next window. With `interval` 1 s:
  ///
  /// | time    | upstream           | output          |
  /// |---------|--------------------|-----------------|
  /// | 0 ms    | (iteration starts) |                 |
  /// | 200 ms  | `a`                |                 |
  /// | 700 ms  | `b`                |                 |
  /// | 1000 ms |                    | `[a, b]`        |
  /// | 2000 ms |                    | `[]`            |
  /// | 2500 ms | `c`                |                 |
  /// | 2800 ms | finish             | `[c]`, finish   |
  ///
  /// **Finishes:** when the upstream finishes, right after emitting the values of the window in progress, if
  /// there are any (RxSwift also emits an empty last array).
  ///
  /// **Throws:** the upstream's failure, at once; the values collected in the window in progress are dropped. A
  /// window whose end is the failure's instant is emitted before the failure only if its timer ran first at that
  /// instant (what was scheduled first runs first); otherwise its values are dropped with it. A value or the finish
  /// at a window's end emits that window first in either order.
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer's sleep.
  ///
  /// **Buffering:** the window in progress holds its values (at most `count`); emitted arrays wait for a slow
  /// consumer in its own queue. Each value is taken when the upstream produces it (inside a hot upstream's
  /// `send`).
  ///
  /// ```swift
  /// for await batch in analyticsEvents.buffer(every: .seconds(5), count: 100) where !batch.isEmpty {
  ///   try? await api.upload(batch)
  /// }
  /// // In tests: analyticsEvents.buffer(every: .seconds(5), clock: testClock, count: 100)
  /// ```
  /// - Parameters:
  ///   - interval: the length of a window; positive.
  ///   - clock: the clock that measures the windows; a `TestClock` in tests.
  ///   - count: the most values a window collects before it ends early; positive, or `nil` (the default) for no
  ///     limit.
  /// - Returns: a ``Signal`` of the values collected in each window.
  public func buffer<C: Clock>(
    every interval: Duration,
    clock: C = ContinuousClock(),
    count: Int? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<[Element], Failure> where C.Duration == Duration {
    precondition(interval > .zero, "buffer(every: \(interval)): the interval must be positive")
    if let count { precondition(count > 0, "buffer(every:count: \(count)): the count must be positive") }
    return Signal(self).lift(synchronous: false, input: "buffer upstream") {
      $0.hotBuffer(every: interval, clock: clock, count: count, fileID: fileID, line: line)
    }
  }
}
