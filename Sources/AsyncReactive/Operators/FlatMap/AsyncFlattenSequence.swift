/// The sequence returned by `flatMap`, `flatMapLatest` and `concatMap`: the elements of the inner sequences
/// made from each outer value, combined by a ``FlattenStrategy``.
///
/// The outer sequence is pumped by one task and each running inner sequence by a task of its own (under
/// ``FlattenStrategy/concat`` the outer's task runs each inner itself); their elements wait in a buffer that the
/// consumer drains in batches. When the buffer holds 256 elements, the inner sequences that keep producing pause
/// until the consumer catches up.
///
/// **Finishes:** when the outer sequence and every inner sequence it started have finished.
///
/// **Throws:** the first failure of the outer sequence, the transform or any running inner sequence, at once;
/// everything else is cancelled.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the outer and every inner
/// sequence.
///
/// ```swift
/// let wallets = users.flatMap { user in Signal.future { try await api.wallet(for: user) } }
/// for try await wallet in wallets { show(wallet) }
/// ```
public struct AsyncFlattenSequence<Base: AsyncSequence & Sendable, Inner: AsyncSequence & Sendable, Failure: Error>:
  AsyncSequence, Sendable
where Base.Element: Sendable, Inner.Element: Sendable {
  /// The elements of the inner sequences.
  public typealias Element = Inner.Element

  @usableFromInline let base: Base
  @usableFromInline let strategy: FlattenStrategy
  @usableFromInline let transform: @Sendable (Base.Element) async throws(Failure) -> Inner
  @usableFromInline let outerFailure: @Sendable (Base.Failure) -> Failure
  @usableFromInline let innerFailure: @Sendable (Inner.Failure) -> Failure

  @inlinable init(
    _ base: Base,
    strategy: FlattenStrategy,
    throwingTransform transform: @escaping @Sendable (Base.Element) async throws(Failure) -> Inner,
    outerFailure: @escaping @Sendable (Base.Failure) -> Failure,
    innerFailure: @escaping @Sendable (Inner.Failure) -> Failure
  ) {
    self.base = base
    self.strategy = strategy
    self.transform = transform
    self.outerFailure = outerFailure
    self.innerFailure = innerFailure
  }

  /// The same with a non-throwing transform (Swift does not convert it to `throws(Failure)` by itself).
  @inlinable init(
    _ base: Base,
    strategy: FlattenStrategy,
    transform: @escaping @Sendable (Base.Element) async -> Inner,
    outerFailure: @escaping @Sendable (Base.Failure) -> Failure,
    innerFailure: @escaping @Sendable (Inner.Failure) -> Failure
  ) {
    self.init(
      base,
      strategy: strategy,
      throwingTransform: { (value) async throws(Failure) -> Inner in await transform(value) },
      outerFailure: outerFailure,
      innerFailure: innerFailure
    )
  }

  /// Subscribes to the outer sequence now and starts pumping it.
  @inlinable public func makeAsyncIterator() -> Iterator {
    let storage = FlattenStorage<Element, Failure>(strategy: strategy)
    storage.start(
      outer: base.makeAsyncIterator(),
      of: Base.self,
      transform: transform,
      outerFailure: outerFailure,
      innerFailure: innerFailure
    )
    return Iterator(storage: storage)
  }

  /// The iterator of an ``AsyncFlattenSequence``; dropping it cancels all the work.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let consumer: Consumer
    @usableFromInline var cursor: ConsumerCursor<FlattenStorage<Element, Failure>>

    @inlinable init(storage: FlattenStorage<Element, Failure>) {
      consumer = Consumer(storage: storage)
      cursor = ConsumerCursor(host: storage, id: 0)
    }

    /// The next element of any inner sequence, `nil` once everything finished (or the consumer was cancelled).
    ///
    /// **Throws:** the first failure of the outer sequence, the transform or an inner sequence.
    @inlinable public mutating func next() async throws(Failure) -> Element? {
      try await cursor.next(isolation: nil)
    }

    /// The next element, running on the caller's actor so that a buffered element costs no executor hop.
    @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      try await cursor.next(isolation: actor)
    }
  }

  /// Stops all the work when the iterator is dropped (a `break` out of the loop).
  @usableFromInline final class Consumer {
    @usableFromInline let storage: FlattenStorage<Element, Failure>

    @inlinable init(storage: FlattenStorage<Element, Failure>) {
      self.storage = storage
    }

    deinit { storage.removeConsumer(0) }
  }
}

extension AsyncFlattenSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
