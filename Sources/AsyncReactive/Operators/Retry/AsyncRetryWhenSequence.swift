// The entry points of `retry(when:)`, in four overloads that only differ in how the failure types combine: a
// trigger that cannot fail keeps this sequence's failure; a trigger with the same failure type keeps it too; both
// `Never` (the tie-breaker) stays `Never`; any other trigger gives `any Error`.

extension ReiterableAsyncSequence {
  /// On failure, waits for the next element of `trigger`, then iterates this sequence again (RxSwift
  /// `retry(when:)`, as in RxExample's `retryOnBecomesReachable`).
  ///
  /// After each failure, `trigger` is iterated anew and its first element starts the next attempt. A subject (or
  /// its subscription) as the trigger therefore counts only what it sends after the failure; a cold trigger such
  /// as ``Signal/timer(every:clock:)`` starts over after each failure, which makes it a delay. A
  /// ``AsyncCurrentValueSubject`` or ``Property`` gives its current value first: filter it (`reachable.filter { $0 }`
  /// retries at once while reachable), or skip it with `dropFirst()` to wait for a change, as RxExample does with
  /// `skip(1)`.
  ///
  /// **Finishes:** when an attempt finishes; also when `trigger` finishes without an element while a failure
  /// waits for it: the failure is dropped (RxSwift: "if the notifier completes, it will complete the source
  /// sequence").
  ///
  /// **Throws:** nothing: neither side can fail here, so the result is iterated with plain `for await`.
  ///
  /// **Cancellation:** runs in the consumer's task, with no task or lock of its own; cancelling the consumer
  /// while it waits for the trigger ends the wait (the trigger is cancelled) and stops retrying.
  ///
  /// ```swift
  /// let pulses = Signal<Int, Never>([1, 2, 3])
  /// for await value in pulses.retry(when: reachability.dropFirst().filter { $0 }) { print(value) }
  /// ```
  /// - Parameter trigger: the sequence whose next element, after a failure, starts the next attempt.
  /// - Returns: a sequence of the elements of every attempt.
  @inlinable public func retry<Trigger: AsyncSequence>(
    when trigger: Trigger
  ) -> AsyncRetryWhenSequence<Self, Trigger, Never> where Failure == Never, Trigger.Failure == Never {
    AsyncRetryWhenSequence(self, trigger: trigger, baseFailure: neverFailure, triggerFailure: neverFailure)
  }

  /// On failure, waits for the next element of `trigger`, then iterates this sequence again (RxSwift
  /// `retry(when:)`, as in RxExample's `retryOnBecomesReachable`).
  ///
  /// Works as ``retry(when:)->AsyncRetryWhenSequence<Self,Trigger,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** this sequence's failure only for a consumer that was cancelled while it waited; the trigger
  /// cannot fail.
  ///
  /// **Cancellation:** runs in the consumer's task, with no task or lock of its own; cancelling the consumer
  /// while it waits for the trigger ends the wait (the trigger is cancelled) and throws the failure that waited.
  ///
  /// ```swift
  /// // Reload the orders whenever the network comes back.
  /// let orders = Signal.future { try await api.orders() }
  ///   .retry(when: reachability.dropFirst().filter { $0 })
  /// for try await list in orders { show(list) }
  /// ```
  @inlinable public func retry<Trigger: AsyncSequence>(
    when trigger: Trigger
  ) -> AsyncRetryWhenSequence<Self, Trigger, Failure> where Trigger.Failure == Never {
    AsyncRetryWhenSequence(self, trigger: trigger, baseFailure: { $0 }, triggerFailure: neverFailure)
  }

