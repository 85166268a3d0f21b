// The entry points of `timeout(_:clock:fallback:)`, with five overloads for the failure type, as for
// `withLatestFrom`: both `Never` (the tie-breaker), a shared type, one side `Never` (the other side's type is kept),
// and `any Error` when the types differ. They all build one ``AsyncTimeoutFallbackSequence``.

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Switches to `fallback` if the next value, or the end, does not arrive within `interval` (RxSwift
  /// `timeout(_:other:scheduler:)`).
  ///
  /// The deadlines are those of ``_Concurrency/AsyncSequence/timeout(_:clock:)->AsyncTimeoutSequence<Self,C,TimeoutError>``:
  /// the first event is due `interval` after the iteration starts, each next one `interval` after the previous
  /// value, and an event must arrive strictly before its deadline. When a deadline passes, the upstream is
  /// cancelled and the result continues with `fallback`'s elements, with no deadline. An upstream failure that
  /// arrives in time is passed through, not replaced by the fallback. With `interval` 100 ms:
  ///
  /// | time   | upstream              | fallback          | output                                 |
  /// |--------|-----------------------|-------------------|----------------------------------------|
  /// | 0 ms   | (iteration starts)    |                   |                                        |
  /// | 40 ms  | `a`                   |                   | `a`                                    |
  /// | 110 ms | `b`                   |                   | `b`                                    |
  /// | 210 ms |                       | (iteration starts) | (upstream cancelled; fallback from now) |
  /// | 260 ms |                       | `x`               | `x`                                    |
  /// | 410 ms |                       | `y`               | `y`                                    |
  /// | 530 ms |                       | finish            | finish                                 |
  ///
  /// **Finishes:** when the upstream finishes in time, or after a timeout when the fallback finishes.
  ///
  /// **Throws:** nothing: neither sequence can fail, so the result is iterated with plain `for await`.
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer's sleep; after a timeout, the fallback is iterated in the consumer's task, so cancellation reaches it
  /// as it reaches any sequence iterated directly.
  ///
  /// **Buffering:** the upstream is iterated by a task of its own from the first `next()` on, so a slow
  /// consumer never causes a timeout; its values wait in an unbounded buffer. The fallback is iterated when the
  /// consumer reaches the timeout (at once, for a consumer waiting in `next()`), one value per `next()`.
  ///
  /// ```swift
  /// let readings = sensor.readings.timeout(.seconds(5), fallback: Signal.just(.unavailable))
  /// for await reading in readings { show(reading) }
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  ///   - fallback: the sequence to continue with after a timeout.
  /// - Returns: the upstream's values, then after a timeout the fallback's.
  public func timeout<C: Clock, Fallback: AsyncSequence & Sendable>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fallback: Fallback
  ) -> AsyncTimeoutFallbackSequence<Self, Fallback, C, Never>
  where C.Duration == Duration, Fallback.Element == Element, Failure == Never, Fallback.Failure == Never {
    AsyncTimeoutFallbackSequence(
      self, fallback, interval: interval, clock: clock, baseFailure: neverFailure, fallbackFailure: neverFailure)
  }

  /// Switches to `fallback` if the next value, or the end, does not arrive within `interval`; both sequences
  /// fail with the same type, which the result keeps.
  ///
  /// Same rules as the form over non-failing sequences (RxSwift `timeout(_:other:scheduler:)`).
  ///
  /// **Finishes:** when the upstream finishes in time, or after a timeout when the fallback finishes.
  ///
  /// **Throws:** the upstream's failure if it arrives in time (it is not replaced by the fallback), or the
  /// fallback's failure after a timeout.
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer, or the fallback after a timeout.
  ///
  /// ```swift
  /// let page = Signal.future { try await api.page(1) }
  ///   .timeout(.seconds(3), fallback: Signal.future { try await mirror.page(1) })
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  ///   - fallback: the sequence to continue with after a timeout.
  /// - Returns: the upstream's values, then after a timeout the fallback's.
  public func timeout<C: Clock, Fallback: AsyncSequence & Sendable>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fallback: Fallback
  ) -> AsyncTimeoutFallbackSequence<Self, Fallback, C, Failure>
  where C.Duration == Duration, Fallback.Element == Element, Fallback.Failure == Failure {
    AsyncTimeoutFallbackSequence(
      self, fallback, interval: interval, clock: clock, baseFailure: { $0 }, fallbackFailure: { $0 })
  }

  /// Switches to `fallback` if the next value, or the end, does not arrive within `interval`; only the fallback
  /// can fail, and the result keeps its failure type.
  ///
  /// Same rules as the form over non-failing sequences (RxSwift `timeout(_:other:scheduler:)`).
  ///
  /// **Finishes:** when the upstream finishes in time, or after a timeout when the fallback finishes.
  ///
  /// **Throws:** the fallback's failure, after a timeout.
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer, or the fallback after a timeout.
  ///
  /// ```swift
  /// let prices = livePrices.timeout(.seconds(2), fallback: Signal.future { try await api.lastPrices() })
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  ///   - fallback: the sequence to continue with after a timeout.
  /// - Returns: the upstream's values, then after a timeout the fallback's.
  public func timeout<C: Clock, Fallback: AsyncSequence & Sendable>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fallback: Fallback
  ) -> AsyncTimeoutFallbackSequence<Self, Fallback, C, Fallback.Failure>
  where C.Duration == Duration, Fallback.Element == Element, Failure == Never {
    AsyncTimeoutFallbackSequence(
      self, fallback, interval: interval, clock: clock, baseFailure: neverFailure, fallbackFailure: { $0 })
  }

  /// Switches to `fallback` if the next value, or the end, does not arrive within `interval`; the fallback
  /// cannot fail, and the result keeps the upstream's failure type.
  ///
  /// Same rules as the form over non-failing sequences (RxSwift `timeout(_:other:scheduler:)`).
  ///
  /// **Finishes:** when the upstream finishes in time, or after a timeout when the fallback finishes.
  ///
  /// **Throws:** the upstream's failure if it arrives in time (it is not replaced by the fallback).
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer, or the fallback after a timeout.
  ///
  /// ```swift
  /// let profile = Signal.future { try await api.profile() }
  ///   .timeout(.seconds(5), fallback: Signal.just(cache.profile))
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  ///   - fallback: the sequence to continue with after a timeout.
  /// - Returns: the upstream's values, then after a timeout the fallback's.
  public func timeout<C: Clock, Fallback: AsyncSequence & Sendable>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fallback: Fallback
  ) -> AsyncTimeoutFallbackSequence<Self, Fallback, C, Failure>
  where C.Duration == Duration, Fallback.Element == Element, Fallback.Failure == Never {
    AsyncTimeoutFallbackSequence(
      self, fallback, interval: interval, clock: clock, baseFailure: { $0 }, fallbackFailure: neverFailure)
  }

  /// Switches to `fallback` if the next value, or the end, does not arrive within `interval`; the two sequences
  /// fail with different types, so the result fails with `any Error`.
  ///
  /// Same rules as the form over non-failing sequences (RxSwift `timeout(_:other:scheduler:)`).
  ///
  /// **Finishes:** when the upstream finishes in time, or after a timeout when the fallback finishes.
  ///
  /// **Throws:** the upstream's failure if it arrives in time, or the fallback's failure after a timeout.
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer, or the fallback after a timeout.
  ///
  /// ```swift
  /// let feed = remoteFeed.timeout(.seconds(10), fallback: diskCache.feed)  // APIError, DiskError
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  ///   - fallback: the sequence to continue with after a timeout.
  /// - Returns: the upstream's values, then after a timeout the fallback's.
  public func timeout<C: Clock, Fallback: AsyncSequence & Sendable>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fallback: Fallback
  ) -> AsyncTimeoutFallbackSequence<Self, Fallback, C, any Error>
  where C.Duration == Duration, Fallback.Element == Element {
    AsyncTimeoutFallbackSequence(
      self, fallback, interval: interval, clock: clock, baseFailure: { $0 }, fallbackFailure: { $0 })
  }
}

