// The entry points of `retry(when:)`, in four overloads that only differ in how the failure types combine: a
// trigger that cannot fail keeps this sequence's failure; a trigger with the same failure type keeps it too; both
// `Never` (the tie-breaker) stays `Never`; any other trigger gives `any Error`. Each builds a ``RetryWhenRun``.

extension ReiterableAsyncSequence where Self: Sendable, Element: Sendable {
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
  /// - Returns: a ``Signal`` of every attempt's values.
  @inlinable public func retry<Trigger: AsyncSequence & Sendable>(
    when trigger: Trigger
  ) -> Signal<Element, Never> where Failure == Never, Trigger.Failure == Never, Trigger.Element: Sendable {
    Signal(retrying: self, when: trigger, baseFailure: neverFailure, triggerFailure: neverFailure)
  }

  /// On failure, waits for the next element of `trigger`, then iterates this sequence again (RxSwift
  /// `retry(when:)`, as in RxExample's `retryOnBecomesReachable`).
  ///
  /// **Throws:** this sequence's failure only for a consumer that was cancelled while it waited; the trigger
  /// cannot fail.
  ///
  /// ```swift
  /// // Reload the orders whenever the network comes back.
  /// let orders = Signal.future { try await api.orders() }
  ///   .retry(when: reachability.dropFirst().filter { $0 })
  /// for try await list in orders { show(list) }
  /// ```
  @inlinable public func retry<Trigger: AsyncSequence & Sendable>(
    when trigger: Trigger
  ) -> Signal<Element, Failure> where Trigger.Failure == Never, Trigger.Element: Sendable {
    Signal(retrying: self, when: trigger, baseFailure: { $0 }, triggerFailure: neverFailure)
  }

  /// On failure, waits for the next element of `trigger`, then iterates this sequence again (RxSwift
  /// `retry(when:)`); a failure of `trigger` fails the result.
  ///
  /// **Throws:** the failure of `trigger`, at once, while a failure waits for it (as in RxSwift, where the notifier's
  /// error becomes the result's); this sequence's failure only for a consumer cancelled while it waited.
  ///
  /// ```swift
  /// // Give up with the trigger's error after three attempts.
  /// let attempts = Signal<Void, APIError> { (emitter) async throws(APIError) in
  ///   for _ in 0..<2 { await emitter.send(()) }
  ///   throw APIError.gaveUp
  /// }
  /// for try await orders in api.orders.retry(when: attempts) { show(orders) }
  /// ```
  /// - Parameter trigger: the sequence whose next element, after a failure, starts the next attempt.
  /// - Returns: a ``Signal`` of every attempt's values.
  @inlinable public func retry<Trigger: AsyncSequence & Sendable>(
    when trigger: Trigger
  ) -> Signal<Element, Failure> where Trigger.Failure == Failure, Trigger.Element: Sendable {
    Signal(retrying: self, when: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }

  /// On failure, waits for the next element of `trigger`, then iterates this sequence again (RxSwift
  /// `retry(when:)`); a failure of `trigger` fails the result. This form takes triggers whose failure type
  /// differs from this sequence's.
  ///
  /// **Throws:** the failure of `trigger`, at once, while a failure waits for it, as `any Error`; this sequence's
  /// failure only for a consumer cancelled while it waited.
  ///
  /// ```swift
  /// for try await orders in api.orders.retry(when: userAsksToRetry) { show(orders) }
  /// ```
  /// - Parameter trigger: the sequence whose next element, after a failure, starts the next attempt.
  /// - Returns: a ``Signal`` of every attempt's values.
  @inlinable public func retry<Trigger: AsyncSequence & Sendable>(
    when trigger: Trigger
  ) -> Signal<Element, any Error> where Trigger.Element: Sendable {
    Signal(retrying: self, when: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }
}

extension Signal {
  /// `base`, run again after each failure once `trigger` (iterated afresh for each failure) produces an element.
  @inlinable init<Base: ReiterableAsyncSequence & Sendable, Trigger: AsyncSequence & Sendable>(
    retrying base: Base, when trigger: Trigger,
    baseFailure: @escaping @Sendable (Base.Failure) -> Failure,
    triggerFailure: @escaping @Sendable (Trigger.Failure) -> Failure
  ) where Base.Element == Element, Trigger.Element: Sendable {
    let upstream = Signal<Element, Base.Failure>(base)
    let trigger = Signal<Trigger.Element, Trigger.Failure>(trigger)
    self = .running {
      let run = RetryWhenRun(upstream, trigger: trigger, baseFailure: baseFailure, triggerFailure: triggerFailure)
      return run.pull(into:)
    }
  }
}

/// A consumer's run of `retry(when:)`: after a failure it waits for the first element of a fresh run of the
/// trigger, then runs the upstream again; a trigger that finishes first finishes the result.
///
/// Its state is not checked for exclusive access at run time (`@exclusivity(unchecked)`): only the pull that owns it
/// touches it, called by one caller at a time (see ``ClosureState``).
@usableFromInline
final class RetryWhenRun<
  Element: Sendable, BaseFailure: Error, TriggerElement: Sendable, TriggerFailure: Error, Failure: Error
> {
  @usableFromInline let upstream: Signal<Element, BaseFailure>
  @usableFromInline let trigger: Signal<TriggerElement, TriggerFailure>
  @usableFromInline let baseFailure: @Sendable (BaseFailure) -> Failure
  @usableFromInline let triggerFailure: @Sendable (TriggerFailure) -> Failure
  /// `nil` once the run ended.
  @exclusivity(unchecked) @usableFromInline var current: ColdPull<Element, BaseFailure>?

  @inlinable init(
    _ upstream: Signal<Element, BaseFailure>, trigger: Signal<TriggerElement, TriggerFailure>,
    baseFailure: @escaping @Sendable (BaseFailure) -> Failure,
    triggerFailure: @escaping @Sendable (TriggerFailure) -> Failure
  ) {
    self.upstream = upstream
    self.trigger = trigger
    self.baseFailure = baseFailure
    self.triggerFailure = triggerFailure
    self.current = upstream.pull()
  }

  /// See ``ColdPull``: the current attempt's next batch; after a failure, waits for the trigger and starts a new
  /// attempt.
  @inlinable nonisolated(nonsending) func pull(into batch: inout [Element]) async throws {
    while current != nil {
      do {
        try await current!(&batch)
        if !batch.isEmpty { return }
        current = nil
      } catch {
        let error = rethrow(error, as: BaseFailure.self)
        current = nil
        guard try await triggerFires() else {
          if Task.isCancelled { throw baseFailure(error) }
          return
        }
        if Task.isCancelled { throw baseFailure(error) }
        current = upstream.pull()
      }
    }
  }

  /// Waits for the first element of a fresh run of the trigger: `true` if it came, `false` if the trigger finished
  /// first (or the consumer was cancelled before).
  @inlinable nonisolated(nonsending) func triggerFires() async throws(Failure) -> Bool {
    guard !Task.isCancelled else { return false }
    var waiting = trigger.makeAsyncIterator()
    do throws(TriggerFailure) {
      return try await waiting.next(isolation: #isolation) != nil
    } catch {
      throw triggerFailure(error)
    }
  }
}
