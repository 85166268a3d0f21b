import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("Signal.timer", .timeLimit(.minutes(1)))
struct TimerTests {
  /// Records two iterations of `timer`: the first from now, the second from 0.5 s later, once the first sleeps.
  private func recordTwice(_ timer: Signal<Int, Never>, clock: TestClock) async -> (
    first: Recorder<Int, Never>, second: Recorder<Int, Never>
  ) {
    let first = Recorder(timer, clock: clock)
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(500))
    return (first, Recorder(timer, clock: clock))
  }

  @Test("ticks 1, 2, 3 at one, two and three intervals until the consumer stops")
  func ticksEveryInterval() async {
    let clock = TestClock()
    let recorder = Recorder(Signal.timer(every: .seconds(1), clock: clock), clock: clock)
    for tick in 1...3 {
      await clock.waitForSleepers(1)
      await clock.advance(by: .seconds(1))
      _ = await recorder.waitForValues(count: tick)
    }
    #expect(recorder.values == [Timed(1, at: .seconds(1)), Timed(2, at: .seconds(2)), Timed(3, at: .seconds(3))])
    await clock.waitForSleepers(1)
    recorder.cancel()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .seconds(3)))
    #expect(clock.sleeperCount == 0)
  }

  @Test("each iteration has its own schedule, from when it starts")
  func eachIterationStartsItsOwnSchedule() async {
    let clock = TestClock()
    let (first, second) = await recordTwice(Signal.timer(every: .seconds(1), clock: clock), clock: clock)
    await clock.waitForSleepers(2)
    await clock.advance(by: .milliseconds(500))
    #expect(await first.waitForValues(count: 1) == [Timed(1, at: .seconds(1))])
    await clock.waitForSleepers(2)
    await clock.advance(by: .milliseconds(500))
    #expect(await second.waitForValues(count: 1) == [Timed(1, at: .milliseconds(1500))])
    await clock.waitForSleepers(2)
    await clock.advance(by: .milliseconds(500))
    #expect(await first.waitForValues(count: 2).last == Timed(2, at: .seconds(2)))
    first.cancel()
    second.cancel()
    await first.waitForEnd()
    await second.waitForEnd()
    #expect(clock.sleeperCount == 0)
  }

  @Test("a consumer that falls behind gets the missed ticks at once, and the schedule does not drift")
  func aLateConsumerCatchesUpWithoutDrift() async {
    let clock = TestClock()
    var ticks = Signal.timer(every: .seconds(1), clock: clock).makeAsyncIterator()
    await clock.advance(by: .seconds(10))  // made, not read: the schedule starts at the first next()
    #expect(clock.sleeperCount == 0)
    async let behind: Void = {
      await clock.waitForSleepers(1)
      await clock.advance(by: .milliseconds(3500))
    }()
    #expect(await ticks.next() == 1)  // the first next() at 10 s: tick 1 due at 11 s
    await behind  // the consumer falls behind until 13.5 s
    #expect(await ticks.next() == 2)
    #expect(await ticks.next() == 3)
    #expect(clock.sleeperCount == 0)
    let fourth = Task {
      let tick = await ticks.next()
      return (tick, clock.now)
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(500))
    let (tick, at) = await fourth.value
    #expect(tick == 4)
    #expect(at == TestClock.Instant(offset: .seconds(14)))
  }

  @Test("prefix stops the timer after enough ticks, leaving nothing asleep")
  func prefixStopsTheTimer() async {
    let clock = TestClock()
    let twoTicks = Task { await Signal.timer(every: .seconds(1), clock: clock).prefix(2).collect() }
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    #expect(await twoTicks.value == [1, 2])
    #expect(clock.sleeperCount == 0)
  }

  @Test("cancelling the consumer ends its sleep at once and finishes the iteration")
  func cancellationEndsTheSleep() async {
    let clock = TestClock()
    let consumer = Task {
      var count = 0
      for await _ in Signal.timer(every: .seconds(1), clock: clock) { count += 1 }
      return count
    }
    await clock.waitForSleepers(1)
    consumer.cancel()
    #expect(await consumer.value == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test("a non-positive interval traps; ContinuousClock is the default clock")
  func intervalMustBePositive() async {
    let _: Signal<Int, Never> = .timer(every: .seconds(1))
    await #expect(processExitsWith: .failure) {
      _ = Signal.timer(every: .zero)
    }
  }

  // MARK: timer(after:)

  @Test("timer(after:): one tick, 1, once the delay has passed, then the end")
  func afterTicksOnce() async {
    let clock = TestClock()
    let recorder = Recorder(Signal.timer(after: .milliseconds(300), clock: clock), clock: clock)
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(299))
    await clock.waitForSleepers(1)  // not due yet: still asleep
    #expect(recorder.values.isEmpty)
    await clock.advance(by: .milliseconds(1))
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(300)))
    #expect(recorder.values == [Timed(1, at: .milliseconds(300))])
    #expect(clock.sleeperCount == 0)
  }

  @Test("timer(after:): each iteration waits from when it starts; a zero delay ticks at once")
  func afterEachIterationWaitsAnew() async {
    let clock = TestClock()
    let (first, second) = await recordTwice(Signal.timer(after: .seconds(1), clock: clock), clock: clock)
    await clock.waitForSleepers(2)
    await clock.advance(by: .milliseconds(500))
    #expect(await first.waitForEnd() == Timed(.finished, at: .seconds(1)))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(500))
    #expect(await second.waitForEnd() == Timed(.finished, at: .milliseconds(1500)))
    #expect(first.values == [Timed(1, at: .seconds(1))])
    #expect(second.values == [Timed(1, at: .milliseconds(1500))])
    #expect(await Signal.timer(after: .zero, clock: clock).collect() == [1])
    #expect(clock.sleeperCount == 0)
  }

  @Test("timer(after:): cancelling the consumer ends the sleep at once, without a tick")
  func afterCancellation() async {
    let clock = TestClock()
    let recorder = Recorder(Signal.timer(after: .seconds(1), clock: clock), clock: clock)
    await clock.waitForSleepers(1)
    recorder.cancel()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .zero))
    #expect(recorder.values.isEmpty)
    #expect(clock.sleeperCount == 0)
  }

  @Test("timer(after:): a dropped iterator leaves nothing behind; the next iteration waits from its own start")
  func afterDroppedIterator() async {
    let clock = TestClock()
    let timer = Signal.timer(after: .seconds(1), clock: clock)
    do {
      let iterator = timer.makeAsyncIterator()  // made and dropped without a next(): no delay starts
      withExtendedLifetime(iterator) {}
    }
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .milliseconds(500))
    let recorder = Recorder(timer, clock: clock)
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(500))
    await clock.waitForSleepers(1)  // 1 s since the first iterator was made: nothing, and not this one's tick
    #expect(recorder.values.isEmpty)
    await clock.advance(by: .milliseconds(500))
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(1500)))
    #expect(recorder.values == [Timed(1, at: .milliseconds(1500))])
  }

  @Test("timer(after:): a negative delay traps; ContinuousClock is the default clock; re-iterable")
  func afterDelayMustNotBeNegative() async throws {
    let _: Signal<Int, Never> = .timer(after: .seconds(1))
    let _: Signal<Int, Never> = Signal.timer(after: .seconds(1)).retry(1)
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal.timer(after: .milliseconds(-1))
    }
    expectTrapMessage(result, "Signal.timer(after: -0.001 seconds): the delay must not be negative")
  }
}
