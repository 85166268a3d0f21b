import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("debounce", .timeLimit(.minutes(1)))
struct DebounceTests {
  // MARK: Timelines

  @Test("a value is emitted once the due time passes without another; each value restarts the wait")
  func emitsAfterAQuietPeriod() async {
    let clock = TestClock()
    let feed = Feed<String, Never>()
    let recorder = Recorder(feed.debounce(for: .milliseconds(300), clock: clock), clock: clock)
    await feed.send("a")  // t=0: due at 300
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    await feed.send("b")  // t=100: replaces a, due at 400
    await clock.advance(by: .milliseconds(200))  // t=300: the timer finds b's deadline and sleeps again
    await clock.waitForSleepers(1)
    #expect(recorder.values.isEmpty)
    await clock.advance(by: .milliseconds(100))  // t=400
    #expect(await recorder.waitForValues(count: 1) == [Timed("b", at: .milliseconds(400))])
    await clock.advance(by: .milliseconds(100))
    await feed.send("c")  // t=500: due at 800
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(299))
    await clock.waitForSleepers(1)  // not yet due: still sleeping
    #expect(recorder.values.count == 1)
    await clock.advance(by: .milliseconds(1))
    #expect(
      await recorder.waitForValues(count: 2) == [
        Timed("b", at: .milliseconds(400)), Timed("c", at: .milliseconds(800)),
      ]
    )
    await feed.finish()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(800)))
    #expect(recorder.values.count == 2)
    #expect(clock.sleeperCount == 0)
  }

  @Test("values closer together than the due time collapse to the last one")
  func aBurstCollapsesToItsLastValue() async {
    let clock = TestClock()
    let feed = Feed<Int, Never>()
    let recorder = Recorder(feed.debounce(for: .seconds(1), clock: clock), clock: clock)
    for value in 1...5 {
      await feed.send(value)
      await clock.waitForSleepers(1)
      await clock.advance(by: .milliseconds(500))
    }
    // The last value came at 2 s; 500 ms of its quiet period are left.
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(500))
    #expect(await recorder.waitForValues(count: 1) == [Timed(5, at: .seconds(3))])
    await feed.finish()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .seconds(3)))
    #expect(recorder.values == [Timed(5, at: .seconds(3))])
  }

  @Test("when the upstream finishes, the waiting value is emitted at once, then the end")
  func flushesTheWaitingValueOnFinish() async {
    let clock = TestClock()
    let feed = Feed<String, Never>()
    let recorder = Recorder(feed.debounce(for: .milliseconds(300), clock: clock), clock: clock)
    await feed.send("a")
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    await feed.finish()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(100)))
    #expect(recorder.values == [Timed("a", at: .milliseconds(100))])
    #expect(clock.sleeperCount == 0)
  }

  @Test("a finite burst debounces to its last value without time passing, on every iteration")
  func finiteUpstreamNeedsNoTime() async {
    let clock = TestClock()
    let debounced = Signal<Int, Never>([1, 2, 3]).debounce(for: .seconds(1), clock: clock)
    #expect(await debounced.collect() == [3])
    #expect(await debounced.collect() == [3])
    #expect(clock.now == TestClock.Instant(offset: .zero))
    #expect(clock.sleeperCount == 0)
  }

  @Test("an upstream failure is delivered at once and drops the waiting value")
  func failureDropsTheWaitingValue() async {
    let clock = TestClock()
    let feed = Feed<String, TestError>()
    let recorder = Recorder(feed.debounce(for: .milliseconds(300), clock: clock), clock: clock)
    await feed.send("a")
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(300))
    #expect(await recorder.waitForValues(count: 1) == [Timed("a", at: .milliseconds(300))])
    await clock.advance(by: .milliseconds(50))
    await feed.send("b")  // due at 650
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(50))
    await feed.fail(TestError(code: 7))
    #expect(await recorder.waitForEnd() == Timed(.failed(TestError(code: 7)), at: .milliseconds(400)))
    #expect(recorder.values == [Timed("a", at: .milliseconds(300))])
    #expect(clock.sleeperCount == 0)
  }

  // MARK: API

  @Test("the failure type is the upstream's; ContinuousClock is the default clock")
  func types() async {
    let clock = TestClock()
    for await _ in Signal<Int, Never>.empty.debounce(for: .seconds(1), clock: clock) {}
    let typed: Signal<Int, TestError> = Signal<Int, TestError>.fail(TestError())
      .debounce(for: .seconds(1), clock: clock)
    #expect(await typed.collectResult().failure == TestError())
    let _: Signal<Int, Never> = Signal<Int, Never>.empty.debounce(
      for: .milliseconds(300))
  }

  // MARK: Rule

  @Test("rule: a newer value moves the deadline; the timer finds it later and sleeps again")
  func ruleMovesTheDeadline() {
    var debounce = RuleDriver(DebounceRule<String, Never, TestClock.Instant>(dueTime: .milliseconds(300)))
    #expect(debounce.deadline == nil)  // nothing pending: the timer parks
    #expect(debounce.receive("a", at: 0).isEmpty)
    #expect(debounce.receive("b", at: 100).isEmpty)
    #expect(debounce.deadline == instant(400))
    #expect(debounce.fire(at: 300) == nil)  // a's old deadline: not due, the engine sleeps again
    #expect(debounce.fire(at: 400) == ["b"])
    #expect(debounce.deadline == nil)
  }

  @Test("rule: a value arriving after the pending value's deadline emits that one first")
  func ruleEmitsAnOverdueValueFirst() {
    var debounce = RuleDriver(DebounceRule<String, Never, TestClock.Instant>(dueTime: .milliseconds(300)))
    _ = debounce.receive("a", at: 0)
    #expect(debounce.receive("b", at: 301) == ["a"])  // the timer is late, and a's quiet period is over
    #expect(debounce.deadline == instant(601))
  }

  @Test("rule: a value arriving exactly at the pending value's deadline, before the timer ran, replaces it")
  func ruleTieReplaces() {
    var debounce = RuleDriver(DebounceRule<String, Never, TestClock.Instant>(dueTime: .milliseconds(300)))
    _ = debounce.receive("a", at: 0)
    #expect(debounce.receive("b", at: 300) == [])  // RxSwift: the value's delivery was scheduled before the timer
    #expect(debounce.deadline == instant(600))
  }

  @Test("rule: finishing emits the pending value; failing drops it")
  func ruleEnds() {
    var finishing = RuleDriver(DebounceRule<String, Never, TestClock.Instant>(dueTime: .milliseconds(300)))
    _ = finishing.receive("a", at: 0)
    #expect(finishing.finish(at: 10) == ["a"])
    #expect(finishing.hasFinished)

    var failing = RuleDriver(DebounceRule<String, TestError, TestClock.Instant>(dueTime: .milliseconds(300)))
    _ = failing.receive("a", at: 0)
    #expect(failing.fail(TestError(code: 1), at: 10).isEmpty)
    #expect(failing.failure == TestError(code: 1))
  }
}
