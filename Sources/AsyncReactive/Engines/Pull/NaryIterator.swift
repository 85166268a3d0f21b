/// The consuming side shared by the iterators of combineLatest, zip and merge.
///
/// Subscribing happened when the iterator was made; the first `next()` starts the inputs' pumping tasks.
/// Dropping the iterator, or cancelling the task parked in `next()`, stops the iteration and cancels them.
@usableFromInline struct NaryIterator<Element: Sendable, Failure: Error> {
  @usableFromInline let consumer: Consumer
  @usableFromInline var cursor: ConsumerCursor<NaryStorage<Element, Failure>>
  @usableFromInline var isStarted = false

  @inlinable init(_ storage: NaryStorage<Element, Failure>) {
    consumer = Consumer(storage: storage)
    cursor = ConsumerCursor(host: storage, id: 0)
  }

  @inlinable mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    if !isStarted {
      isStarted = true
      consumer.storage.start()
    }
    return try await cursor.next(isolation: actor)
  }

  /// Stops the iteration when the iterator is dropped (a `break` out of the loop).
  @usableFromInline final class Consumer {
    @usableFromInline let storage: NaryStorage<Element, Failure>

    @inlinable init(storage: NaryStorage<Element, Failure>) {
      self.storage = storage
    }

    deinit { storage.removeConsumer(0) }
  }
}
