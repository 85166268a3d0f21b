// The rules of `dropFirst(_:)` and `prefix(_:)` (see `ElementRule`): one count per connection of a hot node, shared
// by its consumers (ReactiveSwift `skip(first:)`, `take(first:)`), one per run of a cold signal. So
// `subject.dropFirst().map { … }` stays hot.

extension HotSequence {
  /// Skips the first `count` values and passes the rest on, inside the upstream's `send` (ReactiveSwift
  /// `skip(first:)`, RxSwift `skip(_:)`).
  @inlinable package func hotDropFirst(_ count: Int = 1) -> HotSignal<
    Element, Failure
  > {
    HotSignal(node: Signal(hotSignal).droppingFirst(count).hotNode!)
  }
}

extension Signal {
  /// `dropFirst(count)`: this signal itself for 0 (a joining consumer gets what it gives), otherwise a node that
  /// replays nothing (the count was used).
  @inlinable package func droppingFirst(_ count: Int) -> Signal {
    precondition(count >= 0, "dropFirst(\(count)): the count must not be negative")
    guard count > 0 else { return self }
    return ruled(DropFirstRule(count), replay: Node<Element, Failure>.Replay.none, origin: NodeOrigin(.dropFirst))
  }

  /// `prefix(maxLength)`: for 0, a node (a run, on a cold signal) that has ended, observing nothing.
  @inlinable package func prefixed(_ maxLength: Int) -> Signal {
    precondition(maxLength >= 0, "prefix(\(maxLength)): the length must not be negative")
    guard maxLength > 0 else {
      guard isHot else { return .empty }
      let node = Node<Element, Failure>(replay: .none)
      node.terminate(.finished)
      return Signal(hot: node)
    }
    return ruled(PrefixRule(maxLength), origin: NodeOrigin(.prefix))
  }
}

/// `dropFirst(_:)`: the values after the first `count`.
@usableFromInline package struct DropFirstRule<Input: Sendable>: ElementRule {
  @usableFromInline let count: Int
  @inlinable package init(_ count: Int) { self.count = count }
  /// How many values are still skipped.
  @inlinable package func start() -> Int { count }
  @inlinable package func step(_ input: Input, _ remaining: inout Int) -> ElementStep<Input> {
    guard remaining > 0 else { return .emit(input) }
    remaining -= 1
    return .drop("skipped by dropFirst", forgetsCurrent: false)
  }
}

/// `prefix(_:)`: the first `maxLength` values (at least one), then the end.
@usableFromInline package struct PrefixRule<Input: Sendable>: ElementRule {
  @usableFromInline let maxLength: Int
  @inlinable package init(_ maxLength: Int) { self.maxLength = maxLength }
  /// How many values are still passed on.
  @inlinable package func start() -> Int { maxLength }
  @inlinable package func step(_ input: Input, _ remaining: inout Int) -> ElementStep<Input> {
    remaining -= 1
    return remaining == 0 ? .emitAndFinish(input) : .emit(input)
  }
  @inlinable package func isFinished(_ remaining: Int) -> Bool { remaining == 0 }
}
