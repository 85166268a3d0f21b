import AsyncReactive
import AsyncReactiveTesting
import Testing

/// Work due at one instant runs in the order it was scheduled, as RxTest's `TestScheduler` runs it (1 tick = 1 s;
/// at a tick, timers due then fire first, then that tick's sends). The expected timelines are RxSwift's.
@Suite("RxSwift fidelity: work due at one instant runs in the order it was scheduled")
struct RxSwiftSameInstantTests {
  /// Moves the clock to tick `tick` inside virtual time: what the advance wakes has run when it returns.
  static func at(_ tick: Int, _ clock: TestClock) async {
    await clock.advance(to: TestClock.Instant(offset: .seconds(tick)))
  }

  @Test("timeout re-arms after each forwarded value: current 9, timeout(2).delay(2) → 9@2, failed(timeout)@2")
  func timeoutRearmsAfterForwarding() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let s = AsyncCurrentValueSubject<Int, any Error>(9)
      let recorder = Recorder(
        s.timeout(.seconds(2), clock: clock).delay(for: .seconds(2), clock: clock).mapError {
          TestError(code: $0 is TimeoutError ? 1 : 0)
        },
        clock: clock)
      await Self.at(2, clock)
      #expect(recorder.values == [Timed(9, at: .seconds(2))])
      #expect(recorder.end == Timed(.failed(TestError(code: 1)), at: .seconds(2)))
    }
  }

  @Test(
    "a window that a full count restarts is timed from then: timeout(3).buffer(every: 3, count: 2) → [1,1]@1, []@4, failed@4"
  )
  func bufferRestartedByItsCountIsScheduledThen() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let c = AsyncCurrentValueSubject<Int, any Error>(1)
      let recorder = Recorder(
        c.timeout(.seconds(3), clock: clock).buffer(every: .seconds(3), clock: clock, count: 2).mapError {
          TestError(code: $0 is TimeoutError ? 1 : 0)
        },
        clock: clock)
      await Self.at(1, clock)
      c.send(1)
      await Self.at(10, clock)
      #expect(recorder.values == [Timed([1, 1], at: .seconds(1)), Timed([], at: .seconds(4))])
      #expect(recorder.end == Timed(.failed(TestError(code: 1)), at: .seconds(4)))
    }
  }

  @Test("timeout(3).delay(3) with sends @1 and @3 → 1@4, failed(timeout)@6")
  func timeoutAndDelayOfEqualDurations() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let p = AsyncPassthroughSubject<Int, any Error>()
      let recorder = Recorder(
        p.timeout(.seconds(3), clock: clock).delay(for: .seconds(3), clock: clock).mapError {
          TestError(code: $0 is TimeoutError ? 1 : 0)
        },
        clock: clock)
      await Self.at(1, clock)
      p.send(1)
      await Self.at(3, clock)
      p.send(1)
      await Self.at(10, clock)
      #expect(recorder.values == [Timed(1, at: .seconds(4))])
      #expect(recorder.end == Timed(.failed(TestError(code: 1)), at: .seconds(6)))
    }
  }

  @Test("a cold inner's timer registers inside the outer value's delivery: delay(4).flatMapLatest(timer 3) → 0@8, 1@11")
  func innerTimerRegistersInPlace() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let q = AsyncPassthroughSubject<Int, any Error>()
      let recorder = Recorder(
        q.delay(for: .seconds(4), clock: clock).flatMapLatest { v in
          Signal.timer(after: .seconds(3), clock: clock).map { _ in v }
        },
        clock: clock)
      await Self.at(1, clock)
      q.send(0)
      await Self.at(4, clock)
      q.send(1)
      await Self.at(20, clock)
      #expect(recorder.values == [Timed(0, at: .seconds(8)), Timed(1, at: .seconds(11))])
      #expect(recorder.end == nil)
    }
  }

  @Test("debounce: a value arriving at the pending one's deadline, before its timer ran, replaces it → 1@4")
  func debounceTieReplaces() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let d = AsyncCurrentValueSubject<Int, any Error>(9)
      let recorder = Recorder(
        d.flatMap(.merge) { v in Signal.timer(after: .seconds(2), clock: clock).map { _ in v } }
          .debounce(for: .seconds(1), clock: clock),
        clock: clock)
      await Self.at(1, clock)
      d.send(1)
      await Self.at(10, clock)
      #expect(recorder.values == [Timed(1, at: .seconds(4))])
      #expect(recorder.end == nil)
    }
  }
}
