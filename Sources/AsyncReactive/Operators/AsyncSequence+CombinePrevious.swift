extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Pairs each value with the one before it (ReactiveSwift `combinePrevious`): the first value is paired only once
  /// a second arrives.
  ///
  /// ```swift
  /// for await (old, new) in scores.combinePrevious() { animate(from: old, to: new) }
  /// ```
  /// - Returns: a ``Signal`` of `(previous, current)` pairs; hot when this sequence is.
  @inlinable public func combinePrevious(fileID: StaticString = #fileID, line: UInt = #line) -> Signal<
    (Element, Element), Failure
  > {
    Signal(self).lift(synchronous: true) { $0.hotCombinePrevious(fileID: fileID, line: line) }
  }

  /// Pairs each value with the one before it, the first with `initial` (ReactiveSwift `combinePrevious(_:)`).
  ///
  /// ```swift
  /// for await (old, new) in scores.combinePrevious(0) { animate(from: old, to: new) }
  /// ```
  /// - Parameter initial: what the first value is paired with.
  /// - Returns: a ``Signal`` of `(previous, current)` pairs; hot when this sequence is.
  @inlinable public func combinePrevious(_ initial: Element, fileID: StaticString = #fileID, line: UInt = #line)
    -> Signal<(Element, Element), Failure>
  {
    Signal(self).lift(synchronous: true) { $0.hotCombinePrevious(initial, fileID: fileID, line: line) }
  }
}

// MARK: Hot

extension HotSequence {
  /// Pairs each value with the one before it, inside the upstream's `send` (ReactiveSwift's
  /// `Signal.combinePrevious()`): the first value only becomes the previous of the second.
  @inlinable package func hotCombinePrevious(fileID: StaticString = #fileID, line: UInt = #line) -> HotSignal<
    (Element, Element), Failure
  > {
    hotCombinePrevious(fileID: fileID, line: line, initial: nil)
  }

  /// Pairs each value with the one before it, the first value with `initial`, inside the upstream's `send`
  /// (ReactiveSwift's `Signal.combinePrevious(_:)`).
  @inlinable package func hotCombinePrevious(_ initial: Element, fileID: StaticString = #fileID, line: UInt = #line)
    -> HotSignal<(Element, Element), Failure>
  {
    hotCombinePrevious(fileID: fileID, line: line, initial: initial)
  }

  @inlinable func hotCombinePrevious(
    fileID: StaticString = "", line: UInt = 0, initial: Element?
  ) -> HotSignal<(Element, Element), Failure> {
    HotSignal(
      node: .observing(hotSignal.node, origin: NodeOrigin(.combinePrevious, fileID: fileID, line: line)) { node in
        let previous = ConnectionState(initial)
        return { value in
          defer { previous.value = value }
          if let before = previous.value { node.send((before, value)) }
        }
      } onEnd: { node, termination in
        node.terminate(termination)
      })
  }
}