  /// On failure, waits for the next element of `trigger`, then iterates this sequence again (RxSwift
  /// `retry(when:)`); a failure of `trigger` fails the result.
  ///
  /// After each failure, `trigger` is iterated anew and its first element starts the next attempt; see
  /// the first form of `retry(when:)` for hot and cold triggers.
  ///
  /// **Finishes:** when an attempt finishes; also when `trigger` finishes without an element while a failure
  /// waits for it: the failure is dropped (as in RxSwift).
  ///
  /// **Throws:** the failure of `trigger`, at once, while a failure waits for it (as in RxSwift, where the notifier's
  /// error becomes the result's); this sequence's failure only for a consumer cancelled while it waited.
  ///
  /// **Cancellation:** runs in the consumer's task; cancelling the consumer while it waits for the trigger ends the
  /// wait and throws the failure that waited.
  ///
  /// ```swift
  /// // Give up with the trigger's error after three attempts.
  /// let attempts = Signal<Void, APIError> { (emitter) throws(APIError) in
  ///   for _ in 0..<2 { emitter.send(()) }
  ///   throw APIError.gaveUp
  /// }
  /// for try await orders in api.orders.retry(when: attempts) { show(orders) }
  /// ```
  /// - Parameter trigger: the sequence whose next element, after a failure, starts the next attempt.
  /// - Returns: a sequence of the elements of every attempt.
  @inlinable public func retry<Trigger: AsyncSequence>(
    when trigger: Trigger
  ) -> AsyncRetryWhenSequence<Self, Trigger, Failure> where Trigger.Failure == Failure {
    AsyncRetryWhenSequence(self, trigger: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }

  /// On failure, waits for the next element of `trigger`, then iterates this sequence again (RxSwift
  /// `retry(when:)`); a failure of `trigger` fails the result. This form takes triggers whose failure type
  /// differs from this sequence's.
  ///
  /// After each failure, `trigger` is iterated anew and its first element starts the next attempt; see
  /// the first form of `retry(when:)` for hot and cold triggers.
  ///
  /// **Finishes:** when an attempt finishes; also when `trigger` finishes without an element while a failure
  /// waits for it: the failure is dropped (as in RxSwift).
  ///
  /// **Throws:** the failure of `trigger`, at once, while a failure waits for it, as `any Error`; this sequence's
  /// failure only for a consumer cancelled while it waited.
  ///
  /// **Cancellation:** runs in the consumer's task; cancelling the consumer while it waits for the trigger ends the
  /// wait and throws the failure that waited.
  ///
  /// ```swift
  /// for try await orders in api.orders.retry(when: userAsksToRetry) { show(orders) }
  /// ```
  /// - Parameter trigger: the sequence whose next element, after a failure, starts the next attempt.
  /// - Returns: a sequence of the elements of every attempt.
  @inlinable public func retry<Trigger: AsyncSequence>(
    when trigger: Trigger
  ) -> AsyncRetryWhenSequence<Self, Trigger, any Error> {
    AsyncRetryWhenSequence(self, trigger: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }
}

/// The sequence returned by `retry(when:)`: the elements of each attempt, iterating the upstream again when the
/// trigger produces an element after a failure.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// The iteration runs in the consumer's task: no task, no lock, no buffer. After a failure, the trigger is
/// iterated anew and only its first element is used; the trigger's iterator is dropped then (which unsubscribes
/// from a subject and cancels a ``Signal``'s run).
///
/// **Finishes:** when an attempt finishes, or when the trigger finishes while a failure waits for it (the
/// failure is dropped, as in RxSwift).
///
/// **Throws:** the trigger's failure while a failure waits for it; the upstream's failure to a consumer cancelled
/// while it waited.
///
/// **Cancellation:** follows the consumer; a cancelled consumer is not retried for.
///
/// ```swift
/// let orders: AsyncRetryWhenSequence<Signal<[Order], any Error>, HotSignal<Bool, Never>, any Error> =
///   api.orders.retry(when: reachable.filter { $0 })
/// ```
public struct AsyncRetryWhenSequence<Base: ReiterableAsyncSequence, Trigger: AsyncSequence, Failure: Error>:
  AsyncSequence
{
  /// The upstream's elements.
  public typealias Element = Base.Element

  @usableFromInline let base: Base
  @usableFromInline let trigger: Trigger
  @usableFromInline let baseFailure: @Sendable (Base.Failure) -> Failure
  @usableFromInline let triggerFailure: @Sendable (Trigger.Failure) -> Failure

  @inlinable init(
    _ base: Base,
    trigger: Trigger,
    baseFailure: @escaping @Sendable (Base.Failure) -> Failure,
    triggerFailure: @escaping @Sendable (Trigger.Failure) -> Failure
  ) {
    self.base = base
    self.trigger = trigger
    self.baseFailure = baseFailure
    self.triggerFailure = triggerFailure
  }

  /// Makes the first attempt's iterator; its work starts at the first `next()`.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(self)
  }

  /// The iterator of an ``AsyncRetryWhenSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let sequence: AsyncRetryWhenSequence
    /// `nil` once the sequence ended.
    @usableFromInline var current: Base.AsyncIterator?

    @inlinable init(_ sequence: AsyncRetryWhenSequence) {
      self.sequence = sequence
      current = sequence.base.makeAsyncIterator()
    }

    /// The next element of the current attempt; after a failure, waits for the trigger and starts a new attempt.
    ///
    /// **Throws:** the trigger's failure, or the upstream's failure to a cancelled consumer.
    @inlinable public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// The next element, running on the caller's actor.
    ///
    /// **Throws:** the trigger's failure, or the upstream's failure to a cancelled consumer.
    @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      while current != nil {
        do throws(Base.Failure) {
          if let element = try await current?.next(isolation: actor) { return element }
          current = nil
        } catch {
          current = nil
          guard try await triggerFires(isolation: actor) else {
            if Task.isCancelled { throw sequence.baseFailure(error) }
            return nil
          }
          if Task.isCancelled { throw sequence.baseFailure(error) }
          current = sequence.base.makeAsyncIterator()
        }
      }
      return nil
    }

    /// Waits for the first element of a fresh iteration of the trigger: `true` if it came, `false` if the trigger
    /// finished first (or the consumer was cancelled before).
    @inlinable func triggerFires(isolation actor: isolated (any Actor)?) async throws(Failure) -> Bool {
      guard !Task.isCancelled else { return false }
      var waiting = sequence.trigger.makeAsyncIterator()
      do throws(Trigger.Failure) {
        return try await waiting.next(isolation: actor) != nil
      } catch {
        throw sequence.triggerFailure(error)
      }
    }
  }
}

extension AsyncRetryWhenSequence: Sendable where Base: Sendable, Trigger: Sendable {}

/// Each iteration starts a new first attempt of the upstream.
extension AsyncRetryWhenSequence: ReiterableAsyncSequence {}
