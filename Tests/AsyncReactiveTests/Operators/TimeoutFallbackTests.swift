import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("timeout(_:clock:fallback:)", .timeLimit(.minutes(1)))
struct TimeoutFallbackTests {
  /// A feed that times out after 100 ms onto `coldFallback(events, finishAfter:)`, recorded on a new test clock;
  /// `started` counts the fallback's iterations.
  private func feedTimingOut(onto events: [(after: Int, value: Int)], finishAfter: Int?) -> (
    clock: TestClock, feed: Feed<Int, TestError>, started: Counter, recorder: Recorder<Int, TestError>
  ) {
    let clock = TestClock()
    let feed = Feed<Int, TestError>()
    let started = Counter()
    let fallback = coldFallback(events, finishAfter: finishAfter, clock: clock, started: started)
    let recorder = Recorder(feed.timeout(.milliseconds(100), clock: clock, fallback: fallback), clock: clock)
    return (clock, feed, started, recorder)
  }

  /// Advances to `milliseconds` once a timer sleeps.
  private func advance(_ clock: TestClock, to milliseconds: Int) async {
    await clock.waitForSleepers(1)
    await clock.advance(to: instant(milliseconds))
  }

  /// Advances to `milliseconds` once a timer sleeps, then waits for `count` values.
  private func step(_ clock: TestClock, to milliseconds: Int, _ recorder: Recorder<Int, TestError>, values count: Int)
    async
  {
    await advance(clock, to: milliseconds)
    _ = await recorder.waitForValues(count: count)
  }

  // MARK: RxSwift's timelines (each 200 ms earlier: RxSwift subscribes at 200)

