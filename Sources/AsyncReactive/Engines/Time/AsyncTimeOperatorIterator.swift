/// The iterator of the time operators: `debounce`, `throttle`, `delay`, `timeout` and `buffer(every:)`; each of
/// their sequences names it `Iterator`.
///
/// Making the iterator makes the upstream's iterator (a subject registers the consumer then, as iterating it
/// directly would); the work starts at the first `next()`: the pump and timer tasks start, and the operator
/// measures time from then, as every other operator of the library starts its work. Dropping the iterator, or
/// cancelling the task parked in `next()`, stops the iteration: the upstream and the timer are cancelled (an
/// iterator dropped before its first `next()` started nothing).
///
/// ```swift
/// var queries = searchText.debounce(for: .milliseconds(300)).makeAsyncIterator()
/// while let query = await queries.next() { await model.search(query) }
/// ```
public struct AsyncTimeOperatorIterator<Element: Sendable, Failure: Error>: AsyncIteratorProtocol {
  @usableFromInline let consumer: Consumer
  @usableFromInline var cursor: ConsumerCursor<AnyConsumerQueueHost<Element, Failure>>
  /// Starts the pump and the timer; run by the first `next()`, then `nil`.
  @usableFromInline var start: (() -> Void)?

  /// Makes `base`'s iterator now; the first `next()` starts pumping it through `rule`.
  @inlinable init<Rule: TimeRule, C: Clock, Base: AsyncSequence & Sendable>(
    _ base: Base,
    rule: Rule,
    clock: C,
    mapFailure: @escaping @Sendable (Base.Failure) -> Failure
  ) where C.Instant == Rule.Instant, Base.Element == Rule.Input, Rule.Output == Element, Rule.Failure == Failure {
    let storage = TimeStorage(rule: rule, clock: clock)
    let upstream = PendingIterator(base.makeAsyncIterator())
    start = {
      guard let upstream = upstream.take() else { return }
      storage.start(upstream: upstream, of: Base.self, mapFailure: mapFailure)
    }
    // The rule and the clock stay in the storage's type; the consumer sees the queue through an existential,
    // which costs an indirect call per batch, nothing next to a timer.
    consumer = Consumer(host: AnyConsumerQueueHost(storage))
    cursor = ConsumerCursor(host: consumer.host, id: 0)
  }

  /// Makes the iterator of `base`, whose failure is the operator's; the first `next()` starts pumping it.
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
    startIfNeeded()
    return try await cursor.next(isolation: nil)
  }

  /// The next element, running on the caller's actor.
  ///
  /// **Throws:** the operator's failure (the upstream's, or a timeout's).
  ///
  /// ```swift
  /// let first = try await iterator.next(isolation: #isolation)
  /// ```
  @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    startIfNeeded()
    return try await cursor.next(isolation: actor)
  }

  /// Starts the work on the first call: the operator's clock starts, then the pump and the timer tasks.
  @inlinable mutating func startIfNeeded() {
    guard let start else { return }
    self.start = nil
    start()
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
