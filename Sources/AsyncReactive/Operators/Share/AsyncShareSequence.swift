extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Shares one run of this sequence among every consumer iterating at the same time (RxSwift
  /// `share(replay:scope: .whileConnected)`; close to ReactiveSwift's `replayLazily(upTo:)` and RAC's
  /// `replayLazily`, which keep replaying a run that ended instead of starting a new one).
  ///
  /// Every copy of the returned sequence is the same share point. The first consumer to make its iterator
  /// subscribes to this sequence, and the first `next()` of any consumer starts pulling from it: consumers that
  /// made their iterators before that all receive every element. Each element goes to every current consumer, in
  /// the same order for all; a consumer that joins a running run first receives the latest `replay` elements.
  ///
  /// **Finishes:** when this sequence finishes, for every current consumer, after the elements buffered for it.
  ///
  /// **Throws:** this sequence's failure, to every current consumer, after the elements buffered for it.
  ///
  /// **Cancellation:** a consumer that is cancelled, breaks out of its loop or drops its iterator leaves at once;
  /// when the last one leaves, the run is cancelled and the replay buffer is emptied. A consumer that comes after a
  /// run ended (cancelled, finished or failed) starts a new run with an empty replay buffer (`whileConnected`: no
  /// element or end of an earlier run is replayed). A consumer belongs to the run that was going when it made its
  /// iterator: if that run ends before it pulls, it still reads the run's elements and end. A cancelled run is not
  /// awaited: a new run may start while the old one is still winding down. Each run iterates this sequence anew, so
  /// a single-pass one (an `AsyncStream`) has nothing left for a second run: build it per run with
  /// ``Signal/deferred(_:)`` when consumers may come and go.
  ///
  /// **Buffering:** the run pulls as fast as this sequence produces while every consumer keeps up; when 256 elements
  /// wait for one consumer, the run pauses until that consumer catches up. A consumer that makes its iterator and
  /// does not iterate therefore holds the others back: drop the iterator you do not use.
  ///
  /// **Retrying:** the result is not a ``ReiterableAsyncSequence``, so it has no `retry`: a new iteration may join
  /// a run that another consumer started, and would not see that run's earlier elements. Retry before sharing
  /// (`request.retry(3).share()`), so that every consumer shares the retried run.
  ///
  /// ```swift
  /// let user = Signal.future { try await api.fetchUser() }.share()
  /// // combineLatest subscribes to both before pulling: one request feeds both.
  /// for try await (name, avatar) in combineLatest(user.map(\.name), user.map(\.avatarURL)) {
  ///   render(name, avatar)
  /// }
  /// ```
  /// - Parameter replay: how many of the latest elements a consumer joining a running run receives first; 0 (the
  ///   default) for none. Must not be negative.
  /// - Returns: an ``AsyncShareSequence`` with this sequence's elements and failure.
  @inlinable public func share(replay: Int = 0) -> AsyncShareSequence<Self> {
    precondition(replay >= 0, "share(replay:) needs a replay count of 0 or more, not \(replay)")
    return AsyncShareSequence(base: self, replay: replay)
  }
}

/// One run of an upstream sequence shared by every consumer iterating at the same time: what
/// ``_Concurrency/AsyncSequence/share(replay:)`` returns.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type is (`Sendable`, one of the
/// library's sequences for the merging `flatMap`; not re-iterable: a new iteration may join a run already going).
/// You rarely write its name.
///
/// The upstream is pumped by one task into a queue per consumer, with one lock per element; each consumer drains
/// its queue in batches.
///
/// **Finishes:** when the upstream finishes, for every current consumer.
///
/// **Throws:** the upstream's failure, to every current consumer.
///
/// **Cancellation:** when the last consumer leaves (cancelled, `break`, iterator dropped), the upstream run is
/// cancelled; the next consumer starts a new one.
///
/// ```swift
/// let prices = ticker.prices(of: "AAPL").share(replay: 1)
/// prices.observe(in: lifetime) { price in await chart.append(price) }
/// prices.observe(in: lifetime) { price in await label.show(price) }   // same run, latest price first
/// ```
public struct AsyncShareSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  @usableFromInline let storage: ShareStorage<Base>

  @inlinable init(base: Base, replay: Int) {
    storage = ShareStorage(base: base, replay: replay)
  }

  /// Registers a consumer now (the first since the last run ended subscribes to the upstream); it receives every
  /// element pumped from here on, after the replayed ones.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(storage: storage)
  }

  /// How many consumers are registered: tests use it to prove that stopped consumers are removed.
  @inlinable package var consumerCount: Int { storage.consumerCount }

  /// The iterator of an ``AsyncShareSequence``: one consumer of the share point.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let consumer: Consumer
    @usableFromInline var cursor: ConsumerCursor<ShareStorage<Base>>
    @usableFromInline var isConnected = false

    @inlinable init(storage: ShareStorage<Base>) {
      let id = storage.register()
      consumer = Consumer(storage: storage, id: id)
      cursor = ConsumerCursor(host: storage, id: id)
    }

    /// The next element of the shared run, `nil` once it finished (or this consumer was cancelled).
    ///
    /// **Throws:** the upstream's failure, once, after the elements buffered before it.
    @inlinable public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// The next element, running on the caller's actor so that a buffered element costs no executor hop.
    ///
    /// **Throws:** the upstream's failure, once, after the elements buffered before it.
    @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      if !isConnected {
        isConnected = true
        consumer.storage.connect(consumer.id)
      }
      return try await cursor.next(isolation: actor)
    }
  }

  /// Removes the consumer when its iterator is dropped (a `break` out of the loop).
  @usableFromInline final class Consumer {
    @usableFromInline let storage: ShareStorage<Base>
    @usableFromInline let id: Int

    @inlinable init(storage: ShareStorage<Base>, id: Int) {
      self.storage = storage
      self.id = id
    }

    deinit { storage.removeConsumer(id) }
  }
}

extension AsyncShareSequence: ReactiveSequence {}
