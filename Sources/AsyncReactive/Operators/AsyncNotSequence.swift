extension AsyncSequence where Element == Bool {
  /// Negates every value: the seed's `[executing not]` that hides a loading indicator.
  ///
  /// ```swift
  /// search.executing.not().observe(in: lifetime) { hidden in loadingIndicator.isHidden = hidden }
  /// ```
  @inlinable
  public func not() -> AsyncNotSequence<Self> {
    AsyncNotSequence(self)
  }
}

/// An async sequence of negated Bools; see ``_Concurrency/AsyncSequence/not()``.
public struct AsyncNotSequence<Base: AsyncSequence>: AsyncSequence where Base.Element == Bool {
  public typealias Element = Bool
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base

  @inlinable
  init(_ base: Base) {
    self.base = base
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator())
  }

  /// The iterator of an ``AsyncNotSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator

    @inlinable
    init(base: Base.AsyncIterator) {
      self.base = base
    }

    /// The negation of the next upstream value.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Bool? {
      try await base.next(isolation: actor).map { !$0 }
    }

    /// The negation of the next upstream value.
    @inlinable
    public mutating func next() async throws(Failure) -> Bool? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncNotSequence: Sendable where Base: Sendable {}

/// Each iteration iterates the upstream anew, so `retry` works through it.
extension AsyncNotSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncNotSequence: ReactiveSequence {}

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
