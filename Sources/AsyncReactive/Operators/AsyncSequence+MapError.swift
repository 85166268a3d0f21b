extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Transforms the failure, leaving the values as they are (RAC `mapError`, Combine `mapError`).
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** what `transform` makes of the upstream's failure.
  ///
  /// ```swift
  /// let orders = api.orders.mapError { AppError.network($0) }
  /// ```
  /// - Parameter transform: makes the new failure from the upstream's.
  /// - Returns: a ``Signal`` with the same values and the new failure type; hot when this sequence is.
  @inlinable public func mapError<NewFailure: Error>(
    _ transform: @escaping @Sendable (Failure) -> NewFailure,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, NewFailure> {
    Signal(self).lift(synchronous: true) { $0.hotMapError(transform, fileID: fileID, line: line) }
  }
}

// MARK: Hot

extension HotSequence {
  /// Transforms this sequence's failure inside the upstream's `send` (RAC `mapError:`, ReactiveSwift
  /// `Signal.mapError`): values pass through unchanged, once for all consumers.
  @inlinable package func hotMapError<NewFailure: Error>(
    _ transform: @escaping @Sendable (Failure) -> NewFailure,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, NewFailure> {
    HotSignal(
      node: .observing(hotSignal.node, origin: NodeOrigin(.mapError, fileID: fileID, line: line)) { node in
        { value in node.send(value) }
      } onEnd: { node, termination in
        node.terminate(mapTermination(termination, transform))
      })
  }
}
