import AsyncReactive
import AsyncReactiveTesting
import Testing

/// The time operators on a hot upstream, each with its output and its end as strings (through the hot
/// `materialize`), so that one test can check what they all share.
enum HotTimeOperator: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
  case debounce, throttle, throttleLatest, delay, timeout, timeoutFallback, buffer

  var testDescription: String { rawValue }

  /// The operator over `upstream`, with 1 s for its interval, as a hot signal of event descriptions.
  func apply(to upstream: some AsyncSequence<Int, TestError> & Sendable, clock: TestClock) -> Signal<String, Never> {
    switch self {
    case .debounce: upstream.debounce(for: .seconds(1), clock: clock).materialize().map(describe)
    case .throttle: upstream.throttle(for: .seconds(1), clock: clock, latest: false).materialize().map(describe)
    case .throttleLatest: upstream.throttle(for: .seconds(1), clock: clock, latest: true).materialize().map(describe)
    case .delay: upstream.delay(for: .seconds(1), clock: clock).materialize().map(describe)
    case .timeout: upstream.timeout(.seconds(1), clock: clock).materialize().map(describe)
    case .timeoutFallback:
      upstream.timeout(.seconds(1), clock: clock, fallback: Signal<Int, TestError>.never).materialize().map(describe)
    case .buffer: upstream.buffer(every: .seconds(1), clock: clock).materialize().map(describe)
    }
  }

  /// The name of its timer task.
  var timerName: String {
    switch self {
    case .debounce: "task 'debounce timer'"
    case .throttle, .throttleLatest: "task 'throttle timer'"
    case .delay: "task 'delay timer'"
    case .timeout, .timeoutFallback: "task 'timeout timer'"
    case .buffer: "task 'buffer(every:) timer'"
    }
  }

  /// Whether a value sent is emitted inside its `send` (otherwise it is held: debounced, delayed, collected).
  var emitsAtOnce: Bool { [.throttle, .throttleLatest, .timeout, .timeoutFallback].contains(self) }

  /// Whether its timer sleeps while nothing was sent (a timeout's first deadline, a buffer's first window).
  var sleepsWhileIdle: Bool { [.timeout, .timeoutFallback, .buffer].contains(self) }

  /// Whether its timer sleeps once a value was sent (`throttle(latest: false)` never needs a timer).
  var sleepsAfterAValue: Bool { self != .throttle }

  /// What `1, 2, 3` then the finish, all sent at time zero, give (the end included); and when the end comes.
  var burst: (events: [String], end: Duration) {
    switch self {
    case .debounce: (["3", "finished"], .zero)
    case .throttle: (["1", "finished"], .zero)
    case .throttleLatest: (["1", "3", "finished"], .zero)
    case .delay: (["1", "2", "3", "finished"], .seconds(1))
    case .timeout, .timeoutFallback: (["1", "2", "3", "finished"], .zero)
    case .buffer: (["[1, 2, 3]", "finished"], .zero)
    }
  }

  /// Applies the hot form with a negative (or, where it must be positive, zero) duration.
  func applyWithBadDuration() {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    switch self {
    case .debounce: _ = subject.debounce(for: .seconds(-1))
    case .throttle: _ = subject.throttle(for: .seconds(-1), latest: false)
    case .throttleLatest: _ = subject.throttle(for: .seconds(-1), latest: true)
    case .delay: _ = subject.delay(for: .seconds(-1))
    case .timeout: _ = subject.timeout(.zero)
    case .timeoutFallback: _ = subject.timeout(.zero, fallback: Signal<Int, TestError>.never)
    case .buffer: _ = subject.buffer(every: .zero)
    }
  }

  /// What the trap's message starts with: the pull form's, word for word.
  var trapMessage: String { TimeOperator(rawValue: rawValue)!.trapMessage }
}

/// `"1"`, `"finished"`, `"failed 7"` (a timeout's upstream failure unwrapped), `"timed out"`.
@Sendable private func describe<Element>(_ event: Event<Element, some Error>) -> String {
  switch event {
  case .value(let value): "\(value)"
  case .finished: "finished"
  case .failed(let error):
    switch error {
    case let error as TestError: "failed \(error.code)"
    case let error as TimeoutFailure<TestError>:
      if case .upstream(let upstream) = error { "failed \(upstream.code)" } else { "timed out" }
    default: "failed \(error)"
    }
  }
}

/// A subject whose observation by the operator is reported: `stopped` opens when the operator stops observing
/// it (its node disconnected, or a timeout gave up on it).
private func watched<Element: Sendable, Failure: Error>(_ subject: AsyncPassthroughSubject<Element, Failure>) -> (
  upstream: Signal<Element, Failure>, stopped: Gate
) {
  let stopped = Gate()
  return (subject.handleEvents(onCancel: { stopped.open() }), stopped)
}

@Suite("Push core: time operators take the event at send", .timeLimit(.minutes(1)))
struct PushCoreTimeOperatorTests {
  // MARK: debounce

