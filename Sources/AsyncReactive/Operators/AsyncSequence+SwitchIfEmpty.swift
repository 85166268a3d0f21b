// `ifEmpty(switchTo:)` and `delaySubscription(for:clock:)`: RxSwift operators that are compositions of the library's
// own (a marked `ifEmpty(default:)` feeding a `concatMap`; a timer feeding a `concatMap`), so each is hot or cold,
// typed and cancelled exactly as those are.

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Passes the values on and, when the upstream finishes without any, continues with `other` (RxSwift
  /// `ifEmpty(switchTo:)`, Reactor's `switchIfEmpty`).
  ///
  /// `other` is subscribed only then: an upstream with a value, or one that fails, never touches it.
  ///
  /// **Finishes:** when the upstream finishes with a value, or else when `other` finishes. **Throws:** the
  /// upstream's failure, or `other`'s.
  ///
  /// ```swift
  /// let results = cache.results(for: query).ifEmpty(switchTo: api.search(query))
  /// ```
  /// - Parameter other: the sequence that stands in for an empty upstream.
  /// - Returns: a ``Signal`` of this sequence's values, or of `other`'s.
  @inlinable public func ifEmpty<Other: AsyncSequence & Sendable>(
    switchTo other: Other, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> where Other.Element == Element, Other.Failure == Failure {
    let fallback = Signal(other)
    return Signal(self).map { Optional($0) }.ifEmpty(default: nil).concatMap(
      { value in value.map { Signal<Element, Failure>.just($0) } ?? fallback }, fileID: fileID, line: line)
  }

  /// Subscribes to this sequence `duration` after the result is subscribed (RxSwift `delaySubscription`,
  /// ReactiveSwift has no counterpart): nothing of it runs before, and a hot sequence's values sent
  /// meanwhile are not seen.
  ///
  /// **Finishes, throws:** as this sequence, once subscribed. **Cancellation:** a consumer that leaves during the
  /// wait cancels it; this sequence is never subscribed.
  ///
  /// ```swift
  /// let retryLater = request.delaySubscription(for: .seconds(2), clock: clock)
  /// ```
  /// - Parameters:
  ///   - duration: how long to wait; not negative.
  ///   - clock: the clock to wait on; a `TestClock` in tests.
  /// - Returns: a ``Signal`` of this sequence's values and end, subscribed late.
  @inlinable public func delaySubscription<C: Clock>(
    for duration: Duration, clock: C = ContinuousClock(), fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> where C.Duration == Duration {
    precondition(duration >= .zero, "delaySubscription(for: \(duration)): the delay must not be negative")
    let source = Signal(self)
    return Signal<Int, Never>.timer(after: duration, clock: clock).concatMap(
      { _ in source }, fileID: fileID, line: line)
  }
}
