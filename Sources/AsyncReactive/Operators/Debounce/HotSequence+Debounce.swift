extension HotSequence {
  /// Emits a value only once `dueTime` has passed without another value, taking each value at its send (RxSwift
  /// and Combine `debounce` on a shared source; ReactiveSwift `Signal.debounce`).
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