/// The sequence returned by `timeout(_:clock:fallback:)`: the upstream's values, then, if the upstream stays
/// silent for an interval, the fallback's.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// `Failure` is `Never` when neither sequence can fail, their common failure type, the failing side's type when
/// only one can fail, and `any Error` otherwise.
///
/// **Finishes:** when the upstream finishes in time, or after a timeout when the fallback finishes.
///
/// **Throws:** the upstream's failure if it arrives in time (it is passed through, not caught), or the
/// fallback's failure after a timeout.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the timer;
/// after a timeout the fallback is iterated in the consumer's task.
///
/// **Buffering:** the upstream's values wait for a slow consumer in an unbounded buffer; the fallback is read
/// one value per `next()`.
///
/// ```swift
/// let readings: AsyncTimeoutFallbackSequence<AsyncStream<Double>, Signal<Double, Never>, ContinuousClock, Never> =
///   stream.timeout(.seconds(5), fallback: Signal.just(.nan))
/// ```
public struct AsyncTimeoutFallbackSequence<
  Base: AsyncSequence & Sendable, Fallback: AsyncSequence & Sendable, C: Clock, Failure: Error
>: AsyncSequence, Sendable
where Base.Element: Sendable, Fallback.Element == Base.Element {
  /// The upstream's elements, which are also the fallback's.
  public typealias Element = Base.Element
  @usableFromInline typealias Rule = TimeoutRule<Element, TimeoutFailure<Base.Failure>, C.Instant>

  @usableFromInline let base: Base
  @usableFromInline let fallback: Fallback
  @usableFromInline let interval: C.Duration
  @usableFromInline let clock: C
  @usableFromInline let baseFailure: @Sendable (Base.Failure) -> Failure
  @usableFromInline let fallbackFailure: @Sendable (Fallback.Failure) -> Failure

  init(
    _ base: Base,
    _ fallback: Fallback,
    interval: C.Duration,
    clock: C,
    baseFailure: @escaping @Sendable (Base.Failure) -> Failure,
    fallbackFailure: @escaping @Sendable (Fallback.Failure) -> Failure
  ) {
    precondition(interval > .zero, "timeout(\(interval), fallback:): the interval must be positive")
    self.base = base
    self.fallback = fallback
    self.interval = interval
    self.clock = clock
    self.baseFailure = baseFailure
    self.fallbackFailure = fallbackFailure
  }

  /// Makes the upstream's iterator now (a subject registers the consumer then); the first `next()` starts the
  /// clock and the pumping.
  @inlinable public func makeAsyncIterator() -> Iterator {
    let rule = Rule(interval: interval, timedOut: .timedOut)
    let primary = AsyncTimeOperatorIterator(base, rule: rule, clock: clock, mapFailure: { .upstream($0) })
    return Iterator(
      phase: .primary(primary), fallback: fallback, baseFailure: baseFailure, fallbackFailure: fallbackFailure)
  }

  /// The iterator of an ``AsyncTimeoutFallbackSequence``; dropping it cancels the upstream and the timer, or the
  /// fallback's iteration.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline enum Phase {
      case primary(AsyncTimeOperatorIterator<Element, TimeoutFailure<Base.Failure>>)
      case fallback(Fallback.AsyncIterator)
      case finished
    }

    @usableFromInline var phase: Phase
    @usableFromInline let fallback: Fallback
    @usableFromInline let baseFailure: @Sendable (Base.Failure) -> Failure
    @usableFromInline let fallbackFailure: @Sendable (Fallback.Failure) -> Failure

    @inlinable init(
      phase: Phase,
      fallback: Fallback,
      baseFailure: @escaping @Sendable (Base.Failure) -> Failure,
      fallbackFailure: @escaping @Sendable (Fallback.Failure) -> Failure
    ) {
      self.phase = phase
      self.fallback = fallback
      self.baseFailure = baseFailure
      self.fallbackFailure = fallbackFailure
    }

    /// The next value of the upstream, or after a timeout of the fallback; `nil` once the one being read
    /// finished (or the consumer was cancelled).
    ///
    /// **Throws:** the upstream's failure that arrived in time, or the fallback's failure.
    @inlinable public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// The next value, running on the caller's actor.
    @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      if case .primary(var primary) = phase {
        // Out of the enum while it is read, so that its buffer is not shared (no copy on write).
        phase = .finished
        do throws(TimeoutFailure<Base.Failure>) {
          guard let element = try await primary.next(isolation: actor) else { return nil }
          phase = .primary(primary)
          return element
        } catch .upstream(let failure) {
          throw baseFailure(failure)
        } catch {
          // Timed out: the engine has cancelled the upstream; the fallback starts now.
          phase = .fallback(fallback.makeAsyncIterator())
        }
      }
      guard case .fallback(var iterator) = phase else { return nil }
      phase = .finished
      do throws(Fallback.Failure) {
        guard let element = try await iterator.next(isolation: actor) else { return nil }
        phase = .fallback(iterator)
        return element
      } catch {
        throw fallbackFailure(error)
      }
    }
  }
}

extension AsyncTimeoutFallbackSequence: ReactiveSequence {}

extension AsyncTimeoutFallbackSequence: ReiterableAsyncSequence
where Base: ReiterableAsyncSequence, Fallback: ReiterableAsyncSequence {}
