import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("debug", .timeLimit(.minutes(1)))
struct DebugTests {
  /// A sink that keeps the lines for the test.
  private func capture() -> (DebugSink, Log<String>) {
    let lines = Log<String>()
    return (DebugSink { lines.append($0) }, lines)
  }

  @Test("a scenario's trace, matched exactly: subscribe, values with their times, failure")
  func traceOfAScenario() async {
    let clock = TestClock()
    let (sink, lines) = capture()
    let query = TestSubject<String, TestError>()
    let recorder = Recorder(query.debug("query", clock: clock, sink: sink), clock: clock)
    await query.send("s")
    await clock.advance(by: .milliseconds(300))
    await query.send("sw")
    await clock.advance(by: .microseconds(1250))
    await query.send("swi")
    await clock.advance(by: .seconds(2))
    await query.fail(TestError(code: 7))
    #expect(await recorder.waitForEnd() == Timed(.failed(TestError(code: 7)), at: .microseconds(2_301_250)))
    #expect(
      lines.all == [
        "[query] +0ms start",
        "[query] +0ms value: s",
        "[query] +300ms value: sw",
        "[query] +301.25ms value: swi",
        "[query] +2301.25ms failure: TestError(code: 7)",
      ])
  }

  @Test("each run is timed from its own start (its first next()); finish ends the trace")
  func eachIterationHasItsOwnStart() async {
    let clock = TestClock(now: TestClock.Instant(offset: .seconds(5)))
    let (sink, lines) = capture()
    let numbers = Signal<Int, Never>([1, 2]).debug("numbers", clock: clock, sink: sink)
    #expect(await numbers.collect() == [1, 2])
    await clock.advance(by: .milliseconds(40))
    let subject = TestSubject<Int, Never>()
    await clock.advance(by: .microseconds(250))
    // A run starts at its consumer's first next(): here, when the recorder asks, after the advance.
    let recorder = Recorder(subject.debug("subject", clock: clock, sink: sink), clock: clock)
    await subject.send(3)
    await subject.finish()
    await recorder.waitForEnd()
    #expect(
      lines.all == [
        "[numbers] +0ms start", "[numbers] +0ms value: 1", "[numbers] +0ms value: 2", "[numbers] +0ms finish",
        "[subject] +0ms start", "[subject] +0ms value: 3", "[subject] +0ms finish",
      ])
  }

  @Test("a cancelled consumer is reported as cancel, once")
  func cancelledConsumer() async {
    let clock = TestClock()
    let (sink, lines) = capture()
    let subject = TestSubject<Int, Never>()
    let recorder = Recorder(subject.debug("ticks", clock: clock, sink: sink), clock: clock)
    await subject.send(1)
    await clock.advance(by: .seconds(1))
    recorder.cancel()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .seconds(1)))
    #expect(lines.all == ["[ticks] +0ms start", "[ticks] +0ms value: 1", "[ticks] +1000ms cancel"])
    #expect(subject.consumerCount == 0)
  }

  @Test("a consumer that breaks out of its loop is reported as cancel when it releases the iterator")
  func releasedIterator() async {
    let clock = TestClock()
    let (sink, lines) = capture()
    for await value in Signal<Int, Never>([1, 2, 3]).debug("first", clock: clock, sink: sink) {
      #expect(value == 1)
      break
    }
    #expect(
      lines.all == ["[first] +0ms start", "[first] +0ms value: 1", "[first] +0ms cancel"])
  }

  @Test("a CancellationError that the upstream throws by itself is its failure; a stopped consumer is cancel")
  func cancellationErrorIsCancel() async {
    let (sink, lines) = capture()
    let cancelled = Signal<Int, any Error> { _ in throw CancellationError() }
    let result = await cancelled.debug("cancelled", clock: TestClock(), sink: sink).collectResult()
    #expect(result.failure is CancellationError)
    #expect(lines.all == ["[cancelled] +0ms start", "[cancelled] +0ms failure: CancellationError()"])
  }

  @Test("retry shows every attempt as a new subscription; the chain stays re-iterable")
  func retryShowsEachAttempt() async throws {
    let attempts = Counter()
    let (sink, lines) = capture()
    let flaky = Signal<Int, TestError> { (emitter) throws(TestError) in
      let attempt = attempts.increment()
      emitter.send(attempt)
      if attempt < 2 { throw TestError(code: attempt) }
    }
    let retried = flaky.debug("request", clock: TestClock(), sink: sink).retry(1)
    #expect(try await retried.collect() == [1, 2])
    #expect(
      lines.all == [
        "[request] +0ms start", "[request] +0ms value: 1", "[request] +0ms failure: TestError(code: 1)",
        "[request] +0ms start", "[request] +0ms value: 2", "[request] +0ms finish",
      ])
    #expect(isReiterable(flaky.debug("request")))
    #expect(isHot(AsyncPassthroughSubject<Int, Never>().debug("subject"), as: Signal<Int, Never>.self))
    // A library operator, so `map` on it is the library's specialisable one.
    let mapped: Signal<Int, TestError> =
      flaky.debug("request").map { $0 + 1 }
    _ = mapped
  }

  @Test("the default sink writes each line to standard error")
  func standardErrorSink() async throws {
    let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
      for await _ in Signal<Int, Never>([1]).debug("stderr", clock: TestClock()) {}
    }
    let output = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(output.contains("[stderr] +0ms start\n[stderr] +0ms value: 1\n[stderr] +0ms finish\n"))
  }
}

private func isReiterable<S: AsyncSequence>(_: S) -> Bool { S.self is any ReiterableAsyncSequence.Type }
