extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// On failure, sends `value` and finishes instead (RxSwift `catchAndReturn`, Combine `replaceError(with:)`).
  ///
  /// **Finishes:** when the upstream finishes, or right after `value` when it fails. It never fails.
  ///
  /// ```swift
  /// for await orders in api.orders.replaceError(with: []) { show(orders) }
  /// ```
  /// - Parameter value: what replaces the failure.
  /// - Returns: a ``Signal`` that cannot fail; hot when this sequence is.
  @inlinable public func replaceError(
    with value: Element, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Never> {
    Signal(self).lift(synchronous: true) { $0.hotReplaceError(with: value, fileID: fileID, line: line) }
  }
}

// MARK: Hot

extension HotSequence {
  /// On failure, delivers `value` and finishes instead, inside the upstream's `send` (RxSwift `catchAndReturn`,
  /// Combine `replaceError(with:)`): the result cannot fail.
  @inlinable package func hotReplaceError(with value: Element, fileID: StaticString = #fileID, line: UInt = #line)
    -> HotSignal<Element, Never>
  {
    HotSignal(
      node: .observing(hotSignal.node, origin: NodeOrigin(.replaceError, fileID: fileID, line: line)) { node in
        { element in node.send(element) }
      } onEnd: { node, termination in
        if case .failed = termination { node.send(value) }
        node.terminate(.finished)
      })
  }
}
