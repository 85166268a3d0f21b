extension Signal where Element == Int, Failure == Never {
  /// A cold signal that ticks every `interval` until its consumer stops: the *n*-th tick is the number *n*, sent
  /// *n* × `interval` after the iteration started (RxSwift `Observable.interval`, RAC `interval:onScheduler:`).
  ///
  /// Each iteration has its own schedule, starting when it starts (`makeAsyncIterator()`): a "leave timer" that
  /// starts when a view disappears is `for await seconds in Signal.timer(every: .seconds(1)) { … }`. Ticks are
  /// counted from 1, so the element says how many intervals have passed. The schedule does not drift: each tick
  /// is due one interval after the previous one was *due*, not after it was taken. A consumer that falls
  /// behind receives the ticks it missed at once, in order; nothing is skipped.
  ///
  /// The timer runs in the consumer's own task (no extra task, no buffer): it sleeps until the next tick when the
  /// consumer asks for it.
  ///
  /// **Finishes:** never by itself; the iteration ends when the consumer stops.
  ///
  /// **Cancellation:** cancelling the consuming task ends the sleep at once and finishes the iteration.
  ///
  /// ```swift
  /// for await elapsed in Signal.timer(every: .seconds(1)).prefix(60) {
  ///   print("away for \(elapsed) s")
  /// }
  /// // In tests: Signal.timer(every: .seconds(1), clock: testClock)
  /// ```
  /// - Parameters:
  ///   - interval: the time between ticks; positive.
  ///   - clock: the clock to tick on; a `TestClock` in tests.
  /// - Returns: a signal of the tick numbers 1, 2, 3, …
  public static func timer(every interval: Duration, clock: some Clock<Duration> = ContinuousClock()) -> Signal {
    precondition(interval > .zero, "Signal.timer(every: \(interval)): the interval must be positive")
    return Signal(makeRun: { TimerRun(interval: interval, clock: clock) })
  }
}

/// One iteration of ``Signal/timer(every:clock:)``: sleeps in the consumer's task until each tick is due.
private final class TimerRun<C: Clock>: SignalRun<Int, Never> where C.Duration == Duration {
  private let clock: C
  private let interval: Duration
  /// When the last tick was due (the start, before the first).
  private var deadline: C.Instant
  private var tick = 0
  private var ended = false

  init(interval: Duration, clock: C) {
    self.clock = clock
    self.interval = interval
    self.deadline = clock.now
  }

  override func next(isolation actor: isolated (any Actor)?) async -> Int? {
    guard !ended else { return nil }
    let due = deadline.advanced(by: interval)
    do {
      try await clock.sleep(until: due, tolerance: nil)
    } catch {
      ended = true  // cancelled
      return nil
    }
    deadline = due
    tick += 1
    return tick
  }
}
