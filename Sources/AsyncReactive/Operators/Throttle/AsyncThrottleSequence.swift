extension AsyncSequence where Self: Sendable, Element: Sendable, AsyncIterator: SendableMetatype {
  /// Emits at most one value per `interval`: the first value at once, then, at the end of each interval, the
  /// latest (or first) value that arrived during it (Combine `throttle(for:scheduler:latest:)`, RxSwift
  /// `throttle(_:latest:)`).
  ///
  /// A value that arrives while the operator is idle is emitted at once and opens a window of `interval`. Values
  /// arriving during the window are held back; when it ends, the latest of them (`latest: true`) or the first
  /// (`latest: false`) is emitted and opens the next window. A window that ends with nothing held back makes the
  /// operator idle again. A value arriving exactly at a window's end belongs to the next window. With `interval`
  /// 300 ms:
  ///
  /// | time    | upstream | `latest: true`       | `latest: false` |
  /// |---------|----------|----------------------|-----------------|
  /// | 0 ms    | `a`      | `a` (opens a window) | `a`             |
  /// | 100 ms  | `b`      |                      |                 |
  /// | 200 ms  | `c`      |                      |                 |
  /// | 300 ms  |          | `c` (next window)    | `b`             |
  /// | 400 ms  | `d`      |                      |                 |
  /// | 600 ms  |          | `d` (next window)    | `d`             |
  /// | 900 ms  |          | (nothing: idle)      |                 |
  /// | 1000 ms | `e`      | `e` (opens a window) | `e`             |
  /// | 1100 ms | `f`      |                      |                 |
  /// | 1200 ms | finish   | `f`, finish          | `f`, finish     |
  ///
  /// The upstream is iterated by a task of its own from `makeAsyncIterator()` on, as fast as it produces;
  /// emitted values wait for a slow consumer in an unbounded buffer.
  ///
  /// **Finishes:** when the upstream finishes, right after emitting the value held back for the current window
  /// (without waiting for the window to end, unlike RxSwift).
  ///
  /// **Throws:** the upstream's failure, at once; a value held back is dropped.
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer's sleep.
  ///
  /// ```swift
  /// for await position in scrollOffsets.throttle(for: .milliseconds(100), latest: true) {
  ///   await model.loadMoreIfNeeded(at: position)
  /// }
  /// // In tests: scrollOffsets.throttle(for: .milliseconds(100), clock: testClock, latest: true)
  /// ```
  /// - Parameters:
  ///   - interval: the length of a window; not negative (zero lets every value through).
  ///   - clock: the clock that measures the windows; a `TestClock` in tests.
  ///   - latest: whether a window's end emits the latest value that arrived during it (`true`, the default) or
  ///     the first.
  /// - Returns: a sequence of at most one value per `interval`.
  public func throttle<C: Clock>(
    for interval: Duration,
    clock: C = ContinuousClock(),
    latest: Bool = true
  ) -> AsyncThrottleSequence<Self, C> where C.Duration == Duration {
    precondition(interval >= .zero, "throttle(for: \(interval)): the interval must not be negative")
    return AsyncThrottleSequence(self, interval: interval, latest: latest, clock: clock)
  }
}

/// The sequence returned by ``_Concurrency/AsyncSequence/throttle(for:clock:latest:)``: at most one of the
/// upstream's values per interval.
///
/// **Finishes:** when the upstream finishes, right after emitting the value held back for the current window.
///
/// **Throws:** the upstream's failure, at once (a value held back is dropped).
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the timer.
///
/// ```swift
/// let positions: AsyncThrottleSequence<PassthroughSubject<Double, Never>, ContinuousClock> =
///   scrollOffsets.throttle(for: .milliseconds(100))
/// ```
public struct AsyncThrottleSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable, Base.AsyncIterator: SendableMetatype {
  /// The upstream's elements.
  public typealias Element = Base.Element
  /// The upstream's failure.
  public typealias Failure = Base.Failure

  private let base: Base
  private let interval: C.Duration
  private let latest: Bool
  private let clock: C

  init(_ base: Base, interval: C.Duration, latest: Bool, clock: C) {
    self.base = base
    self.interval = interval
    self.latest = latest
    self.clock = clock
  }

  /// Subscribes to the upstream now and starts pumping it.
  public func makeAsyncIterator() -> Iterator {
    let storage = ThrottleStorage<Element, Failure, C>(interval: interval, latest: latest, clock: clock)
    storage.start(upstream: base.makeAsyncIterator())
    return Iterator(storage: storage)
  }

  /// The iterator of an ``AsyncThrottleSequence``; dropping it cancels the upstream and the timer.
  public struct Iterator: AsyncIteratorProtocol {
    private let consumer: Consumer
    private var cursor: ConsumerCursor<ThrottleStorage<Element, Failure, C>>

    fileprivate init(storage: ThrottleStorage<Element, Failure, C>) {
      consumer = Consumer(storage: storage)
      cursor = ConsumerCursor(host: storage, id: 0)
    }

    /// The next throttled value, `nil` once the upstream finished (or the consumer was cancelled).
    ///
    /// **Throws:** the upstream's failure.
    public mutating func next() async throws(Failure) -> Element? {
      try await cursor.next(isolation: nil)
    }

    /// The next throttled value, running on the caller's actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      try await cursor.next(isolation: actor)
    }
  }

  /// Stops the work when the iterator is dropped (a `break` out of the loop).
  private final class Consumer {
    let storage: ThrottleStorage<Element, Failure, C>

    init(storage: ThrottleStorage<Element, Failure, C>) {
      self.storage = storage
    }

    deinit { storage.removeConsumer(0) }
  }
}

extension AsyncThrottleSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
