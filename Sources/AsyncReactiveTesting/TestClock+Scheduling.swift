import AsyncReactive
import Testing

extension TestClock {
  /// Runs `action` when the clock reaches the instant `offset` after time zero: RxTest's `scheduler.scheduleAt`.
  ///
  /// The action is scheduled now: at its instant it runs after the work scheduled before this call (a timeline made
  /// earlier, a timer started earlier) and before the work scheduled after, each piece of work run to its end
  /// before the next starts, as RxTest runs them. An instant that is not after `now` runs at `now`, at the test's
  /// next `await` that lets other work run. It runs on the test executor: use it inside `withVirtualTime`, where the
  /// advances run it. A task of the clock waits for the instant, so `expectNoLeaks` counts an action that has not
  /// run yet.
  ///
  /// ```swift
  /// let subject = AsyncPassthroughSubject<Int, Never>()
  /// let recorder = Recorder<Int, Never>(clock: clock)
  /// clock.schedule(at: .seconds(200)) { recorder.subscribe(to: subject) }
  /// clock.schedule(at: .seconds(250)) { subject.send(1) }
  /// clock.schedule(at: .seconds(300)) { recorder.cancel() }
  /// await clock.run()
  /// #expect(recorder.events == [.value(1, at: .seconds(250))])
  /// ```
  /// - Parameters:
  ///   - offset: when to run `action`, after time zero.
  ///   - action: what to run; it may `await`, and the advance that reaches the instant waits for it.
  public func schedule(at offset: Duration, _ action: @escaping @Sendable () async -> Void) {
    schedule(at: Instant(offset: offset), action)
  }

  /// Runs `action` when the clock reaches `instant`; see ``schedule(at:_:)-(Duration,_)``.
  ///
  /// ```swift
  /// clock.schedule(at: clock.now + .seconds(1)) { subject.send(1) }
  /// ```
  /// - Parameters:
  ///   - instant: when to run `action`.
  ///   - action: what to run; it may `await`, and the advance that reaches the instant waits for it.
  public func schedule(at instant: Instant, _ action: @escaping @Sendable () async -> Void) {
    let order = reserveOrders(1).lowerBound
    _ = startTestTask(named: "TestClock.schedule(at:)", clock: self) { [self] in
      // Due already: it waits for the test to let other work run, rather than running inside this call.
      if instant <= now { await Task.yield() }
      do { try await sleep(until: instant, order: order) } catch { return }
      await action()
    }
  }

  /// Creates a sequence at `created`, records it from `subscribed`, cancels the recording at `disposed`, runs the
  /// clock until nothing sleeps on it, and returns the recorder: RxTest's `scheduler.start { … }`, with its default
  /// instants (100 s, 200 s, 1000 s).
  ///
  /// The three steps are scheduled when this is called, with ``schedule(at:_:)-(Duration,_)``, as RxTest
  /// schedules them: a hot timeline made before the call sends an event due at `subscribed` before the
  /// subscription (the recorder misses it), one made inside `makeSequence` after it. The recorder's
  /// ``Recorder/events`` hold what came between the subscription and the cancellation, and the cancellation adds
  /// nothing. Like RxTest's `start`, it runs the clock to the end afterwards (the events timelines send after
  /// `disposed` go to nobody). Call it inside `withVirtualTime`.
  ///
  /// ```swift
  /// await clock.withVirtualTime {
  ///   let xs = clock.hotTimeline([
  ///     .value(1, at: .seconds(150)), .value(2, at: .seconds(210)), .finished(at: .seconds(300)),
  ///   ])
  ///   let recorder = await clock.start { xs.map { $0 * 2 } }
  ///   #expect(recorder.events == [.value(4, at: .seconds(210)), .finished(at: .seconds(300))])
  ///   #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(300))])
  /// }
  /// ```
  /// - Parameters:
  ///   - created: when to call `makeSequence`, after time zero.
  ///   - subscribed: when to subscribe the recorder, after time zero; not before `created`.
  ///   - disposed: when to cancel the recording, after time zero; not before `subscribed`.
  ///   - makeSequence: makes the sequence under test.
  /// - Returns: the recorder, once the clock has run to the end.
  public func start<Output: AsyncSequence & Sendable>(
    created: Duration = .seconds(100),
    subscribed: Duration = .seconds(200),
    disposed: Duration = .seconds(1000),
    _ makeSequence: @escaping @Sendable () -> Output
  ) async -> Recorder<Output.Element, Output.Failure> where Output.Element: Sendable {
    precondition(runsVirtualTime, "TestClock.start runs inside withVirtualTime { }: outside it, nothing runs the clock")
    precondition(
      created <= subscribed && subscribed <= disposed,
      "TestClock.start(created: \(created), subscribed: \(subscribed), disposed: \(disposed)): out of order")
    let recorder = Recorder<Output.Element, Output.Failure>(clock: self)
    let sequence = Locked<Output?>(nil)
    schedule(at: created) {
      let made = makeSequence()
      sequence.withLock { $0 = made }
    }
    schedule(at: subscribed) {
      guard let made = sequence.withLock({ $0 }) else { return }
      recorder.subscribe(to: made)
    }
    schedule(at: disposed) { recorder.cancel() }
    await run()
    return recorder
  }

  /// Fails the test if anything the `withVirtualTime` body started (a task of the library or of the test kit, a
  /// subject consumer) is still alive once the code under test has settled, naming what is: the one line a ported
  /// RxSwift test ends with where it checked `Resources.total` (`#if TRACE_RESOURCES`).
  ///
  /// It counts what was started inside the body (or inside the innermost `expectNoLeaks { }` block around the
  /// call), so tests running in parallel do not disturb it. It first waits, as ``settle()`` does, for everything
  /// that can run; what is still alive then can only end if time moves or something outside the test acts, so it
  /// has leaked: a recorder still recording, a timer still sleeping, a timeline with events still to send, a
  /// scheduled action that has not run. ``start(created:subscribed:disposed:_:)`` leaves none of these behind.
  ///
  /// ```swift
  /// await clock.withVirtualTime {
  ///   let xs = clock.hotTimeline([.value(1, at: .seconds(210)), .finished(at: .seconds(300))])
  ///   let recorder = await clock.start { xs.map { $0 * 2 } }
  ///   #expect(recorder.events == [.value(2, at: .seconds(210)), .finished(at: .seconds(300))])
  ///   await clock.expectNoLeaks()
  /// }
  /// ```
  /// - Parameters:
  ///   - fileID: the file of the location where a failure is reported; the caller's by default.
  ///   - filePath: the path of that file; the caller's by default.
  ///   - line: the line of that location; the caller's by default.
  ///   - column: the column of that location; the caller's by default.
  public func expectNoLeaks(
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    guard runsVirtualTime, let scope = ResourceScope.current else {
      preconditionFailure(
        "TestClock.expectNoLeaks() runs inside withVirtualTime { }, which counts what its body starts")
    }
    await settle()
    guard scope.total > 0 else { return }
    Issue.record(
      Comment(
        rawValue: "TestClock.expectNoLeaks(): still alive once the code under test settled: \(describeLeaks(in: scope))"
      ),
      sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}
