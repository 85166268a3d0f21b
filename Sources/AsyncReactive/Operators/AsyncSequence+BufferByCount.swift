extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Collects the values into arrays of `count` (RxSwift `buffer(timeSpan:count:)` without the time, Combine
  /// `collect(_:)`, ReactiveSwift `collect(count:)`).
  ///
  /// Each array holds `count` consecutive values, in order; no value is dropped or repeated. With `count` 2:
  ///
  /// | upstream | output         |
  /// |----------|----------------|
  /// | `a`      |                |
  /// | `b`      | `[a, b]`       |
  /// | `c`      |                |
  /// | `d`      | `[c, d]`       |
  /// | `e`      |                |
  /// | finish   | `[e]`, finish  |
  ///
  /// **Finishes:** when the upstream finishes, right after emitting the last, shorter array if values are left
  /// (never an empty array).
  ///
  /// **Throws:** the upstream's failure, at once; the values collected for an incomplete array are dropped (as in
  /// RxSwift and Combine).
  ///
  /// **Cancellation:** adds no task: cancelling the consumer or dropping
  /// the iterator cancels the upstream; the values collected for an incomplete array are dropped.
  ///
  /// **Buffering:** holds at most `count - 1` values between two arrays.
  ///
  /// ```swift
  /// for await batch in analyticsEvents.buffer(count: 50) {
  ///   try? await api.upload(batch)
  /// }
  /// ```
  /// - Parameter count: how many values go into each array; at least 1.
  /// - Returns: a ``Signal`` of arrays of `count` values (the last one may be shorter); hot when this sequence is.
  @inlinable public func buffer(count: Int, fileID: StaticString = #fileID, line: UInt = #line) -> Signal<
    [Element], Failure
  > {
    precondition(count >= 1, "buffer(count: \(count)): the count must be at least 1")
    return Signal(self).lift(synchronous: true) { $0.hotBuffer(count: count, fileID: fileID, line: line) }
  }
}

// MARK: Hot

extension HotSequence {
  /// Collects the values into arrays of `count` inside the upstream's `send`, one collection for all consumers
  /// (ReactiveSwift `Signal.collect(count:)`, RxSwift `buffer(timeSpan:count:)` without the time).
  @inlinable package func hotBuffer(count: Int, fileID: StaticString = #fileID, line: UInt = #line) -> HotSignal<
    [Element], Failure
  > {
    precondition(count >= 1, "buffer(count: \(count)): the count must be at least 1")
    let upstream = hotSignal.node
    return HotSignal(
      // Nothing replayed: a fresh subscription starts an empty array (RxSwift), so a consumer that joins is given
      // no array, not the last one filled.
      node: Node(
        replay: .none, restarts: upstream.restarts,
        origin: NodeOrigin(.bufferByCount, fileID: fileID, line: line), inputs: .one(upstream)
      ) { node in
        let batch = ConnectionState<[Element]>([])
        let sink = upstream.addSink { value in
          batch.value.append(value)
          guard batch.value.count == count else { return }
          let full = batch.value
          batch.value.removeAll(keepingCapacity: true)
          node.send(full)
        } onEnd: { termination in
          if case .finished = termination, !batch.value.isEmpty {
            let rest = batch.value
            batch.value = []
            node.send(rest)
          }
          node.terminate(termination)
        }
        return { upstream.removeSink(sink) }
      })
  }
}
