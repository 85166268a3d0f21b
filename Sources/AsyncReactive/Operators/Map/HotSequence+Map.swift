// `map`, `compactMap` and `filter` on hot sequences: evaluated inside the upstream's `send`, once per event
// for every consumer together. The standard library's forms (and ``ReactiveSequence/map(_:)``) stay for cold
// sequences.

extension HotSequence {
  /// Transforms every element inside the upstream's `send`, once per event for all consumers together.
  @inlinable package func hotMap<Transformed: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Transformed,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Transformed, Failure> {
    HotSignal(
      node: .observing(hotSignal.node, origin: NodeOrigin(.map, fileID: fileID, line: line)) { node in
        { value in node.send(transform(value)) }
      } onEnd: { node, termination in
        node.terminate(termination)
      })
  }

  /// Transforms every element and drops the `nil` results, inside the upstream's `send`.
  @inlinable package func hotCompactMap<Transformed: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Transformed?,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Transformed, Failure> {
    HotSignal(
      node: .observing(hotSignal.node, origin: NodeOrigin(.compactMap, fileID: fileID, line: line)) { node in
        { value in
          if let transformed = transform(value) {
            node.send(transformed)
          } else {
            node.traceDropped(value, "dropped by compactMap (nil)")
            node.forgetCurrentIfReplaying()
          }
        }
      } onEnd: { node, termination in
        node.terminate(termination)
      })
  }

  /// Keeps the elements that satisfy `isIncluded`, deciding inside the upstream's `send`.
  @inlinable package func hotFilter(
    _ isIncluded: @escaping @Sendable (Element) -> Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> {
    HotSignal(
      node: .observing(hotSignal.node, origin: NodeOrigin(.filter, fileID: fileID, line: line)) { node in
        { value in
          if isIncluded(value) {
            node.send(value)
          } else {
            node.traceDropped(value, "dropped by filter")
            node.forgetCurrentIfReplaying()
          }
        }
      } onEnd: { node, termination in
        node.terminate(termination)
      })
  }
}

extension Node {
  /// A current-value node whose last input produced nothing holds no current output any more.
  @inlinable package func forgetCurrentIfReplaying() {
    if case .none = replay { return }
    forgetCurrent()
  }
}

extension HotSequence {
  /// Passes elements on while `predicate` holds and finishes at the first one that fails it, deciding inside
  /// the upstream's `send` (RxSwift `take(while:)`, ReactiveSwift `take(while:)`).
  @inlinable package func hotPrefix(
    while predicate: @escaping @Sendable (Element) -> Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> {
    HotSignal(
      node: .observing(hotSignal.node, origin: NodeOrigin(.prefixWhile, fileID: fileID, line: line)) { node in
        { value in
          if predicate(value) { node.send(value) } else { node.terminate(.finished) }
        }
      } onEnd: { node, termination in
        node.terminate(termination)
      })
  }
}
