import AsyncReactive

/// A hot sequence that sends a fixed timeline of events at instants of a ``TestClock``, whether or not anything
/// observes it: RxTest's `createHotObservable`. Make one with `TestClock.hotTimeline(_:)`.
///
/// **When it sends:** each event at its instant, during the advance that reaches it, events at the same instant in
/// the order of the array. All its events are scheduled when it is made, as RxTest schedules them: at an instant it
/// shares with other work (another timeline's event, an operator's timer,
/// ``TestClock/schedule(at:_:)-(Duration,_)``), its event comes before the work scheduled after the timeline was
/// made and after the work scheduled before. It is a subject
/// underneath, so operators over it (`map`, `debounce`, `combineLatest`, …) run inside those sends, and a
/// ``Recorder`` of them stamps each output with the instant of the event that produced it.
///
/// **Use it with `TestClock.withVirtualTime`** (made inside the body or before it, in a suite's `init()`): its task
/// then runs on the test executor, and every `advance(by:)`, `advance(to:)` and `run()` runs the sends due on the
/// way before it moves on, as RxTest's scheduler does. Without virtual time, the task runs concurrently with the
/// advance: advance to one instant at a time and wait for the output
/// (``Recorder/waitForValues(count:timeout:fileID:filePath:line:column:)``) before moving on.
///
/// **Who sees what:** a consumer gets the events sent after it subscribed; a late subscriber misses the earlier
/// ones, and one that comes after the end gets the end at once. An event whose instant is not after the clock's
/// `now` when the timeline is created is due at once: it is sent at `now` as soon as the timeline's task runs,
/// which inside `withVirtualTime` is at the test's next `await` that lets other work run (an advance, `settle()`,
/// `run()`). So a consumer that subscribes right after creating the timeline gets it, as an RxTest observer that
/// subscribes before `scheduler.start()` gets the events of the start instant.
///
/// **Subscriptions:** ``subscriptions`` lists when each consumer subscribed and let go (RxTest's
/// `xs.subscriptions`): each operator over the timeline that has consumers (it observes the timeline once, however
/// many consumers it has), each ``Recorder`` of the timeline itself, each `for await` loop. A consumer lets go when
/// it stops (a recorder's `cancel()`, the end of an operator's last consumer, an operator that ends by itself, such
/// as `prefix` or a `map` whose closure throws) or when the timeline ends.
///
/// **Ends:** at its `.finished` or `.failed` event (later events are ignored). Releasing the timeline cancels what
/// it has still to send and finishes its consumers then, as releasing a subject does: keep it in a `let` for as
/// long as the test observes it (the operators over it do not keep it alive). Its task ends after the last event
/// or when the timeline is released, so it leaves nothing behind.
///
/// ```swift
/// let clock = TestClock()
/// await clock.withVirtualTime {
///   let xs = clock.hotTimeline([
///     .value(1, at: .seconds(150)), .value(2, at: .seconds(210)), .value(3, at: .seconds(220)),
///     .finished(at: .seconds(300)),
///   ])
///   await clock.advance(to: TestClock.Instant(offset: .seconds(200)))  // 1 was sent, to nobody
///   let recorder = Recorder(xs.map { $0 * 2 }, clock: clock)
///   await clock.run()
///   #expect(recorder.events == [.value(4, at: .seconds(210)), .value(6, at: .seconds(220)), .finished(at: .seconds(300))])
///   #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(300))])
/// }
/// ```
public final class HotTimeline<Element: Sendable, Failure: Error>: HotSequence, Sendable {
  private let subject: AsyncPassthroughSubject<Element, Failure>
  private let clock: TestClock
  private let log = SubscriptionLog()
  /// Sleeps until each instant still to come and sends; `nil` when nothing was left to send at creation.
  private let driver: Task<Void, Never>?

  init(_ events: [Recorded<Element, Failure>], clock: TestClock) {
    let subject = AsyncPassthroughSubject<Element, Failure>()
    self.subject = subject
    self.clock = clock
    let steps = TimelineStep.schedule(events)
    guard let first = steps.first else {
      driver = nil
      return
    }
    // Every event takes its place among the work due at its instant now, as RxTest schedules a hot observable's
    // events when it is created, though the task sleeps until one instant at a time.
    let orders = clock.reserveOrders(steps.count)
    // The task starts at once where it can: its first sleep is registered when this returns.
    driver = startTestTask(named: "HotTimeline", clock: clock) {
      // What is due already waits for the test to let other work run, as RxTest's events wait for the scheduler
      // to run: an observer that subscribes right after the creation gets it.
      if first.instant <= clock.now { await Task.yield() }
      for (step, order) in zip(steps, orders) {
        // Cancelled: the timeline was released, and its consumers finished then.
        do { try await clock.sleep(until: step.instant, order: order) } catch { return }
        if !step.send(to: subject) { return }
      }
    }
  }