  @Test("debounce: the quiet period starts at each send; the survivor is emitted when the clock says")
  func debounceTimeline() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<String, Never>()
    let recorder = Recorder(subject.debounce(for: .milliseconds(300), clock: clock), clock: clock)
    subject.send("a")  // t=0: due at 300
    await clock.waitForSleeper(until: instant(300))
    await clock.advance(by: .milliseconds(100))
    subject.send("b")  // t=100: replaces a, due at 400
    await clock.advance(by: .milliseconds(200))  // t=300: the timer finds b's deadline and sleeps again
    await clock.waitForSleeper(until: instant(400))
    #expect(recorder.values.isEmpty)
    await clock.advance(by: .milliseconds(100))  // t=400
    #expect(await recorder.waitForValues(count: 1) == [Timed("b", at: .milliseconds(400))])
    await clock.advance(by: .milliseconds(100))
    subject.send("c")  // t=500: due at 800
    await clock.waitForSleeper(until: instant(800))
    await clock.advance(by: .milliseconds(299))
    await clock.waitForSleeper(until: instant(800))  // not yet due: still sleeping
    #expect(recorder.values.count == 1)
    await clock.advance(by: .milliseconds(1))
    #expect(
      await recorder.waitForValues(count: 2) == [
        Timed("b", at: .milliseconds(400)), Timed("c", at: .milliseconds(800)),
      ]
    )
    subject.finish()
    #expect(recorder.end == Timed(.finished, at: .milliseconds(800)))  // inside the finish: no await
    #expect(recorder.values.count == 2)
    #expect(clock.sleeperCount == 0)
  }

  @Test("debounce: sends closer together than the due time collapse to the last one")
  func debounceBurst() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let recorder = Recorder(subject.debounce(for: .seconds(1), clock: clock), clock: clock)
    for value in 1...5 {
      subject.send(value)
      await clock.waitForSleepers(1)
      await clock.advance(by: .milliseconds(500))
    }
    // The last value was sent at 2 s; 500 ms of its quiet period are left.
    await clock.waitForSleeper(until: TestClock.Instant(offset: .seconds(3)))
    await clock.advance(by: .milliseconds(500))
    #expect(await recorder.waitForValues(count: 1) == [Timed(5, at: .seconds(3))])
    subject.finish()
    #expect(recorder.end == Timed(.finished, at: .seconds(3)))
    #expect(recorder.values == [Timed(5, at: .seconds(3))])
  }

  @Test("debounce: the finish emits the waiting value and ends inside the upstream's finish; a failure drops it")
  func debounceEnds() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<String, TestError>()
    let recorder = Recorder(subject.debounce(for: .milliseconds(300), clock: clock), clock: clock)
    subject.send("a")
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    subject.finish()
    #expect(recorder.values == [Timed("a", at: .milliseconds(100))])
    #expect(recorder.end == Timed(.finished, at: .milliseconds(100)))
    #expect(clock.sleeperCount == 0)

    let failing = AsyncPassthroughSubject<String, TestError>()
    let failed = Recorder(failing.debounce(for: .milliseconds(300), clock: clock), clock: clock)
    failing.send("b")
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    failing.fail(TestError(code: 7))
    #expect(failed.end == Timed(.failed(TestError(code: 7)), at: .milliseconds(200)))
    #expect(failed.values.isEmpty)
    #expect(clock.sleeperCount == 0)
  }

  @Test("debounce: the value is taken at its send, before any consumer's task has run")
  func debounceTakesTheValueAtSend() async throws {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<String, Never>()
    let consumer = subject.debounce(for: .milliseconds(300), clock: clock).subscribe()  // no task iterates it yet
    subject.send("a")  // t=0: the quiet period ends at 300, whenever the timer task gets to run
    await clock.advance(by: .milliseconds(100))
    await clock.waitForSleeper(until: instant(300))  // not 400: the period started at the send, not at a read
    await clock.advance(by: .milliseconds(200))
    subject.finish()
    #expect(await consumer.collect() == ["a"])
  }

  // MARK: throttle

  @Test("throttle, latest: the documented timeline; values emitted at once come out inside their send")
  func throttleLatestTimeline() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<String, Never>()
    let recorder = Recorder(subject.throttle(for: .milliseconds(300), clock: clock, latest: true), clock: clock)
    subject.send("a")  // t=0: idle, so emitted at once; the window ends at 300
    #expect(recorder.values == [Timed("a", at: .zero)])
    await clock.waitForSleeper(until: instant(300))
    await clock.advance(by: .milliseconds(100))
    subject.send("b")
    await clock.advance(by: .milliseconds(100))
    subject.send("c")
    #expect(recorder.values.count == 1)  // held back
    await clock.advance(by: .milliseconds(100))  // t=300: the window ends and opens the next (until 600)
    #expect(await recorder.waitForValues(count: 2) == [Timed("a", at: .zero), Timed("c", at: .milliseconds(300))])
    await clock.waitForSleeper(until: instant(600))
    await clock.advance(by: .milliseconds(100))
    subject.send("d")  // t=400
    await clock.advance(by: .milliseconds(200))  // t=600: d, and a window until 900
    #expect(await recorder.waitForValues(count: 3).last == Timed("d", at: .milliseconds(600)))
    await clock.waitForSleeper(until: instant(900))
    await clock.advance(by: .milliseconds(300))  // t=900: the window ends empty: idle
    await clock.advance(by: .milliseconds(100))
    subject.send("e")  // t=1000: emitted at once, window until 1300
    #expect(recorder.values.last == Timed("e", at: .milliseconds(1000)))
    await clock.waitForSleeper(until: instant(1300))
    await clock.advance(by: .milliseconds(100))
    subject.send("f")
    await clock.advance(by: .milliseconds(100))
    subject.finish()  // t=1200: f is emitted at once, then the end
    #expect(recorder.end == Timed(.finished, at: .milliseconds(1200)))
    #expect(
      recorder.values == [
        Timed("a", at: .zero), Timed("c", at: .milliseconds(300)), Timed("d", at: .milliseconds(600)),
        Timed("e", at: .milliseconds(1000)), Timed("f", at: .milliseconds(1200)),
      ]
    )
    #expect(clock.sleeperCount == 0)
  }

  @Test("throttle, not latest: the documented timeline runs entirely inside the sends, with no task")
  func throttleNotLatestTimeline() async {
    await withTaskScope { scope in
      let clock = TestClock()
      let subject = AsyncPassthroughSubject<String, Never>()
      let recorder = Recorder(subject.throttle(for: .milliseconds(300), clock: clock, latest: false), clock: clock)
      subject.send("a")  // t=0: emitted at once; the window ends at 300
      await clock.advance(by: .milliseconds(100))
      subject.send("b")  // dropped
      await clock.advance(by: .milliseconds(100))
      subject.send("c")  // dropped
      await clock.advance(by: .milliseconds(200))
      subject.send("d")  // t=400: the window is over: emitted at once, window until 700
      await clock.advance(by: .milliseconds(600))
      subject.send("e")  // t=1000
      await clock.advance(by: .milliseconds(100))
      subject.send("f")  // dropped
      await clock.advance(by: .milliseconds(100))
      subject.finish()  // t=1200: nothing held back
      #expect(recorder.end == Timed(.finished, at: .milliseconds(1200)))
      #expect(
        recorder.values == [
          Timed("a", at: .zero), Timed("d", at: .milliseconds(400)), Timed("e", at: .milliseconds(1000)),
        ]
      )
      #expect(scope.total == 0)  // no timer was ever started
    }
  }

  @Test("throttle, latest, RxSwift's input (200 ms earlier): 2@10, 5@210, 7@300, finish@300")
  func throttleRxSwiftInputLatest() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let recorder = Recorder(subject.throttle(for: .milliseconds(200), clock: clock, latest: true), clock: clock)
    // At 210 the window ends: 5 is emitted by the timer or by the arriving 6, whichever runs first, and 6 is held
    // for the next window.
    for (at, value, emitted) in [(10, 2, 1), (50, 3, 1), (110, 4, 1), (150, 5, 1), (210, 6, 2), (250, 7, 2)] {
      if value != 2 { await clock.waitForSleepers(1) }  // the window's timer, before time moves on
      await clock.advance(to: instant(at))
      subject.send(value)
      _ = await recorder.waitForValues(count: emitted)
    }
    await clock.advance(to: instant(300))
    subject.finish()
    #expect(recorder.end == Timed(.finished, at: .milliseconds(300)))
    #expect(
      recorder.values == [
        Timed(2, at: .milliseconds(10)), Timed(5, at: .milliseconds(210)), Timed(7, at: .milliseconds(300)),
      ]
    )
  }

  @Test("throttle: a value sent exactly at a window's end belongs to the next window")
  func throttleValueAtTheWindowEnd() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<String, Never>()
    let recorder = Recorder(subject.throttle(for: .milliseconds(300), clock: clock), clock: clock)
    subject.send("a")
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    subject.send("b")
    await clock.advance(by: .milliseconds(200))
    subject.send("c")  // t=300, whether or not the timer has closed the window yet
    #expect(await recorder.waitForValues(count: 2) == [Timed("a", at: .zero), Timed("b", at: .milliseconds(300))])
    await clock.waitForSleeper(until: instant(600))
    await clock.advance(by: .milliseconds(300))
    #expect(await recorder.waitForValues(count: 3).last == Timed("c", at: .milliseconds(600)))
    subject.finish()
    #expect(recorder.end == Timed(.finished, at: .milliseconds(600)))
  }

  // MARK: delay

  @Test("delay: every value and the finish come out the delay after their send, keeping order and spacing")
  func delayTimeline() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<String, Never>()
    let recorder = Recorder(subject.delay(for: .milliseconds(300), clock: clock), clock: clock)
    subject.send("a")  // due at 300
    await clock.advance(by: .milliseconds(100))
    subject.send("b")  // due at 400
    await clock.advance(by: .milliseconds(50))
    subject.finish()  // due at 450
    await clock.waitForSleeper(until: instant(300))
    await clock.advance(by: .milliseconds(149))
    await clock.waitForSleeper(until: instant(300))  // t=299: nothing is due yet
    #expect(recorder.values.isEmpty)
    await clock.advance(by: .milliseconds(1))
    #expect(await recorder.waitForValues(count: 1) == [Timed("a", at: .milliseconds(300))])
    await clock.waitForSleeper(until: instant(400))
    await clock.advance(by: .milliseconds(100))
    #expect(await recorder.waitForValues(count: 2).last == Timed("b", at: .milliseconds(400)))
    await clock.waitForSleeper(until: instant(450))
    await clock.advance(by: .milliseconds(50))
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(450)))
    #expect(recorder.values == [Timed("a", at: .milliseconds(300)), Timed("b", at: .milliseconds(400))])
  }

  @Test("delay: values sent together come out together, in send order; a failure is not delayed")
  func delayOrderAndFailure() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let recorder = Recorder(subject.delay(for: .seconds(1), clock: clock), clock: clock)
    for value in 1...3 { subject.send(value) }
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    #expect(
      await recorder.waitForValues(count: 3) == [
        Timed(1, at: .seconds(1)), Timed(2, at: .seconds(1)), Timed(3, at: .seconds(1)),
      ])
    subject.send(4)  // due at 2 s
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    subject.fail(TestError(code: 4))
    #expect(recorder.end == Timed(.failed(TestError(code: 4)), at: .milliseconds(1100)))
    #expect(recorder.values.count == 3)
    #expect(clock.sleeperCount == 0)
  }

  // MARK: timeout

  @Test("timeout: values sent in time pass through inside their send; each restarts the interval")
  func timeoutEventsInTime() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<String, Never>()
    let recorder = Recorder(subject.timeout(.milliseconds(200), clock: clock), clock: clock)
    await clock.waitForSleeper(until: instant(200))  // connected at 0: the first event is due before 200
    await clock.advance(by: .milliseconds(150))
    subject.send("a")  // due before 350 now
    #expect(recorder.values == [Timed("a", at: .milliseconds(150))])
    await clock.advance(by: .milliseconds(150))  // t=300: the timer wakes at 200 and sleeps again
    subject.send("b")  // due before 500 now
    #expect(recorder.values.last == Timed("b", at: .milliseconds(300)))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(199))
    subject.finish()  // t=499
    #expect(recorder.end == Timed(.finished, at: .milliseconds(499)))
    #expect(clock.sleeperCount == 0)
  }

  @Test("timeout: silence for a whole interval fails the result and stops observing the upstream")
  func timeoutSilenceAfterAValue() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<String, Never>()
    let (upstream, stopped) = watched(subject)
    let recorder = Recorder(upstream.timeout(.milliseconds(200), clock: clock), clock: clock)
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(150))
    subject.send("a")
    await clock.advance(by: .milliseconds(150))
    subject.send("b")  // t=300: due before 500
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(199))
    await clock.waitForSleeper(until: instant(500))  // t=499: still waiting
    #expect(recorder.end == nil)
    await clock.advance(by: .milliseconds(1))
    #expect(await recorder.waitForEnd() == Timed(.failed(TimeoutError()), at: .milliseconds(500)))
    #expect(recorder.values == [Timed("a", at: .milliseconds(150)), Timed("b", at: .milliseconds(300))])
    await stopped.wait()
    #expect(subject.consumerCount == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test("timeout: the clock starts when the node connects (its first consumer), not when it is made")
  func timeoutStartsAtConnection() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let timed = subject.timeout(.seconds(1), clock: clock)
    await clock.advance(by: .milliseconds(500))
    let recorder = Recorder(timed, clock: clock)  // t=500: the first event is due before 1500
    await clock.waitForSleeper(until: TestClock.Instant(offset: .milliseconds(1500)))
    await clock.advance(by: .seconds(1))
    #expect(await recorder.waitForEnd() == Timed(.failed(TimeoutError()), at: .milliseconds(1500)))
    withExtendedLifetime(subject) {}  // a released subject would finish
  }

  @Test(
    "timeout: a typed upstream fails with .upstream(error) or .timedOut; an untyped one with its error or TimeoutError")
  func timeoutFailures() async {
    let clock = TestClock()
    let typed = AsyncPassthroughSubject<String, TestError>()
    let failing = Recorder(typed.timeout(.seconds(1), clock: clock), clock: clock)
    typed.send("a")
    typed.fail(TestError(code: 5))
    #expect(failing.end == Timed(.failed(.upstream(TestError(code: 5))), at: .zero))
    #expect(failing.values == [Timed("a", at: .zero)])

    let silentTyped = AsyncPassthroughSubject<String, TestError>()
    let silent = Recorder(silentTyped.timeout(.seconds(1), clock: clock), clock: clock)
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    #expect(await silent.waitForEnd() == Timed(.failed(.timedOut), at: .seconds(1)))

    let untyped = AsyncPassthroughSubject<Int, any Error>()
    let untypedRecorder = Recorder(untyped.timeout(.seconds(1), clock: clock), clock: clock)
    untyped.fail(TestError(code: 9))
    guard case .failed(let error) = untypedRecorder.end?.value else {
      Issue.record("expected the upstream's failure")
      return
    }
    #expect(error as? TestError == TestError(code: 9))
    let silentUntyped = AsyncPassthroughSubject<Int, any Error>()
    let timedOut = Recorder(silentUntyped.timeout(.seconds(1), clock: clock), clock: clock)
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    guard case .failed(let timeoutError) = await timedOut.waitForEnd()?.value else {
      Issue.record("expected a timeout")
      return
    }
    #expect(timeoutError is TimeoutError)
    withExtendedLifetime((silentTyped, silentUntyped)) {}
  }

  // MARK: timeout with a fallback

  @Test("timeout(fallback:), cold fallback (RxSwift TimeoutOccurs_2): the upstream, then the fallback in a task")
  func timeoutSwitchesToAColdFallback() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let (upstream, stopped) = watched(subject)
    let started = Counter()
    let fallback = coldFallback([(50, -1), (200, -2), (310, -3)], finishAfter: 320, clock: clock, started: started)
    let recorder = Recorder(upstream.timeout(.milliseconds(100), clock: clock, fallback: fallback), clock: clock)
    await clock.waitForSleepers(1)
    await clock.advance(to: instant(40))
    subject.send(3)  // due before 140
    await clock.advance(to: instant(110))
    subject.send(4)  // due before 210
    await clock.advance(to: instant(210))  // times out: the upstream is let go, the fallback starts
    await stopped.wait()
    for (at, count) in [(260, 3), (410, 4), (520, 5)] {
      await clock.waitForSleepers(1)
      await clock.advance(to: instant(at))
      _ = await recorder.waitForValues(count: count)
    }
    await clock.waitForSleepers(1)
    await clock.advance(to: instant(530))
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(530)))
    #expect(
      recorder.values == [
        Timed(3, at: .milliseconds(40)), Timed(4, at: .milliseconds(110)), Timed(-1, at: .milliseconds(260)),
        Timed(-2, at: .milliseconds(410)), Timed(-3, at: .milliseconds(520)),
      ]
    )
    #expect(started.value == 1)
    #expect(subject.consumerCount == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test("timeout(fallback:), hot fallback: observed from the timeout on, its current value first, inside its sends")
  func timeoutSwitchesToAHotFallback() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let fallback = AsyncCurrentValueSubject<Int, TestError>(-1)
    let recorder = Recorder(subject.timeout(.milliseconds(100), clock: clock, fallback: fallback), clock: clock)
    subject.send(1)  // due before 100
    #expect(fallback.consumerCount == 0)  // not observed before the timeout
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    #expect(await recorder.waitForValues(count: 2) == [Timed(1, at: .zero), Timed(-1, at: .milliseconds(100))])
    #expect(subject.consumerCount == 0)
    #expect(fallback.consumerCount == 1)
    subject.send(2)  // no longer observed
    fallback.send(-2)
    #expect(recorder.values.last == Timed(-2, at: .milliseconds(100)))
    fallback.fail(TestError(code: 2))
    #expect(recorder.end == Timed(.failed(TestError(code: 2)), at: .milliseconds(100)))
    #expect(recorder.values.count == 3)
  }

  @Test("timeout(fallback:), immediate fallback: Signal.just is delivered in place at the timeout, then the end")
  func timeoutSwitchesToAnImmediateFallback() async {
    await withTaskScope { scope in
      let clock = TestClock()
      let subject = AsyncPassthroughSubject<Int, Never>()
      let recorder = Recorder(subject.timeout(.milliseconds(100), clock: clock, fallback: Signal.just(7)), clock: clock)
      #expect(tasks(scope) == ["task 'timeout timer'": 1])
      await clock.waitForSleepers(1)
      await clock.advance(by: .milliseconds(100))
      #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(100)))
      #expect(recorder.values == [Timed(7, at: .milliseconds(100))])
      await scope.waitUntilEmpty()
      #expect(subject.consumerCount == 0)
    }
  }

  @Test("timeout(fallback:): an upstream failure in time passes through and the fallback never starts")
  func timeoutFallbackUpstreamFailure() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let started = Counter()
    let fallback = coldFallback([(100, -1)], finishAfter: nil, clock: clock, started: started)
    let recorder = Recorder(subject.timeout(.milliseconds(100), clock: clock, fallback: fallback), clock: clock)
    await clock.waitForSleepers(1)
    await clock.advance(to: instant(50))
    subject.fail(TestError(code: 1))
    #expect(recorder.end == Timed(.failed(TestError(code: 1)), at: .milliseconds(50)))
    #expect(started.value == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test("timeout(fallback:): the last consumer leaving after the switch cancels the fallback's task")
  func timeoutFallbackTaskEndsOnDisconnect() async {
    await withTaskScope { scope in
      let clock = TestClock()
      let subject = AsyncPassthroughSubject<Int, TestError>()
      let started = Counter()
      let fallback = coldFallback([(50, -1)], finishAfter: nil, clock: clock, started: started)
      let recorder = Recorder(subject.timeout(.milliseconds(100), clock: clock, fallback: fallback), clock: clock)
      await clock.waitForSleepers(1)
      await clock.advance(by: .milliseconds(100))  // the switch
      await clock.waitForSleeper(until: instant(150))  // the fallback's own sleep
      await clock.advance(by: .milliseconds(50))
      #expect(await recorder.waitForValues(count: 1) == [Timed(-1, at: .milliseconds(150))])
      #expect(tasks(scope)["task 'Signal body'"] == 1)  // the fallback's own body, started at the switch
      recorder.cancel()
      await scope.waitUntilEmpty()
      #expect(started.value == 1)
      #expect(clock.sleeperCount == 0)
      #expect(subject.consumerCount == 0)
    }
  }

  // MARK: buffer(every:)

  @Test("buffer(every:): windows from the connection; one array per window, empty ones too; the finish flushes")
  func bufferTimeline() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<String, Never>()
    let recorder = Recorder(subject.buffer(every: .seconds(1), clock: clock), clock: clock)
    await clock.waitForSleeper(until: TestClock.Instant(offset: .seconds(1)))  // the first window ends at 1 s
    await clock.advance(by: .milliseconds(200))
    subject.send("a")
    await clock.advance(by: .milliseconds(500))
    subject.send("b")
    await clock.advance(by: .milliseconds(300))  // t=1000
    #expect(await recorder.waitForValues(count: 1) == [Timed(["a", "b"], at: .seconds(1))])
    await clock.waitForSleeper(until: TestClock.Instant(offset: .seconds(2)))
    await clock.advance(by: .seconds(1))  // t=2000: an empty window
    #expect(await recorder.waitForValues(count: 2).last == Timed([], at: .seconds(2)))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(500))
    subject.send("c")
    await clock.advance(by: .milliseconds(300))
    subject.finish()  // t=2800
    #expect(recorder.end == Timed(.finished, at: .milliseconds(2800)))
    #expect(
      recorder.values == [
        Timed(["a", "b"], at: .seconds(1)), Timed([], at: .seconds(2)), Timed(["c"], at: .milliseconds(2800)),
      ]
    )
    #expect(clock.sleeperCount == 0)
  }

  /// RxSwift's `testBufferWithTimeOrCount_Basic`, 200 ms earlier, as the pull form's test plays it.
  @Test("buffer(every:count:), RxSwift's timeline: the value that fills a window emits it inside its send")
  func bufferRxSwiftTimelineWithCount() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let recorder = Recorder(subject.buffer(every: .milliseconds(70), clock: clock, count: 3), clock: clock)
    // (time, value sent then or nil, arrays emitted by then).
    let steps: [(Int, Int?, Int)] = [
      (5, 1, 0), (10, 2, 0), (40, 3, 1), (80, 4, 1), (110, nil, 2), (120, 5, 2), (150, 6, 2), (170, 7, 3),
      (220, 8, 3), (240, nil, 4), (270, 9, 4), (310, nil, 5), (380, nil, 6), (400, nil, 6),
    ]
    for (at, value, emitted) in steps {
      await clock.waitForSleepers(1)  // the timer sleeps until the window's end before time moves on
      await clock.advance(to: instant(at))
      if let value {
        subject.send(value)
        #expect(recorder.values.count == emitted)  // a filled window came out inside the send
      }
      _ = await recorder.waitForValues(count: emitted)
    }
    subject.finish()
    #expect(recorder.end == Timed(.finished, at: .milliseconds(400)))
    #expect(
      recorder.values == [
        Timed([1, 2, 3], at: .milliseconds(40)), Timed([4], at: .milliseconds(110)),
        Timed([5, 6, 7], at: .milliseconds(170)), Timed([8], at: .milliseconds(240)),
        Timed([9], at: .milliseconds(310)), Timed([], at: .milliseconds(380)),
      ]
    )
  }

  // MARK: What every hot time operator shares

  @Test("the hot form for a hot input (a HotSignal), the pull form for a cold one; no ambiguity")
  func overloadResolution() {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let typed = AsyncPassthroughSubject<Int, TestError>()
    let untyped = AsyncPassthroughSubject<Int, any Error>()
    let never = Signal<Int, Never>.never
    let failing = Signal<Int, TestError>.never
    let erased = Signal<Int, any Error>.never
    // No type context: each call must resolve on its own.
    let debounced = subject.debounce(for: .seconds(1), clock: clock)
    let throttled = subject.throttle(for: .seconds(1), clock: clock, latest: false)
    let delayed = subject.delay(for: .seconds(1))
    let batches = subject.buffer(every: .seconds(1), clock: clock, count: 2)
    let timedOut = subject.timeout(.seconds(1), clock: clock)
    let untypedTimedOut = untyped.timeout(.seconds(1), clock: clock)
    let typedTimedOut = typed.timeout(.seconds(1))
    #expect(isHot(debounced, as: Signal<Int, Never>.self))
    #expect(isHot(throttled, as: Signal<Int, Never>.self))
    #expect(isHot(delayed, as: Signal<Int, Never>.self))
    #expect(isHot(batches, as: Signal<[Int], Never>.self))
    #expect(isHot(timedOut, as: Signal<Int, TimeoutError>.self))
    #expect(isHot(untypedTimedOut, as: Signal<Int, any Error>.self))
    #expect(isHot(typedTimedOut, as: Signal<Int, TimeoutFailure<TestError>>.self))
    #expect(isHot(subject.timeout(.seconds(1), fallback: never), as: Signal<Int, Never>.self))
    #expect(isHot(typed.timeout(.seconds(1), fallback: failing), as: Signal<Int, TestError>.self))
    #expect(isHot(subject.timeout(.seconds(1), fallback: failing), as: Signal<Int, any Error>.self))
    #expect(isHot(typed.timeout(.seconds(1), fallback: never), as: Signal<Int, TestError>.self))
    #expect(isHot(typed.timeout(.seconds(1), fallback: erased), as: Signal<Int, any Error>.self))
    #expect(isHot(subject.timeout(.seconds(1), fallback: subject), as: Signal<Int, Never>.self))
    // Any hot sequence: a property, a chain.
    #expect(isHot(Property(value: 1).debounce(for: .seconds(1)), as: Signal<Int, Never>.self))
    #expect(isHot(subject.map { "\($0)" }.throttle(for: .seconds(1)), as: Signal<String, Never>.self))
    // Cold inputs keep the pull forms.
    #expect(
      type(of: never.debounce(for: .seconds(1), clock: clock))
        == Signal<Int, Never>.self)
    #expect(
      type(of: never.throttle(for: .seconds(1))) == Signal<Int, Never>.self)
    #expect(type(of: never.delay(for: .seconds(1))) == Signal<Int, Never>.self)
    #expect(
      type(of: never.buffer(every: .seconds(1))) == Signal<[Int], Never>.self)
    #expect(
      type(of: never.timeout(.seconds(1)))
        == Signal<Int, TimeoutError>.self)
    #expect(
      type(of: never.timeout(.seconds(1), fallback: subject))
        == Signal<Int, Never>
        .self
    )
  }

  @Test(
    "consumers share one evaluation: one observation of the upstream, one timer at most, the same outputs",
    arguments: HotTimeOperator.allCases)
  func sharedEvaluation(_ timeOperator: HotTimeOperator) async {
    await withTaskScope { scope in
      let clock = TestClock()
      let subject = AsyncPassthroughSubject<Int, TestError>()
      let reads = Counter()
      let counted = subject.map { value -> Int in
        reads.increment()
        return value
      }
      let node = timeOperator.apply(to: counted, clock: clock)
      let first = Recorder(node, clock: clock)
      var second: SubjectSubscription<String, Never>? = node.subscribe()
      #expect(subject.consumerCount == 1)
      for value in 1...3 { subject.send(value) }
      await waitForTasks(scope, atMost: 1)  // the timers restarted by the sends end
      #expect(tasks(scope).values.allSatisfy { $0 == 1 })  // at most the one timer, whatever the consumers
      #expect(tasks(scope).count <= 1)
      subject.finish()
      let (events, end) = timeOperator.burst
      if end > .zero {
        await clock.waitForSleepers(1)
        await clock.advance(by: end)
      }
      #expect(await first.waitForValues(count: events.count).map(\.value) == events)
      #expect(await second?.collect() == events)
      #expect(reads.value == 3)
      second = nil  // a subscription counts in the scope until it goes
      await scope.waitUntilEmpty()
    }
  }

  @Test(
    "no task while idle: the timer runs only while the rule has a deadline, and ends when it has none",
    arguments: HotTimeOperator.allCases)
  func noTaskWhileIdle(_ timeOperator: HotTimeOperator) async {
    await withTaskScope { scope in
      let clock = TestClock()
      let subject = AsyncPassthroughSubject<Int, TestError>()
      let recorder = Recorder(timeOperator.apply(to: subject, clock: clock), clock: clock)
      #expect(tasks(scope) == (timeOperator.sleepsWhileIdle ? [timeOperator.timerName: 1] : [:]))
      subject.send(1)
      await waitForTasks(scope, atMost: 1)  // a timeout's timer restarted by the value ends
      #expect(tasks(scope) == (timeOperator.sleepsAfterAValue ? [timeOperator.timerName: 1] : [:]))
      guard !timeOperator.sleepsWhileIdle else {
        recorder.cancel()  // a timeout and a buffer keep their timer while connected: it ends with the connection
        await scope.waitUntilEmpty()
        return
      }
      if timeOperator.sleepsAfterAValue {
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(1))  // what was held comes out (or the window ends): idle again
        await scope.waitUntilEmpty()
      }
      #expect(tasks(scope).isEmpty)
      #expect(recorder.values.map(\.value) == ["1"])
      #expect(clock.sleeperCount == 0)
      withExtendedLifetime(subject) {}
    }
  }

  @Test(
    "the last consumer leaving cancels the timer's sleep and stops observing the upstream",
    arguments: HotTimeOperator.allCases)
  func disconnectStopsEverything(_ timeOperator: HotTimeOperator) async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, TestError>()
    await expectNoLeaks {
      let lifetime = Lifetime()
      let log = Log<String>()
      timeOperator.apply(to: subject, clock: clock).sink(in: lifetime) { log.append($0) }
      subject.send(1)
      if timeOperator.sleepsAfterAValue { await clock.waitForSleepers(1) }
      #expect(subject.consumerCount == 1)
      lifetime.cancel()
      #expect(subject.consumerCount == 0)
      #expect(log.all == (timeOperator.emitsAtOnce ? ["1"] : []))
    }
    #expect(clock.sleeperCount == 0)
  }

  @Test(
    "an upstream failure passes through inside its send, after the values already emitted; what is held is dropped",
    arguments: HotTimeOperator.allCases)
  func upstreamFailurePassesThrough(_ timeOperator: HotTimeOperator) async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, TestError>()
    await expectNoLeaks {
      let recorder = Recorder(timeOperator.apply(to: subject, clock: clock), clock: clock)
      subject.send(1)
      if timeOperator.sleepsAfterAValue { await clock.waitForSleepers(1) }
      await clock.advance(by: .milliseconds(500))
      subject.fail(TestError(code: 7))
      let expected = (timeOperator.emitsAtOnce ? ["1"] : []) + ["failed 7"]
      #expect(recorder.values.map(\.value) == expected)
      #expect(recorder.values.last?.instant == TestClock.Instant(offset: .milliseconds(500)))
      #expect(subject.consumerCount == 0)
    }
    #expect(clock.sleeperCount == 0)
  }

  @Test("a finite upstream finishes, with what the operator held emitted first", arguments: HotTimeOperator.allCases)
  func finish(_ timeOperator: HotTimeOperator) async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let recorder = Recorder(timeOperator.apply(to: subject, clock: clock), clock: clock)
    for value in 1...3 { subject.send(value) }
    subject.finish()
    let (events, end) = timeOperator.burst
    if end > .zero {
      await clock.waitForSleepers(1)
      await clock.advance(by: end)
    }
    #expect(await recorder.waitForValues(count: events.count).map(\.value) == events)
    #expect(recorder.values.allSatisfy { $0.instant == TestClock.Instant(offset: end) })
    #expect(await recorder.waitForEnd() == Timed(.finished, at: end))
  }

  @Test("a send from inside an observer is queued behind the current delivery, never delivered recursively")
  func reentrantSendIsQueued() {
    let clock = TestClock()
    let throttled = reentrantOutputs { $0.throttle(for: .zero, clock: clock, latest: false) }
    #expect(throttled.values == [1, 40, 3])
    #expect(throttled.deepest == 1)
    let timed = reentrantOutputs { $0.timeout(.seconds(1), clock: clock) }
    #expect(timed.values == [1, 40, 3])
    #expect(timed.deepest == 1)
  }

  /// What a sink of `build(subject)` sees when it sends 40 to the subject from inside its first value, and 1 then
  /// 3 are sent; and how deep the sink was ever nested in itself.
  private func reentrantOutputs<Failure: Error>(
    _ build: (AsyncPassthroughSubject<Int, Never>) -> Signal<Int, Failure>
  ) -> (values: [Int], deepest: Int) {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let lifetime = Lifetime()
    let log = Log<Int>()
    let depth = Depth()
    build(subject).sink(in: lifetime) { value in
      depth.enter()
      log.append(value)
      if value == 1 { subject.send(40) }
      depth.leave()
    }
    subject.send(1)
    subject.send(3)
    lifetime.cancel()
    return (log.all, depth.deepest)
  }

  @Test(
    "a negative (or, for timeout and buffer, zero) duration traps, as the pull form does",
    arguments: HotTimeOperator.allCases)
  func badDurationTraps(_ timeOperator: HotTimeOperator) async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) { [timeOperator] in
      timeOperator.applyWithBadDuration()
    }
    expectTrapMessage(result, timeOperator.trapMessage)
  }
}
