extension HotSequence {
  /// Emits a value only once `dueTime` has passed without another value, taking each value at its send (RxSwift
  /// and Combine `debounce` on a shared source; ReactiveSwift `Signal.debounce`).
  ///
  /// The operator on any sequence, typed as a ``HotSignal``: it runs inside the upstream's `send`, once for all
  /// of its consumers, and observes the upstream from its first consumer to its last.
  ///
  /// ```swift
  /// let queries = searchText.debounce(for: .milliseconds(300))   // HotSignal<String, Never>
  /// searchText.send("swi")
  /// searchText.send("swift")                                     // `queries` emits "swift" 300 ms after this send
  /// // In tests, inject a clock: searchText.debounce(for: .milliseconds(300), clock: testClock)
  /// ```
  /// - Parameters:
  ///   - dueTime: how long a value must go without a successor before it is emitted; not negative.
  ///   - clock: the clock that measures the quiet period; a `TestClock` in tests.
  /// - Returns: a ``HotSignal`` of the values that were not followed by another within `dueTime`.
  @inlinable package func hotDebounce<C: Clock>(
    for dueTime: Duration,
    clock: C = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> where C.Duration == Duration {
    precondition(dueTime >= .zero, "debounce(for: \(dueTime)): the due time must not be negative")
    return hotTime(fileID: fileID, line: line, clock: clock) { _ in
      DebounceRule<Element, Failure, C.Instant>(dueTime: dueTime)
    }
  }
}
