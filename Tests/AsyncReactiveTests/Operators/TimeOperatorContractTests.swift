import AsyncReactive
import AsyncReactiveTesting
import Testing

/// The time operators, each applied to a test's upstream with its output erased to strings, so that one test can
/// check what they all share.
enum TimeOperator: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
  case debounce, throttle, throttleLatest, delay, timeout, timeoutFallback, buffer

  var testDescription: String { rawValue }

  /// The operator over `upstream`, erased to a signal of its values' descriptions.
  func apply(to upstream: some AsyncSequence<Int, TestError> & Sendable, clock: TestClock) -> Signal<String, TestError>
  {
    switch self {
    case .debounce: Signal(upstream.debounce(for: .seconds(1), clock: clock).map { "\($0)" })
    case .throttle: Signal(upstream.throttle(for: .seconds(1), clock: clock, latest: false).map { "\($0)" })
    case .throttleLatest: Signal(upstream.throttle(for: .seconds(1), clock: clock, latest: true).map { "\($0)" })
    case .delay: Signal(upstream.delay(for: .seconds(1), clock: clock).map { "\($0)" })
    case .timeout:
      Signal(
        upstream.timeout(.seconds(1), clock: clock).map { "\($0)" }.mapError { failure in
          guard case .upstream(let error) = failure else { return TestError(code: -1) }
          return error
        })
    case .timeoutFallback:
      Signal(upstream.timeout(.seconds(1), clock: clock, fallback: Signal<Int, TestError>.never).map { "\($0)" })
    case .buffer: Signal(upstream.buffer(every: .seconds(1), clock: clock).map { "\($0)" })
    }
  }

  /// Whether the value just received is emitted at once (otherwise it is held: debounced, delayed, collected).
  var emitsAtOnce: Bool { [.throttle, .throttleLatest, .timeout, .timeoutFallback].contains(self) }

  /// Whether the timer sleeps once a value arrived (`throttle(latest: false)` needs no timer).
  var sleepsAfterAValue: Bool { self != .throttle }

  /// What `1, 2, 3` then the finish, all at time zero, give; and when the end comes.
  var burst: (values: [String], end: Duration) {
    switch self {
    case .debounce: (["3"], .zero)
    case .throttle: (["1"], .zero)
    case .throttleLatest: (["1", "3"], .zero)
    case .delay: (["1", "2", "3"], .seconds(1))
    case .timeout, .timeoutFallback: (["1", "2", "3"], .zero)
    case .buffer: (["[1, 2, 3]"], .zero)
    }
  }

  /// Applies the operator with a negative (or, where it must be positive, zero) duration.
  func applyWithBadDuration() {
    let never = Signal<Int, TestError>.never
    switch self {
    case .debounce: _ = never.debounce(for: .seconds(-1))
    case .throttle: _ = never.throttle(for: .seconds(-1), latest: false)
    case .throttleLatest: _ = never.throttle(for: .seconds(-1), latest: true)
    case .delay: _ = never.delay(for: .seconds(-1))
    case .timeout: _ = never.timeout(.zero)
    case .timeoutFallback: _ = never.timeout(.zero, fallback: never)
    case .buffer: _ = never.buffer(every: .zero)
    }
  }

  /// What the trap's message starts with.
  var trapMessage: String {
    switch self {
    case .debounce: "debounce(for: -1.0 seconds): the due time must not be negative"
    case .throttle, .throttleLatest: "throttle(for: -1.0 seconds): the interval must not be negative"
    case .delay: "delay(for: -1.0 seconds): the delay must not be negative"
    case .timeout: "timeout(0.0 seconds): the interval must be positive"
    case .timeoutFallback: "timeout(0.0 seconds, fallback:): the interval must be positive"
    case .buffer: "buffer(every: 0.0 seconds): the interval must be positive"
    }
  }
}

/// What every time operator shares: they run on one engine (``TimeStorage``), so these hold for all of them.
@Suite("time operators: the shared contract", .timeLimit(.minutes(1)))
struct TimeOperatorContractTests {
  /// `timeOperator` over a new feed, recorded, once the feed's value 1 was handled at time zero and the timer it
  /// started (if any) sleeps.
  private func recordingAfterOneValue(_ timeOperator: TimeOperator) async -> (
    clock: TestClock, feed: Feed<Int, TestError>, recorder: Recorder<String, TestError>
  ) {
    let clock = TestClock()
    let feed = Feed<Int, TestError>()
    let recorder = Recorder(timeOperator.apply(to: feed, clock: clock), clock: clock)
    await feed.send(1)
    if timeOperator.sleepsAfterAValue { await clock.waitForSleepers(1) }
    return (clock, feed, recorder)
  }

