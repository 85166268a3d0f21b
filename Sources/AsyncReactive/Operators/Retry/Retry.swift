extension ReiterableAsyncSequence where Self: Sendable, Element: Sendable {
  /// On failure, iterates this sequence again, up to `maxRetries` more times (RAC `retry:`, ReactiveSwift
  /// `retry(upTo:)`, Combine `retry(_:)`).
  ///
  /// `maxRetries` counts **retries**, not attempts: `retry(2)` makes at most 3 attempts and `retry(0)` one.
  /// RxSwift's `retry(n)` counts attempts instead, so RxSwift `retry(3)` is `retry(2)` here.
  ///
  /// Elements delivered before a failure stay delivered: a consumer sees the elements of every attempt, in order.
  /// Only a ``ReiterableAsyncSequence`` (a ``Signal`` and the operators over one) offers `retry`, because
  /// iterating an `AsyncStream` again replays nothing; wrap one in ``Signal/deferred(_:)`` to retry it.
  ///
  /// **Finishes:** when an attempt finishes.
  ///
  /// **Throws:** the failure of the last attempt, once the retries are used up.
  ///
  /// **Cancellation:** runs in the consumer's task; a cancelled consumer is not retried for (the attempt's
  /// failure is thrown).
  ///
  /// ```swift
  /// let orders = Signal.future { try await api.orders() }
  /// for try await list in orders.retry(3) { show(list) }   // up to 4 requests
  /// ```
  /// - Parameter maxRetries: how many times to iterate again after a failure; not negative.
  /// - Returns: a ``Signal`` of every attempt's values.
  @inlinable public func retry(_ maxRetries: Int) -> Signal<Element, Failure> {
    precondition(
      maxRetries >= 0,
      "retry(\(maxRetries)): the number of retries must not be negative (retry(0) makes one attempt)"
    )
    return Signal(retrying: self, policy: .count(maxRetries))
  }

  /// On failure, iterates this sequence again, as often as it takes (RxSwift `retry()`, ReactiveSwift
  /// `retry(upTo: .max)`).
  ///
  /// **Throws:** nothing while the consumer runs: every failure is retried. A cancelled consumer is not retried
  /// for: a failure that comes after the cancellation is thrown (a cancelled ``Signal`` finishes instead).
  ///
  /// ```swift
  /// // A live feed that reconnects whenever the connection drops.
  /// for try await quote in Signal.deferred { socket.quotes() }.retry() { show(quote) }
  /// ```
  /// - Returns: a ``Signal`` of every attempt's values.
  @inlinable public func retry() -> Signal<Element, Failure> {
    Signal(retrying: self, policy: .count(.max))
  }

  /// On failure, waits as `delay` says, then iterates this sequence again, up to `maxRetries` more times.
  ///
  /// **Throws:** the failure of the last attempt, once the retries are used up.
  ///
  /// ```swift
  /// let backoff = RetryDelay.exponential(initial: .milliseconds(200), maximum: .seconds(5), jitter: .full)
  /// for try await list in orders.retry(5, delay: backoff) { show(list) }
  /// ```
  /// - Parameters:
  ///   - maxRetries: how many times to iterate again after a failure; not negative.
  ///   - delay: the wait before each retry.
  ///   - clock: the clock to wait on; a `TestClock` in tests.
  /// - Returns: a ``Signal`` of every attempt's values.
  public func retry(
    _ maxRetries: Int,
    delay: RetryDelay,
    clock: some Clock<Duration> = ContinuousClock()
  ) -> Signal<Element, Failure> {
    precondition(
      maxRetries >= 0,
      "retry(\(maxRetries), delay:): the number of retries must not be negative (retry(0) makes one attempt)"
    )
    return Signal(
      retrying: self, policy: .delayed(maxRetries: maxRetries, delay: delay, sleep: { try await clock.sleep(for: $0) }),
      // A consumer building a run learns which clock the delays wait on (see `TaskExecutorContext.note`).
      note: { TaskExecutorContext.note(clock) })
  }

  /// On failure, asks `shouldRetry` whether to iterate this sequence again.
  ///
  /// **Throws:** the failure for which `shouldRetry` returned `false`.
  ///
  /// ```swift
  /// let orders = ordersSignal.retry { error, attempt in
  ///   error.isTransient && attempt < 5
  /// }
  /// ```
  /// - Parameter shouldRetry: decides, per failure and attempt number, whether to try again.
  /// - Returns: a ``Signal`` of every attempt's values.
  public func retry(
    while shouldRetry: @escaping @Sendable (_ failure: Failure, _ attempt: Int) async -> Bool
  ) -> Signal<Element, Failure> {
    Signal(retrying: self, policy: .predicate(shouldRetry))
  }
}

