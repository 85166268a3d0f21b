import AsyncReactive
import Testing

/// A clock whose time moves only when a test tells it to, for deterministic tests of time-based code.
///
/// Inject it wherever code takes `some Clock<Duration>` (debounce, throttle, timeout, retry delays). Time
/// starts at zero and stands still: a sleep on the clock returns once ``advance(by:)``, ``advance(to:)`` or
/// ``run()`` moves `now` to its deadline. Nothing polls and nothing sleeps on a real clock.
///
/// **Synchronizing with the code under test:** time moves only when the test says so, so before each move the
/// test makes sure the code under test has caught up; then it advances, then it awaits what the code produced.
/// When `advance` resumes a sleeper it cannot know when the woken task has finished its work: that task runs
/// concurrently with the rest of the `advance`. So to observe the state at each deadline, advance one deadline
/// at a time and await the output in between. What to wait on, case by case:
///
/// | the code under test…                                   | wait with                                        |
/// |--------------------------------------------------------|--------------------------------------------------|
/// | produces a value                                       | ``Recorder/waitForValues(count:timeout:fileID:filePath:line:column:)`` |
/// | ends                                                   | ``Recorder/waitForEnd(timeout:fileID:filePath:line:column:)`` |
/// | takes an input and shows nothing (a `throttle` holding a value, a `debounce` restarting, a repeat dropped) | feed it from a ``TestSubject`` and await ``TestSubject/send(_:timeout:fileID:filePath:line:column:)`` |
/// | starts a timer from a task the test does not drive (a fake service's latency, a retry's backoff, a timer signal) | ``waitForSleepers(_:timeout:fileID:filePath:line:column:)`` |
/// | …while other timers may be sleeping (an operator's own timer, a request's latency) | ``waitForSleeper(until:timeout:fileID:filePath:line:column:)`` with the deadline the test expects |
/// | subscribes later, from a task of its own               | ``TestSubject/waitForConsumers(_:timeout:fileID:filePath:line:column:)`` |
///
/// Never a `Task.yield()` loop: it only makes a race less likely. A sleeper is known only by its deadline, so a
/// count cannot tell timers apart: an operator may keep a timer of its own sleeping (a `throttle`'s window, a
/// `debounce` that sleeps until its earlier deadline and then re-arms for the later one), and that timer counts
/// until it wakes. Cancelled sleeps never count. A sleep whose deadline has already passed when it starts
/// returns at once, so a timer with a fixed deadline that registers late still fires at the right instant.
///
/// Every wait fails the test (a Swift Testing issue at the caller, saying what it waited for and what it saw)
/// after a timeout of real time, 60 seconds by default, and returns: a wrong expectation fails instead of
/// hanging the test run.
///
/// **Virtual time:** inside ``withVirtualTime(isolation:_:)`` the clock also knows when nothing can run: an advance
/// runs what each step woke before it looks for the next deadline (RxTest's `TestScheduler`), and ``settle()``
/// waits until the code under test has finished reacting. Most of the handshakes above are then unnecessary.
///
/// **Zero-duration sleeps** return at once (a sleep whose deadline is not after `now` does), as on every clock of
/// the standard library: code that sleeps for `.zero` never waits for the test to move time. RxTest instead holds
/// work scheduled with no delay until the next `advance()`; here it runs as soon as its task does, and inside
/// `withVirtualTime` before ``settle()`` returns, stamped with the current instant.
///
/// **Cancellation:** a sleeping task that is cancelled throws `CancellationError` at once and stops being a
/// sleeper.
///
/// ```swift
/// let clock = TestClock()
/// let offsets = TestSubject<Int, Never>()
/// let throttled = Recorder(offsets.throttle(for: .milliseconds(300), clock: clock, latest: true), clock: clock)
/// await offsets.send(1)  // emitted at once; the window ends at 300 ms
/// await clock.advance(by: .milliseconds(100))
/// await offsets.send(2)  // held: no output, no new timer; `send` returns once the throttle took it
/// await clock.waitForSleeper(until: TestClock.Instant(offset: .milliseconds(300)))  // the window's timer
/// await clock.advance(by: .milliseconds(200))
/// #expect(await throttled.waitForValues(count: 2) == [Timed(1, at: .zero), Timed(2, at: .milliseconds(300))])
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

  private typealias StateMachine = TestClockStateMachine<Sleeper, CheckedContinuation<Void, Never>>

  /// A sleeping task: how to wake it, and what the clock knows of where it runs.
  private struct Sleeper: Sendable {
    let continuation: CheckedContinuation<Void, any Error>
    /// The task's name, for the report of an escape.
    let taskName: String?
    /// The executor the task prefers, if any: a task that does not prefer the virtual-time executor runs what it
    /// does after waking elsewhere, where `advance` and `settle` cannot wait for it.
    let executor: UnownedTaskExecutor?

    func resume() { continuation.resume() }
    func resume(throwing error: any Error) { continuation.resume(throwing: error) }
  }

  /// `run()` gives up after this many advances rather than looping forever.
  private static let runLimit = 100_000

  private let state: Locked<StateMachine>
  /// The serial test executor of the ``withVirtualTime(isolation:_:)`` body that runs now, if any: `advance`,
  /// `run` and `settle` run its jobs until it is idle between deadlines.
  private let virtualTime = Locked<VirtualTimeExecutor?>(nil)
  /// What the library's tasks that wait on this clock prefer (see ``TestClockExecutor``).
  private let taskExecutor: TestClockExecutor
  /// The escapes already reported in the virtual time that runs now.
  private let reportedEscapes = Locked<Set<String>>([])

  /// Creates a clock whose time stands at `now` (time zero by default) until advanced.
  ///
  /// ```swift
  /// let clock = TestClock()
  /// let model = SearchModel(api: api, clock: clock)
  /// ```
  public init(now: Instant = Instant(offset: .zero)) {
    state = Locked(StateMachine(now: now))
    taskExecutor = TestClockExecutor(virtualTime: virtualTime)
    TestTaskPlacement.register(taskExecutor)
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

  /// The deadlines of the tasks sleeping on the clock right now, earliest first, one per sleeper (sleepers
  /// with the same deadline in the order they wake).
  ///
  /// A sleeper is known by its deadline; this is what a failed ``waitForSleepers(_:timeout:fileID:filePath:line:column:)``
  /// reports.
  ///
  /// ```swift
  /// await clock.waitForSleepers(2)
  /// #expect(clock.sleeperDeadlines == [clock.now + .milliseconds(300), clock.now + .seconds(1)])
  /// ```
  public var sleeperDeadlines: [Instant] { state.withLock { $0.deadlines } }

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
    try await sleep(until: deadline, order: nil)
  }

  /// Reserves `count` places among the work due at any instant, in the order of this call: what a timeline
  /// schedules when it is made (or subscribed), and ``schedule(at:_:)-(Duration,_)``, take them now and sleep later.
  func reserveOrders(_ count: Int) -> Range<Int> {
    state.withLock { $0.reserveOrders(count) }
  }

  /// Sleeps until `deadline`, woken among the work due then in the place `order` reserved (see
  /// ``reserveOrders(_:)``), or, when `nil`, after everything scheduled before this call.
  func sleep(until deadline: Instant, order: Int?) async throws {
    try Task.checkCancellation()
    guard let id = state.withLock({ $0.now < deadline ? $0.makeID() : nil }) else { return }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let sleeper = Sleeper(
          continuation: continuation, taskName: Task.name,
          executor: withUnsafeCurrentTask { $0?.unownedTaskExecutor })
        let action = state.withLock {
          $0.registerSleeper(sleeper, id: id, deadline: deadline, order: order, isCancelled: Task.isCancelled)
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
    await advance(through: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline`, waking the sleepers due by then in deadline order.
  ///
  /// Goes step by step: `now` is set to the earliest pending deadline and the sleepers due then are resumed, then
  /// the next, and finally `now` is set to `deadline`.
  ///
  /// **Same-instant order** (RxTest's): the sleepers due at one instant resume in the order their work was
  /// scheduled, and under virtual time their jobs run in that order. That is the order they started sleeping, except
  /// for what schedules ahead, as RxTest does: a hot timeline's events take their places when the timeline is made,
  /// a cold timeline's when a run starts, and ``schedule(at:_:)-(Duration,_)`` when it is called. So a
  /// timeline's event comes before an operator's timer started after the timeline was made. What a woken job hands
  /// to another task runs after the jobs already due.
  ///
  /// **Inside ``withVirtualTime(isolation:_:)``**, after each step every job of the test executor runs before the
  /// next deadline is looked for, so a sleep that a woken task registers on the way (a chained sleep, a retry's
  /// delay) fires at its own instant, and this returns once everything due by `deadline` has run.
  ///
  /// **Outside it**, the woken tasks run concurrently with the rest of the advance, and a sleep they register
  /// after it moved on is due from the new `now`: await their output (or ``waitForSleepers(_:timeout:fileID:filePath:line:column:)``) to synchronize
  /// with them, not the return of this method alone. With a task that sleeps 1 s and then 2 s:
  ///
  /// ```swift
  /// await clock.waitForSleepers(1)
  /// await clock.advance(by: .seconds(3))   // wakes the 1 s sleep; the 2 s sleep starts at t=3, due at t=5
  /// await clock.waitForSleeper(until: TestClock.Instant(offset: .seconds(5)))
  /// // inside withVirtualTime, the same advance would have ended the task at t=3
  /// ```
  ///
  /// ```swift
  /// await clock.advance(to: TestClock.Instant(offset: .seconds(2)))
  /// #expect(clock.now.offset == .seconds(2))
  /// ```
  /// - Parameter deadline: the instant to move to; must not be before `now`.
  public func advance(to deadline: Instant) async {
    let now = self.now
    precondition(deadline >= now, "TestClock.advance(to: \(deadline)): time cannot move backward from \(now)")
    await advance(through: deadline)
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
    let executor = virtualTime.withLock { $0 }
    for _ in 0..<Self.runLimit {
      // Under virtual time, what is runnable runs first: it may start the next sleep.
      if let executor { await quiesce(executor) }
      guard let latest = state.withLock({ $0.latestDeadline }) else { return }
      await advance(through: latest)
    }
    preconditionFailure(
      "TestClock.run(): still sleepers after \(Self.runLimit) advances; a timer probably reschedules itself "
        + "forever. Use advance(by:) to move a bounded amount of time."
    )
  }

  /// Runs `body`, and every task it and the library start, on one serial test executor, so that the clock knows
  /// when nothing can run: RxTest's `TestScheduler` for async code.
  ///
  /// Inside it:
  /// - ``advance(by:)`` and ``advance(to:)`` step from deadline to deadline and, after each step, run every job
  ///   until the executor is idle before they look for the next deadline: a timer scheduled on the way (a chained
  ///   sleep, a retry's delay, a timeout restarted by a value) fires at its own instant, as in RxTest. ``run()``
  ///   drains the same way, to the last timer.
  /// - ``settle()`` returns once nothing can run: the code under test has finished reacting. With a
  ///   ``Recorder`` of a hot source, `await clock.settle(); #expect(recorder.values == […])` is an exact "and
  ///   nothing else".
  ///
  /// **What runs on the executor:** the body (unless it is isolated to an actor, such as a `@MainActor` test:
  /// then the body stays there and the rest still runs on the executor), its child tasks (`async let`, task
  /// groups), the default actors they call (a view model that is a plain `actor`), and every task the library
  /// starts (an operator's timer, an observation's drain, a command's run, a `Signal`'s body), which read the
  /// executor from a task-local.
  ///
  /// **The main actor** runs its own jobs, but `advance`, `run` and `settle` wait for it too: after the executor is
  /// idle they let every job queued on the main actor run (a binding's or an observation's delivery to a
  /// `@MainActor` view, a command's `executing` observed there), and then what those jobs queued on the executor,
  /// until both are quiet. So a `@MainActor` view bound to a view model shows its state when `settle()` returns.
  ///
  /// **What escapes, and what to do:** actors with a custom executor run their own jobs (the clock cannot see
  /// them: await their outputs, or make the view model a plain actor); `Task.detached`, and a
  /// `Task { }` the test or the code under test creates itself, run on the global executor (unstructured tasks do
  /// not inherit an executor preference: create them with `Task(executorPreference:)`, or use a child task).
  /// Work that escapes still runs, but `advance` and `settle` do not wait for it; a task that escapes and sleeps on
  /// this clock is reported as a test issue, with its name, when an advance wakes it. The library's own tasks that
  /// wait on this clock run on the executor wherever and whenever they were created, even in a suite's `init()`
  /// before the virtual time began: timers, and the task of an `observe`, a `bind` or a `Property(initial:then:)`
  /// whose cold run waits on this clock (a retry's delay, a timer, a time operator), with the tasks it starts; a
  /// ``Recorder`` records on this clock's executor. Every other task the library starts for the test's code runs on
  /// the executor of the latest clock the test made (in a suite's `init()` too), and `settle()` reports, by name,
  /// each one the test started before it made a clock and that still runs elsewhere.
  ///
  /// Outside `withVirtualTime` the clock keeps its plain behaviour: `advance` wakes what is due and does not wait
  /// for the woken tasks, so a sleep registered during an advance is due from the new `now`.
  ///
  /// ```swift
  /// @Test func searchDebouncesAndShowsResults() async {
  ///   let clock = TestClock()
  ///   await clock.withVirtualTime {
  ///     let viewModel = SearchViewModel(api: FakeSearchAPI(), clock: clock)
  ///     let results = Recorder(viewModel.results, clock: clock)
  ///     viewModel.query.send("swift")
  ///     await clock.advance(by: .milliseconds(300))   // the debounce fires, the search runs and answers
  ///     #expect(results.values == [[], ["swift"]])
  ///     await clock.settle()
  ///     #expect(results.values.count == 2)            // and nothing else happened
  ///   }
  /// }
  /// ```
  /// - Parameters:
  ///   - isolation: the caller's actor; the body stays on it when there is one.
  ///   - body: the code under test; the clock is virtual for its duration.
  /// - Returns: what `body` returns.
  public func withVirtualTime<Value, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws(Failure) -> Value
  ) async throws(Failure) -> Value {
    let executor = VirtualTimeExecutor()
    virtualTime.withLock { current in
      precondition(current == nil, "TestClock.withVirtualTime: this clock is already running virtual time")
      current = executor
    }
    reportedEscapes.withLock { $0 = [] }
    defer { virtualTime.withLock { $0 = nil } }
    // A task started before (a view model's, in a suite's init()) may be in the middle of a job on Dispatch's pool
    // (suspending after registering a sleep, say): once that job returns, everything it does next runs here.
    await taskExecutor.waitForForwardedJobs()
    // What the body starts is counted for `expectNoLeaks()`: in the caller's scope when it has one.
    let scope = ResourceScope.current ?? ResourceScope()
    // The task-local is how the library's own tasks, which are unstructured, find the executor.
    let outcome = await withTaskExecutorPreference(executor, isolation: isolation) {
      await TaskExecutorContext.$preferred.withValue(
        executor,
        operation: {
          await ResourceScope.$current.withValue(
            scope,
            operation: { () async -> Result<Value, Failure> in
              do throws(Failure) {
                return .success(try await body())
              } catch {
                return .failure(error)
              }
            }, isolation: isolation)
        }, isolation: isolation)
    }
    return try outcome.get()
  }

  /// Whether ``withVirtualTime(isolation:_:)`` runs now.
  var runsVirtualTime: Bool { virtualTime.withLock { $0 != nil } }

  /// Returns once nothing the ``withVirtualTime(isolation:_:)`` body started can run: every task of it sleeps on
  /// this clock, waits for something outside, or has ended. Time does not move.
  ///
  /// What the code under test does in reaction to an input runs before this returns, so a ``Recorder`` of a hot
  /// source then holds everything that reaction produced, and a check that nothing else was emitted is exact.
  /// The main actor is covered: what the reaction queued there (a `@MainActor` view's bindings and observations)
  /// has run, and so has what those jobs queued on the test executor. Outside `withVirtualTime` there is no way to
  /// know that: it traps.
  ///
  /// ```swift
  /// viewModel.submit.send()
  /// await clock.settle()
  /// #expect(requests.values.count == 1)   // one request, and no second one in flight
  /// #expect(view.submitButton.isEnabled == false)   // a @MainActor view bound to the view model, up to date
  /// ```
  public func settle() async {
    guard let executor = virtualTime.withLock({ $0 }) else {
      preconditionFailure("TestClock.settle() runs inside withVirtualTime { }: outside it, nothing knows what runs")
    }
    await quiesce(executor)
    reportEscapedTasks()
  }

  /// Records a test issue, once per task name and virtual time, for each library task of the running test that
  /// lives and runs outside any test executor (one started before the test made its first clock): `settle()`
  /// could not wait for what it does.
  private func reportEscapedTasks() {
    guard let test = TestTaskPlacement.currentTest() else { return }
    for name in TestTaskPlacement.shared.escapedTasks(of: test) {
      guard reportedEscapes.withLock({ $0.insert("the task '\(name)'").inserted }) else { continue }
      Issue.record(
        """
        TestClock: the task '\(name)' of this test runs outside withVirtualTime's test executor, so settle() \
        returned without waiting for what it does. It was started outside the withVirtualTime body before the \
        test made its TestClock: make the clock first (a suite's init() can), or build what starts it inside \
        the body.
        """)
    }
  }

  /// Waits until neither the test executor nor the main actor has work left from the code under test: the
  /// executor idle, then every job queued on the main actor before a hop there has run (bindings and observations
  /// of `@MainActor` targets deliver there), and again until a round finds nothing new on the executor.
  ///
  /// A hop to the main actor runs after the jobs queued there before it (the main actor runs its jobs in order);
  /// a job queued on the main actor by one of those jobs runs before the next round's hop. The hop's own return to
  /// the executor is one job, so a round in which the executor received at most that one is quiet.
  private func quiesce(_ executor: VirtualTimeExecutor) async {
    for _ in 0..<Self.quiesceLimit {
      await executor.waitUntilIdle()
      let mark = executor.enqueuedCount
      await MainActor.run {}
      await MainActor.run {}
      if executor.enqueuedCount - mark <= 2 {
        await executor.waitUntilIdle()
        return
      }
    }
    preconditionFailure(
      "TestClock.settle(): the main actor and the test executor still exchange work after \(Self.quiesceLimit) "
        + "rounds; a loop between them probably never ends.")
  }

  /// How many rounds ``quiesce(_:)`` takes at most.
  private static let quiesceLimit = 10_000

  /// Records a test issue, once per task name and virtual time, when an advance under virtual time wakes a task
  /// that does not run on the test executor: what it does after waking runs elsewhere, and `advance` and `settle`
  /// return without waiting for it, so the test would see the code under test half-way (a view model built in a
  /// suite's `init()` whose own task sleeps on this clock). The library's timers prefer the executor of the clock
  /// they wait on, wherever they were created, so they are not reported.
  private func reportIfEscaping(_ sleeper: Sleeper, executor: VirtualTimeExecutor) {
    guard sleeper.executor != executor.asUnownedTaskExecutor(),
      sleeper.executor != taskExecutor.asUnownedTaskExecutor()
    else { return }
    let name = sleeper.taskName.map { "the task '\($0)'" } ?? "a task without a name"
    guard reportedEscapes.withLock({ $0.insert(name).inserted }) else { return }
    Issue.record(
      """
      TestClock: \(name) sleeps on this clock but runs outside withVirtualTime's test executor, so advance and \
      settle returned without waiting for what it does after waking. It was started outside the withVirtualTime \
      body (a view model or an observation made in a suite's init(), a Task.detached, a Task { } of your own): \
      create it inside the body, or give it Task(executorPreference:).
      """)
  }

  ///
  /// The handshake between starting work and advancing time: it is resumed by the sleep's own registration,
  /// so after it returns an ``advance(by:)`` reaches that sleeper.
  ///
  /// Only live sleepers count: a sleep whose task was cancelled stops counting at once (its cancellation
  /// removes it), and a sleep started by an already-cancelled task never counts. A count cannot tell timers
  /// apart, though: when the code under test may have another timer running (an operator's window timer, a
  /// request's latency, a timer about to be replaced), wait for the specific one with
  /// ``waitForSleeper(until:timeout:fileID:filePath:line:column:)``.
  ///
  /// **Timeout:** if the sleepers do not come within `timeout` of real time, records a test failure (a Swift
  /// Testing issue at the caller) that says how many tasks sleep and until when, and returns; a passing test
  /// never waits that long.
  ///
  /// **Cancellation:** returns early, without a failure, if the waiting task is cancelled.
  ///
  /// ```swift
  /// let timeout = Task { try await clock.sleep(for: .seconds(5)) }
  /// await clock.waitForSleepers(1)
  /// await clock.advance(by: .seconds(5))
  /// ```
  /// - Parameters:
  ///   - count: the number of sleepers to wait for.
  ///   - timeout: how long (real time) to wait before failing; positive.
  ///   - fileID: the file of the location where a failure is reported; the caller's by default.
  ///   - filePath: the path of that file; the caller's by default.
  ///   - line: the line of that location; the caller's by default.
  ///   - column: the column of that location; the caller's by default.
  public func waitForSleepers(
    _ count: Int = 1,
    timeout: Duration = .seconds(60),
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    await wait(
      for: .count(count), timeout: timeout,
      sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    ) {
      "waitForSleepers(\(count))"
    }
  }

  /// Returns once a task sleeps on the clock until exactly `deadline`, or fails the test after `timeout`.
  ///
  /// A sleeper is known by its deadline (`Clock.sleep` carries nothing else), so this waits for one specific
  /// timer where ``waitForSleepers(_:timeout:fileID:filePath:line:column:)`` would be satisfied by any: a
  /// retry's backoff rather than a request's latency, the timer a task just started rather than an operator's
  /// own timer that is still sleeping. Compute the deadline from the instant the timer starts, such as
  /// `clock.now + backoff` right after the failure that starts it.
  ///
  /// **Timeout:** if no such sleeper comes within `timeout` of real time, records a test failure that lists
  /// the deadlines the clock's sleepers do have, and returns.
  ///
  /// **Cancellation:** returns early, without a failure, if the waiting task is cancelled.
  ///
  /// ```swift
  /// // The fake service answers after 1 s; the model retries 300 ms after a failure.
  /// let orders = Recorder(model.orders, clock: clock)
  /// await clock.waitForSleepers(1)  // the first request's latency
  /// await clock.advance(by: .seconds(1))  // t=1s: it fails
  /// await clock.waitForSleeper(until: clock.now + .milliseconds(300))  // the backoff, not some other timer
  /// await clock.advance(by: .milliseconds(300))  // t=1.3s: the second attempt starts
  /// ```
  /// - Parameters:
  ///   - deadline: the instant the awaited sleeper sleeps until.
  ///   - timeout: how long (real time) to wait before failing; positive.
  ///   - fileID: the file of the location where a failure is reported; the caller's by default.
  ///   - filePath: the path of that file; the caller's by default.
  ///   - line: the line of that location; the caller's by default.
  ///   - column: the column of that location; the caller's by default.
  public func waitForSleeper(
    until deadline: Instant,
    timeout: Duration = .seconds(60),
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    await wait(
      for: .deadline(deadline), timeout: timeout,
      sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    ) {
      "waitForSleeper(until: \(deadline))"
    }
  }

  /// Waits for `condition` under a watchdog; records the failure on expiry.
  private func wait(
    for condition: StateMachine.SleeperCondition,
    timeout: Duration,
    sourceLocation: SourceLocation,
    _ name: () -> String
  ) async {
    checkTimeout(timeout, of: "TestClock.\(name())")
    if state.withLock({ $0.isSatisfied(condition) }) { return }
    let watched = await watch(timeout: timeout) { [self] in await suspend(until: condition) }
    if watched.expired && !watched.value {
      let (now, deadlines) = state.withLock { ($0.now, $0.deadlines) }
      recordTimeout(
        "TestClock.\(name()) timed out after \(timeout.secondsDescription): "
          + Self.describe(now: now, deadlines: deadlines),
        sourceLocation: sourceLocation
      )
    }
  }

  /// Suspends until `condition` holds (`true`) or the task is cancelled (`false`).
  private func suspend(until condition: StateMachine.SleeperCondition) async -> Bool {
    guard let id = state.withLock({ $0.isSatisfied(condition) ? nil : $0.makeID() }) else { return true }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        state.withLock {
          $0.registerWaiter(continuation, id: id, condition: condition, isCancelled: Task.isCancelled)
        }?.resume()
      }
    } onCancel: {
      state.withLock { $0.cancelWaiter(id: id) }?.resume()
    }
    // Resumed by a registration that satisfied it, or by cancellation: tell them apart as the waiter was
    // resumed (a cancelled waiter may race with a satisfying registration; either answer is then true).
    return !Task.isCancelled || state.withLock { $0.isSatisfied(condition) }
  }

  /// What the clock's sleepers look like, for failure messages: `the clock is at t=0s with no sleeper`.
  static func describe(now: Instant, deadlines: [Instant]) -> String {
    switch deadlines.count {
    case 0: "the clock is at \(now) with no sleeper"
    case 1: "the clock is at \(now) with 1 sleeper, until \(deadlines[0])"
    default:
      "the clock is at \(now) with \(deadlines.count) sleepers, until "
        + deadlines.map(\.description).joined(separator: ", ")
    }
  }

  /// Wakes the sleepers due by `target` one deadline at a time, resuming them outside the lock. Under virtual
  /// time it runs every job the executor has before it looks for the next deadline, and after the last: a sleep
  /// registered on the way (a chained sleep, a retry's delay, a restarted timeout) fires at its own instant.
  private func advance(through target: Instant) async {
    guard let executor = virtualTime.withLock({ $0 }) else {
      while case .wake(let sleepers) = state.withLock({ $0.step(toward: target) }) {
        for sleeper in sleepers { sleeper.resume() }
      }
      return
    }
    await quiesce(executor)
    // The sleepers due at one instant resume in the order their work was scheduled, so their jobs run in that order
    // on the serial executor (RxTest's rule); what a job hands to another task runs after the jobs already due.
    while case .wake(let sleepers) = state.withLock({ $0.step(toward: target) }) {
      for sleeper in sleepers {
        reportIfEscaping(sleeper, executor: executor)
        sleeper.resume()
      }
      await quiesce(executor)
    }
  }
}

extension TestClock: VirtualTimeClock {
  /// What the library's tasks that wait on this clock prefer: the virtual-time executor while one runs.
  package var virtualTimeExecutor: (any TaskExecutor)? { taskExecutor }
}
