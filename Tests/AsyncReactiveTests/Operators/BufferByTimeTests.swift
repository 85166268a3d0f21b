import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("buffer(every:)", .timeLimit(.minutes(1)))
struct BufferByTimeTests {
  // MARK: Timelines

  @Test("the documented timeline: one array per window, empty windows too; the finish flushes the rest")
  func documentedTimeline() async {
    let clock = TestClock()
    let feed = Feed<String, Never>()
    let recorder = Recorder(feed.buffer(every: .seconds(1), clock: clock), clock: clock)
    await clock.waitForSleepers(1)  // the first window ends at 1 s
    await clock.advance(by: .milliseconds(200))
    await feed.send("a")
    await clock.advance(by: .milliseconds(500))
    await feed.send("b")
    await clock.advance(by: .milliseconds(300))  // t=1000
    #expect(await recorder.waitForValues(count: 1) == [Timed(["a", "b"], at: .seconds(1))])
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))  // t=2000: an empty window
    #expect(await recorder.waitForValues(count: 2).last == Timed([], at: .seconds(2)))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(500))
    await feed.send("c")
    await clock.advance(by: .milliseconds(300))
    await feed.finish()  // t=2800
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(2800)))
    #expect(
      recorder.values == [
        Timed(["a", "b"], at: .seconds(1)), Timed([], at: .seconds(2)), Timed(["c"], at: .milliseconds(2800)),
      ]
    )
    #expect(clock.sleeperCount == 0)
  }

  /// RxSwift's `testBufferWithTimeOrCount_Basic`, 200 ms earlier (it subscribes at 200). RxSwift also emits an
  /// empty array with the finish at 400; here the finish flushes only values.
  @Test("RxSwift's timeline with a count of 3: a full window ends at once and restarts the period")
  func rxSwiftTimelineWithCount() async {
    let clock = TestClock()
    let feed = Feed<Int, TestError>()
    let recorder = Recorder(feed.buffer(every: .milliseconds(70), clock: clock, count: 3), clock: clock)
    // (time, value sent then or nil, arrays emitted by then). The clock stops at each window's end, so that
    // each array is stamped with the instant it was emitted.
    let steps: [(Int, Int?, Int)] = [
      (5, 1, 0), (10, 2, 0), (40, 3, 1), (80, 4, 1), (110, nil, 2), (120, 5, 2), (150, 6, 2), (170, 7, 3),
      (220, 8, 3), (240, nil, 4), (270, 9, 4), (310, nil, 5), (380, nil, 6), (400, nil, 6),
    ]
    for (at, value, emitted) in steps {
      await clock.waitForSleepers(1)  // the timer sleeps until the window's end before time moves on
      await clock.advance(to: instant(at))
      if let value { await feed.send(value) }
      _ = await recorder.waitForValues(count: emitted)
    }
    await feed.finish()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(400)))
    #expect(
      recorder.values == [
        Timed([1, 2, 3], at: .milliseconds(40)), Timed([4], at: .milliseconds(110)),
        Timed([5, 6, 7], at: .milliseconds(170)), Timed([8], at: .milliseconds(240)),
        Timed([9], at: .milliseconds(310)), Timed([], at: .milliseconds(380)),
      ]
    )
  }

  @Test("a failure is delivered at once and drops the values of the window in progress")
  func failureDropsTheWindow() async {
    let clock = TestClock()
    let feed = Feed<Int, TestError>()
    let recorder = Recorder(feed.buffer(every: .seconds(1), clock: clock), clock: clock)
    await feed.send(1)
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    #expect(await recorder.waitForValues(count: 1) == [Timed([1], at: .seconds(1))])
    await feed.send(2)
    await clock.advance(by: .milliseconds(500))
    await feed.fail(TestError(code: 3))
    #expect(await recorder.waitForEnd() == Timed(.failed(TestError(code: 3)), at: .milliseconds(1500)))
    #expect(recorder.values == [Timed([1], at: .seconds(1))])
    #expect(clock.sleeperCount == 0)
  }

  @Test("a finite burst comes out as one array without time passing; a count splits it")
  func finiteUpstreamNeedsNoTime() async {
    let clock = TestClock()
    let burst = Signal<Int, Never>([1, 2, 3, 4, 5])
    #expect(await burst.buffer(every: .seconds(1), clock: clock).collect() == [[1, 2, 3, 4, 5]])
    #expect(await burst.buffer(every: .seconds(1), clock: clock, count: 2).collect() == [[1, 2], [3, 4], [5]])
    #expect(await burst.buffer(every: .seconds(1), clock: clock, count: 5).collect() == [[1, 2, 3, 4, 5]])
    #expect(await Signal<Int, Never>.empty.buffer(every: .seconds(1), clock: clock).collect() == [])
    #expect(clock.now == TestClock.Instant(offset: .zero))
    #expect(clock.sleeperCount == 0)
  }

  // MARK: API

  @Test("the failure type is the upstream's; ContinuousClock is the default clock; re-iterable over a Signal")
  func types() async {
    let clock = TestClock()
    let typed: Signal<[Int], TestError> = Signal<Int, TestError>.fail(
      TestError()
    ).buffer(every: .seconds(1), clock: clock)
    #expect(await typed.collectResult().failure == TestError())
    let _: Signal<[Int], Never> = Signal<Int, Never>.empty.buffer(
      every: .seconds(1))
    let counts: Signal<Int, Never> =
      Signal<Int, Never>([1, 2]).buffer(every: .seconds(1), clock: clock).map(\.count)
    #expect(await counts.collect() == [2])
    #expect(await Signal<Int, Never>([1]).buffer(every: .seconds(1), clock: clock).retry(1).collect() == [[1]])
  }

  @Test("a count below 1 traps")
  func nonPositiveCountTraps() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.empty.buffer(every: .seconds(1), count: 0)
    }
    expectTrapMessage(result, "buffer(every:count: 0): the count must be positive")
  }

  // MARK: Rule

  private typealias Rule = BufferRule<String, Never, TestClock.Instant>

  @Test("rule: windows follow each other from the start; each emits what it collected, empty or not")
  func ruleWindows() {
    var buffer = RuleDriver(Rule(interval: .milliseconds(100), count: nil, start: instant(0)))
    #expect(buffer.deadline == instant(100))
    #expect(buffer.receive("a", at: 10).isEmpty)
    #expect(buffer.receive("b", at: 99).isEmpty)
    #expect(buffer.fire(at: 50) == nil)
    #expect(buffer.fire(at: 100) == [["a", "b"]])
    #expect(buffer.deadline == instant(200))
    #expect(buffer.fire(at: 200) == [[]])
  }

  @Test("rule: a value at a window's end belongs to the next; a late timer or value closes every window over")
  func ruleLateWindows() {
    var buffer = RuleDriver(Rule(interval: .milliseconds(100), count: nil, start: instant(0)))
    _ = buffer.receive("a", at: 10)
    #expect(buffer.receive("b", at: 100) == [["a"]])
    #expect(buffer.receive("c", at: 350) == [["b"], []])  // the windows ending at 200 and 300
    #expect(buffer.deadline == instant(400))
    #expect(buffer.fire(at: 620) == [["c"], [], []])  // the windows ending at 400, 500 and 600
    #expect(buffer.deadline == instant(700))
  }

  @Test("rule: a full window ends at once and restarts the period; the finish flushes only values")
  func ruleCountAndFinish() {
    var buffer = RuleDriver(Rule(interval: .milliseconds(100), count: 2, start: instant(0)))
    _ = buffer.receive("a", at: 10)
    #expect(buffer.receive("b", at: 30) == [["a", "b"]])
    #expect(buffer.deadline == instant(130))
    #expect(buffer.finish(at: 40).isEmpty)
    #expect(buffer.hasFinished)

    var flushing = RuleDriver(Rule(interval: .milliseconds(100), count: nil, start: instant(0)))
    _ = flushing.receive("a", at: 10)
    #expect(flushing.finish(at: 100) == [["a"]])  // the window ending at 100, then nothing left to flush
    #expect(flushing.hasFinished)
  }
}