  @Test("the documented timeline (RxSwift TimeoutOccurs_2): the upstream until the timeout, then the fallback")
  func switchesAfterValues() async {
    let (clock, feed, started, recorder) = feedTimingOut(onto: [(50, -1), (200, -2), (310, -3)], finishAfter: 320)
    await advance(clock, to: 40)
    await feed.send(3)  // due before 140
    _ = await recorder.waitForValues(count: 1)  // stamped before time moves on
    await clock.advance(to: instant(110))
    await feed.send(4)  // due before 210
    _ = await recorder.waitForValues(count: 2)
    await clock.advance(to: instant(210))  // times out: the upstream is cancelled, the fallback starts
    await feed.cancelled.wait()
    await step(clock, to: 260, recorder, values: 3)
    await step(clock, to: 410, recorder, values: 4)
    await step(clock, to: 520, recorder, values: 5)
    await advance(clock, to: 530)
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(530)))
    #expect(
      recorder.values == [
        Timed(3, at: .milliseconds(40)), Timed(4, at: .milliseconds(110)), Timed(-1, at: .milliseconds(260)),
        Timed(-2, at: .milliseconds(410)), Timed(-3, at: .milliseconds(520)),
      ]
    )
    #expect(started.value == 1)
    #expect(clock.sleeperCount == 0)
  }

  @Test("RxSwift TimeoutOccurs_1: silence from the start switches one interval after the iteration started")
  func switchesFromTheStart() async {
    let (clock, feed, _, recorder) = feedTimingOut(onto: [(50, -1), (200, -2), (310, -3)], finishAfter: 320)
    await advance(clock, to: 100)
    await feed.cancelled.wait()
    await step(clock, to: 150, recorder, values: 1)
    await step(clock, to: 300, recorder, values: 2)
    await step(clock, to: 410, recorder, values: 3)
    await advance(clock, to: 420)
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(420)))
    #expect(
      recorder.values == [
        Timed(-1, at: .milliseconds(150)), Timed(-2, at: .milliseconds(300)), Timed(-3, at: .milliseconds(410)),
      ])
  }

  @Test("RxSwift TimeoutNotOccurs: events in time pass through and the fallback is never started")
  func eventsInTimeNeverStartTheFallback() async {
    let (clock, feed, started, recorder) = feedTimingOut(onto: [(50, -1)], finishAfter: 320)
    for (value, at) in [(3, 40), (4, 120), (5, 210)] {
      await advance(clock, to: at)
      await feed.send(value)
    }
    await clock.advance(to: instant(300))
    await feed.finish()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(300)))
    #expect(recorder.values.map(\.value) == [3, 4, 5])
    #expect(started.value == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test("RxSwift TimeoutNotOccurs_Error: an upstream failure in time is passed through, not replaced")
  func upstreamFailureInTimePassesThrough() async {
    let (clock, feed, started, recorder) = feedTimingOut(onto: [(100, -1)], finishAfter: nil)
    await advance(clock, to: 50)
    await feed.fail(TestError(code: 1))
    #expect(await recorder.waitForEnd() == Timed(.failed(TestError(code: 1)), at: .milliseconds(50)))
    #expect(started.value == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test("RxSwift TimeoutOccurs_NextIsError: after the switch, the fallback's failure ends the result")
  func fallbackFailure() async {
    let clock = TestClock()
    let started = Counter()
    let fallback = coldFallback([], finishAfter: 100, failure: TestError(code: 2), clock: clock, started: started)
    let recorder = Recorder(
      Signal<Int, TestError>.never.timeout(.milliseconds(100), clock: clock, fallback: fallback), clock: clock)
    await advance(clock, to: 100)
    await advance(clock, to: 200)
    #expect(await recorder.waitForEnd() == Timed(.failed(TestError(code: 2)), at: .milliseconds(200)))
    #expect(recorder.values.isEmpty)
  }

  // MARK: Cancellation

  @Test("cancelling the consumer after the switch cancels the fallback")
  func cancellingDuringTheFallback() async {
    let clock = TestClock()
    let started = Counter()
    let fallback = coldFallback([(50, -1)], finishAfter: nil, clock: clock, started: started)
    let recorder = Recorder(
      Signal<Int, TestError>.never.timeout(.milliseconds(100), clock: clock, fallback: fallback), clock: clock)
    await step(clock, to: 100, recorder, values: 0)
    await step(clock, to: 150, recorder, values: 1)
    recorder.cancel()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(150)))
    #expect(recorder.values == [Timed(-1, at: .milliseconds(150))])
    #expect(clock.sleeperCount == 0)
  }

  @Test("dropping the iterator after the switch ends the fallback's run")
  func droppingTheIteratorDuringTheFallback() async throws {
    let clock = TestClock()
    let fallbackEnded = Gate()
    let fallback = Signal<Int, TestError>.create { emitter in
      emitter.send(-1)
      return { fallbackEnded.open() }
    }
    let feed = Feed<Int, TestError>()
    let sequence = feed.timeout(.milliseconds(100), clock: clock, fallback: fallback)
    do {
      var iterator = sequence.makeAsyncIterator()
      async let timedOut: Void = {
        await clock.waitForSleepers(1)
        await clock.advance(by: .milliseconds(100))
      }()
      #expect(try await iterator.next() == -1)  // the first next() starts the clock; the fallback after it
      await timedOut
      withExtendedLifetime(iterator) {}
    }
    await fallbackEnded.wait()
    await feed.cancelled.wait()
    #expect(clock.sleeperCount == 0)
  }

  @Test("the interval is measured from the first next(), not from makeAsyncIterator()")
  func intervalStartsAtTheFirstNext() async throws {
    let clock = TestClock()
    let started = Counter()
    let fallback = Signal<Int, TestError> { emitter in
      started.increment()
      emitter.send(-1)
    }
    let feed = Feed<Int, TestError>()
    var iterator = feed.timeout(.milliseconds(100), clock: clock, fallback: fallback).makeAsyncIterator()
    await clock.advance(by: .seconds(5))  // made, not read: nothing runs and no time counts
    #expect(clock.sleeperCount == 0)
    async let timedOut: Void = {
      await clock.waitForSleepers(1)
      await clock.advance(by: .milliseconds(99))
      #expect(started.value == 0)
      await clock.advance(by: .milliseconds(1))
    }()
    #expect(try await iterator.next() == -1)
    #expect(clock.now == TestClock.Instant(offset: .milliseconds(5100)))
    await timedOut
    #expect(try await iterator.next() == nil)
    #expect(started.value == 1)
    await feed.cancelled.wait()
  }

  // MARK: API

  @Test("the failure type: Never, the shared type, the failing side's type, or any Error")
  func types() async throws {
    let clock = TestClock()
    let never = Signal<Int, Never>.never
    let typed = Signal<Int, TestError>.never
    let untyped = Signal<Int, any Error>.never
    let _: Signal<Int, Never> = never.timeout(
      .seconds(1), clock: clock, fallback: never)
    let _: Signal<Int, TestError> =
      typed.timeout(.seconds(1), clock: clock, fallback: typed)
    // A fallback that can fail behind an upstream that cannot: the types differ, so `any Error` (the contracts' rule).
    let _: Signal<Int, any Error> =
      never.timeout(.seconds(1), clock: clock, fallback: typed)
    let _: Signal<Int, TestError> =
      typed.timeout(.seconds(1), clock: clock, fallback: never)
    let _: Signal<Int, any Error> =
      typed.timeout(.seconds(1), clock: clock, fallback: untyped)
    let _: Signal<Int, Never> =
      never.timeout(.seconds(1), fallback: never)
    let cached: Signal<Int, any Error> =
      untyped.timeout(.milliseconds(100), clock: clock, fallback: Signal.just(7))
    let fromCache = Task { try await cached.collect() }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    #expect(try await fromCache.value == [7])
    let mapped: Signal<Int, Never> = Signal<Int, Never>([1, 2]).timeout(.seconds(1), clock: clock, fallback: never).map
    { $0 * 10 }
    #expect(await mapped.collect() == [10, 20])
  }

  @Test("re-iterable: every iteration starts the upstream, the clock and, after a timeout, the fallback anew")
  func reiteration() async {
    let clock = TestClock()
    let started = Counter()
    let fallback = Signal<Int, Never> { emitter in
      emitter.send(started.increment())
    }
    let timedOut = Signal<Int, Never>.never.timeout(.milliseconds(100), clock: clock, fallback: fallback)
    for attempt in 1...2 {
      let values = Task { await timedOut.retry(0).collect() }
      await clock.waitForSleepers(1)
      await clock.advance(by: .milliseconds(100))
      #expect(await values.value == [attempt])
    }
  }
}
