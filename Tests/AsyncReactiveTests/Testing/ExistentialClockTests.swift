import AsyncReactive
import AsyncReactiveTesting
import Testing

/// The time operators with a clock injected as `any Clock<Duration>`, as an app's environment holds it.
@Suite("Time operators take an existential clock")
struct ExistentialClockTests {
  struct Environment {
    var clock: any Clock<Duration>
  }

  @Test("every time operator compiles with `any Clock<Duration>`, on a stream and on a hot source")
  func everyFormAcceptsAnExistentialClock() {
    let env = Environment(clock: ContinuousClock())
    let signal = Signal<Int, Never>.just(1)
    let untyped = Signal<Int, any Error>.just(1)
    let typed = Signal<Int, TestError>.just(1)
    let subject = AsyncPassthroughSubject<Int, Never>()
    _ = signal.debounce(for: .seconds(1), clock: env.clock)
    _ = signal.throttle(for: .seconds(1), clock: env.clock, latest: false)
    _ = signal.delay(for: .seconds(1), clock: env.clock)
    _ = signal.buffer(every: .seconds(1), clock: env.clock, count: 2)
    _ = signal.timeout(.seconds(1), clock: env.clock)
    _ = untyped.timeout(.seconds(1), clock: env.clock)
    _ = typed.timeout(.seconds(1), clock: env.clock)
    _ = signal.timeout(.seconds(1), clock: env.clock, fallback: Signal<Int, Never>.just(0))
    _ = signal.debug("signal", clock: env.clock, sink: DebugSink { _ in })
    _ = signal.retry(3, delay: .constant(.seconds(1)), clock: env.clock)
    _ = Signal<Int, Never>.timer(every: .seconds(1), clock: env.clock)
    let hot: Signal<Int, Never> = subject.debounce(for: .seconds(1), clock: env.clock)
    _ = hot
    _ = subject.throttle(for: .seconds(1), clock: env.clock, latest: true)
    _ = subject.delay(for: .seconds(1), clock: env.clock)
    _ = subject.timeout(.seconds(1), clock: env.clock)
    _ = subject.buffer(every: .seconds(1), clock: env.clock, count: 2)
  }

  @Test("a concrete clock takes the same forms: the result is a Signal, which does not name its clock")
  func concreteClockKeepsTheGenericForm() {
    let signal = Signal<Int, Never>.just(1)
    let clock = ContinuousClock()
    let debounced: Signal<Int, Never> = signal.debounce(
      for: .seconds(1), clock: clock)
    let throttled: Signal<Int, Never> = signal.throttle(
      for: .seconds(1), clock: clock)
    let timed: Signal<Int, TimeoutError> = signal.timeout(
      .seconds(1), clock: clock)
    #expect(
      type(of: signal.delay(for: .seconds(1), clock: clock))
        == Signal<Int, Never>.self)
    _ = (debounced, throttled, timed)
  }

  @Test("a stream debounced on an existential test clock fires at the test clock's instants")
  func debounceOnAnExistentialTestClock() async {
    let clock = TestClock()
    let env = Environment(clock: clock)
    await clock.withVirtualTime {
      let texts = Signal<String, Never> { emitter in
        await emitter.send("s")
        try? await clock.sleep(for: .milliseconds(100))
        await emitter.send("sw")
        try? await clock.sleep(for: .seconds(1))  // the finish would emit what waits at once
      }
      let quiet = Recorder(texts.debounce(for: .milliseconds(300), clock: env.clock), clock: clock)
      await clock.advance(by: .seconds(2))
      #expect(quiet.values == [Timed("sw", at: .milliseconds(400))])
      #expect(quiet.end?.instant == TestClock.Instant(offset: .milliseconds(1100)))
    }
  }
}
