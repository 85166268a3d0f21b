import AsyncReactive
import AsyncReactiveTesting
import Testing

/// What a test translated from RxTest needs of the kit: RxTest's same-instant order, subscription logs,
/// `start`/`scheduleAt`/a late observer, `events` for any failure type, a `cancel()` that records nothing,
/// `first(clock:)` and the one-line leak check.
@Suite("RxTest parity: what a ported RxTest test needs", .timeLimit(.minutes(1)))
struct RxTestParityTests {
  // MARK: Same-instant order (the issue's three programs)

  @Test("two hot timelines at one instant: the one made first sends first (sample → [2@20])")
  func hotTimelinesAtOneInstant() async {
    for _ in 0..<20 {
      let clock = TestClock()
      await clock.withVirtualTime {
        let xs = clock.hotTimeline([.value(1, at: .seconds(10)), .value(2, at: .seconds(20))])
        let ys = clock.hotTimeline([.value("a", at: .seconds(5)), .value("b", at: .seconds(20))])
        let recorder = Recorder(xs.sample(on: ys), clock: clock)
        await clock.advance(to: TestClock.Instant(offset: .seconds(100)))
        #expect(recorder.events == [.value(2, at: .seconds(20))])
      }
    }
  }

  @Test("a hot timeline's failure, scheduled when it was made, comes before a throttle window's end at its instant")
  func timelineEventBeforeALaterTimer() async {
    for _ in 0..<20 {
      let clock = TestClock()
      await clock.withVirtualTime {
        let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
          .value(2, at: .seconds(210)), .value(3, at: .seconds(250)), .value(4, at: .seconds(310)),
          .value(5, at: .seconds(350)), .failed(TestError(code: 1), at: .seconds(410)),
        ])
        await clock.advance(to: TestClock.Instant(offset: .seconds(200)))
        let recorder = Recorder(xs.throttle(for: .seconds(200), clock: clock, latest: true), clock: clock)
        await clock.advance(to: TestClock.Instant(offset: .seconds(1000)))
        #expect(recorder.events == [.value(2, at: .seconds(210)), .failed(TestError(code: 1), at: .seconds(410))])
      }
    }
  }

  @Test("two cold inners sending at one instant: the one subscribed first sends first")
  func coldInnersAtOneInstant() async {
    for _ in 0..<20 {
      let clock = TestClock()
      await clock.withVirtualTime {
        let first = clock.coldTimeline([.value("first: 1", at: .seconds(50)), .value("first: 2", at: .seconds(120))])
        let second = clock.coldTimeline([.value("second: 1", at: .seconds(20)), .value("second: 2", at: .seconds(70))])
        let xs = clock.hotTimeline([.value(first, at: .seconds(210)), .value(second, at: .seconds(260))])
        let recorder = Recorder(xs.flatMap(.merge) { $0 }, clock: clock)
        await clock.advance(to: TestClock.Instant(offset: .seconds(400)))
        #expect(
          recorder.events == [
            .value("first: 1", at: .seconds(260)), .value("second: 1", at: .seconds(280)),
            .value("first: 2", at: .seconds(330)), .value("second: 2", at: .seconds(330)),
          ])
        recorder.cancel()
      }
    }
  }

  @Test("work due at one instant runs in the order it was scheduled; what it hands to another task runs after it")
  func scheduledWorkRunsInOrder() async {
    for _ in 0..<20 {
      let clock = TestClock()
      await clock.withVirtualTime {
        let log = Log<String>()
        clock.schedule(at: .seconds(10)) { log.append("scheduled first") }
        let xs = clock.hotTimeline([.value(1, at: .seconds(10))])
        let observation = Lifetime()
        xs.hotSignal.sink(in: observation) { _ in log.append("timeline") }
        clock.schedule(at: .seconds(10)) {
          log.append("scheduled third")
          // What it hands to another task, and what it does after a suspension, run after the work already due.
          clock.schedule(at: clock.now) { log.append("scheduled by the third, at once") }
          await Task.yield()
          log.append("third, after a yield")
        }
        await clock.settle()
        clock.schedule(at: .seconds(10)) { log.append("scheduled last") }
        await clock.run()
        #expect(
          log.all == [
            "scheduled first", "timeline", "scheduled third", "scheduled last", "scheduled by the third, at once",
            "third, after a yield",
          ])
        observation.cancel()
      }
    }
  }

  // MARK: Subscription logs

  @Test("a hot timeline logs each consumer: a recorder, each operator over it, a for-await loop")
  func hotSubscriptions() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([
        .value(1, at: .seconds(10)), .value(2, at: .seconds(20)), .finished(at: .seconds(50)),
      ])
      let direct = Recorder(xs, clock: clock)
      await clock.advance(to: TestClock.Instant(offset: .seconds(5)))
      let doubled = Recorder(xs.map { $0 * 2 }, clock: clock)
      let firstOnly = Recorder(xs.prefix(1), clock: clock)  // lets go at its first value
      await clock.advance(to: TestClock.Instant(offset: .seconds(15)))
      direct.cancel()
      var loop = xs.makeAsyncIterator()  // a `for await` loop's subscription
      await clock.settle()
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.zero, .seconds(15)), TimelineSubscription(.seconds(5)),
          TimelineSubscription(.seconds(5), .seconds(10)), TimelineSubscription(.seconds(15)),
        ])
      #expect("\(xs.subscriptions)" == "[0s-15s, 5s-, 5s-10s, 15s-]")
      await clock.run()
      #expect(await loop.next() == 2)
      #expect(await loop.next() == nil)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.zero, .seconds(15)), TimelineSubscription(.seconds(5), .seconds(50)),
          TimelineSubscription(.seconds(5), .seconds(10)), TimelineSubscription(.seconds(15), .seconds(50)),
        ])
      #expect(
        doubled.events == [.value(2, at: .seconds(10)), .value(4, at: .seconds(20)), .finished(at: .seconds(50))])
      #expect(firstOnly.events == [.value(1, at: .seconds(10)), .finished(at: .seconds(10))])
      // A consumer that comes after the end gets it at once, and lets go at once.
      _ = Recorder(xs, clock: clock)
      #expect(xs.subscriptions.last == TimelineSubscription(.seconds(50), .seconds(50)))
    }
  }

  @Test("one operator value shared by two consumers observes the timeline once (hot in, hot out)")
  func sharedOperatorSubscribesOnce() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([.value(1, at: .seconds(10)), .finished(at: .seconds(20))])
      let doubled = xs.map { $0 * 2 }
      let first = Recorder(doubled, clock: clock)
      let second = Recorder(doubled, clock: clock)
      await clock.run()
      #expect(first.events == second.events)
      #expect(xs.subscriptions == [TimelineSubscription(.zero, .seconds(20))])
    }
  }

  @Test("a cold timeline logs each run: its own end, its consumer stopping, an operator letting go")
  func coldSubscriptions() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let ys: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(1, at: .seconds(10)), .value(2, at: .seconds(20)), .failed(TestError(code: 1), at: .seconds(30)),
      ])
      let failing = Recorder(ys, clock: clock)
      await clock.advance(to: TestClock.Instant(offset: .seconds(5)))
      let cancelled = Recorder(ys.map { $0 }, clock: clock)
      let stop = clock.hotTimeline([.value((), at: .seconds(18))])
      let taken = Recorder(ys.take(until: stop), clock: clock)
      await clock.advance(to: TestClock.Instant(offset: .seconds(16)))
      cancelled.cancel()
      await clock.run()
      #expect(
        failing.events == [
          .value(1, at: .seconds(10)), .value(2, at: .seconds(20)), .failed(TestError(code: 1), at: .seconds(30)),
        ])
      #expect(cancelled.events == [.value(1, at: .seconds(15))])
      #expect(taken.events == [.value(1, at: .seconds(15)), .finished(at: .seconds(18))])
      #expect(
        ys.subscriptions == [
          TimelineSubscription(.zero, .seconds(30)), TimelineSubscription(.seconds(5), .seconds(16)),
          TimelineSubscription(.seconds(5), .seconds(18)),
        ])
      #expect(!clock.hasSleepers)
    }
  }

  @Test("a subscription prints as RxTest's, in seconds; open ones end with a dash")
  func subscriptionDescriptions() {
    #expect("\(TimelineSubscription(.seconds(200), .seconds(450)))" == "200s-450s")
    #expect("\(TimelineSubscription(.milliseconds(1500)))" == "1.5s-")
    #expect(
      TimelineSubscription(.seconds(200), .seconds(450))
        == TimelineSubscription(
          subscribed: TestClock.Instant(offset: .seconds(200)), unsubscribed: TestClock.Instant(offset: .seconds(450))))
    #expect(TimelineSubscription(.seconds(200)) != TimelineSubscription(.seconds(200), .seconds(1000)))
  }

  // MARK: start, schedule(at:), a late observer

  @Test("start: created at 100, subscribed at 200, disposed at 1000, as RxTest's; the disposal records nothing")
  func startDefaults() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let madeAt = Log<TestClock.Instant>()
      let xs = clock.coldTimeline([.value(1, at: .seconds(100)), .value(2, at: .seconds(900))])
      let recorder = await clock.start {
        madeAt.append(clock.now)
        return xs.map { $0 * 10 }
      }
      #expect(madeAt.all == [TestClock.Instant(offset: .seconds(100))])
      #expect(recorder.events == [.value(10, at: .seconds(300))])
      #expect(recorder.end == nil)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
      #expect(clock.now == TestClock.Instant(offset: .seconds(1000)))
      await clock.expectNoLeaks()
    }
  }

  @Test("start: a hot event at the subscription instant is missed when the timeline was made before start")
  func startAndEventsAtTheSubscriptionInstant() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let before = clock.hotTimeline([.value("before", at: .seconds(200)), .value("after", at: .seconds(300))])
      let early = await clock.start { before }
      #expect(early.events == [.value("after", at: .seconds(300))])
    }
    let second = TestClock()
    await second.withVirtualTime {
      let made = Locked<HotTimeline<String, Never>?>(nil)
      let late = await second.start {
        let inside = second.hotTimeline([.value("at 200", at: .seconds(200)), .value("at 300", at: .seconds(300))])
        made.withLock { $0 = inside }
        return inside
      }
      #expect(late.events == [.value("at 200", at: .seconds(200)), .value("at 300", at: .seconds(300))])
      #expect(made.withLock { $0 }?.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
    }
  }

  @Test("start: the disposal, scheduled by start, comes before an operator's timer due at the same instant")
  func disposalBeforeATimerAtItsInstant() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([.value(1, at: .seconds(600))])
      let recorder = await clock.start(disposed: .seconds(1000)) {
        xs.delay(for: .seconds(400), clock: clock)
      }
      #expect(recorder.events.isEmpty)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
    }
  }

  @Test("a recorder subscribed and disposed at given instants; one made unsubscribed and subscribed by schedule(at:)")
  func lateRecorders() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let subject = AsyncPassthroughSubject<Int, Never>()
      for instant in [100, 250, 340, 450] {
        clock.schedule(at: .seconds(instant)) { subject.send(instant) }
      }
      let late = Recorder(subject, clock: clock, subscribed: .seconds(200), disposed: .seconds(400))
      let observer = Recorder<Int, Never>(clock: clock)
      clock.schedule(at: .seconds(300)) { observer.subscribe(to: subject.map { $0 + 1 }) }
      let never = Recorder<Int, Never>(clock: clock)
      never.cancel()
      never.subscribe(to: subject)  // cancelled first: it never records
      await clock.run()
      #expect(late.events == [.value(250, at: .seconds(250)), .value(340, at: .seconds(340))])
      #expect(observer.events == [.value(341, at: .seconds(340)), .value(451, at: .seconds(450))])
      #expect(never.events.isEmpty)
      #expect(subject.consumerCount == 1)
      observer.cancel()
      #expect(subject.consumerCount == 0)
    }
  }

  @Test("schedule(at:) an instant that has passed runs at now, at the next await")
  func scheduleInThePast() async {
    let clock = TestClock(now: TestClock.Instant(offset: .seconds(10)))
    await clock.withVirtualTime {
      let ran = Log<TestClock.Instant>()
      clock.schedule(at: .seconds(5)) { ran.append(clock.now) }
      #expect(ran.all.isEmpty)
      await clock.settle()
      #expect(ran.all == [TestClock.Instant(offset: .seconds(10))])
    }
  }

  @Test("a recorder subscribes once: a second subscription traps")
  func subscribingTwiceTraps() async {
    await #expect(processExitsWith: .failure) {
      let recorder = Recorder<Int, Never>(clock: TestClock())
      recorder.subscribe(to: Signal<Int, Never>.never)
      recorder.subscribe(to: Signal<Int, Never>.never)
    }
  }

  // MARK: cancel() records nothing

  @Test("cancel() records nothing, hot or cold; waitForEnd() returns once the recording stopped")
  func cancelRecordsNothing() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([
        .value(1, at: .seconds(10)), .value(2, at: .seconds(30)), .finished(at: .seconds(40)),
      ])
      let ys = clock.coldTimeline([
        .value(1, at: .seconds(10)), .value(2, at: .seconds(30)), .finished(at: .seconds(40)),
      ])
      let hot = Recorder(xs, clock: clock)
      let cold = Recorder(ys, clock: clock)
      await clock.advance(to: TestClock.Instant(offset: .seconds(20)))
      hot.cancel()
      cold.cancel()
      #expect(await hot.waitForEnd() == Timed(.finished, at: .seconds(20)))
      #expect(await cold.waitForEnd() == Timed(.finished, at: .seconds(20)))
      await clock.run()
      for recorder in [hot, cold] {
        #expect(recorder.events == [.value(1, at: .seconds(10))])
        #expect(recorder.values == [Timed(1, at: .seconds(10))])
        #expect(recorder.end == nil)
      }
      // An end that came before the cancellation stays.
      let ended = Recorder(Signal<Int, Never>.empty, clock: clock)
      await clock.settle()
      ended.cancel()
      #expect(ended.events == [.finished(at: .seconds(40))])
    }
  }

  // MARK: events for any Error

  @Test("events compare for any Error: same type and equal, or same description when not Equatable")
  func anyErrorEvents() {
    struct Described: Error, CustomStringConvertible {
      var text: String
      var description: String { text }
    }
    let typed: [Recorded<Int, any Error>] = [.value(1, at: .seconds(1)), .failed(TestError(code: 1), at: .seconds(2))]
    #expect(typed == [.value(1, at: .seconds(1)), .failed(TestError(code: 1), at: .seconds(2))])
    #expect(typed != [.value(1, at: .seconds(1)), .failed(TestError(code: 2), at: .seconds(2))])
    #expect(typed != [.value(1, at: .seconds(1)), .failed(Described(text: "TestError(code: 1)"), at: .seconds(2))])
    #expect(typed != [.value(1, at: .seconds(1)), .finished(at: .seconds(2))])
    let described: [Recorded<Int, any Error>] = [.failed(Described(text: "offline"), at: .zero)]
    #expect(described == [.failed(Described(text: "offline"), at: .zero)])
    #expect(described != [.failed(Described(text: "timed out"), at: .zero)])
    #expect(Recorder<Int, any Error>.End.failed(TestError(code: 3)) == .failed(TestError(code: 3)))
    #expect(Recorder<Int, any Error>.End.failed(TestError(code: 3)) != .finished)
    // A typed failure that is not Equatable compares the same way.
    let plain: [Recorded<Int, Described>] = [.failed(Described(text: "a"), at: .zero)]
    #expect(plain == [.failed(Described(text: "a"), at: .zero)])
  }

  // MARK: first(clock:)

  @Test("first(clock:) returns the first value, moving virtual time to it; nil when the sequence finishes first")
  func firstValue() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      #expect(await Signal.timer(after: .seconds(5), clock: clock).first(clock: clock) == 1)
      #expect(clock.now == TestClock.Instant(offset: .seconds(5)))
      #expect(await Signal<Int, Never>.empty.first(clock: clock) == nil)
      let current = AsyncCurrentValueSubject<String, Never>("Inbox")
      #expect(await current.first(clock: clock) == "Inbox")
      let failing: ColdTimeline<Int, TestError> = clock.coldTimeline([.failed(TestError(code: 4), at: .seconds(1))])
      await #expect(throws: TestError(code: 4)) { try await failing.first(clock: clock) }
      #expect(!clock.hasSleepers)
    }
  }

  @Test("first(clock:) fails at once, saying what it saw, when nothing is left to run")
  func firstWithNothingLeft() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      await withKnownIssue {
        #expect(await Signal<Int, Never>.never.first(clock: clock) == nil)
      } matching: { issue in
        issue.comments.map(\.rawValue) == [
          "first(clock:): the sequence sent nothing and has not ended, and nothing is left to run: the clock is at t=0s "
            + "with no sleeper"
        ]
      }
    }
  }

  @Test("first(clock:) outside virtual time fails after its timeout, saying what it saw")
  func firstTimesOut() async {
    let clock = TestClock()
    await withKnownIssue {
      #expect(await Signal<Int, Never>.never.first(clock: clock, timeout: .milliseconds(50)) == nil)
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        "first(clock:) timed out after 0.05s: the sequence sent nothing and has not ended; the clock is at t=0s with "
          + "no sleeper"
      ]
    }
  }

  // MARK: The one-line leak check

  @Test("clock.expectNoLeaks() passes when everything ended, and names what is still alive otherwise")
  func oneLineLeakCheck() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([.value(1, at: .seconds(210)), .finished(at: .seconds(300))])
      let recorder = await clock.start { xs.map { $0 * 2 } }
      #expect(recorder.events == [.value(2, at: .seconds(210)), .finished(at: .seconds(300))])
      await clock.expectNoLeaks()

      let leaked = Recorder(Signal.timer(after: .seconds(10), clock: clock), clock: clock)
      await withKnownIssue {
        await clock.expectNoLeaks()
      } matching: { issue in
        issue.comments.map(\.rawValue).first?.hasPrefix(
          "TestClock.expectNoLeaks(): still alive once the code under test settled: 1 × task") == true
      }
      leaked.cancel()
      await clock.expectNoLeaks()
    }
  }
}
