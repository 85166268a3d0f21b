// The node builder under `timeout(_:clock:)` (the operator is in AsyncSequence+Timeout.swift): the time node
// (`TimeConnection`) with the timeout rule.

extension HotSequence {
  /// The node under every hot `timeout(_:clock:)`: the first deadline is one interval after the node connects.
  @inlinable func hotTimeout<C: Clock, ResultFailure: Error>(
    fileID: StaticString = "", line: UInt = 0,
    _ interval: Duration,
    clock: C,
    timedOut: ResultFailure,
    failure: @escaping @Sendable (Failure) -> ResultFailure
  ) -> HotSignal<Element, ResultFailure> where C.Duration == Duration {
    precondition(interval > .zero, "timeout(\(interval)): the interval must be positive")
    return hotTime(fileID: fileID, line: line, clock: clock, failure: failure) { start in
      TimeoutRule<Element, ResultFailure, C.Instant>(interval: interval, start: start, timedOut: timedOut)
    }
  }
}
