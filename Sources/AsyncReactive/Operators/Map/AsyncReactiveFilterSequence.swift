/// The elements of a ``ReactiveSequence`` that satisfy a predicate; see ``ReactiveSequence/filter(_:)``.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// Behaves as the standard library's `AsyncFilterSequence`, but its iterator is inlinable and its predicate
/// synchronous, so a client module specialises it for its own element types and no element pays for an `async`
/// call.
///
/// ```swift
/// let evens: AsyncReactiveFilterSequence<Signal<Int, Never>> = Signal([1, 2, 3, 4]).filter { $0 % 2 == 0 }
/// ```
public struct AsyncReactiveFilterSequence<Base: AsyncSequence>: AsyncSequence {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let isIncluded: @Sendable (Base.Element) -> Bool

  @inlinable
  init(_ base: Base, isIncluded: @escaping @Sendable (Base.Element) -> Bool) {
    self.base = base
    self.isIncluded = isIncluded
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), isIncluded: isIncluded)
  }

  /// The iterator of an ``AsyncReactiveFilterSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let isIncluded: @Sendable (Base.Element) -> Bool

    @inlinable
    init(base: Base.AsyncIterator, isIncluded: @escaping @Sendable (Base.Element) -> Bool) {
      self.base = base
      self.isIncluded = isIncluded
    }

    /// The next element that satisfies the predicate; `nil` when the upstream finished.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Base.Element? {
      while let element = try await base.next(isolation: actor) {
        if isIncluded(element) { return element }
      }
      return nil
    }

    /// The next element that satisfies the predicate; `nil` when the upstream finished.
    @inlinable
    public mutating func next() async throws(Failure) -> Base.Element? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncReactiveFilterSequence: Sendable where Base: Sendable {}
extension AsyncReactiveFilterSequence: ReactiveSequence {}
extension AsyncReactiveFilterSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
