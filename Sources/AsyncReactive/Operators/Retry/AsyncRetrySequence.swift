extension ReiterableAsyncSequence {
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
  /// - Returns: a sequence of the elements of every attempt.
  @inlinable public func retry(_ maxRetries: Int) -> AsyncRetrySequence<Self> {
    precondition(
      maxRetries >= 0,
      "retry(\(maxRetries)): the number of retries must not be negative (retry(0) makes one attempt)"
    )
    return AsyncRetrySequence(self, policy: .count(maxRetries))
  }

  /// On failure, iterates this sequence again, as often as it takes (RxSwift `retry()`, ReactiveSwift
  /// `retry(upTo: .max)`).
  ///
  /// Elements delivered before a failure stay delivered. A sequence that always fails at once makes this loop
  /// as fast as it can: to wait between attempts, use ``retry(_:delay:clock:)`` or `retry(when:)`.
  ///
  /// **Finishes:** when an attempt finishes.
  ///
  /// **Throws:** nothing while the consumer runs: every failure is retried. A cancelled consumer is not retried
  /// for: a failure that comes after the cancellation is thrown (a cancelled ``Signal`` finishes instead).
  ///
  /// **Cancellation:** runs in the consumer's task; cancelling it ends the current attempt and stops retrying.
  ///
  /// ```swift
  /// // A live feed that reconnects whenever the connection drops.
  /// for try await quote in Signal.deferred { socket.quotes() }.retry() { show(quote) }
  /// ```
  /// - Returns: a sequence of the elements of every attempt.
  @inlinable public func retry() -> AsyncRetrySequence<Self> {
    AsyncRetrySequence(self, policy: .count(.max))
  }

  /// On failure, waits as `delay` says, then iterates this sequence again, up to `maxRetries` more times.
  ///
  /// Retry *n* waits ``RetryDelay``'s *n*-th delay on `clock` first. When the retries are used up, the last
  /// failure is thrown at once, without waiting. Like ``retry(_:)``, `maxRetries` counts retries, not attempts
  /// (RxSwift's `retry(n)` counts attempts).
  ///
  /// **Finishes:** when an attempt finishes.
  ///
  /// **Throws:** the failure of the last attempt, once the retries are used up.
  ///
  /// **Cancellation:** cancelling the consumer during a wait ends the wait at once and throws the failure that
  /// was to be retried.
  ///
  /// ```swift
  /// let backoff = RetryDelay.exponential(initial: .milliseconds(200), maximum: .seconds(5), jitter: .full)
  /// for try await list in orders.retry(5, delay: backoff) { show(list) }
  /// ```
  /// - Parameters:
  ///   - maxRetries: how many times to iterate again after a failure; not negative.
  ///   - delay: the wait before each retry.
  ///   - clock: the clock to wait on; a `TestClock` in tests.
  /// - Returns: a sequence of the elements of every attempt.
  public func retry(
    _ maxRetries: Int,
    delay: RetryDelay,
    clock: some Clock<Duration> = ContinuousClock()
  ) -> AsyncRetrySequence<Self> {
    precondition(
      maxRetries >= 0,
      "retry(\(maxRetries), delay:): the number of retries must not be negative (retry(0) makes one attempt)"
    )
    return AsyncRetrySequence(
      self,
      policy: .delayed(maxRetries: maxRetries, delay: delay, sleep: { try await clock.sleep(for: $0) })
    )
  }

  /// On failure, asks `shouldRetry` whether to iterate this sequence again.
  ///
  /// `shouldRetry` receives the failure and the number of the attempt that failed (1 for the first), so
  /// `retry(while: { _, attempt in attempt <= 3 })` is `retry(3)`. It may be async, for instance to wait for
  /// connectivity or to ask the user.
  ///
  /// **Finishes:** when an attempt finishes.
  ///
  /// **Throws:** the failure for which `shouldRetry` returned `false`.
  ///
  /// **Cancellation:** a cancelled consumer is not retried for (the attempt's failure is thrown).
  ///
  /// ```swift
  /// let orders = ordersSignal.retry { error, attempt in
  ///   error.isTransient && attempt < 5
  /// }
  /// ```
  /// - Parameter shouldRetry: decides, per failure and attempt number, whether to try again.
  /// - Returns: a sequence of the elements of every attempt.
  public func retry(
    while shouldRetry: @escaping @Sendable (_ failure: Failure, _ attempt: Int) async -> Bool
  ) -> AsyncRetrySequence<Self> {
    AsyncRetrySequence(self, policy: .predicate(shouldRetry))
  }
}

/// The sequence returned by ``ReiterableAsyncSequence/retry(_:)`` and its variants: the elements of each
/// attempt, iterating the upstream again after a failure as long as the policy allows.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// The iteration runs in the consumer's task: no task, no lock, no buffer.
///
/// **Finishes:** when an attempt finishes.
///
/// **Throws:** the failure that is not retried.
///
/// **Cancellation:** follows the consumer; a cancelled consumer is not retried for.
///
/// ```swift
/// let attempts: AsyncRetrySequence<Signal<User, any Error>> = userSignal.retry(2)
/// ```
public struct AsyncRetrySequence<Base: ReiterableAsyncSequence>: AsyncSequence {
  /// The upstream's elements.
  public typealias Element = Base.Element
  /// The upstream's failure, thrown once it is not retried.
  public typealias Failure = Base.Failure

  @usableFromInline enum Policy: Sendable {
    case count(Int)
    case delayed(maxRetries: Int, delay: RetryDelay, sleep: @Sendable (Duration) async throws -> Void)
    case predicate(@Sendable (Failure, Int) async -> Bool)
  }

  @usableFromInline let base: Base
  @usableFromInline let policy: Policy

  @inlinable init(_ base: Base, policy: Policy) {
    self.base = base
    self.policy = policy
  }

  /// Makes the first attempt's iterator; its work starts at the first `next()`.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(base: base, policy: policy)
  }

  /// The iterator of an ``AsyncRetrySequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let base: Base
    @usableFromInline var policy: Policy
    /// `nil` once the sequence ended.
    @usableFromInline var current: Base.AsyncIterator?
    @usableFromInline var failedAttempts = 0

    @inlinable init(base: Base, policy: Policy) {
      self.base = base
      self.policy = policy
      self.current = base.makeAsyncIterator()
    }

    /// The next element of the current attempt, starting a new attempt after a failure the policy retries.
    ///
    /// **Throws:** the failure that is not retried.
    @inlinable public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// The next element, running on the caller's actor.
    @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      while current != nil {
        do throws(Failure) {
          if let element = try await current?.next(isolation: actor) { return element }
          current = nil
        } catch {
          failedAttempts += 1
          let retries: Bool
          if case .count(let maxRetries) = policy {
            // The common case decides without a suspension point.
            retries = failedAttempts <= maxRetries && !Task.isCancelled
          } else {
            retries = await shouldRetry(after: error, isolation: actor)
          }
          guard retries else {
            current = nil
            throw error
          }
          current = base.makeAsyncIterator()
        }
      }
      return nil
    }

    /// Asks the policy (and waits its delay); never retries for a cancelled consumer.
    @usableFromInline mutating func shouldRetry(
      after failure: Failure, isolation actor: isolated (any Actor)?
    ) async -> Bool {
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
}

extension AsyncRetrySequence: Sendable where Base: Sendable {}

extension AsyncRetrySequence: ReiterableAsyncSequence {}
extension AsyncRetrySequence: ReactiveSequence {}
