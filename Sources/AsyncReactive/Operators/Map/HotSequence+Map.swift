// `map`, `compactMap` and `filter` on hot sequences: evaluated inside the upstream's `send`, once per event
// for every consumer together. The standard library's forms (and ``ReactiveSequence/map(_:)``) stay for cold
// sequences.

extension HotSequence {
  /// Transforms every element inside the upstream's `send`, once per event for all consumers together.
  ///
  /// The operator on any sequence, typed as a ``HotSignal``: it runs inside the upstream's `send`, once for all
  /// of its consumers, and observes the upstream from its first consumer to its last.
  ///
  /// ```swift
  /// let names = users.map { $0.name }          // HotSignal<String, Never>
  /// users.send(tom)                            // `names` has produced "Tom" when this returns
  /// ```
  /// - Parameter transform: the mapping; called once per element, in order, on the sending thread.
  /// - Returns: a ``HotSignal`` of the transformed elements.
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
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** what the upstream throws.
  ///
  /// ```swift
  /// let numbers = text.compactMap { Int($0) }   // HotSignal<Int, Never>
  /// ```
  ///
  /// - Parameter transform: the mapping; `nil` drops the element.
  /// - Returns: a ``HotSignal`` of the non-`nil` results.
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
  ///
  /// A consumer that joins is given the upstream's current value if it passes, nothing if it was dropped; a node
  /// placed after the filter keeps its own last output, so put the filter last when that matters.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** what the upstream throws.
  ///
  /// ```swift
  /// let longQueries = query.filter { $0.count >= 3 }   // HotSignal<String, Never>
  /// ```
  ///
  /// - Parameter isIncluded: whether an element goes on.
  /// - Returns: a ``HotSignal`` of the included elements.
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

extension SubjectStorage {
  /// A current-value node whose last input produced nothing holds no current output any more.
  @inlinable package func forgetCurrentIfReplaying() {
    if case .none = replay { return }
    forgetCurrent()
  }
}

extension HotSequence {
  /// Passes elements on while `predicate` holds and finishes at the first one that fails it, deciding inside
  /// the upstream's `send` (RxSwift `take(while:)`, ReactiveSwift `take(while:)`).
  ///
  /// **Finishes:** at the first element that fails `predicate` (not passed on), or when the upstream finishes.
  ///
  /// ```swift
  /// let untilZero = countdown.prefix { $0 > 0 }   // HotSignal<Int, Never>: 3, 2, 1, then finished
  /// ```
  /// - Parameter predicate: whether an element goes on; the first `false` ends the result.
  /// - Returns: a ``HotSignal`` of the leading elements that satisfy `predicate`.
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