  @Test("cancelling the consumer cancels the timer's sleep and the upstream", arguments: TimeOperator.allCases)
  func cancellingTheConsumerStopsEverything(_ timeOperator: TimeOperator) async {
    let (clock, feed, recorder) = await recordingAfterOneValue(timeOperator)
    recorder.cancel()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .zero))
    #expect(clock.sleeperCount == 0)
    await feed.cancelled.wait()
    #expect(recorder.values.map(\.value) == (timeOperator.emitsAtOnce ? ["1"] : []))
  }

  @Test("dropping the iterator cancels the timer's sleep and the upstream", arguments: TimeOperator.allCases)
  func droppingTheIteratorStopsEverything(_ timeOperator: TimeOperator) async throws {
    let clock = TestClock()
    let feed = Feed<Int, TestError>()
    let sequence = timeOperator.apply(to: feed, clock: clock)
    do {
      var iterator = sequence.makeAsyncIterator()
      // The first `next()` starts the work: the feed's value 1 is handled once it asks, and a held value is
      // released by the clock.
      async let released: Void = {
        await feed.send(1)
        if !timeOperator.emitsAtOnce {
          await clock.waitForSleepers(1)
          await clock.advance(by: .seconds(1))
        }
      }()
      #expect(try await iterator.next() == (timeOperator == .buffer ? "[1]" : "1"))
      await released
      await feed.send(2)
      if timeOperator.sleepsAfterAValue { await clock.waitForSleepers(1) }
      withExtendedLifetime(iterator) {}
    }
    #expect(clock.sleeperCount == 0)
    await feed.cancelled.wait()
  }

  @Test(
    "an iterator dropped before its first next() starts no task and runs none of the upstream's work",
    arguments: TimeOperator.allCases)
  func iteratorDroppedBeforeNextStartsNothing(_ timeOperator: TimeOperator) async throws {
    let clock = TestClock()
    let runs = Counter()
    let sequence = timeOperator.apply(to: countedRuns(runs), clock: clock)
    try await withTaskScope { (scope) async throws in
      do {
        let iterator = sequence.makeAsyncIterator()
        await Task.yield()
        #expect(scope.total == 0)
        withExtendedLifetime(iterator) {}
      }
      #expect(scope.total == 0)
      #expect(runs.value == 0)
      #expect(clock.sleeperCount == 0)
      // The first `next()` starts the work: the upstream's run, the pump and the timer.
      var iterator = sequence.makeAsyncIterator()
      async let released: Void = {
        if !timeOperator.emitsAtOnce {
          await clock.waitForSleepers(1)
          await clock.advance(by: .seconds(1))
        }
      }()
      #expect(try await iterator.next() == (timeOperator == .buffer ? "[1]" : "1"))
      await released
      #expect(runs.value == 1)
      #expect(!tasks(scope).isEmpty)  // the pump, on an upstream that has not ended
    }
  }

  @Test(
    "an upstream failure passes through at once, after the values already emitted; what is held is dropped",
    arguments: TimeOperator.allCases)
  func upstreamFailurePassesThrough(_ timeOperator: TimeOperator) async {
    let (clock, feed, recorder) = await recordingAfterOneValue(timeOperator)
    await clock.advance(by: .milliseconds(500))
    await feed.fail(TestError(code: 7))
    #expect(await recorder.waitForEnd() == Timed(.failed(TestError(code: 7)), at: .milliseconds(500)))
    #expect(recorder.values.map(\.value) == (timeOperator.emitsAtOnce ? ["1"] : []))
    #expect(clock.sleeperCount == 0)
    #expect(!feed.cancelled.isOpen)
  }

  @Test("a finite upstream finishes, with what the operator held emitted first", arguments: TimeOperator.allCases)
  func finish(_ timeOperator: TimeOperator) async {
    let clock = TestClock()
    let feed = Feed<Int, TestError>()
    let recorder = Recorder(timeOperator.apply(to: feed, clock: clock), clock: clock)
    for value in 1...3 { await feed.send(value) }
    await feed.finish()
    let (values, end) = timeOperator.burst
    if end > .zero {
      await clock.waitForSleepers(1)
      await clock.advance(by: end)
    }
    #expect(await recorder.waitForEnd() == Timed(.finished, at: end))
    #expect(recorder.values.map(\.value) == values)
    #expect(recorder.values.allSatisfy { $0.instant == TestClock.Instant(offset: end) })
    #expect(clock.sleeperCount == 0)
    #expect(!feed.cancelled.isOpen)
  }

  @Test("every iteration of a re-iterable upstream runs anew", arguments: TimeOperator.allCases)
  func reiteration(_ timeOperator: TimeOperator) async throws {
    let clock = TestClock()
    let upstream = Signal<Int, Never>([1, 2, 3])
    let sequence: Signal<String, Never> =
      switch timeOperator {
      case .debounce: Signal(upstream.debounce(for: .seconds(1), clock: clock).retry(0).map { "\($0)" })
      case .throttle: Signal(upstream.throttle(for: .seconds(1), clock: clock, latest: false).retry(0).map { "\($0)" })
      case .throttleLatest:
        Signal(upstream.throttle(for: .seconds(1), clock: clock, latest: true).retry(0).map { "\($0)" })
      case .delay: Signal(upstream.delay(for: .zero, clock: clock).retry(0).map { "\($0)" })
      case .timeout: Signal(upstream.timeout(.seconds(1), clock: clock).retry(0).map { "\($0)" }.replaceError(with: ""))
      case .timeoutFallback:
        Signal(upstream.timeout(.seconds(1), clock: clock, fallback: Signal<Int, Never>.never).retry(0).map { "\($0)" })
      case .buffer: Signal(upstream.buffer(every: .seconds(1), clock: clock).retry(0).map { "\($0)" })
      }
    let first = await sequence.collect()
    #expect(first == timeOperator.burst.values)
    #expect(await sequence.collect() == first)
  }

  @Test("a negative (or, for timeout and buffer, zero) duration traps", arguments: TimeOperator.allCases)
  func badDurationTraps(_ timeOperator: TimeOperator) async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) { [timeOperator] in
      timeOperator.applyWithBadDuration()
    }
    expectTrapMessage(result, timeOperator.trapMessage)
  }
}