/// How a retry decides whether to run the upstream again.
@usableFromInline enum RetryPolicy<Failure: Error>: Sendable {
  case count(Int)
  case delayed(maxRetries: Int, delay: RetryDelay, sleep: @Sendable (Duration) async throws -> Void)
  case predicate(@Sendable (Failure, Int) async -> Bool)
}

extension Signal {
  /// `base`, run again after each failure that `policy` retries; `note`, if any, runs when a run is made (a
  /// delayed retry tells the consumer building it which clock it waits on).
  @inlinable init<Base: ReiterableAsyncSequence & Sendable>(
    retrying base: Base, policy: RetryPolicy<Failure>, note: (@Sendable () -> Void)? = nil
  ) where Base.Element == Element, Base.Failure == Failure {
    let upstream = Signal(base)
    guard let note else {
      self = .running { RetryRun(upstream, policy: policy).pull(into:) }
      return
    }
    self = .running {
      note()
      return RetryRun(upstream, policy: policy).pull(into:)
    }
  }
}

/// A consumer's run of a retried signal: each failure the policy retries starts a new run of the upstream; the
/// values of a failed attempt stay delivered. In a graph, one task reads such a run (``Signal/running(_:)``).
///
/// Its state is not checked for exclusive access at run time (`@exclusivity(unchecked)`): only the pull that owns it
/// touches it, called by one caller at a time (see ``ClosureState``).
@usableFromInline final class RetryRun<Element: Sendable, Failure: Error> {
  /// Makes each attempt's run of the upstream.
  @usableFromInline let attempt: @Sendable () -> ColdPull<Element, Failure>
  @exclusivity(unchecked) @usableFromInline var policy: RetryPolicy<Failure>
  /// `nil` once the run ended.
  @exclusivity(unchecked) @usableFromInline var current: ColdPull<Element, Failure>?
  @exclusivity(unchecked) @usableFromInline var failedAttempts = 0

  @inlinable init(_ upstream: Signal<Element, Failure>, policy: RetryPolicy<Failure>) {
    self.attempt = upstream.makePull
    self.policy = policy
    self.current = attempt()
  }

  /// See ``ColdPull``: the current attempt's next batch; after a failure the policy retries, the next attempt's.
  @inlinable nonisolated(nonsending) func pull(into batch: inout [Element]) async throws {
    while current != nil {
      do {
        try await current!(&batch)
        if !batch.isEmpty { return }
        current = nil
      } catch {
        let error = rethrow(error, as: Failure.self)
        failedAttempts += 1
        let retries: Bool
        if case .count(let maxRetries) = policy {
          // The common case decides without a suspension point.
          retries = failedAttempts <= maxRetries && !Task.isCancelled
        } else {
          retries = await shouldRetry(after: error)
        }
        guard retries else {
          current = nil
          throw error
        }
        current = attempt()
      }
    }
  }

  /// Asks the policy (and waits its delay); never retries for a cancelled consumer.
  @usableFromInline nonisolated(nonsending) func shouldRetry(after failure: Failure) async -> Bool {
    guard !Task.isCancelled else { return false }
    switch policy {
    case .count(let maxRetries):
      return failedAttempts <= maxRetries
    case .delayed(let maxRetries, var delay, let sleep):
      guard failedAttempts <= maxRetries else { return false }
      let wait = delay.next(beforeRetry: failedAttempts)
      policy = .delayed(maxRetries: maxRetries, delay: delay, sleep: sleep)
      do {
        try await sleep(wait)
      } catch {
        return false
      }
      return !Task.isCancelled
    case .predicate(let shouldRetry):
      return await shouldRetry(failure, failedAttempts)
    }
  }
}
