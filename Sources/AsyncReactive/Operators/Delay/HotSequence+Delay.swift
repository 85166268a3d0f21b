extension HotSequence {
  /// Shifts every value, and the finish, later by `duration`, measured from its send, keeping their order and
  /// spacing (RxSwift `delay`, ReactiveSwift `Signal.delay(_:on:)`).
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
