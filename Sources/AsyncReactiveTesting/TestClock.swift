import AsyncReactive

/// A clock whose time moves only when a test tells it to, for deterministic tests of time-based code.
///
/// Inject it wherever code takes `some Clock<Duration>` (debounce, throttle, timeout, retry delays). Time
/// starts at zero and stands still: a sleep on the clock returns once ``advance(by:)``, ``advance(to:)`` or
/// ``run()`` moves `now` to its deadline. Nothing polls and nothing sleeps on a real clock.
///
/// **Synchronizing with the code under test:** first wait until that code sleeps on the clock
/// (``waitForSleepers(_:)``), then advance, then await what it produced (a consumer's next value, or a
/// ``Recorder``'s ``Recorder/waitForValues(count:)``). When `advance` resumes a sleeper it cannot know when the
/// woken task has finished its work: that task runs concurrently with the rest of the `advance`. So to observe
/// the state at each deadline, advance one deadline at a time and await the output in between.
///
/// **Cancellation:** a sleeping task that is cancelled throws `CancellationError` at once and stops being a
/// sleeper.
///
/// ```swift
/// let clock = TestClock()
/// let query = PassthroughSubject<String, Never>()
/// let searches = Recorder(query.debounce(for: .milliseconds(300), clock: clock), clock: clock)
/// query.send("sw")
/// await clock.waitForSleepers(1)
/// await clock.advance(by: .milliseconds(300))
/// #expect(await searches.waitForValues(count: 1) == [Timed("sw", at: .milliseconds(300))])
/// ```
public final class TestClock: Clock, Sendable {
  /// Durations on the test clock are ordinary `Swift.Duration` values.
  ///
  /// ```swift
  /// let delay: TestClock.Duration = .milliseconds(300)
  /// ```
  public typealias Duration = Swift.Duration

  /// A point on a ``TestClock``'s timeline: a duration since time zero.
  ///
  /// Prints compactly, as `t=1.5s`.
  ///
  /// ```swift
  /// let start = clock.now
  /// await clock.advance(by: .milliseconds(1500))
  /// #expect(clock.now == start + .milliseconds(1500))
  /// print(clock.now)  // t=1.5s
  /// ```
  public struct Instant: InstantProtocol, Hashable, CustomStringConvertible {
    /// Durations between instants are ordinary `Swift.Duration` values.
    ///
    /// ```swift
    /// let elapsed: TestClock.Instant.Duration = start.duration(to: clock.now)
    /// ```
    public typealias Duration = Swift.Duration

    /// The time elapsed since time zero.
    ///
    /// ```swift
    /// #expect(clock.now.offset == .seconds(2))
    /// ```
    public var offset: Duration

    /// Creates the instant `offset` after time zero.
    ///
    /// ```swift
    /// let clock = TestClock(now: TestClock.Instant(offset: .seconds(10)))
    /// ```
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The instant `duration` later (earlier if negative).
    ///
    /// ```swift
    /// let deadline = clock.now.advanced(by: .seconds(1))
    /// ```
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The duration from this instant to `other` (negative if `other` is earlier).
    ///
    /// ```swift
    /// #expect(start.duration(to: clock.now) == .milliseconds(250))
    /// ```
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` is earlier than `rhs`.
    ///
    /// ```swift
    /// #expect(clock.now < deadline)
    /// ```
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }

    /// The instant `rhs` after `lhs`.
    ///
    /// ```swift
    /// try await clock.sleep(until: clock.now + .seconds(1))
    /// ```
    public static func + (lhs: Instant, rhs: Duration) -> Instant {
      lhs.advanced(by: rhs)
    }

    /// Moves `lhs` later by `rhs`.
    ///
    /// ```swift
    /// var deadline = clock.now
    /// deadline += .seconds(1)
    /// ```
    public static func += (lhs: inout Instant, rhs: Duration) {
      lhs = lhs + rhs
    }

    /// The instant `rhs` before `lhs`.
    ///
    /// ```swift
    /// let aSecondAgo = clock.now - .seconds(1)
    /// ```
    public static func - (lhs: Instant, rhs: Duration) -> Instant {
      lhs.advanced(by: .zero - rhs)
    }

