extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// Fails with ``TimeoutError`` if the next value, or the end, does not arrive within `interval` (RxSwift
  /// `timeout`; Combine's `timeout` finishes instead unless given a custom error).
  ///
  /// The first event is due `interval` after the iteration starts (its first `next()`), each next one
  /// `interval` after the previous value arrived. The upstream is iterated by a task of its own, so the interval
  /// measures the upstream, not the consumer: a slow consumer never causes a timeout. An event must arrive
  /// strictly before its deadline. (On a hot sequence,
  /// ``HotSequence/timeout(_:clock:)->HotSignal<Self.Element,TimeoutError>`` applies instead: each event is taken at
  /// its send.) With `interval` 200 ms:
  ///
  /// | time   | upstream              | output                      |
  /// |--------|-----------------------|-----------------------------|
  /// | 0 ms   | (iteration starts)    |                             |
  /// | 150 ms | `a`                   | `a`                         |
  /// | 300 ms | `b`                   | `b`                         |
  /// | 500 ms |                       | fails with ``TimeoutError`` |
  ///
  /// **Finishes:** when the upstream finishes in time.
  ///
  /// **Throws:** ``TimeoutError`` when the deadline passes; the upstream is cancelled.
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer's sleep.
  ///
  /// ```swift
  /// do {
  ///   for try await reading in sensor.readings.timeout(.seconds(5)) { show(reading) }
  /// } catch {
  ///   showOffline()  // error is TimeoutError
  /// }
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  /// - Returns: the upstream's values, failing with ``TimeoutError`` on a timeout.
  public func timeout<C: Clock>(
    _ interval: Duration,
    clock: C = ContinuousClock()
  ) -> AsyncTimeoutSequence<Self, C, TimeoutError> where C.Duration == Duration {
    precondition(interval > .zero, "timeout(\(interval)): the interval must be positive")
    return AsyncTimeoutSequence(
      self,
      interval: interval,
      clock: clock,
      timedOut: TimeoutError(),
      mapFailure: neverFailure
    )
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == any Error {
  /// Fails with ``TimeoutError`` if the next value, or the end, does not arrive within `interval`; the upstream's
  /// own errors pass through unchanged.
  ///
  /// Same rules as the non-failing form: the first event is due `interval` after the iteration starts, each next
  /// one `interval` after the previous value; a slow consumer never causes a timeout.
  ///
  /// **Finishes:** when the upstream finishes in time.
  ///
  /// **Throws:** ``TimeoutError`` when the deadline passes (the upstream is cancelled), or the upstream's error.
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer's sleep.
  ///
  /// ```swift
  /// do {
  ///   for try await page in Signal.future({ try await api.page(1) }).timeout(.seconds(10)) { show(page) }
  /// } catch is TimeoutError {
  ///   showSlowNetworkHint()
  /// }
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  /// - Returns: the upstream's values, failing with ``TimeoutError`` on a timeout.
  public func timeout<C: Clock>(
    _ interval: Duration,
    clock: C = ContinuousClock()
  ) -> AsyncTimeoutSequence<Self, C, any Error> where C.Duration == Duration {
    precondition(interval > .zero, "timeout(\(interval)): the interval must be positive")
    return AsyncTimeoutSequence(self, interval: interval, clock: clock, timedOut: TimeoutError(), mapFailure: { $0 })
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Fails with ``TimeoutFailure/timedOut`` if the next value, or the end, does not arrive within `interval`;
  /// the upstream's typed failure arrives as ``TimeoutFailure/upstream(_:)``.
  ///
  /// Same rules as the non-failing form: the first event is due `interval` after the iteration starts, each next
  /// one `interval` after the previous value; a slow consumer never causes a timeout. (Over an upstream that
  /// cannot fail or fails with `any Error`, the result throws ``TimeoutError`` instead.)
  ///
  /// **Finishes:** when the upstream finishes in time.
  ///
  /// **Throws:** ``TimeoutFailure/timedOut`` when the deadline passes (the upstream is cancelled), or
  /// ``TimeoutFailure/upstream(_:)`` with the upstream's failure.
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer's sleep.
  ///
  /// ```swift
  /// do throws(TimeoutFailure<APIError>) {
  ///   for try await page in pages.timeout(.seconds(10)) { show(page) }
  /// } catch .timedOut {
  ///   showSlowNetworkHint()
  /// } catch .upstream(let error) {
  ///   show(error)
  /// }
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  /// - Returns: the upstream's values, failing with a ``TimeoutFailure``.
  public func timeout<C: Clock>(
    _ interval: Duration,
    clock: C = ContinuousClock()
  ) -> AsyncTimeoutSequence<Self, C, TimeoutFailure<Failure>> where C.Duration == Duration {
    precondition(interval > .zero, "timeout(\(interval)): the interval must be positive")
    return AsyncTimeoutSequence(
      self,
      interval: interval,
      clock: clock,
      timedOut: .timedOut,
      mapFailure: { .upstream($0) }
    )
  }
}

/// The sequence returned by `timeout(_:clock:)`: the upstream's values, failing if
/// the upstream stays silent for an interval.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// `Failure` is ``TimeoutError`` over a non-failing upstream, `any Error` over an untyped one, and
/// ``TimeoutFailure`` over one with a typed failure.
///
/// **Finishes:** when the upstream finishes in time.
///
/// **Throws:** the timeout failure when the deadline passes (the upstream is cancelled), or the upstream's
/// failure.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the timer.
///
/// ```swift
/// let readings: AsyncTimeoutSequence<AsyncStream<Double>, ContinuousClock, TimeoutError> =
///   stream.timeout(.seconds(5))
/// ```
public struct AsyncTimeoutSequence<Base: AsyncSequence & Sendable, C: Clock, Failure: Error>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The upstream's elements.
  public typealias Element = Base.Element
  /// The iterator, shared by the time operators; dropping it cancels the upstream and the timer.
  public typealias Iterator = AsyncTimeOperatorIterator<Element, Failure>
  @usableFromInline typealias Rule = TimeoutRule<Element, Failure, C.Instant>

  @usableFromInline let base: Base
  @usableFromInline let interval: C.Duration
  @usableFromInline let clock: C
  @usableFromInline let timedOut: Failure
  @usableFromInline let mapFailure: @Sendable (Base.Failure) -> Failure

  @inlinable init(
    _ base: Base,
    interval: C.Duration,
    clock: C,
    timedOut: Failure,
    mapFailure: @escaping @Sendable (Base.Failure) -> Failure
  ) {
    self.base = base
    self.interval = interval
    self.clock = clock
    self.timedOut = timedOut
    self.mapFailure = mapFailure
  }

  /// Makes the upstream's iterator now (a subject registers the consumer then); the first `next()` starts the
  /// clock and the pumping.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(base, rule: Rule(interval: interval, timedOut: timedOut), clock: clock, mapFailure: mapFailure)
  }
}

extension AsyncTimeoutSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncTimeoutSequence: ReactiveSequence {}
