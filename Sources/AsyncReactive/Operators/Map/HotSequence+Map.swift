// The rules of `map`, `compactMap`, `filter`, `prefix(while:)` and `drop(while:)` (see `ElementRule`), and the hot
// `map` the library's own types build on.

extension HotSequence {
  /// Transforms every element inside the upstream's `send`, once per event for all consumers together.
  @inlinable package func hotMap<Transformed: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Transformed,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Transformed, Failure> {
    HotSignal(node: .ruled(hotSignal.node, MapRule(transform), origin: NodeOrigin(.map, fileID: fileID, line: line)))
  }
}

/// `map`: every value transformed.
@usableFromInline package struct MapRule<Input: Sendable, Output: Sendable, RuleFailure: Error>: ElementRule {
  @usableFromInline let transform: @Sendable (Input) throws(RuleFailure) -> Output
  @inlinable package init(_ transform: @escaping @Sendable (Input) throws(RuleFailure) -> Output) {
    self.transform = transform
  }
  @inlinable package func step(_ input: Input, _ state: inout Void) throws(RuleFailure) -> ElementStep<Output> {
    .emit(try transform(input))
  }
}

/// `compactMap`: every value transformed, the `nil` results dropped.
@usableFromInline package struct CompactMapRule<Input: Sendable, Output: Sendable, RuleFailure: Error>: ElementRule {
  @usableFromInline let transform: @Sendable (Input) throws(RuleFailure) -> Output?
  @inlinable package init(_ transform: @escaping @Sendable (Input) throws(RuleFailure) -> Output?) {
    self.transform = transform
  }
  @inlinable package func step(_ input: Input, _ state: inout Void) throws(RuleFailure) -> ElementStep<Output> {
    if let output = try transform(input) { return .emit(output) }
    return .drop("dropped by compactMap (nil)", forgetsCurrent: true)
  }
}

/// `filter`: the values that satisfy a predicate.
@usableFromInline package struct FilterRule<Input: Sendable, RuleFailure: Error>: ElementRule {
  @usableFromInline let isIncluded: @Sendable (Input) throws(RuleFailure) -> Bool
  @inlinable package init(_ isIncluded: @escaping @Sendable (Input) throws(RuleFailure) -> Bool) {
    self.isIncluded = isIncluded
  }
  @inlinable package func step(_ input: Input, _ state: inout Void) throws(RuleFailure) -> ElementStep<Input> {
    try isIncluded(input) ? .emit(input) : .drop("dropped by filter", forgetsCurrent: true)
  }
}

/// `prefix(while:)`: the values up to the first that fails a predicate (and that one too when `inclusive`), then
/// the end.
@usableFromInline package struct PrefixWhileRule<Input: Sendable, RuleFailure: Error>: ElementRule {
  @usableFromInline let predicate: @Sendable (Input) throws(RuleFailure) -> Bool
  @usableFromInline let inclusive: Bool
  @inlinable package init(_ predicate: @escaping @Sendable (Input) throws(RuleFailure) -> Bool, inclusive: Bool = false)
  {
    self.predicate = predicate
    self.inclusive = inclusive
  }
  /// Whether a value failed the predicate.
  @inlinable package func start() -> Bool { false }
  @inlinable package func step(_ input: Input, _ ended: inout Bool) throws(RuleFailure) -> ElementStep<Input> {
    if try predicate(input) { return .emit(input) }
    ended = true
    return inclusive ? .emitAndFinish(input) : .finish
  }
  @inlinable package func isFinished(_ ended: Bool) -> Bool { ended }
}

/// `drop(while:)`: the values from the first that fails a predicate on.
@usableFromInline package struct DropWhileRule<Input: Sendable, RuleFailure: Error>: ElementRule {
  @usableFromInline let predicate: @Sendable (Input) throws(RuleFailure) -> Bool
  @inlinable package init(_ predicate: @escaping @Sendable (Input) throws(RuleFailure) -> Bool) {
    self.predicate = predicate
  }
  /// Whether values are still skipped.
  @inlinable package func start() -> Bool { true }
  @inlinable package func step(_ input: Input, _ skipping: inout Bool) throws(RuleFailure) -> ElementStep<Input> {
    if skipping {
      if try predicate(input) { return .drop("skipped by drop(while:)", forgetsCurrent: false) }
      skipping = false
    }
    return .emit(input)
  }
}
