import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("timeout", .timeLimit(.minutes(1)))
struct TimeoutTests {
  // MARK: Timelines

  @Test("values and the end that arrive within the interval pass through; each value restarts the interval")
  func eventsInTimePassThrough() async {
    let clock = TestClock()
    let feed = Feed<String, Never>()
    let recorder = Recorder(feed.timeout(.milliseconds(200), clock: clock), clock: clock)
    await clock.waitForSleepers(1)  // the first event is due before 200
    await clock.advance(by: .milliseconds(150))
    await feed.send("a")  // due before 350 now
    #expect(await recorder.waitForValues(count: 1) == [Timed("a", at: .milliseconds(150))])
    await clock.advance(by: .milliseconds(150))  // t=300: the timer wakes at 200 and sleeps again
    await feed.send("b")  // due before 500 now
    _ = await recorder.waitForValues(count: 2)  // stamped at 300 before time moves on
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(199))
    await feed.finish()  // t=499
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(499)))
    #expect(recorder.values == [Timed("a", at: .milliseconds(150)), Timed("b", at: .milliseconds(300))])
    #expect(clock.sleeperCount == 0)
    #expect(!feed.cancelled.isOpen)
  }

  @Test("the documented timeline: silence for a whole interval after the last value fails and cancels the upstream")
  func silenceAfterAValueTimesOut() async {
    let clock = TestClock()
    let feed = Feed<String, Never>()
    let recorder = Recorder(feed.timeout(.milliseconds(200), clock: clock), clock: clock)
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(150))
    await feed.send("a")
    _ = await recorder.waitForValues(count: 1)
    await clock.advance(by: .milliseconds(150))
    await feed.send("b")  // t=300: due before 500
    _ = await recorder.waitForValues(count: 2)
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(199))
    await clock.waitForSleepers(1)  // t=499: still waiting
    #expect(recorder.end == nil)
    await clock.advance(by: .milliseconds(1))
    #expect(await recorder.waitForEnd() == Timed(.failed(TimeoutError()), at: .milliseconds(500)))
    #expect(recorder.values == [Timed("a", at: .milliseconds(150)), Timed("b", at: .milliseconds(300))])
    await feed.cancelled.wait()
    #expect(clock.sleeperCount == 0)
  }

  @Test("an upstream that never sends times out one interval after the iteration started")
  func silenceFromTheStartTimesOut() async {
    let clock = TestClock()
    let upstreamCancelled = Gate()
    let silent = Signal<Int, Never>.create { _ in { upstreamCancelled.open() } }
    let recorder = Recorder(silent.timeout(.seconds(1), clock: clock), clock: clock)
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    #expect(await recorder.waitForEnd() == Timed(.failed(TimeoutError()), at: .seconds(1)))
    await upstreamCancelled.wait()
    #expect(clock.sleeperCount == 0)
  }

  @Test("a slow consumer does not cause a timeout: the interval measures the upstream")
  func aSlowConsumerDoesNotTimeOut() async throws {
    let clock = TestClock()
    let feed = Feed<Int, Never>()
    var iterator = feed.timeout(.milliseconds(200), clock: clock).makeAsyncIterator()
    async let fed: Void = {
      await clock.waitForSleepers(1)
      await clock.advance(by: .milliseconds(100))
      await feed.send(1)
      await clock.advance(by: .milliseconds(100))
      await feed.send(2)
      await feed.finish()
      await clock.advance(by: .seconds(10))
    }()
    #expect(try await iterator.next() == 1)  // the first next() starts the clock
    await fed  // the consumer takes its time: ten seconds pass before it asks again
    #expect(try await iterator.next() == 2)
    #expect(try await iterator.next() == nil)
    #expect(clock.sleeperCount == 0)
  }

  @Test("the interval is measured from the first next(), not from makeAsyncIterator()")
  func intervalStartsAtTheFirstNext() async {
    let clock = TestClock()
    let feed = Feed<Int, Never>()
    var iterator = feed.timeout(.seconds(1), clock: clock).makeAsyncIterator()
    await clock.advance(by: .seconds(5))  // made, not read: nothing runs and no time counts
    #expect(clock.sleeperCount == 0)
    async let silence: Void = {
      await clock.waitForSleepers(1)
      await clock.advance(by: .milliseconds(999))
      #expect(clock.sleeperCount == 1)  // still in time one millisecond before the deadline
      await clock.advance(by: .milliseconds(1))
    }()
    do throws(TimeoutError) {
      _ = try await iterator.next()
      Issue.record("the silent upstream did not time out")
    } catch {
      #expect(clock.now == TestClock.Instant(offset: .seconds(6)))
    }
    await silence
    await feed.cancelled.wait()
    #expect(clock.sleeperCount == 0)
  }

  // MARK: Failure types

  @Test("a typed upstream: TimeoutFailure.upstream for its failure, .timedOut for silence")
  func typedUpstreamFailures() async {
    let clock = TestClock()
    let feed = Feed<String, TestError>()
    let failing = Recorder(feed.timeout(.seconds(1), clock: clock), clock: clock)
    await clock.waitForSleepers(1)
    await feed.send("a")
    await feed.fail(TestError(code: 5))
    #expect(await failing.waitForEnd() == Timed(.failed(.upstream(TestError(code: 5))), at: .zero))
    #expect(failing.values == [Timed("a", at: .zero)])

    let silent = Recorder(Signal<String, TestError>.never.timeout(.seconds(1), clock: clock), clock: clock)
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    #expect(await silent.waitForEnd() == Timed(.failed(.timedOut), at: .seconds(1)))
  }

  @Test("an untyped upstream: its own errors pass through, silence throws TimeoutError")
  func untypedUpstreamFailures() async {
    let clock = TestClock()
    let failing = await Signal<Int, any Error>.fail(TestError(code: 9)).timeout(.seconds(1), clock: clock)
      .collectResult()
    #expect(failing.failure as? TestError == TestError(code: 9))

    let silent = Recorder(Signal<Int, any Error>.never.timeout(.seconds(1), clock: clock), clock: clock)
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    guard case .failed(let error) = await silent.waitForEnd()?.value else {
      Issue.record("expected a timeout")
      return
    }
    #expect(error is TimeoutError)
  }

  @Test("the failure type follows the upstream's; ContinuousClock is the default clock")
  func types() async {
    let clock = TestClock()
    let _: Signal<Int, TimeoutError> = Signal<Int, Never>.empty.timeout(
      .seconds(1), clock: clock)
    let _: Signal<Int, any Error> = Signal<Int, any Error>.empty
      .timeout(.seconds(1), clock: clock)
    let _: Signal<Int, TimeoutFailure<TestError>> =
      Signal<Int, TestError>.empty.timeout(.seconds(1), clock: clock)
    let _: Signal<Int, TimeoutError> = Signal<Int, Never>.empty
      .timeout(.seconds(1))
    #expect(await Signal<Int, Never>([1, 2]).timeout(.seconds(1), clock: clock).collectResult().values == [1, 2])
    #expect("\(TimeoutError())" == "TimeoutError: no value or end arrived within the timeout interval")
  }

  // MARK: Rule

  private typealias Rule = TimeoutRule<String, TimeoutError, TestClock.Instant>

  @Test("rule: a value moves the deadline; the timer sleeps again until it")
  func ruleMovesTheDeadline() {
    var timeout = RuleDriver(Rule(interval: .milliseconds(200), start: instant(0), timedOut: TimeoutError()))
    #expect(timeout.deadline == instant(200))
    #expect(timeout.receive("a", at: 150) == ["a"])
    #expect(timeout.fire(at: 200) == nil)  // not due: the engine sleeps again
    #expect(timeout.deadline == instant(350))
    #expect(timeout.fire(at: 350) == [])
    #expect(timeout.failure == TimeoutError())
  }

  @Test("rule: an event arriving at the deadline, before the timer ran, times out")
  func ruleTimesOutLateEvents() {
    var late = RuleDriver(Rule(interval: .milliseconds(200), start: instant(0), timedOut: TimeoutError()))
    #expect(late.receive("a", at: 200).isEmpty)
    #expect(late.failure == TimeoutError())

    var lateEnd = RuleDriver(Rule(interval: .milliseconds(200), start: instant(0), timedOut: TimeoutError()))
    _ = lateEnd.finish(at: 250)
    #expect(lateEnd.failure == TimeoutError())

    var inTime = RuleDriver(Rule(interval: .milliseconds(200), start: instant(0), timedOut: TimeoutError()))
    _ = inTime.finish(at: 199)
    #expect(inTime.hasFinished)
  }

  @Test("rule: an upstream failure in time passes through; a late one times out")
  func ruleUpstreamFailures() {
    typealias Typed = TimeoutRule<String, TimeoutFailure<TestError>, TestClock.Instant>
    var inTime = RuleDriver(Typed(interval: .milliseconds(200), start: instant(0), timedOut: .timedOut))
    _ = inTime.fail(.upstream(TestError(code: 1)), at: 199)
    #expect(inTime.failure == .upstream(TestError(code: 1)))
    var late = RuleDriver(Typed(interval: .milliseconds(200), start: instant(0), timedOut: .timedOut))
    _ = late.fail(.upstream(TestError(code: 1)), at: 200)
    #expect(late.failure == .timedOut)
  }
}
