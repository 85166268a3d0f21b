import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("throttle", .timeLimit(.minutes(1)))
struct ThrottleTests {
  // MARK: Timelines

  @Test(
    "the documented timeline, latest: first value at once, then one value per window end, idle after an empty window")
  func documentedTimeline() async {
    let clock = TestClock()
    let feed = Feed<String, Never>()
    let recorder = Recorder(feed.throttle(for: .milliseconds(300), clock: clock, latest: true), clock: clock)
    await feed.send("a")  // t=0: idle, so emitted at once; the window ends at 300
    #expect(await recorder.waitForValues(count: 1) == [Timed("a", at: .zero)])
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    await feed.send("b")
    await clock.advance(by: .milliseconds(100))
    await feed.send("c")
    await clock.advance(by: .milliseconds(100))  // t=300: the window ends and opens the next (until 600)
    let held = "c"
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
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(1200)))
    #expect(
      recorder.values == [
        Timed("a", at: .zero), Timed(held, at: .milliseconds(300)), Timed("d", at: .milliseconds(600)),
        Timed("e", at: .milliseconds(1000)), Timed("f", at: .milliseconds(1200)),
      ]
    )
    #expect(clock.sleeperCount == 0)
  }

  @Test("the documented timeline, not latest: values inside a window are dropped, the next one opens a window")
  func documentedTimelineNotLatest() async {
    let clock = TestClock()
    let feed = Feed<String, Never>()
    let recorder = Recorder(feed.throttle(for: .milliseconds(300), clock: clock, latest: false), clock: clock)
    await feed.send("a")  // t=0: emitted at once; the window ends at 300
    _ = await recorder.waitForValues(count: 1)  // stamped before time moves on
    await clock.advance(by: .milliseconds(100))
    await feed.send("b")  // dropped
    await clock.advance(by: .milliseconds(100))
    await feed.send("c")  // dropped
    await clock.advance(by: .milliseconds(200))
    await feed.send("d")  // t=400: the window is over: emitted at once, window until 700
    _ = await recorder.waitForValues(count: 2)
    await clock.advance(by: .milliseconds(600))
    await feed.send("e")  // t=1000
    _ = await recorder.waitForValues(count: 3)
    await clock.advance(by: .milliseconds(100))
    await feed.send("f")  // dropped
    await clock.advance(by: .milliseconds(100))
    await feed.finish()  // t=1200: nothing held back, so the end comes at once
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(1200)))
    #expect(
      recorder.values == [
        Timed("a", at: .zero), Timed("d", at: .milliseconds(400)), Timed("e", at: .milliseconds(1000)),
      ]
    )
    #expect(clock.sleeperCount == 0)
  }

  /// Throttles a feed to 200 ms windows and plays RxSwift's throttle input, 200 ms earlier (it subscribes at 200):
  /// 2@10, 3@50, 4@110, 5@150, 6@210, 7@250, finish@300; returns the recorder.
  private func playRxSwiftInput<Failure: Error>(latest: Bool, _: Failure.Type) async -> Recorder<Int, Failure> {
    let clock = TestClock()
    let feed = Feed<Int, Failure>()
    let recorder = Recorder(feed.throttle(for: .milliseconds(200), clock: clock, latest: latest), clock: clock)
    // (time, value, values emitted once it is handled: waited for, so that each is stamped before time moves on).
    // With latest, at 210 the window ends (5 is emitted, by the timer or by the arriving 6, whichever runs first)
    // and 6 opens the next window.
    for (at, value, emitted) in [(10, 2, 1), (50, 3, 1), (110, 4, 1), (150, 5, 1), (210, 6, 2), (250, 7, 2)] {
      if latest { await clock.waitForSleepers(value == 2 ? 0 : 1) }  // the window's timer, before time moves on
      await clock.advance(to: instant(at))
      await feed.send(value)
      _ = await recorder.waitForValues(count: emitted)
    }
    await clock.advance(to: instant(300))
    await feed.finish()
    return recorder
  }

  /// RxSwift's `test_ThrottleTimeSpan_NotLatest_Completed` and `_Error`, 200 ms earlier (it subscribes at 200).
  @Test("not latest, RxSwift's timelines: 2@10, 6@210, finish@300; with a failure at 210: 2@10, failure@210")
  func rxSwiftTimelinesNotLatest() async {
    let recorder = await playRxSwiftInput(latest: false, TestError.self)
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(300)))
    #expect(recorder.values == [Timed(2, at: .milliseconds(10)), Timed(6, at: .milliseconds(210))])

    let failingClock = TestClock()
    let failingFeed = Feed<Int, TestError>()
    let failing = Recorder(
      failingFeed.throttle(for: .milliseconds(200), clock: failingClock, latest: false), clock: failingClock)
    for (value, at) in [(2, 10), (3, 50), (4, 110), (5, 150)] {
      await failingClock.advance(to: instant(at))
      await failingFeed.send(value)
      _ = await failing.waitForValues(count: 1)
    }
    await failingClock.advance(to: instant(210))
    await failingFeed.fail(TestError(code: 1))
    #expect(await failing.waitForEnd() == Timed(.failed(TestError(code: 1)), at: .milliseconds(210)))
    #expect(failing.values == [Timed(2, at: .milliseconds(10))])
  }

  /// RxSwift's `test_ThrottleTimeSpan_Completed` gives `2@10, 6@210, 7@410, finish@410` here: a value arriving
  /// exactly at a window's end replaces the held one, and the finish waits for the window. Ours emits the held
  /// value at the window's end and does not delay the finish (see the DocC article "Design decisions").
  @Test("latest, RxSwift's input: 2@10, 5@210, 7@300, finish@300")
  func rxSwiftInputLatest() async {
    let recorder = await playRxSwiftInput(latest: true, Never.self)
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(300)))
    #expect(
      recorder.values == [
        Timed(2, at: .milliseconds(10)), Timed(5, at: .milliseconds(210)), Timed(7, at: .milliseconds(300)),
      ]
    )
  }

  /// Throttles a feed to 300 ms windows with the default `latest` and opens a window: `a` at t=0, emitted at
  /// once, then `b` at t=100, held back for the window's end.
  private func windowHoldingB<Failure: Error>(_: Failure.Type) async -> (
    clock: TestClock, feed: Feed<String, Failure>, recorder: Recorder<String, Failure>
  ) {
    let clock = TestClock()
    let feed = Feed<String, Failure>()
    let recorder = Recorder(feed.throttle(for: .milliseconds(300), clock: clock), clock: clock)
    await feed.send("a")
    _ = await recorder.waitForValues(count: 1)  // stamped before time moves on
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    await feed.send("b")
    return (clock, feed, recorder)
  }

  @Test("a value arriving exactly at a window's end belongs to the next window")
  func aValueAtTheWindowEndWaitsForTheNextWindow() async {
    let (clock, feed, recorder) = await windowHoldingB(Never.self)
    await clock.advance(by: .milliseconds(200))
    await feed.send("c")  // t=300, whether or not the timer has closed the window yet
    #expect(await recorder.waitForValues(count: 2) == [Timed("a", at: .zero), Timed("b", at: .milliseconds(300))])
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(300))
    #expect(await recorder.waitForValues(count: 3).last == Timed("c", at: .milliseconds(600)))
    await feed.finish()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(600)))
  }

  @Test("a finite burst: its first value at once, and with latest the held-back one when the upstream finishes")
  func finiteUpstreamNeedsNoTime() async {
    let clock = TestClock()
    let burst = Signal<Int, Never>([1, 2, 3, 4])
    #expect(await burst.throttle(for: .seconds(1), clock: clock, latest: true).collect() == [1, 4])
    #expect(await burst.throttle(for: .seconds(1), clock: clock, latest: false).collect() == [1])
    #expect(await burst.throttle(for: .zero, clock: clock).collect() == [1, 2, 3, 4])
    #expect(clock.now == TestClock.Instant(offset: .zero))
    #expect(clock.sleeperCount == 0)
  }

  @Test("an upstream failure is delivered at once and drops the held-back value")
  func failureDropsTheHeldBackValue() async {
    let (clock, feed, recorder) = await windowHoldingB(TestError.self)
    await clock.advance(by: .milliseconds(100))
    await feed.fail(TestError(code: 3))
    #expect(await recorder.waitForEnd() == Timed(.failed(TestError(code: 3)), at: .milliseconds(200)))
    #expect(recorder.values == [Timed("a", at: .zero)])
    #expect(clock.sleeperCount == 0)
  }

  // MARK: API

  @Test("the failure type is the upstream's; ContinuousClock is the default clock")
  func types() async {
    let clock = TestClock()
    for await _ in Signal<Int, Never>.empty.throttle(for: .seconds(1), clock: clock) {}
    let typed: Signal<Int, TestError> = Signal<Int, TestError>.fail(TestError())
      .throttle(for: .seconds(1), clock: clock, latest: false)
    #expect(await typed.collectResult().failure == TestError())
    let _: Signal<Int, Never> = Signal<Int, Never>.empty.throttle(
      for: .milliseconds(300))
  }

  // MARK: Rule

  private typealias Rule = ThrottleRule<String, Never, TestClock.Instant>

  @Test("rule, latest: a window keeps its latest value for its end; an empty window ends idle")
  func ruleKeepsLatest() {
    var throttle = RuleDriver(Rule(interval: .milliseconds(300), latest: true))
    #expect(throttle.receive("a", at: 0) == ["a"])
    #expect(throttle.deadline == instant(300))
    #expect(throttle.receive("b", at: 100).isEmpty)
    #expect(throttle.receive("c", at: 200).isEmpty)
    #expect(throttle.fire(at: 300) == ["c"])
    #expect(throttle.deadline == instant(600))
    #expect(throttle.fire(at: 600) == [])
    #expect(throttle.deadline == nil)  // idle: the timer parks
  }

  @Test("rule, not latest: values inside a window are dropped and no timer is needed")
  func ruleDropsInsideTheWindow() {
    var throttle = RuleDriver(Rule(interval: .milliseconds(300), latest: false))
    #expect(throttle.receive("a", at: 0) == ["a"])
    #expect(throttle.deadline == nil)
    #expect(throttle.receive("b", at: 100).isEmpty)
    #expect(throttle.receive("c", at: 299).isEmpty)
    #expect(throttle.receive("d", at: 300) == ["d"])  // the window [0, 300) is over
    #expect(throttle.receive("e", at: 599).isEmpty)
    #expect(throttle.finish(at: 599).isEmpty)
    #expect(throttle.hasFinished)
  }

  @Test("rule: windows that ended before a value arrives are closed first, as the timer would have")
  func ruleClosesOverdueWindows() {
    var throttle = RuleDriver(Rule(interval: .milliseconds(300), latest: true))
    _ = throttle.receive("a", at: 0)
    _ = throttle.receive("b", at: 100)
    // The timer is late: at 700 the first window (until 300) and the one b opened (until 600) are over.
    #expect(throttle.receive("c", at: 700) == ["b", "c"])
    #expect(throttle.deadline == instant(1000))
  }

  @Test("rule: finishing emits the held-back value; failing drops it")
  func ruleEnds() {
    var finishing = RuleDriver(Rule(interval: .milliseconds(300), latest: true))
    _ = finishing.receive("a", at: 0)
    _ = finishing.receive("b", at: 100)
    #expect(finishing.finish(at: 200) == ["b"])
    #expect(finishing.hasFinished)

    var failing = RuleDriver(
      ThrottleRule<String, TestError, TestClock.Instant>(interval: .milliseconds(300), latest: true))
    _ = failing.receive("a", at: 0)
    _ = failing.receive("b", at: 100)
    #expect(failing.fail(TestError(code: 2), at: 200).isEmpty)
    #expect(failing.failure == TestError(code: 2))
  }
}
