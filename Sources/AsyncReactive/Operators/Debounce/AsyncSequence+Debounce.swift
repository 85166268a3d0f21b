extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits a value only once `dueTime` has passed without another value (RxSwift and Combine `debounce`;
  /// ReactiveCocoa's `throttle:`, which debounces).
  ///
  /// Each value restarts the quiet period; a value that survives a whole `dueTime` is emitted at the end of it.
  /// A search field sends its query once the user stops typing. With `dueTime` 300 ms:
  ///
  /// | time   | upstream | output      |
  /// |--------|----------|-------------|
  /// | 0 ms   | `a`      |             |
  /// | 100 ms | `b`      |             |
  /// | 300 ms |          | (`a` was replaced) |
  /// | 400 ms |          | `b`         |
  /// | 500 ms | `c`      |             |
  /// | 600 ms | finish   | `c`, finish |
  ///
  /// Each value is taken when the upstream produces it (inside the `send` of a hot upstream), and the result
  /// emits when the clock says; a slow consumer never delays the rule, and what is emitted waits for it in its
  /// own queue. On a hot upstream the result is hot, one rule and timer for all of its consumers; on a cold one
  /// each run has its own rule and timer.
  ///
  /// **Finishes:** when the upstream finishes, right after emitting the value still waiting (without waiting
  /// out its quiet period).
  ///
  /// **Throws:** the upstream's failure, at once; a value still waiting out its quiet period is dropped (as in
  /// RxSwift).
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer's sleep.
  ///
  /// ```swift
  /// for await query in searchText.debounce(for: .milliseconds(300)) {
  ///   await model.search(query)
  /// }
  /// // In tests, inject a clock: searchText.debounce(for: .milliseconds(300), clock: testClock)
  /// ```
  /// - Parameters:
  ///   - dueTime: how long a value must go without a successor before it is emitted; not negative.
  ///   - clock: the clock that measures the quiet period; a `TestClock` in tests.
  /// - Returns: a ``Signal`` of the values that were not followed by another within `dueTime`.
  public func debounce<C: Clock>(
    for dueTime: Duration,
    clock: C = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> where C.Duration == Duration {
    precondition(dueTime >= .zero, "debounce(for: \(dueTime)): the due time must not be negative")
    return Signal(self).lift(synchronous: false, input: "debounce upstream") {
      $0.hotDebounce(for: dueTime, clock: clock, fileID: fileID, line: line)
    }
  }
}