    /// Moves `lhs` earlier by `rhs`.
    ///
    /// ```swift
    /// var deadline = clock.now
    /// deadline -= .seconds(1)
    /// ```
    public static func -= (lhs: inout Instant, rhs: Duration) {
      lhs = lhs - rhs
    }

    /// The duration from `rhs` to `lhs`.
    ///
    /// ```swift
    /// #expect(clock.now - start == .milliseconds(250))
    /// ```
    public static func - (lhs: Instant, rhs: Instant) -> Duration {
      rhs.duration(to: lhs)
    }

    /// The offset in seconds with no trailing zeros, such as `t=0s`, `t=0.25s` or `t=-1.5s`.
    ///
    /// ```swift
    /// #expect("\(TestClock.Instant(offset: .milliseconds(1500)))" == "t=1.5s")
    /// ```
    public var description: String {
      let (seconds, attoseconds) = offset.components
      // Both components carry the sign of the duration (or are zero).
      let sign = seconds < 0 || attoseconds < 0 ? "-" : ""
      var text = "t=\(sign)\(seconds.magnitude)"
      if attoseconds != 0 {
        let digits = String(attoseconds.magnitude)
        var fraction = String(repeating: "0", count: 18 - digits.count) + digits
        while fraction.last == "0" { fraction.removeLast() }
        text += ".\(fraction)"
      }
      return text + "s"
    }
  }

  private typealias StateMachine = TestClockStateMachine<
    CheckedContinuation<Void, any Error>, CheckedContinuation<Void, Never>
  >

  /// `run()` gives up after this many advances rather than looping forever.
  private static let runLimit = 100_000

  private let state: Locked<StateMachine>

  /// Creates a clock whose time stands at `now` (time zero by default) until advanced.
  ///
  /// ```swift
  /// let clock = TestClock()
  /// let model = SearchModel(api: api, clock: clock)
  /// ```
  public init(now: Instant = Instant(offset: .zero)) {
    state = Locked(StateMachine(now: now))
  }

  /// The current instant; it changes only through ``advance(by:)``, ``advance(to:)`` and ``run()``.
  ///
  /// ```swift
  /// #expect(clock.now == TestClock.Instant(offset: .seconds(1)))
  /// ```
  public var now: Instant { state.withLock { $0.now } }

  /// Zero: the test clock wakes a sleeper exactly at its deadline.
  ///
  /// ```swift
  /// #expect(clock.minimumResolution == .zero)
  /// ```
  public var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on the clock right now.
  ///
  /// ```swift
  /// await clock.advance(by: .seconds(1))
  /// #expect(clock.sleeperCount == 0)
  /// ```
  public var sleeperCount: Int { state.withLock { $0.sleeperCount } }

  /// Whether any task is sleeping on the clock; `false` at the end of a test means no timer was left behind.
  ///
  /// ```swift
  /// await clock.run()
  /// #expect(!clock.hasSleepers)
  /// ```
  public var hasSleepers: Bool { sleeperCount > 0 }

  /// Suspends until the clock is advanced to `deadline`; returns at once if `deadline` is not after `now`.
  ///
  /// **Throws:** `CancellationError` if the task is cancelled before or while sleeping; the sleeper is removed.
  ///
  /// ```swift
  /// try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
  /// try await clock.sleep(for: .milliseconds(300))  // `Clock`'s convenience, same rules
  /// ```
  /// - Parameters:
  ///   - deadline: the instant to wake at.
  ///   - tolerance: ignored; the test clock is exact.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    guard let id = state.withLock({ $0.now < deadline ? $0.makeID() : nil }) else { return }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let action = state.withLock {
          $0.registerSleeper(continuation, id: id, deadline: deadline, isCancelled: Task.isCancelled)
        }
        switch action {
        case .resume(let sleeper):
          sleeper.resume()
        case .fail(let sleeper):
          sleeper.resume(throwing: CancellationError())
        case .sleep(let waiters):
          for waiter in waiters { waiter.resume() }
        }
      }
    } onCancel: {
      state.withLock { $0.cancelSleeper(id: id) }?.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking each sleeper that comes due on the way.
  ///
  /// Same as `advance(to: now.advanced(by: duration))`; see ``advance(to:)``.
  ///
  /// ```swift
  /// await clock.waitForSleepers(1)
  /// await clock.advance(by: .milliseconds(100))
  /// ```
  /// - Parameter duration: how far to move; must not be negative.
  public func advance(by duration: Duration) async {
    precondition(duration >= .zero, "TestClock.advance(by: \(duration)): time cannot move backward")
    advance(through: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline`, waking the sleepers due by then in deadline order.
  ///
  /// Goes step by step: `now` is set to the earliest pending deadline and the sleepers due then are resumed
  /// (in registration order when deadlines are equal), then the next, and finally `now` is set to `deadline`.
  /// A sleep registered during the advance with a deadline on the way is woken too.
  ///
  /// The woken tasks run concurrently with the rest of the advance: await their output (or
  /// ``waitForSleepers(_:)``) to synchronize with them, not the return of this method alone.
  ///
  /// ```swift
  /// await clock.advance(to: TestClock.Instant(offset: .seconds(2)))
  /// #expect(clock.now.offset == .seconds(2))
  /// ```
  /// - Parameter deadline: the instant to move to; must not be before `now`.
  public func advance(to deadline: Instant) async {
    let now = self.now
    precondition(deadline >= now, "TestClock.advance(to: \(deadline)): time cannot move backward from \(now)")
    advance(through: deadline)
  }

  /// Advances to the latest pending deadline, again and again, until no task is sleeping on the clock.
  ///
  /// A woken task that sleeps again is drained too if its new sleep is registered before `run` looks for
  /// sleepers again; as that races with the woken task, a test driving a chain of sleeps to its end waits for
  /// each link: `await clock.waitForSleepers(1)` before each `run()` (or `advance`).
  ///
  /// Traps after 100 000 advances: a timer that reschedules itself forever never leaves the clock idle; move
  /// such code with ``advance(by:)`` instead.
  ///
  /// ```swift
  /// let retries = Task { try await fetchWithRetry(attempts: 3, delay: .seconds(1), clock: clock) }
  /// await clock.waitForSleepers(1)
  /// await clock.run()
  /// #expect(!clock.hasSleepers)
  /// ```
  public func run() async {
    for _ in 0..<Self.runLimit {
      guard let latest = state.withLock({ $0.latestDeadline }) else { return }
      advance(through: latest)
    }
    preconditionFailure(
      "TestClock.run(): still sleepers after \(Self.runLimit) advances; a timer probably reschedules itself "
        + "forever. Use advance(by:) to move a bounded amount of time."
    )
  }

  /// Returns once at least `count` tasks are sleeping on the clock.
  ///
  /// The handshake between starting work and advancing time: it is resumed by the sleep's own registration,
  /// so after it returns an ``advance(by:)`` reaches that sleeper.
  ///
  /// **Cancellation:** returns early if the waiting task is cancelled.
  ///
  /// ```swift
  /// let timeout = Task { try await clock.sleep(for: .seconds(5)) }
  /// await clock.waitForSleepers(1)
  /// await clock.advance(by: .seconds(5))
  /// ```
  /// - Parameter count: the number of sleepers to wait for.
  public func waitForSleepers(_ count: Int = 1) async {
    guard let id = state.withLock({ $0.sleeperCount >= count ? nil : $0.makeID() }) else { return }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        state.withLock {
          $0.registerWaiter(continuation, id: id, count: count, isCancelled: Task.isCancelled)
        }?.resume()
      }
    } onCancel: {
      state.withLock { $0.cancelWaiter(id: id) }?.resume()
    }
  }

  /// Wakes the sleepers due by `target` one deadline at a time, resuming them outside the lock.
  private func advance(through target: Instant) {
    while case .wake(let sleepers) = state.withLock({ $0.step(toward: target) }) {
      for sleeper in sleepers { sleeper.resume() }
    }
  }
}
