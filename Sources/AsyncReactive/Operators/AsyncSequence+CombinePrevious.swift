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
    Signal(self).ruled(
      CombinePreviousRule(initial: nil), origin: NodeOrigin(.combinePrevious, fileID: fileID, line: line))
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
    Signal(self).ruled(
      CombinePreviousRule(initial: initial), origin: NodeOrigin(.combinePrevious, fileID: fileID, line: line))
  }
}

// MARK: Rule

/// `combinePrevious`: each value paired with the one before it (the first with `initial`, or only kept as the
/// previous of the second without one).
@usableFromInline package struct CombinePreviousRule<Input: Sendable>: ElementRule {
  @usableFromInline let initial: Input?
  @inlinable package init(initial: Input?) { self.initial = initial }
  /// The previous value.
  @inlinable package func start() -> Input? { initial }
  @inlinable package func step(_ input: Input, _ previous: inout Input?) -> ElementStep<(Input, Input)> {
    defer { previous = input }
    guard let before = previous else { return .drop(nil, forgetsCurrent: false) }
    return .emit((before, input))
  }
}
