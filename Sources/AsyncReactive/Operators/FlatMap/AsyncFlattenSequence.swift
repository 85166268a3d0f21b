/// The sequence returned by `flatMap`, `flatMapLatest`, `flatMapFirst` and `concatMap`: the elements of the inner
/// sequences made from each outer value, merged, limited, concatenated, switched to the latest or ignored while
/// one runs, as the operator says.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// Making the iterator makes the outer sequence's iterator (a subject registers the consumer then); the work
/// starts at the first `next()`, as for every operator of the library. The outer sequence is pumped by one
/// task, which calls the transform as each outer value arrives. Each running
/// inner sequence is pumped by a worker task (an immediate ``Signal`` such as `Signal.just` by the outer task, in
/// place); under a concurrency limit, a worker whose inner finished goes on with the oldest waiting one.
///
/// **Finishes:** when the outer sequence and every inner sequence it started (or queued) have finished.
///
/// **Throws:** the first failure of the outer sequence, the transform or any running inner sequence, at once;
/// everything else is cancelled.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the outer and every inner
/// sequence; queued inner sequences never start.
///
/// **Buffering:** inner sequences that find every slot taken wait as the ``FlattenBuffering`` says (unbounded by
/// default). Output elements wait for the consumer in a buffer that it drains in batches; when it holds 256
/// elements, the inner sequences that keep producing pause until the consumer catches up.
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
  @usableFromInline let buffering: FlattenBuffering
  @usableFromInline let transform: @Sendable (Base.Element) async throws(Failure) -> Inner
  @usableFromInline let outerFailure: @Sendable (Base.Failure) -> Failure
  @usableFromInline let innerFailure: @Sendable (Inner.Failure) -> Failure

  @inlinable init(
    _ base: Base,
    strategy: FlattenStrategy,
    buffering: FlattenBuffering = .unbounded,
    throwingTransform transform: @escaping @Sendable (Base.Element) async throws(Failure) -> Inner,
    outerFailure: @escaping @Sendable (Base.Failure) -> Failure,
    innerFailure: @escaping @Sendable (Inner.Failure) -> Failure
  ) {
    self.base = base
    self.strategy = strategy
    self.buffering = buffering
    self.transform = transform
    self.outerFailure = outerFailure
    self.innerFailure = innerFailure
  }

  /// The same with a non-throwing transform (Swift does not convert it to `throws(Failure)` by itself).
  @inlinable init(
    _ base: Base,
    strategy: FlattenStrategy,
    buffering: FlattenBuffering = .unbounded,
    transform: @escaping @Sendable (Base.Element) async -> Inner,
    outerFailure: @escaping @Sendable (Base.Failure) -> Failure,
    innerFailure: @escaping @Sendable (Inner.Failure) -> Failure
  ) {
    self.init(
      base,
      strategy: strategy,
      buffering: buffering,
      throwingTransform: { (value) async throws(Failure) -> Inner in await transform(value) },
      outerFailure: outerFailure,
      innerFailure: innerFailure
    )
  }

  /// Makes the outer sequence's iterator now (a subject registers the consumer then); the first `next()` starts
  /// pumping it.
  @inlinable public func makeAsyncIterator() -> Iterator {
    let storage = FlattenStorage<Inner, Failure>(strategy: strategy, buffering: buffering, innerFailure: innerFailure)
    let outer = PendingIterator(base.makeAsyncIterator())
    let (transform, outerFailure) = (transform, outerFailure)
    return Iterator(storage: storage) {
      guard let outer = outer.take() else { return }
      storage.start(outer: outer, of: Base.self, transform: transform, outerFailure: outerFailure)
    }
  }

  /// The iterator of an ``AsyncFlattenSequence``; the first `next()` starts the work, and dropping the iterator
  /// cancels it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let consumer: Consumer
    @usableFromInline var cursor: ConsumerCursor<FlattenStorage<Inner, Failure>>
    /// Starts the outer pump; run by the first `next()`, then `nil`.
    @usableFromInline var start: (() -> Void)?

    @inlinable init(storage: FlattenStorage<Inner, Failure>, start: @escaping () -> Void) {
      consumer = Consumer(storage: storage)
      cursor = ConsumerCursor(host: storage, id: 0)
      self.start = start
    }

    /// The next element of any inner sequence, `nil` once everything finished (or the consumer was cancelled).
    ///
    /// **Throws:** the first failure of the outer sequence, the transform or an inner sequence.
    @inlinable public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// The next element, running on the caller's actor so that a buffered element costs no executor hop.
    @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      // One branch per element, taken once.
      if let start {
        self.start = nil
        start()
      }
      return try await cursor.next(isolation: actor)
    }
  }

  /// Stops all the work when the iterator is dropped (a `break` out of the loop).
  @usableFromInline final class Consumer {
    @usableFromInline let storage: FlattenStorage<Inner, Failure>

    @inlinable init(storage: FlattenStorage<Inner, Failure>) {
      self.storage = storage
    }

    deinit { storage.removeConsumer(0) }
  }
}

extension AsyncFlattenSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncFlattenSequence: ReactiveSequence {}
