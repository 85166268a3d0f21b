/// The iterator of the time operators: `debounce`, `throttle`, `delay`, `timeout` and `buffer(every:)`; each of
/// their sequences names it `Iterator`.
///
/// The upstream is subscribed and pumped from the moment the iterator is made (the operators measure time from
/// then). Dropping the iterator, or cancelling the task parked in `next()`, stops the iteration: the upstream and
/// the timer are cancelled.
///
/// ```swift
/// var queries = searchText.debounce(for: .milliseconds(300)).makeAsyncIterator()
/// while let query = await queries.next() { await model.search(query) }
/// ```
public struct AsyncTimeOperatorIterator<Element: Sendable, Failure: Error>: AsyncIteratorProtocol {
  @usableFromInline let consumer: Consumer
  @usableFromInline var cursor: ConsumerCursor<AnyConsumerQueueHost<Element, Failure>>

  /// Subscribes to `base` now and starts pumping it through `rule`.
  @inlinable init<Rule: TimeRule, C: Clock, Base: AsyncSequence & Sendable>(
    _ base: Base,
    rule: Rule,
    clock: C,
    mapFailure: @escaping @Sendable (Base.Failure) -> Failure
  ) where C.Instant == Rule.Instant, Base.Element == Rule.Input, Rule.Output == Element, Rule.Failure == Failure {
    let storage = TimeStorage(rule: rule, clock: clock)
    storage.start(upstream: base.makeAsyncIterator(), of: Base.self, mapFailure: mapFailure)
    // The rule and the clock stay in the storage's type; the consumer sees the queue through an existential,
    // which costs an indirect call per batch, nothing next to a timer.
    consumer = Consumer(host: AnyConsumerQueueHost(storage))
    cursor = ConsumerCursor(host: consumer.host, id: 0)
  }

  /// Subscribes to `base`, whose failure is the operator's, now and starts pumping it through `rule`.
  @inlinable init<Rule: TimeRule, C: Clock, Base: AsyncSequence & Sendable>(_ base: Base, rule: Rule, clock: C)
  where
    C.Instant == Rule.Instant, Base.Element == Rule.Input, Rule.Output == Element, Rule.Failure == Failure,
    Base.Failure == Failure
  {
    self.init(base, rule: rule, clock: clock, mapFailure: { $0 })
  }

  /// The next element of the operator, `nil` once it finished (or the consumer was cancelled).
  ///
  /// **Throws:** the operator's failure (the upstream's, or a timeout's).
  ///
  /// ```swift
  /// let first = try await iterator.next()
  /// ```
  @inlinable public mutating func next() async throws(Failure) -> Element? {
    try await cursor.next(isolation: nil)
  }

  /// The next element, running on the caller's actor.
  ///
  /// **Throws:** the operator's failure (the upstream's, or a timeout's).
  ///
  /// ```swift
  /// let first = try await iterator.next(isolation: #isolation)
  /// ```
  @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    try await cursor.next(isolation: actor)
  }

  /// Stops the iteration when the iterator is dropped (a `break` out of the loop).
  @usableFromInline final class Consumer {
    @usableFromInline let host: AnyConsumerQueueHost<Element, Failure>

    @inlinable init(host: AnyConsumerQueueHost<Element, Failure>) {
      self.host = host
    }

    deinit { host.removeConsumer(0) }
  }
}

/// A ``ConsumerQueueHost`` whose type names only the elements and the failure: lets one public iterator serve
/// storages that are generic over internal types.
@usableFromInline struct AnyConsumerQueueHost<Element: Sendable, Failure: Error>: ConsumerQueueHost {
  @usableFromInline let base: any ConsumerQueueHost<Element, Failure>

  @inlinable init(_ base: some ConsumerQueueHost<Element, Failure>) {
    self.base = base
  }

  @inlinable func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R {
    base.withQueue(id, body)
  }

  @inlinable func removeConsumer(_ id: Int) {
    base.removeConsumer(id)
  }

  @inlinable var activity: Int? { base.activity }
}
