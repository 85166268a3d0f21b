extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits each intermediate result of accumulating the values (RxSwift/RAC `scan`).
  ///
  /// One accumulator per run of a cold sequence, started afresh by each run; one for all consumers of a hot one,
  /// updated inside the upstream's `send` and started afresh when the node connects (its first consumer arrives).
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// for await total in payments.scan(0, { $0 + $1.amount }) { show(total) }   // 10, 25, 30, …
  /// ```
  /// - Parameters:
  ///   - initial: the accumulator before the first value (not emitted).
  ///   - next: combines the accumulator with a value.
  /// - Returns: a ``Signal`` of the accumulations, hot when this sequence is.
  @inlinable public func scan<Result: Sendable>(
    _ initial: Result,
    _ next: @escaping @Sendable (Result, Element) -> Result,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Result, Failure> {
    Signal(self).lift(synchronous: true) { $0.hotScan(initial, next, fileID: fileID, line: line) }
  }
}

// MARK: Hot

extension HotSequence {
  /// Emits each intermediate result of accumulating the values, inside the upstream's `send`: one accumulator
  /// for all consumers, started afresh when the node connects (ReactiveSwift's `Signal.scan`).
  @inlinable package func hotScan<Result: Sendable>(
    _ initial: Result,
    _ next: @escaping @Sendable (Result, Element) -> Result,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Result, Failure> {
    HotSignal(
      node: .observing(hotSignal.node, origin: NodeOrigin(.scan, fileID: fileID, line: line)) { node in
        let accumulator = ConnectionState(initial)
        return { value in
          accumulator.value = next(accumulator.value, value)
          node.send(accumulator.value)
        }
      } onEnd: { node, termination in
        node.terminate(termination)
      })
  }
}