  deinit {
    driver?.cancel()
    subject.finish()
  }

  /// The timeline as a `HotSignal`, the node operators observe. It does not keep the timeline alive.
  ///
  /// Each access is a consumer of its own, logged in ``subscriptions`` while it observes the timeline: RxTest's
  /// hot observable logs each `subscribe`.
  ///
  /// ```swift
  /// let doubled: HotSignal<Int, Never> = xs.hotSignal.map { $0 * 2 }
  /// ```
  public var hotSignal: HotSignal<Element, Failure> {
    let upstream = subject.hotSignal.node
    let (log, clock) = (self.log, self.clock)
    return HotSignal(
      node: Node(replay: .none, origin: NodeOrigin(.node), inputs: .one(upstream)) { node in
        let entry = log.subscribe(at: clock.now)
        let sink = upstream.addSink { value in
          node.send(value)
        } onEnd: { termination in
          log.unsubscribe(entry, at: clock.now)
          node.terminate(termination)
        }
        return {
          upstream.removeSink(sink)
          log.unsubscribe(entry, at: clock.now)
        }
      })
  }

  /// Registers a consumer (unbounded buffer) and starts iterating: `for await value in timeline`. It gets the
  /// events sent from now on.
  ///
  /// ```swift
  /// for await value in xs { print(value) }
  /// ```
  public func makeAsyncIterator() -> SubjectSubscription<Element, Failure>.Iterator {
    hotSignal.makeAsyncIterator()
  }

  /// How many consumers observe the timeline now (an operator over it that has consumers counts as one).
  ///
  /// ```swift
  /// let recorder = Recorder(xs.map { $0 * 2 }, clock: clock)
  /// #expect(xs.consumerCount == 1)
  /// ```
  public var consumerCount: Int { subject.consumerCount }

  /// When each consumer subscribed to the timeline and when it let go, in the order they subscribed: RxTest's
  /// `xs.subscriptions`. See ``HotTimeline`` for what counts as a consumer.
  ///
  /// ```swift
  /// let recorder = await clock.start { xs.map { $0 * 2 } }
  /// #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(300))])
  /// print(xs.subscriptions)  // [200s-300s]
  /// ```
  public var subscriptions: [TimelineSubscription] { log.subscriptions }
}

extension TestClock {
  /// A hot timeline on this clock: each event is sent at its instant, whether or not anything observes it
  /// (RxTest's `scheduler.createHotObservable`). See ``HotTimeline`` for when it sends and who sees what.
  ///
  /// Events may come in any order; they are sent by instant, and those at the same instant in the order of the
  /// array. Nothing is sent after the first end. Give the failure type when the events do not show it, by the
  /// result's type.
  ///
  /// ```swift
  /// await clock.withVirtualTime {
  ///   let xs: HotTimeline<Int, LoginError> = clock.hotTimeline([
  ///     .value(1, at: .seconds(210)), .failed(.wrongPassword, at: .seconds(250)),
  ///   ])
  ///   let recorder = Recorder(xs, clock: clock)
  ///   await clock.run()
  ///   #expect(recorder.events == [.value(1, at: .seconds(210)), .failed(.wrongPassword, at: .seconds(250))])
  /// }
  /// ```
  /// - Parameter events: what to send, at instants of this clock.
  /// - Returns: the timeline; keep it for as long as the test observes it.
  public func hotTimeline<Element: Sendable, Failure: Error>(
    _ events: [Recorded<Element, Failure>]
  ) -> HotTimeline<Element, Failure> {
    HotTimeline(events, clock: self)
  }

  /// A hot timeline that cannot fail, for events that do not show a failure type.
  ///
  /// ```swift
  /// let xs = clock.hotTimeline([.value(2, at: .seconds(210)), .finished(at: .seconds(300))])
  /// ```
  /// - Parameter events: what to send, at instants of this clock.
  /// - Returns: the timeline; keep it for as long as the test observes it.
  public func hotTimeline<Element: Sendable>(_ events: [Recorded<Element, Never>]) -> HotTimeline<Element, Never> {
    HotTimeline(events, clock: self)
  }

