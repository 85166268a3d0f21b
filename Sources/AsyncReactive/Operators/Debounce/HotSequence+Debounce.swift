extension HotSequence {
  /// Emits a value only once `dueTime` has passed without another value, taking each value at its send (RxSwift
  /// and Combine `debounce` on a shared source; ReactiveSwift `Signal.debounce`).
  ///
  /// Works as ``_Concurrency/AsyncSequence/debounce(for:clock:)->AsyncDebounceSequence<Self,C>`` does, on a hot sequence: each value restarts the
  /// quiet period from the instant it was sent (inside the upstream's `send`, whether or not any consumer's task
  /// has run), and the value that survives a whole `dueTime` is emitted when the clock reaches the end of it, once
  /// for all consumers. The node observes the upstream from its first consumer to its last; a consumer that joins
  /// later gets the values emitted from then on. A timer task runs only while a value waits: an idle debounce
  /// keeps no task.
  ///
  /// **Finishes:** when the upstream finishes, right after emitting the value still waiting (without waiting out
  /// its quiet period).
  ///
  /// **Throws:** the upstream's failure, at once; a value still waiting out its quiet period is dropped.
  ///
  /// **Cancellation:** when the last consumer stops, the upstream is no longer observed and the timer's sleep is
  /// cancelled.
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
  @inlinable public func debounce<C: Clock>(
    for dueTime: Duration,
    clock: C = ContinuousClock()
  ) -> HotSignal<Element, Failure> where C.Duration == Duration {
    precondition(dueTime >= .zero, "debounce(for: \(dueTime)): the due time must not be negative")
    return hotTime(clock: clock) { _ in DebounceRule<Element, Failure, C.Instant>(dueTime: dueTime) }
  }
}
