import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("delay", .timeLimit(.minutes(1)))
struct DelayTests {
  // MARK: Timelines

  @Test("the documented timeline: every value and the finish are shifted by the delay, in order")
  func shiftsValuesAndTheFinish() async {
    let clock = TestClock()
    let feed = Feed<String, Never>()
    let recorder = Recorder(feed.delay(for: .milliseconds(300), clock: clock), clock: clock)
    await feed.send("a")  // due at 300
    await clock.advance(by: .milliseconds(100))
    await feed.send("b")  // due at 400
    await clock.advance(by: .milliseconds(50))
    await feed.finish()  // due at 450
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(149))
    await clock.waitForSleepers(1)  // t=299: nothing is due yet
    #expect(recorder.values.isEmpty)
    await clock.advance(by: .milliseconds(1))
    #expect(await recorder.waitForValues(count: 1) == [Timed("a", at: .milliseconds(300))])
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    #expect(await recorder.waitForValues(count: 2).last == Timed("b", at: .milliseconds(400)))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(50))
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(450)))
    #expect(recorder.values == [Timed("a", at: .milliseconds(300)), Timed("b", at: .milliseconds(400))])
    #expect(clock.sleeperCount == 0)
  }

  @Test("events that arrive together are released together, in arrival order")
  func simultaneousEventsKeepTheirOrder() async {
    let clock = TestClock()
    let feed = Feed<Int, Never>()
    let recorder = Recorder(feed.delay(for: .seconds(1), clock: clock), clock: clock)
    for value in 1...3 { await feed.send(value) }
    await feed.finish()
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .seconds(1)))
    #expect(recorder.values == [Timed(1, at: .seconds(1)), Timed(2, at: .seconds(1)), Timed(3, at: .seconds(1))])
  }

  @Test("a zero delay lets everything through without time passing, on every iteration")
  func zeroDelayNeedsNoTime() async {
    let clock = TestClock()
    let immediate = Signal<Int, Never>([1, 2, 3]).delay(for: .zero, clock: clock)
    #expect(await immediate.collect() == [1, 2, 3])
    #expect(await immediate.collect() == [1, 2, 3])
    #expect(clock.now == TestClock.Instant(offset: .zero))
  }

  @Test("a failure is not delayed: it is delivered at once and drops the values still waiting")
  func failureIsDeliveredAtOnce() async {
    let clock = TestClock()
    let feed = Feed<String, TestError>()
    let recorder = Recorder(feed.delay(for: .milliseconds(300), clock: clock), clock: clock)
    await feed.send("a")
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(300))
    #expect(await recorder.waitForValues(count: 1) == [Timed("a", at: .milliseconds(300))])
    await feed.send("b")  // due at 600
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    await feed.fail(TestError(code: 4))
    #expect(await recorder.waitForEnd() == Timed(.failed(TestError(code: 4)), at: .milliseconds(400)))
    #expect(recorder.values == [Timed("a", at: .milliseconds(300))])
    #expect(clock.sleeperCount == 0)
  }

  // MARK: API

  @Test("the failure type is the upstream's; ContinuousClock is the default clock")
  func types() async {
    let clock = TestClock()
    for await _ in Signal<Int, Never>.empty.delay(for: .zero, clock: clock) {}  // the finish is delayed too
    let typed: Signal<Int, TestError> = Signal<Int, TestError>.fail(TestError())
      .delay(for: .seconds(1), clock: clock)
    #expect(await typed.collectResult().failure == TestError())
    let _: Signal<Int, Never> = Signal<Int, Never>.empty.delay(for: .seconds(1))
  }

  // MARK: Rule

  @Test("rule: the timer releases what is due, in order, and sleeps until the next due time")
  func ruleReleasesWhatIsDue() {
    var delay = RuleDriver(DelayRule<String, Never, TestClock.Instant>(delay: .milliseconds(300)))
    #expect(delay.deadline == nil)
    _ = delay.receive("a", at: 0)
    _ = delay.receive("b", at: 0)
    _ = delay.receive("c", at: 100)
    #expect(delay.finish(at: 150).isEmpty)
    #expect(!delay.hasFinished)  // the finish is scheduled too
    #expect(delay.fire(at: 300) == ["a", "b"])
    #expect(delay.deadline == instant(400))
    #expect(delay.fire(at: 400) == ["c"])
    #expect(delay.deadline == instant(450))
    #expect(delay.fire(at: 450) == [])
    #expect(delay.hasFinished)
  }

  @Test("rule: a long schedule is compacted as it is released")
  func ruleCompactsTheSchedule() {
    var delay = RuleDriver(DelayRule<String, Never, TestClock.Instant>(delay: .milliseconds(10)))
    for index in 0..<100 {
      _ = delay.receive("\(index)", at: index)
    }
    var released: [String] = []
    for index in 0..<100 {
      released += delay.fire(at: index + 10) ?? []
      #expect(delay.deadline == (index < 99 ? instant(index + 11) : nil))
    }
    #expect(released == (0..<100).map { "\($0)" })
    #expect(delay.rule.scheduled.count < 64)
  }

  @Test("rule: a failure is not scheduled")
  func ruleFailsAtOnce() {
    var delay = RuleDriver(DelayRule<String, TestError, TestClock.Instant>(delay: .milliseconds(300)))
    _ = delay.receive("a", at: 0)
    #expect(delay.fail(TestError(code: 4), at: 100).isEmpty)
    #expect(delay.failure == TestError(code: 4))
  }
}
