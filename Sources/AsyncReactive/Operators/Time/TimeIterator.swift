/// The consuming side shared by the time operators' iterators.
///
/// The upstream is subscribed and pumped from the moment the iterator is made (the operators measure time from
/// then). Dropping the iterator, or cancelling the task parked in `next()`, stops the iteration: the upstream and
/// the timer are cancelled.
@usableFromInline struct TimeIterator<Rule: TimeRule, C: Clock> where C.Instant == Rule.Instant {
  @usableFromInline let consumer: Consumer
  @usableFromInline var cursor: ConsumerCursor<TimeStorage<Rule, C>>

  /// Subscribes to `base` now and starts pumping it through `rule`.
  @inlinable init<Base: AsyncSequence & Sendable>(
    _ base: Base,
    rule: Rule,
    clock: C,
    mapFailure: @escaping @Sendable (Base.Failure) -> Rule.Failure
  ) where Base.Element == Rule.Input {
    let storage = TimeStorage(rule: rule, clock: clock)
    storage.start(upstream: base.makeAsyncIterator(), of: Base.self, mapFailure: mapFailure)
    consumer = Consumer(storage: storage)
    cursor = ConsumerCursor(host: storage, id: 0)
  }

  /// Subscribes to `base`, whose failure is the operator's, now and starts pumping it through `rule`.
  @inlinable init<Base: AsyncSequence & Sendable>(_ base: Base, rule: Rule, clock: C)
  where Base.Element == Rule.Input, Base.Failure == Rule.Failure {
    self.init(base, rule: rule, clock: clock, mapFailure: { $0 })
  }

  @inlinable mutating func next(isolation actor: isolated (any Actor)?) async throws(Rule.Failure) -> Rule.Output? {
    try await cursor.next(isolation: actor)
  }

  /// Stops the iteration when the iterator is dropped (a `break` out of the loop).
  @usableFromInline final class Consumer {
    @usableFromInline let storage: TimeStorage<Rule, C>

    @inlinable init(storage: TimeStorage<Rule, C>) {
      self.storage = storage
    }

    deinit { storage.removeConsumer(0) }
  }
}
