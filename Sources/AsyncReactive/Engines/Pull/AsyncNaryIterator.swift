/// The iterator of the operators over several inputs: `combineLatest`, `zip`, `merge`, `sample(on:)` and
/// `take(until:)`; each of their sequences names it `Iterator`.
///
/// Public only because the operators' sequence types are public and name it as their `Iterator`; you never
/// write its name.
///
/// Making it subscribes to every input; the first `next()` starts pumping them. Dropping it, or cancelling
/// the task parked in `next()`, cancels every input.
///
/// ```swift
/// var pairs = zip(numbers, names).makeAsyncIterator()
/// while let (number, name) = await pairs.next() { print(number, name) }
/// ```
public struct AsyncNaryIterator<Element: Sendable, Failure: Error>: AsyncIteratorProtocol {
  @usableFromInline var base: NaryIterator<Element, Failure>

  @inlinable init(base: NaryIterator<Element, Failure>) {
    self.base = base
  }

  /// The next element of the result, `nil` once it finished (or the consumer was cancelled).
  ///
  /// **Throws:** the first failure of any input, once.
  ///
  /// ```swift
  /// let first = await iterator.next()
  /// ```
  @inlinable public mutating func next() async throws(Failure) -> Element? {
    try await base.next(isolation: nil)
  }

  /// The next element of the result, running on the caller's actor.
  ///
  /// **Throws:** the first failure of any input, once.
  ///
  /// ```swift
  /// let first = try await iterator.next(isolation: #isolation)
  /// ```
  @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    try await base.next(isolation: actor)
  }
}
