extension AsyncSequence where Self: Sendable, Element == Bool {
  /// Negates every value: the seed's `[executing not]` that hides a loading indicator.
  ///
  /// ```swift
  /// search.executing.not().observe(in: lifetime) { hidden in loadingIndicator.isHidden = hidden }
  /// ```
  ///
  /// - Returns: a ``Signal`` of the negations; hot when this sequence is.
  @inlinable public func not(fileID: StaticString = #fileID, line: UInt = #line) -> Signal<Bool, Failure> {
    Signal(self).map({ !$0 }, fileID: fileID, line: line)
  }
}

extension HotSequence where Element == Bool {
  /// Negates every value inside the upstream's `send` (RAC's `[executing not]`).
  @inlinable package func hotNot(fileID: StaticString = #fileID, line: UInt = #line) -> HotSignal<Bool, Failure> {
    hotMap({ !$0 }, fileID: fileID, line: line)
  }
}
