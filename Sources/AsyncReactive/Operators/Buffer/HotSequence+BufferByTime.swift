extension HotSequence {
  /// Collects the values into arrays, one per `interval`, taking each value at its send (RxSwift
  /// `buffer(timeSpan:count:scheduler:)` on a shared source).
  ///
  /// Works as ``_Concurrency/AsyncSequence/buffer(every:clock:count:)->AsyncBufferByTimeSequence<Self,C>`` does, on a hot sequence: windows of
  /// `interval` follow each other from the instant the node connects (its first consumer), a value belongs to the
  /// window in progress at its send, and each window's array, **empty or not**, is emitted when the clock reaches
  /// its end, once for all consumers. With a `count`, the value that fills a window emits it inside its `send`,
  /// and the next window starts then. A value sent exactly at a window's end belongs to the next window. The node
  /// observes the upstream from its first consumer to its last; while connected, its timer task sleeps until each
  /// window's end.
  ///
  /// **Finishes:** when the upstream finishes, right after emitting the values of the window in progress, if
  /// there are any.
  ///
  /// **Throws:** the upstream's failure, at once; the values collected in the window in progress are dropped.
  ///
  /// **Cancellation:** when the last consumer stops, the upstream is no longer observed, the window in progress
  /// is dropped and the timer's sleep is cancelled; a consumer that comes later starts new windows.
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
  @inlinable public func buffer<C: Clock>(
    every interval: Duration,
    clock: C = ContinuousClock(),
    count: Int? = nil
  ) -> HotSignal<[Element], Failure> where C.Duration == Duration {
    precondition(interval > .zero, "buffer(every: \(interval)): the interval must be positive")
    if let count { precondition(count > 0, "buffer(every:count: \(count)): the count must be positive") }
    return hotTime(clock: clock) { start in
      BufferRule<Element, Failure, C.Instant>(interval: interval, count: count, start: start)
    }
  }
}
