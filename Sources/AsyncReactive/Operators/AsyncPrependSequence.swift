extension AsyncSequence {
  /// Emits `values` first, then the upstream's values (RxSwift `startWith`, RAC `startWith:`).
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// let results = searches.prepend([])   // the view starts with an empty list
  /// ```
  @inlinable
  public func prepend(_ values: Element...) -> AsyncPrependSequence<Self> {
    AsyncPrependSequence(self, prefix: values)
  }

  /// Emits the elements of `values` first, then the upstream's values.
  ///
  /// ```swift
  /// let withHistory = liveEvents.prepend(contentsOf: savedEvents)
  /// ```
  @inlinable
  public func prepend(contentsOf values: some Sequence<Element>) -> AsyncPrependSequence<Self> {
    AsyncPrependSequence(self, prefix: Array(values))
  }
}

/// An async sequence that starts with fixed values; see ``_Concurrency/AsyncSequence/prepend(_:)``.
public struct AsyncPrependSequence<Base: AsyncSequence>: AsyncSequence {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let prefix: [Element]

  @inlinable
  init(_ base: Base, prefix: [Element]) {
    self.base = base
    self.prefix = prefix
  }

  /// Starts iterating: the prefix first. The upstream iterator is made now, so a subject's consumer is
  /// registered before the prefix is consumed and misses nothing.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), prefix: prefix)
  }

  /// The iterator of an ``AsyncPrependSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let prefix: [Element]
    @usableFromInline var index = 0

    @inlinable
    init(base: Base.AsyncIterator, prefix: [Element]) {
      self.base = base
      self.prefix = prefix
    }

    /// The next prefix value, then the upstream's.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      if index < prefix.count {
        defer { index += 1 }
        return prefix[index]
      }
      return try await base.next(isolation: actor)
    }

    /// The next prefix value, then the upstream's.
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncPrependSequence: Sendable where Base: Sendable, Element: Sendable {}

/// Each iteration iterates the upstream anew, so `retry` works through it.
extension AsyncPrependSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncPrependSequence: ReactiveSequence {}
