/// The non-`nil` results of a closure over a ``ReactiveSequence``'s elements; see ``ReactiveSequence/compactMap(_:)``.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// Behaves as the standard library's `AsyncCompactMapSequence`, but its iterator is inlinable, so a client module
/// specialises it for its own element types.
///
/// ```swift
/// let doubled: AsyncReactiveCompactMapSequence<Signal<String, Never>, Int> = Signal(["1", "x"]).compactMap { Int($0) }
/// ```
public struct AsyncReactiveCompactMapSequence<Base: AsyncSequence, Transformed>: AsyncSequence {
  public typealias Element = Transformed
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let transform: @Sendable (Base.Element) -> Transformed?

  @inlinable
  init(_ base: Base, transform: @escaping @Sendable (Base.Element) -> Transformed?) {
    self.base = base
    self.transform = transform
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), transform: transform)
  }

  /// The iterator of an ``AsyncReactiveCompactMapSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let transform: @Sendable (Base.Element) -> Transformed?

    @inlinable
    init(base: Base.AsyncIterator, transform: @escaping @Sendable (Base.Element) -> Transformed?) {
      self.base = base
      self.transform = transform
    }

    /// The next non-`nil` transformed element; `nil` when the upstream finished.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Transformed? {
      while let element = try await base.next(isolation: actor) {
        if let transformed = transform(element) { return transformed }
      }
      return nil
    }

    /// The next non-`nil` transformed element; `nil` when the upstream finished.
    @inlinable
    public mutating func next() async throws(Failure) -> Transformed? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncReactiveCompactMapSequence: Sendable where Base: Sendable {}
extension AsyncReactiveCompactMapSequence: ReactiveSequence {}
extension AsyncReactiveCompactMapSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
