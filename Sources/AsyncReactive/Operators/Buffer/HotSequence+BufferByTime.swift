extension HotSequence {
  /// Collects the values into arrays, one per `interval`, taking each value at its send (RxSwift
  /// `buffer(timeSpan:count:scheduler:)` on a shared source).
  @inlinable package func hotBuffer<C: Clock>(
    every interval: Duration,
    clock: C = ContinuousClock(),
    count: Int? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<[Element], Failure> where C.Duration == Duration {
    precondition(interval > .zero, "buffer(every: \(interval)): the interval must be positive")
    if let count { precondition(count > 0, "buffer(every:count: \(count)): the count must be positive") }
    return hotTime(fileID: fileID, line: line, clock: clock) { start in
      BufferRule<Element, Failure, C.Instant>(interval: interval, count: count, start: start)
    }
  }
}
