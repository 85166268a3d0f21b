extension AsyncSequence where Element == Bool {
  /// Negates every value: the seed's `[executing not]` that hides a loading indicator.
  ///
  /// ```swift
  /// search.executing.not().observe(in: lifetime) { hidden in loadingIndicator.isHidden = hidden }
  /// ```
  ///
  /// - Returns: the library's `map` of the negation, so it keeps what the upstream is: re-iterable (for
  ///   `retry`), `Sendable`, a library sequence.
  @inlinable
  public func not() -> AsyncReactiveMapSequence<Self, Bool> {
    AsyncReactiveMapSequence(self) { !$0 }
  }
}

extension HotSequence where Element == Bool {
  /// Negates every value inside the upstream's `send` (RAC's `[executing not]`).
  ///
  /// ```swift
  /// let spinnerHidden = isLoadingSignal.not()   // HotSignal<Bool, Never>
  /// ```
  @inlinable public func not() -> HotSignal<Bool, Failure> {
    map { !$0 }
  }
}