  /// A cold timeline on this clock: a sequence that plays `events` anew for each consumer, each instant an offset
  /// from when that consumer subscribed (RxTest's `scheduler.createColdObservable`). See ``ColdTimeline``.
  ///
  /// ```swift
  /// await clock.withVirtualTime {
  ///   let ys: ColdTimeline<String, LoginError> = clock.coldTimeline([
  ///     .value("a", at: .seconds(10)), .failed(.wrongPassword, at: .seconds(20)),
  ///   ])
  ///   await clock.advance(by: .seconds(100))
  ///   let recorder = Recorder(ys, clock: clock)  // its run starts at 100 s
  ///   await clock.run()
  ///   #expect(recorder.events == [.value("a", at: .seconds(110)), .failed(.wrongPassword, at: .seconds(120))])
  ///   #expect(ys.subscriptions == [TimelineSubscription(.seconds(100), .seconds(120))])
  /// }
  /// ```
  /// - Parameter events: what each run sends; the instants are offsets from the run's start, not negative.
  /// - Returns: the cold timeline; each iteration (each subscription of an operator over it) is a run.
  public func coldTimeline<Element: Sendable, Failure: Error>(
    _ events: [Recorded<Element, Failure>]
  ) -> ColdTimeline<Element, Failure> {
    ColdTimeline(events, clock: self)
  }

  /// A cold timeline that cannot fail, for events that do not show a failure type.
  ///
  /// ```swift
  /// let ys = clock.coldTimeline([.value(1, at: .seconds(10)), .value(2, at: .seconds(20))])
  /// ```
  /// - Parameter events: what each run sends; the instants are offsets from the run's start, not negative.
  /// - Returns: the cold timeline; each iteration (each subscription of an operator over it) is a run.
  public func coldTimeline<Element: Sendable>(_ events: [Recorded<Element, Never>]) -> ColdTimeline<Element, Never> {
    ColdTimeline(events, clock: self)
  }
}

/// The events of a timeline due at one instant, in the order they are sent.
struct TimelineStep<Element: Sendable, Failure: Error>: Sendable {
  var instant: TestClock.Instant
  var events: [Event<Element, Failure>]

  /// `events` grouped by instant, earliest first, those at the same instant in their order in the array, up to
  /// the first end.
  static func schedule(_ events: [Recorded<Element, Failure>]) -> [TimelineStep] {
    // Sorted by instant, then by position: `sorted` is not documented as stable.
    let ordered = events.enumerated().sorted {
      ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset)
    }
    var steps: [TimelineStep] = []
    for (_, recorded) in ordered {
      if steps.last?.instant == recorded.instant {
        steps[steps.count - 1].events.append(recorded.event)
      } else {
        steps.append(TimelineStep(instant: recorded.instant, events: [recorded.event]))
      }
      if case .value = recorded.event { continue }
      break  // the end: nothing after it is sent
    }
    return steps
  }

  /// Sends this step's events to `subject`, in order; `false` if one of them ended it.
  func send(to subject: AsyncPassthroughSubject<Element, Failure>) -> Bool {
    for event in events {
      switch event {
      case .value(let value): subject.send(value)
      case .finished:
        subject.finish()
        return false
      case .failed(let error):
        subject.fail(error)
        return false
      }
    }
    return true
  }
}

/// Starts `operation` in a task of AsyncReactiveTesting, counted in `LiveCounts` (and by `expectNoLeaks`) as the
/// library's tasks are, until it returns. It prefers the executor of `clock`, which it waits on: inside
/// `TestClock.withVirtualTime` it runs on the test executor, so the advances run it, even when it was created before
/// the virtual time began. Where the platform has immediate tasks it runs at once, up to its first suspension: a
/// sleep it starts is registered when this returns.
func startTestTask(
  named name: String, clock: TestClock, _ operation: @escaping @Sendable () async -> Void
) -> Task<Void, Never> {
  let token = ResourceToken(.task(name))
  let counted: @Sendable () async -> Void = {
    defer { token.release() }
    await operation()
  }
  let executor = TaskExecutorContext.preferred(for: clock)
  if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
    return Task.immediate(name: name, executorPreference: executor, operation: counted)
  }
  return Task(executorPreference: executor, operation: counted)
}

/// Suspends until the current task is cancelled (returns at once if it already is), without sleeping on a clock.
func suspendUntilCancelled() async {
  let state = Locked<(cancelled: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
  await withTaskCancellationHandler {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let cancelled = state.withLock { state -> Bool in
        if state.cancelled { return true }
        state.waiter = continuation
        return false
      }
      if cancelled { continuation.resume() }
    }
  } onCancel: {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.cancelled = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}
