import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("throttle", .timeLimit(.minutes(1)))
struct ThrottleTests {
  // MARK: Timelines

  @Test(
    "the documented timeline: first value at once, then one value per window end, idle after an empty window",
    arguments: [true, false])
  func documentedTimeline(latest: Bool) async {
    let clock = TestClock()
    let feed = Feed<String, Never>()
    let recorder = Recorder(feed.throttle(for: .milliseconds(300), clock: clock, latest: latest), clock: clock)
    await feed.send("a")  // t=0: idle, so emitted at once; the window ends at 300
    #expect(await recorder.waitForValues(count: 1) == [Timed("a", at: .zero)])
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    await feed.send("b")
    await clock.advance(by: .milliseconds(100))
    await feed.send("c")
    await clock.advance(by: .milliseconds(100))  // t=300: the window ends and opens the next (until 600)
    let held = latest ? "c" : "b"
    #expect(await recorder.waitForValues(count: 2) == [Timed("a", at: .zero), Timed(held, at: .milliseconds(300))])
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    await feed.send("d")  // t=400
    await clock.advance(by: .milliseconds(200))  // t=600: d, and a window until 900
    #expect(await recorder.waitForValues(count: 3).last == Timed("d", at: .milliseconds(600)))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(300))  // t=900: the window ends empty: idle
    await clock.advance(by: .milliseconds(100))
    await feed.send("e")  // t=1000: emitted at once, window until 1300
    #expect(await recorder.waitForValues(count: 4).last == Timed("e", at: .milliseconds(1000)))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    await feed.send("f")
    await clock.advance(by: .milliseconds(100))
    await feed.finish()  // t=1200: f is emitted at once, then the end
    #expect(await recorder.waitForTermination() == Timed(.finished, at: .milliseconds(1200)))
    #expect(
      recorder.values == [
        Timed("a", at: .zero), Timed(held, at: .milliseconds(300)), Timed("d", at: .milliseconds(600)),
        Timed("e", at: .milliseconds(1000)), Timed("f", at: .milliseconds(1200)),
      ]
    )
    #expect(clock.sleeperCount == 0)
  }

  @Test("a value arriving exactly at a window's end belongs to the next window")
  func aValueAtTheWindowEndWaitsForTheNextWindow() async {
    let clock = TestClock()
    let feed = Feed<String, Never>()
    let recorder = Recorder(feed.throttle(for: .milliseconds(300), clock: clock), clock: clock)
    await feed.send("a")
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    await feed.send("b")
    await clock.advance(by: .milliseconds(200))
    await feed.send("c")  // t=300, whether or not the timer has closed the window yet
    #expect(await recorder.waitForValues(count: 2) == [Timed("a", at: .zero), Timed("b", at: .milliseconds(300))])
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(300))
    #expect(await recorder.waitForValues(count: 3).last == Timed("c", at: .milliseconds(600)))
    await feed.finish()
    #expect(await recorder.waitForTermination() == Timed(.finished, at: .milliseconds(600)))
  }

  @Test("a finite burst: its first value at once and the held-back one when the upstream finishes")
  func finiteUpstreamNeedsNoTime() async {
    let clock = TestClock()
    let burst = Signal<Int, Never>([1, 2, 3, 4])
    #expect(await burst.throttle(for: .seconds(1), clock: clock, latest: true).collect() == [1, 4])
    #expect(await burst.throttle(for: .seconds(1), clock: clock, latest: false).collect() == [1, 2])
    #expect(await burst.throttle(for: .zero, clock: clock).collect() == [1, 2, 3, 4])
    #expect(clock.now == TestClock.Instant(offset: .zero))
    #expect(clock.sleeperCount == 0)
  }

  @Test("an upstream failure is delivered at once and drops the held-back value")
  func failureDropsTheHeldBackValue() async {
    let clock = TestClock()
    let feed = Feed<String, TestError>()
    let recorder = Recorder(feed.throttle(for: .milliseconds(300), clock: clock), clock: clock)
    await feed.send("a")
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    await feed.send("b")
    await clock.advance(by: .milliseconds(100))
    await feed.fail(TestError(code: 3))
    #expect(await recorder.waitForTermination() == Timed(.failed(TestError(code: 3)), at: .milliseconds(200)))
    #expect(recorder.values == [Timed("a", at: .zero)])
    #expect(clock.sleeperCount == 0)
  }

  // MARK: Cancellation

  @Test("cancelling the consumer cancels the timer's sleep and the upstream")
  func cancellingTheConsumerStopsEverything() async {
    let clock = TestClock()
    let upstreamCancelled = Gate()
    let upstream = Signal<Int, Never>.create { emitter in
      emitter.send(1)
      emitter.send(2)
      return { upstreamCancelled.open() }
    }
    let recorder = Recorder(upstream.throttle(for: .seconds(1), clock: clock), clock: clock)
    #expect(await recorder.waitForValues(count: 1) == [Timed(1, at: .zero)])
    await clock.waitForSleepers(1)  // 2 is held back for the window's end
    recorder.cancel()
    #expect(await recorder.waitForTermination() == Timed(.finished, at: .zero))
    #expect(clock.sleeperCount == 0)
    await upstreamCancelled.wait()
    #expect(recorder.values == [Timed(1, at: .zero)])
  }

  @Test("dropping the iterator cancels the timer's sleep and the upstream")
  func droppingTheIteratorStopsEverything() async {
    let clock = TestClock()
    let feed = Feed<Int, Never>()
    let throttled = feed.throttle(for: .seconds(1), clock: clock)
    do {
      var iterator = throttled.makeAsyncIterator()
      await feed.send(1)
      #expect(await iterator.next() == 1)
      await clock.waitForSleepers(1)
      withExtendedLifetime(iterator) {}
    }
    #expect(clock.sleeperCount == 0)
    await feed.cancelled.wait()
  }

  // MARK: API

  @Test("the failure type is the upstream's; ContinuousClock is the default clock")
  func types() async {
    let clock = TestClock()
    for await _ in Signal<Int, Never>.empty.throttle(for: .seconds(1), clock: clock) {}
    let typed: AsyncThrottleSequence<Signal<Int, TestError>, TestClock> = Signal<Int, TestError>.fail(TestError())
      .throttle(for: .seconds(1), clock: clock, latest: false)
    #expect(await typed.collectResult().failure == TestError())
    let _: AsyncThrottleSequence<Signal<Int, Never>, ContinuousClock> = Signal<Int, Never>.empty.throttle(
      for: .milliseconds(300))
  }

  @Test("a negative interval traps")
  func negativeIntervalTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = Signal<Int, Never>.empty.throttle(for: .seconds(-1))
    }
  }

  // MARK: State machine

  private typealias Machine = ThrottleStateMachine<String, Never, TestClock.Instant>

  private func sleepDeadline(_ action: Machine.TimerAction?) -> TestClock.Instant? {
    guard case .sleep(let deadline) = action else { return nil }
    return deadline
  }

  @Test("state machine: a window keeps its latest or its first value", arguments: [true, false])
  func machineKeepsLatestOrFirst(latest: Bool) {
    var machine = Machine(interval: .milliseconds(300), latest: latest)
    _ = machine.received("a", at: instant(0))
    #expect(takeQueued(&machine.queue) == ["a"])
    _ = machine.received("b", at: instant(100))
    _ = machine.received("c", at: instant(200))
    #expect(takeQueued(&machine.queue).isEmpty)
    let fired = machine.timerFired(at: instant(300))
    #expect(takeQueued(&machine.queue) == [latest ? "c" : "b"])
    #expect(sleepDeadline(fired.next) == instant(600))
    let empty = machine.timerFired(at: instant(600))
    #expect(empty.next == nil)  // idle: the timer parks
    #expect(takeQueued(&machine.queue).isEmpty)
  }

  @Test("state machine: windows that ended before a value arrives are closed first, as the timer would have")
  func machineClosesOverdueWindows() {
    var machine = Machine(interval: .milliseconds(300), latest: true)
    _ = machine.received("a", at: instant(0))
    _ = machine.received("b", at: instant(100))
    // The timer is late: at 700 the first window (until 300) and the one b opened (until 600) are over.
    _ = machine.received("c", at: instant(700))
    #expect(takeQueued(&machine.queue) == ["a", "b", "c"])
    // The timer, waking for 300 at last, finds the window c opened.
    #expect(sleepDeadline(machine.timerFired(at: instant(300)).next) == instant(1000))
  }

  @Test("state machine: finishing emits the held-back value; failing drops it")
  func machineEnds() {
    var finishing = Machine(interval: .milliseconds(300), latest: true)
    _ = finishing.received("a", at: instant(0))
    _ = finishing.received("b", at: instant(100))
    _ = finishing.upstreamFinished()
    #expect(takeQueued(&finishing.queue) == ["a", "b"])
    #expect(finishing.received("c", at: instant(200)) == nil)

    var failing = ThrottleStateMachine<String, TestError, TestClock.Instant>(interval: .milliseconds(300), latest: true)
    _ = failing.received("a", at: instant(0))
    _ = failing.received("b", at: instant(100))
    guard case .failed(let error) = failing.upstreamFailed(TestError(code: 2)).terminal else {
      Issue.record("expected a failure")
      return
    }
    #expect(error == TestError(code: 2))
    #expect(takeQueued(&failing.queue) == ["a"])
  }
}
