extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Shifts every value, and the finish, later by `duration`, keeping their order (RxSwift `delay`, ReactiveSwift
  /// `delay(_:on:)`, Combine `delay(for:scheduler:)`).
  ///
  /// Each value is due `duration` after it arrived from the upstream; the finish likewise. A failure is **not**
  /// delayed: it is delivered at once and the values still waiting are dropped (as in RxSwift and ReactiveSwift;
  /// Combine delays failures too). With `duration` 300 ms:
  ///
  /// | time   | upstream | output        |
  /// |--------|----------|---------------|
  /// | 0 ms   | `a`      |               |
  /// | 100 ms | `b`      |               |
  /// | 150 ms | finish   |               |
  /// | 300 ms |          | `a`           |
  /// | 400 ms |          | `b`           |
  /// | 450 ms |          | finish        |
  ///
  /// The upstream is iterated by a task of its own from the first `next()` on, as fast as it produces; values
  /// wait for their due time, then for a slow consumer, in unbounded buffers. On a hot sequence (a subject, a
  /// property, a ``HotSignal``), ``HotSequence/delay(for:clock:)`` applies instead: each value is due `duration`
  /// after its send.
  ///
  /// **Finishes:** `duration` after the upstream finished, once every value has been released.
  ///
  /// **Throws:** the upstream's failure, at once (values still waiting are dropped).
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer's sleep.
  ///
  /// ```swift
  /// for await toast in toasts.delay(for: .seconds(2)) {
  ///   hide(toast)
  /// }
  /// ```
  /// - Parameters:
  ///   - duration: how long each value and the finish are held back; not negative.
  ///   - clock: the clock that measures the delay; a `TestClock` in tests.
  /// - Returns: the upstream's values, each `duration` later.
  public func delay<C: Clock>(
    for duration: Duration,
    clock: C = ContinuousClock()
  ) -> AsyncDelaySequence<Self, C> where C.Duration == Duration {
    precondition(duration >= .zero, "delay(for: \(duration)): the delay must not be negative")
    return AsyncDelaySequence(self, delay: duration, clock: clock)
  }
}

/// The sequence returned by ``_Concurrency/AsyncSequence/delay(for:clock:)->AsyncDelaySequence<Self,C>``: the upstream's values and finish,
/// each shifted later by the same duration.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// **Finishes:** the delay after the upstream finished.
///
/// **Throws:** the upstream's failure, at once (values still waiting are dropped).
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the timer.
///
/// ```swift
/// let later: AsyncDelaySequence<Signal<Int, Never>, ContinuousClock> = Signal([1, 2]).delay(for: .seconds(1))
/// ```
public struct AsyncDelaySequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The upstream's elements.
  public typealias Element = Base.Element
  /// The upstream's failure.
  public typealias Failure = Base.Failure
  /// The iterator, shared by the time operators; dropping it cancels the upstream and the timer.
  public typealias Iterator = AsyncTimeOperatorIterator<Element, Failure>
  @usableFromInline typealias Rule = DelayRule<Element, Failure, C.Instant>

  @usableFromInline let base: Base
  @usableFromInline let delay: C.Duration
  @usableFromInline let clock: C

  @inlinable init(_ base: Base, delay: C.Duration, clock: C) {
    self.base = base
    self.delay = delay
    self.clock = clock
  }

  /// Makes the upstream's iterator now (a subject registers the consumer then); the first `next()` starts
  /// pumping it.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(base, rule: Rule(delay: delay), clock: clock)
  }
}

extension AsyncDelaySequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncDelaySequence: ReactiveSequence {}
