// The operators that pick or number elements by position: `first()`, `element(at:)` and `enumerated()`.

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits the first value, then finishes (RxSwift `take(1)` and `first()` as a sequence, ReactiveSwift
  /// `take(first: 1)`).
  ///
  /// **Finishes:** right after the first value (the upstream is let go at once), or with nothing when the upstream
  /// finishes first. **Throws:** the upstream's failure, if it comes before the first value.
  ///
  /// ```swift
  /// for await user in session.user.first() { greet(user) }   // once
  /// ```
  /// - Returns: a ``Signal`` of at most one value; hot when this sequence is.
  @inlinable public func first(fileID: StaticString = #fileID, line: UInt = #line) -> Signal<Element, Failure> {
    Signal(self).ruled(ElementAtRule(0), origin: NodeOrigin(.first, fileID: fileID, line: line))
  }

  /// Emits the value at `index` (counting from 0), then finishes (RxSwift `element(at:)`).
  ///
  /// Unlike RxSwift's, which fails with `RxError.argumentOutOfRange` when the upstream finishes first, this one
  /// then finishes with no value (as Combine's `output(at:)` does): the failure type stays the upstream's. Follow it
  /// with `ifEmpty(default:)` for a fallback value.
  ///
  /// **Finishes:** right after the value at `index` (the upstream is let go at once), or with nothing when the
  /// upstream finishes before it. **Throws:** the upstream's failure, if it comes before that value.
  ///
  /// ```swift
  /// for await third in taps.element(at: 2) { unlockEasterEgg(third) }
  /// ```
  /// - Parameter index: the position of the value to emit; not negative.
  /// - Returns: a ``Signal`` of at most one value; hot when this sequence is.
  @inlinable public func element(at index: Int, fileID: StaticString = #fileID, line: UInt = #line) -> Signal<
    Element, Failure
  > {
    precondition(index >= 0, "element(at: \(index)): the index must not be negative")
    return Signal(self).ruled(ElementAtRule(index), origin: NodeOrigin(.elementAt, fileID: fileID, line: line))
  }

  /// Pairs each value with its position, counting from 0 (RxSwift `enumerated()`, the standard library's
  /// `Sequence.enumerated()`).
  ///
  /// One count per run of a cold sequence; one for all consumers of a hot one, started afresh when the node
  /// connects, so a consumer that joins a running shared node gets the positions counted since then.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// for await (offset, answer) in answers.enumerated() { show(answer, number: offset + 1) }
  /// ```
  /// - Returns: a ``Signal`` of `(offset, element)` pairs; hot when this sequence is.
  @inlinable public func enumerated(fileID: StaticString = #fileID, line: UInt = #line) -> Signal<
    (offset: Int, element: Element), Failure
  > {
    Signal(self).ruled(EnumeratedRule(), origin: NodeOrigin(.enumerated, fileID: fileID, line: line))
  }
}

// MARK: Rules

/// `element(at:)` and `first()`: the value at `index`, then the end.
@usableFromInline package struct ElementAtRule<Input: Sendable>: ElementRule {
  @usableFromInline let index: Int
  @inlinable package init(_ index: Int) { self.index = index }
  /// How many values are still skipped; `-1` once the value was passed on.
  @inlinable package func start() -> Int { index }
  @inlinable package func step(_ input: Input, _ remaining: inout Int) -> ElementStep<Input> {
    guard remaining >= 0 else { return .drop(nil, forgetsCurrent: false) }
    remaining -= 1
    return remaining < 0 ? .emitAndFinish(input) : .drop(nil, forgetsCurrent: false)
  }
  @inlinable package func isFinished(_ remaining: Int) -> Bool { remaining < 0 }
}

/// `enumerated`: each value with its position in the connection or run.
@usableFromInline package struct EnumeratedRule<Input: Sendable>: ElementRule {
  @inlinable package init() {}
  /// The next value's position.
  @inlinable package func start() -> Int { 0 }
  @inlinable package func step(_ input: Input, _ next: inout Int) -> ElementStep<(offset: Int, element: Input)> {
    defer { next += 1 }
    return .emit((offset: next, element: input))
  }
}
