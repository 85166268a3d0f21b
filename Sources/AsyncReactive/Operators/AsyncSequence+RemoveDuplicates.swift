extension AsyncSequence where Self: Sendable, Element: Equatable & Sendable {
  /// Drops each value equal to the one before it (RxSwift `distinctUntilChanged`, RAC `skipRepeats`).
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// for await query in queries.removeDuplicates() { search(query) }
  /// ```
  /// - Returns: a ``Signal`` without consecutive duplicates, hot when this sequence is.
  @inlinable public func removeDuplicates(fileID: StaticString = #fileID, line: UInt = #line) -> Signal<
    Element, Failure
  > {
    Signal(self).ruled(
      RemoveDuplicatesRule(==), origin: NodeOrigin(.removeDuplicates, fileID: fileID, line: line))
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Drops each value that `areDuplicates` says repeats the one before it.
  ///
  /// ```swift
  /// let distinctIDs = users.removeDuplicates { $0.id == $1.id }
  /// ```
  /// - Parameter areDuplicates: whether a value repeats the previous one.
  /// - Returns: a ``Signal`` without consecutive duplicates, hot when this sequence is.
  @inlinable public func removeDuplicates(
    by areDuplicates: @escaping @Sendable (Element, Element) -> Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> {
    Signal(self).ruled(
      RemoveDuplicatesRule(areDuplicates), origin: NodeOrigin(.removeDuplicates, fileID: fileID, line: line))
  }

  /// Drops each value whose `keyPath` equals the previous value's.
  ///
  /// ```swift
  /// let distinctNames = users.removeDuplicates(by: \.name)
  /// ```
  /// - Parameter keyPath: the part of a value compared with the previous one.
  /// - Returns: a ``Signal`` without consecutive duplicates, hot when this sequence is.
  @inlinable public func removeDuplicates<Key: Equatable & Sendable>(
    by keyPath: any KeyPath<Element, Key> & Sendable,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> {
    Signal(self).ruled(
      RemoveDuplicatesRule { $0[keyPath: keyPath] == $1[keyPath: keyPath] },
      origin: NodeOrigin(.removeDuplicates, fileID: fileID, line: line))
  }
}

// MARK: Hot

extension HotSequence where Element: Equatable {
  /// Skips values equal to the one before, deciding inside the upstream's `send`; all consumers share the
  /// comparison (RxSwift `distinctUntilChanged`, ReactiveSwift `skipRepeats`).
  @inlinable package func hotRemoveDuplicates(
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> {
    hotRemoveDuplicates(by: ==, fileID: fileID, line: line)
  }
}

extension HotSequence {
  /// Skips values that `areDuplicates` says equal the one before, inside the upstream's `send`.
  @inlinable package func hotRemoveDuplicates(
    by areDuplicates: @escaping @Sendable (Element, Element) -> Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> {
    HotSignal(
      node: .ruled(
        hotSignal.node, RemoveDuplicatesRule(areDuplicates),
        origin: NodeOrigin(.removeDuplicates, fileID: fileID, line: line)))
  }
}

/// `removeDuplicates`: each value that does not repeat the one before it.
@usableFromInline package struct RemoveDuplicatesRule<Input: Sendable, RuleFailure: Error>: ElementRule {
  @usableFromInline let areDuplicates: @Sendable (Input, Input) throws(RuleFailure) -> Bool
  @inlinable package init(_ areDuplicates: @escaping @Sendable (Input, Input) throws(RuleFailure) -> Bool) {
    self.areDuplicates = areDuplicates
  }
  /// The previous value.
  @inlinable package func start() -> Input? { nil }
  @inlinable package func step(_ input: Input, _ previous: inout Input?) throws(RuleFailure) -> ElementStep<Input> {
    if let last = previous, try areDuplicates(last, input) {
      return .drop("dropped by removeDuplicates: equal to the previous value", forgetsCurrent: false)
    }
    previous = input
    return .emit(input)
  }
}
