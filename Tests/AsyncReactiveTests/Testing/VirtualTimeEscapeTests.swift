import AsyncReactive
import AsyncReactiveTesting
import Testing

/// A view model whose graph is connected when it is made: a heartbeat that times out after 5 s of silence, its
/// events sunk into a log with no task. Its timeout's timer starts at once, in `init`.
final class HeartbeatViewModel: Sendable {
  let heartbeat = AsyncPassthroughSubject<Int, Never>()
  let events = Log<String>()
  private let lifetime = Lifetime()

  init(clock: TestClock) {
    let events = events
    heartbeat.timeout(.seconds(5), clock: clock).sink(in: lifetime) { beat in
      events.append("beat \(beat)")
    } onEnd: { failure in
      events.append(failure.map { "failed: \($0) at \(clock.now)" } ?? "finished")
    }
  }
}

/// Made in the suite's `init()`, as Swift Testing does, outside the test's `withVirtualTime` body.
@Suite("virtual time: what a suite's init() makes works inside withVirtualTime, or is reported by name")
struct VirtualTimeEscapeTests {
  let clock = TestClock()
  let viewModel: HeartbeatViewModel

  init() {
    viewModel = HeartbeatViewModel(clock: clock)
  }

  @Test("a timer started in init(), before the virtual time began, fires inside advance: exact, 200 runs")
  func timerStartedInInitRunsOnTheExecutor() async {
    for _ in 0..<200 {
      let clock = TestClock()
      let viewModel = HeartbeatViewModel(clock: clock)  // outside the body, as in the suite's init()
      let silent = HeartbeatViewModel(clock: clock)  // its first timer is the one started in init
      await clock.withVirtualTime {
        await clock.advance(by: .seconds(3))
        viewModel.heartbeat.send(1)
        await clock.advance(by: .seconds(5))
        #expect(viewModel.events.all == ["beat 1", "failed: \(TimeoutError()) at t=8s"])
        #expect(silent.events.all == ["failed: \(TimeoutError()) at t=5s"])
      }
    }
  }

  @Test("the suite's own view model times out at exactly 5 s under one advance")
  func suiteViewModel() async {
    await clock.withVirtualTime {
      await clock.advance(by: .seconds(5))
      #expect(viewModel.events.all == ["failed: \(TimeoutError()) at t=5s"])
    }
  }

  @Test("a task of the test's own, made outside the body, that sleeps on the clock is reported with its name")
  func escapeIsReported() async {
    let clock = TestClock()
    let woke = Gate()
    let poller = Task(name: "poller") {
      try? await clock.sleep(for: .seconds(1))
      woke.open()
    }
    await clock.waitForSleepers(1)
    await withKnownIssue {
      await clock.withVirtualTime {
        await clock.advance(by: .seconds(1))
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("the task 'poller'") }
        || String(describing: issue).contains("the task 'poller'")
    }
    await woke.wait()
    await poller.value
  }

  @Test("a retry's delays and next attempts, observed from a task made before the virtual time: exact, 200 runs")
  func retryDelayRunsOnTheExecutor() async {
    struct Failed: Error {}
    for _ in 0..<200 {
      let clock = TestClock()
      let attempts = Log<String>()
      let events = Log<String>()
      let lifetime = Lifetime()
      // Made outside the body, as in a suite's init(): the observation's task prefers the clock's executor, which
      // it finds while building the run (the retry waits on the clock).
      let loads = Signal<Int, any Error>.future {
        attempts.append("attempt at \(clock.now)")
        if attempts.all.count < 3 { throw Failed() }
        return 42
      }
      .retry(3, delay: .constant(.seconds(2)), clock: clock)
      loads.observe(in: lifetime) { value in
        events.append("value \(value) at \(clock.now)")
      } onFailure: { _ in
        events.append("failed")
      }
      await clock.withVirtualTime {
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(2))
        #expect(attempts.all == ["attempt at t=0s", "attempt at t=2s"])
        await clock.advance(by: .seconds(2))
        #expect(attempts.all == ["attempt at t=0s", "attempt at t=2s", "attempt at t=4s"])
        #expect(events.all == ["value 42 at t=4s"])
      }
      lifetime.cancel()
    }
  }

  @Test("a cold timer observed from a task made before the virtual time: exact, 200 runs")
  func coldTimerObservedFromOutside() async {
    for _ in 0..<200 {
      let clock = TestClock()
      let ticks = Log<String>()
      let lifetime = Lifetime()
      // The observation's task reads the timer's run itself: it sleeps on the clock, on the clock's executor.
      Signal.timer(after: .seconds(3), clock: clock).observe(in: lifetime) { _ in
        ticks.append("tick at \(clock.now)")
      }
      await clock.withVirtualTime {
        await clock.waitForSleepers(1)  // what the task made before the virtual time did before it parked
        await clock.advance(by: .seconds(1))
        #expect(ticks.all.isEmpty)
        await clock.advance(by: .seconds(2))
        #expect(ticks.all == ["tick at t=3s"])
      }
      lifetime.cancel()
    }
  }
}
