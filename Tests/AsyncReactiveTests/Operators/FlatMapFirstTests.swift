import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("flatMapFirst", .timeLimit(.minutes(1)))
struct FlatMapFirstTests {
  /// A request per tap that answers 300 ms after it started.
  /// `cancelled` opens if the request is cancelled.
  private static func request(
    _ tap: Int, clock: TestClock, log: Log<String>, cancelled: Gate = Gate()
  ) -> Signal<String, Never> {
    Signal { emitter in
      log.append("start \(tap)")
      do {
        try await clock.sleep(for: .milliseconds(300))
        await emitter.send("r\(tap)")
      } catch {
        cancelled.open()
      }
    }
  }

  @Test("the exact timeline: taps while a request runs are ignored (no transform); the outer's end waits for it")
  func timeline() async {
    let clock = TestClock()
    let taps = Feed<Int, Never>()
    let log = Log<String>()
    let results = taps.flatMapFirst { tap in
      log.append("transform \(tap)")
      return Self.request(tap, clock: clock, log: log)
    }
    let recorder = Recorder(results, clock: clock)
    await taps.send(0)  // t=0: request 0 runs until 300
    await clock.waitForSleepers(1)
    await clock.advance(to: instant(100))
    await taps.send(100)  // ignored
    await clock.advance(to: instant(200))
    await taps.send(200)  // ignored
    await clock.advance(to: instant(250))
    await taps.finish()  // the running request goes on
    await clock.advance(to: instant(300))
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(300)))
    #expect(recorder.values == [Timed("r0", at: .milliseconds(300))])
    #expect(log.all == ["transform 0", "start 0"])
    #expect(clock.sleeperCount == 0)
  }

  // Whether a tap at the very moment a request ends is ignored depends on which task gets there first, so the
  // acceptance of a tap after the end is checked with immediate inners, whose end the outer pump itself sees.
  @Test("a value after the running inner ended starts a new one")
  func immediateInners() async {
    let values = await Signal<Int, Never>([1, 2, 3]).flatMapFirst { value in Signal<Int, Never>.just(value * 10) }
      .collect()
    #expect(values == [10, 20, 30])
  }

  @Test("an outer failure fails the result at once and cancels the running inner")
  func outerFailure() async {
    let clock = TestClock()
    let taps = Feed<Int, TestError>()
    let cancelled = Gate()
    let results = taps.flatMapFirst { tap in Self.request(tap, clock: clock, log: Log(), cancelled: cancelled) }
    let recorder = Recorder(results, clock: clock)
    await taps.send(0)
    await clock.waitForSleepers(1)
    await clock.advance(to: instant(100))
    await taps.fail(TestError(code: 4))
    #expect(await recorder.waitForEnd() == Timed(.failed(TestError(code: 4)), at: .milliseconds(100)))
    #expect(recorder.values.isEmpty)
    await cancelled.wait()
  }

  @Test("an inner failure fails the result and cancels the outer")
  func innerFailure() async {
    let taps = Feed<Int, TestError>()
    let results = taps.flatMapFirst { tap in Signal<Int, TestError>.fail(TestError(code: tap)) }
    let consumer = Task { await results.collectResult() }
    await taps.send(5)
    let (values, failure) = await consumer.value
    #expect(values == [])
    #expect(failure == TestError(code: 5))
    await taps.cancelled.wait()
  }

  @Test("cancelling the consumer, or dropping the iterator, cancels the outer and the running inner")
  func cancellation() async {
    let clock = TestClock()
    let taps = Feed<Int, Never>()
    let cancelled = Gate()
    let consumer = Task {
      await taps.flatMapFirst { tap in Self.request(tap, clock: clock, log: Log(), cancelled: cancelled) }.collect()
    }
    await taps.send(0)
    await clock.waitForSleepers(1)
    consumer.cancel()
    #expect(await consumer.value == [])
    await taps.cancelled.wait()
    await cancelled.wait()

    let otherTaps = Feed<Int, Never>()
    let secondCancelled = Gate()
    do {
      // A request that says it started, so that the first `next()` (which starts the work) returns while it runs.
      var iterator = otherTaps.flatMapFirst { tap in
        Signal<String, Never> { emitter in
          await emitter.send("started \(tap)")
          do { try await clock.sleep(for: .milliseconds(300)) } catch { secondCancelled.open() }
        }
      }
      .makeAsyncIterator()
      async let sent: Void = otherTaps.send(1)
      #expect(await iterator.next() == "started 1")
      await sent
      await clock.waitForSleepers(1)
      withExtendedLifetime(iterator) {}  // dropped here, while request 1 runs
    }
    await otherTaps.cancelled.wait()
    await secondCancelled.wait()
  }

  @Test("the result's failure type follows flatMap's rules")
  func failureTypes() async {
    let never = Signal<Int, Never>.just(1)
    let typed = Signal<Int, TestError>.just(1)
    #expect(type(of: never.flatMapFirst { _ in never }).Failure.self == Never.self)
    #expect(type(of: typed.flatMapFirst { _ in typed }).Failure.self == TestError.self)
    #expect(type(of: never.flatMapFirst { _ in typed }).Failure.self == TestError.self)
    #expect(type(of: typed.flatMapFirst { _ in never }).Failure.self == TestError.self)
    #expect(type(of: never.flatMapFirst { _ throws in never }).Failure.self == (any Error).self)
    for await value in never.flatMapFirst({ value in Signal<Int, Never>.just(value + 1) }) {
      #expect(value == 2)
    }
  }
}
