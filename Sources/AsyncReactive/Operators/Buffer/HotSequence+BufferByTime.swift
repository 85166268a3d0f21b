extension HotSequence {
  /// Collects the values into arrays, one per `interval`, taking each value at its send (RxSwift
  /// `buffer(timeSpan:count:scheduler:)` on a shared source).
  ///
  /// The operator on any sequence, typed as a ``HotSignal``: it runs inside the upstream's `send`, once for all
  /// of its consumers, and observes the upstream from its first consumer to its last.
  ///
  /// ```swift
  /// let batches = analyticsEvents.buffer(every: .seconds(5), count: 100)   // HotSignal<[Event], Never>
  /// batches.filter { !$0.isEmpty }.sink(in: lifetime) { batch in uploader.enqueue(batch) }
  /// ```
  /// - Parameters:
  ///   - interval: the length of a window; positive.
  ///   - clock: the clock that measures the windows; a `TestClock` in tests.
  ///   - count: the most values a window collects before it ends early; positive, or `nil` (the default) for no
  ///     limit.
  /// - Returns: a ``HotSignal`` of the values collected in each window.
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
