extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Passes values on while `predicate` holds and, with `inclusive: true`, also the first value that fails it,
  /// then finishes (RxSwift's `take(while:behavior: .inclusive)`): the value that ends a run often matters most
  /// (the upload progress that reaches 100 %, the state that is final).
  ///
  /// With `inclusive: false` it is the standard library's `prefix(while:)`, which the unlabelled call keeps
  /// being: this form never changes what `prefix(while:)` does.
  ///
  /// **Finishes:** right after the first value that fails `predicate` (no further `next()` of the upstream), or
  /// when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// for await progress in upload.progress.prefix(while: { $0 < 1.0 }, inclusive: true) {
  ///   bar.progress = progress   // …, 0.8, 0.95, 1.0: the last one too
  /// }
  /// ```
  /// - Parameters:
  ///   - predicate: whether a value keeps the run going; the first `false` ends it.
  ///   - inclusive: whether the value that ends the run is passed on before finishing.
  /// - Returns: a ``Signal`` of the leading values; hot when this sequence is.
  @inlinable public func prefix(
    while predicate: @escaping @Sendable (Element) -> Bool,
    inclusive: Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> {
    Signal(self).ruled(
      PrefixWhileRule(predicate, inclusive: inclusive), origin: NodeOrigin(.prefixWhile, fileID: fileID, line: line))
  }
}

// MARK: Hot

extension HotSequence {
  /// Passes values on while `predicate` holds and, with `inclusive: true`, also the first value that fails it,
  /// then finishes, deciding inside the upstream's `send` (RxSwift's `take(while:behavior: .inclusive)`).
  @inlinable package func hotPrefix(
    while predicate: @escaping @Sendable (Element) -> Bool,
    inclusive: Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> {
    HotSignal(
      node: .ruled(
        hotSignal.node, PrefixWhileRule(predicate, inclusive: inclusive),
        origin: NodeOrigin(.prefixWhile, fileID: fileID, line: line)))
  }
}
