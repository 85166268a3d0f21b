extension Signal where Element == Int, Failure == Never {
  /// A cold signal that ticks every `interval` until its consumer stops: the *n*-th tick is the number *n*, sent
  /// *n* × `interval` after the iteration started (RxSwift `Observable.interval`, RAC `interval:onScheduler:`).
  ///
  /// Each iteration has its own schedule, starting when it starts (its first `next()`): a "leave timer" that
  /// starts when a view disappears is `for await seconds in Signal.timer(every: .seconds(1)) { … }`. Ticks are
  /// counted from 1, so the element says how many intervals have passed. The schedule does not drift: each tick
  /// is due one interval after the previous one was *due*, not after it was taken. A consumer that falls
  /// behind receives the ticks it missed at once, in order; nothing is skipped.
  ///
  /// A `for await` loop runs the timer in its own task (no extra task, no buffer): it sleeps until the next tick
  /// when the consumer asks for it. As an input of an operator, the timer sleeps in a task of its own and sends each
  /// tick when it is due.
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
  @inlinable public static func timer(every interval: Duration, clock: some Clock<Duration> = ContinuousClock())
    -> Signal
  {
    precondition(interval > .zero, "Signal.timer(every: \(interval)): the interval must be positive")
    return Signal(cold: .timer(first: interval, interval: interval, ticks: .max, clock: clock))
  }

  /// A cold signal that sends one tick `delay` after the iteration started, then finishes (RxSwift
  /// `Observable.timer(_:scheduler:)` without a period, ReactiveSwift `SignalProducer.timer` taken once).
  ///
  /// The tick is the number 1, like the first tick of ``timer(every:clock:)``: one delay has passed. Each
  /// iteration has its own delay, starting when it starts (its first `next()`): a toast that hides itself
  /// three seconds after it appears, a retry scheduled for later.
  ///
  /// The timer runs in the consumer's own task (no extra task, no buffer): it sleeps until the tick is due when
  /// the consumer asks for it. With `delay` 300 ms:
  ///
  /// | time   | output             |
  /// |--------|--------------------|
  /// | 0 ms   | (iteration starts) |
  /// | 300 ms | `1`, finish        |
  ///
  /// **Finishes:** right after its tick.
  ///
  /// **Cancellation:** cancelling the consuming task ends the sleep at once and finishes the iteration without a
  /// tick.
  ///
  /// ```swift
  /// for await _ in Signal.timer(after: .seconds(3)) {
  ///   banner.hide()
  /// }
  /// // In tests: Signal.timer(after: .seconds(3), clock: testClock)
  /// ```
  /// - Parameters:
  ///   - delay: how long after the iteration starts the tick comes; not negative (zero ticks at once).
  ///   - clock: the clock to wait on; a `TestClock` in tests.
  /// - Returns: a signal of the one tick 1.
  @inlinable public static func timer(after delay: Duration, clock: some Clock<Duration> = ContinuousClock()) -> Signal
  {
    precondition(delay >= .zero, "Signal.timer(after: \(delay)): the delay must not be negative")
    return Signal(cold: .timer(first: delay, interval: delay, ticks: 1, clock: clock))
  }
}

extension ColdRecipe where Element == Int, Failure == Never {
  /// ``Signal/timer(every:clock:)`` and ``Signal/timer(after:clock:)``: a consumer's run sleeps in the consumer's own
  /// task when it asks for the next tick; in a graph, a task sleeps from tick to tick and sends each one.
  ///
  /// - Parameters:
  ///   - first: from the run's start until the first tick.
  ///   - interval: between ticks.
  ///   - ticks: how many ticks before the run finishes.
  @inlinable package static func timer<C: Clock>(
    first: Duration, interval: Duration, ticks: Int, clock: C
  ) -> ColdRecipe where C.Duration == Duration {
    ColdRecipe { _, onValue, onEnd in
      // An immediate task: the first sleep is registered now, inside the connection (an inner timer started by an
      // outer value registers within that value's delivery, as RxTest schedules it).
      let task = Task(immediateNamed: "Signal.timer", executor: TaskExecutorContext.preferred(for: clock)) {
        let run = TimerRun(first: first, interval: interval, ticks: ticks, clock: clock)
        while let tick = await run.next() { onValue(tick) }
        // A timer stopped by its observer has not ended: it was cancelled.
        if !Task.isCancelled { onEnd(.finished) }
      }
      return { task.cancel() }
    } pull: {
      let run = TimerRun(first: first, interval: interval, ticks: ticks, clock: clock)
      return { batch in
        if let tick = await run.next() { batch.append(tick) }
      }
    }
  }
}

/// One run of a timer: the ticks, each slept for in the task that asks for it.
///
/// Its state is not checked for exclusive access at run time (`@exclusivity(unchecked)`): only the pull that owns it
/// touches it, called by one caller at a time (see ``ClosureState``).
@usableFromInline package final class TimerRun<C: Clock> where C.Duration == Duration {
  @usableFromInline let clock: C
  @usableFromInline let interval: Duration
  @usableFromInline let ticks: Int
  @usableFromInline let first: Duration
  /// When the next tick is due; `nil` until the first `next()`, which starts the schedule.
  @exclusivity(unchecked) @usableFromInline var due: C.Instant?
  @exclusivity(unchecked) @usableFromInline var tick = 0
  @exclusivity(unchecked) @usableFromInline var ended = false

  @inlinable init(first: Duration, interval: Duration, ticks: Int, clock: C) {
    // A consumer that reads this run sleeps on the clock in its own task: it prefers a test clock's executor.
    TaskExecutorContext.note(clock)
    self.clock = clock
    self.interval = interval
    self.ticks = ticks
    self.first = first
  }

  /// The next tick, once it is due; `nil` when the run ended (its ticks are done, or its task was cancelled).
  @inlinable nonisolated(nonsending) func next() async -> Int? {
    guard !ended, tick < ticks else { return nil }
    let due = self.due ?? clock.now.advanced(by: first)
    do {
      try await clock.sleep(until: due, tolerance: nil)
    } catch {
      ended = true  // cancelled
      return nil
    }
    self.due = due.advanced(by: interval)
    tick += 1
    return tick
  }
}
