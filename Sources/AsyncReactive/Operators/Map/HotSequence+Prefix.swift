// `dropFirst(_:)`, `prefix(_:)` and `drop(while:)` on hot sequences: evaluated inside the upstream's `send`, with
// one count (or one "still dropping") per connection of the node, shared by its consumers (ReactiveSwift
// `skip(first:)`, `take(first:)`, `skip(while:)`). So `subject.dropFirst().map { … }` stays hot. The standard
// library's forms stay for cold sequences.

extension HotSequence {
  /// Skips the first `count` values and passes the rest on, inside the upstream's `send` (ReactiveSwift
  /// `skip(first:)`, RxSwift `skip(_:)`).
  @inlinable package func hotDropFirst(_ count: Int = 1) -> HotSignal<
    Element, Failure
  > {
    precondition(count >= 0, "dropFirst(\(count)): the count must not be negative")
    guard count > 0 else { return hotSignal }
    return HotSignal(
      node: .observing(
        hotSignal.node, replay: Node<Element, Failure>.Replay.none,
        origin: NodeOrigin(.dropFirst)
      ) { node in
        let remaining = ConnectionState(count)
        return { value in
          if remaining.value > 0 {
            remaining.value -= 1
            node.traceDropped(value, "skipped by dropFirst")
          } else {
            node.send(value)
          }
        }
      } onEnd: { node, termination in
        node.terminate(termination)
      })
  }

  /// Passes the first `maxLength` values on and finishes, inside the upstream's `send` (ReactiveSwift
  /// `take(first:)`, RxSwift `take(_:)`).
  @inlinable package func hotPrefix(_ maxLength: Int) -> HotSignal<
    Element, Failure
  > {
    precondition(maxLength >= 0, "prefix(\(maxLength)): the count must not be negative")
    guard maxLength > 0 else {
      let node = Node<Element, Failure>(replay: .none)
      node.terminate(.finished)
      return HotSignal(node: node)
    }
    return HotSignal(
      node: .observing(hotSignal.node, origin: NodeOrigin(.prefix)) { node in
        let remaining = ConnectionState(maxLength)
        return { value in
          guard remaining.value > 0 else { return }
          remaining.value -= 1
          node.send(value)
          if remaining.value == 0 { node.terminate(.finished) }
        }
      } onEnd: { node, termination in
        node.terminate(termination)
      })
  }

  /// Skips values while `predicate` holds and passes on the first one that fails it and everything after,
  /// deciding inside the upstream's `send` (ReactiveSwift `skip(while:)`, RxSwift `skip(while:)`).
  @inlinable package func hotDrop(
    while predicate: @escaping @Sendable (Element) -> Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> {
    HotSignal(
      node: .observing(hotSignal.node, origin: NodeOrigin(.dropWhile, fileID: fileID, line: line)) { node in
        let skipping = ConnectionState(true)
        return { value in
          if skipping.value {
            if predicate(value) {
              node.traceDropped(value, "skipped by drop(while:)")
              return
            }
            skipping.value = false
          }
          node.send(value)
        }
      } onEnd: { node, termination in
        node.terminate(termination)
      })
  }
}
