/// The elements of a ``ReactiveSequence`` transformed by a closure; see ``ReactiveSequence/map(_:)``.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// Behaves as the standard library's `AsyncMapSequence`, but its iterator is inlinable, so a client module
/// specialises it for its own element types.
///
/// ```swift
/// let doubled: AsyncReactiveMapSequence<Signal<Int, Never>, Int> = Signal([1, 2, 3]).map { $0 * 2 }
/// ```
public struct AsyncReactiveMapSequence<Base: AsyncSequence, Transformed>: AsyncSequence {
  public typealias Element = Transformed
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let transform: @Sendable (Base.Element) -> Transformed

  @inlinable
  init(_ base: Base, transform: @escaping @Sendable (Base.Element) -> Transformed) {
    self.base = base
    self.transform = transform
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), transform: transform)
  }

  /// The iterator of an ``AsyncReactiveMapSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let transform: @Sendable (Base.Element) -> Transformed

    @inlinable
    init(base: Base.AsyncIterator, transform: @escaping @Sendable (Base.Element) -> Transformed) {
      self.base = base
      self.transform = transform
    }

    /// The next upstream element, transformed; `nil` when the upstream finished.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Transformed? {
      guard let element = try await base.next(isolation: actor) else { return nil }
      return transform(element)
    }

    /// The next upstream element, transformed; `nil` when the upstream finished.
    @inlinable
    public mutating func next() async throws(Failure) -> Transformed? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncReactiveMapSequence: Sendable where Base: Sendable {}
extension AsyncReactiveMapSequence: ReactiveSequence {}
extension AsyncReactiveMapSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
