extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Collects the values into arrays, one per `interval` (RxSwift `buffer(timeSpan:count:scheduler:)`, Combine
  /// `collect(.byTime)` / `.byTimeOrCount`).
  ///
  /// Windows of `interval` follow each other from the start of the iteration (its first `next()`). When a
  /// window ends, the values that arrived during it are emitted as one array, **even when it is empty** (as in
  /// RxSwift; Combine skips empty windows: add `.filter { !$0.isEmpty }` for that). With a `count`, a window that
  /// has collected `count` values ends at once, and the next window starts then. A value arriving exactly at a
  /// window's end belongs to the next window. With `interval` 1 s:
  ///
  /// | time    | upstream           | output          |
  /// |---------|--------------------|-----------------|
  /// | 0 ms    | (iteration starts) |                 |
  /// | 200 ms  | `a`                |                 |
  /// | 700 ms  | `b`                |                 |
  /// | 1000 ms |                    | `[a, b]`        |
  /// | 2000 ms |                    | `[]`            |
  /// | 2500 ms | `c`                |                 |
  /// | 2800 ms | finish             | `[c]`, finish   |
  ///
  /// **Finishes:** when the upstream finishes, right after emitting the values of the window in progress, if
  /// there are any (RxSwift also emits an empty last array).
  ///
  /// **Throws:** the upstream's failure, at once; the values collected in the window in progress are dropped.
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer's sleep.
  ///
  /// **Buffering:** the window in progress holds its values (at most `count`); emitted arrays wait for a slow
  /// consumer in an unbounded buffer. The upstream is iterated by a task of its own, as fast as it produces. On
  /// a hot sequence (a subject, a property, a ``HotSignal``), ``HotSequence/buffer(every:clock:count:)`` applies
  /// instead: each value is taken at its send.
  ///
  /// ```swift
  /// for await batch in analyticsEvents.buffer(every: .seconds(5), count: 100) where !batch.isEmpty {
  ///   try? await api.upload(batch)
  /// }
  /// // In tests: analyticsEvents.buffer(every: .seconds(5), clock: testClock, count: 100)
  /// ```
  /// - Parameters:
  ///   - interval: the length of a window; positive.
  ///   - clock: the clock that measures the windows; a `TestClock` in tests.
  ///   - count: the most values a window collects before it ends early; positive, or `nil` (the default) for no
  ///     limit.
  /// - Returns: a sequence of the values collected in each window.
  public func buffer<C: Clock>(
    every interval: Duration,
    clock: C = ContinuousClock(),
    count: Int? = nil
  ) -> AsyncBufferByTimeSequence<Self, C> where C.Duration == Duration {
    precondition(interval > .zero, "buffer(every: \(interval)): the interval must be positive")
    if let count { precondition(count > 0, "buffer(every:count: \(count)): the count must be positive") }
    return AsyncBufferByTimeSequence(self, interval: interval, count: count, clock: clock)
  }
}

/// The sequence returned by ``_Concurrency/AsyncSequence/buffer(every:clock:count:)->AsyncBufferByTimeSequence<Self,C>``: the upstream's values
/// collected into one array per interval.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// **Finishes:** when the upstream finishes, after emitting the values of the window in progress, if any.
///
/// **Throws:** the upstream's failure, at once (the values of the window in progress are dropped).
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the timer.
///
/// **Buffering:** the window in progress holds its values; emitted arrays wait in an unbounded buffer.
///
/// ```swift
/// let batches: AsyncBufferByTimeSequence<AsyncStream<Event>, ContinuousClock> =
///   eventStream.buffer(every: .seconds(5))
/// ```
public struct AsyncBufferByTimeSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The values collected in one window.
  public typealias Element = [Base.Element]
  /// The upstream's failure.
  public typealias Failure = Base.Failure
  /// The iterator, shared by the time operators; dropping it cancels the upstream and the timer.
  public typealias Iterator = AsyncTimeOperatorIterator<Element, Failure>
  @usableFromInline typealias Rule = BufferRule<Base.Element, Failure, C.Instant>

  @usableFromInline let base: Base
  @usableFromInline let interval: C.Duration
  @usableFromInline let count: Int?
  @usableFromInline let clock: C

  @inlinable init(_ base: Base, interval: C.Duration, count: Int?, clock: C) {
    self.base = base
    self.interval = interval
    self.count = count
    self.clock = clock
  }

  /// Makes the upstream's iterator now (a subject registers the consumer then); the first `next()` starts the
  /// first window and the pumping.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(base, rule: Rule(interval: interval, count: count), clock: clock)
  }
}

extension AsyncBufferByTimeSequence: ReactiveSequence {}

extension AsyncBufferByTimeSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
