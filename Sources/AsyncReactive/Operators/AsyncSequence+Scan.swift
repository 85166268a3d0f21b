extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits each intermediate result of accumulating the values (RxSwift/RAC `scan`).
  ///
  /// One accumulator per run of a cold sequence, started afresh by each run; one for all consumers of a hot one,
  /// updated inside the upstream's `send` and started afresh when the node connects (its first consumer arrives).
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// for await total in payments.scan(0, { $0 + $1.amount }) { show(total) }   // 10, 25, 30, …
  /// ```
  /// - Parameters:
  ///   - initial: the accumulator before the first value (not emitted).
  ///   - next: combines the accumulator with a value.
  /// - Returns: a ``Signal`` of the accumulations, hot when this sequence is.
  @inlinable public func scan<Result: Sendable>(
    _ initial: Result,
    _ next: @escaping @Sendable (Result, Element) -> Result,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Result, Failure> {
    Signal(self).ruled(ScanRule(initial, next), origin: NodeOrigin(.scan, fileID: fileID, line: line))
  }
}

/// `scan`: each intermediate result of accumulating the values, from `initial` afresh per connection or run.
@usableFromInline package struct ScanRule<Input: Sendable, Result: Sendable, RuleFailure: Error>: ElementRule {
  @usableFromInline let initial: Result
  @usableFromInline let next: @Sendable (Result, Input) throws(RuleFailure) -> Result
  @inlinable package init(_ initial: Result, _ next: @escaping @Sendable (Result, Input) throws(RuleFailure) -> Result)
  {
    self.initial = initial
    self.next = next
  }
  /// The accumulator.
  @inlinable package func start() -> Result { initial }
  @inlinable package func step(_ input: Input, _ accumulator: inout Result) throws(RuleFailure) -> ElementStep<Result> {
    accumulator = try next(accumulator, input)
    return .emit(accumulator)
  }
}
