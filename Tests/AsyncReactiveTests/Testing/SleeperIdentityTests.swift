import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("TestClock sleepers: identity and cancellation", .timeLimit(.minutes(1)))
struct SleeperIdentityTests {
  private func at(_ milliseconds: Int) -> TestClock.Instant {
    TestClock.Instant(offset: .milliseconds(milliseconds))
  }

  @Test("waitForSleeper(until:) waits for that timer, not for any other")
  func waitsForTheTimerWithThatDeadline() async throws {
    let clock = TestClock()
    let latency = Task { try await clock.sleep(until: at(1000)) }
    await clock.waitForSleepers(1)
    let log = Log<String>()
    let waiter = Task {
      await clock.waitForSleeper(until: at(300))
      log.append("the 300 ms timer sleeps")
    }
    // One sleeper already, but not the one awaited.
    let backoff = Task { try await clock.sleep(until: at(300)) }
    await waiter.value
    #expect(log.all == ["the 300 ms timer sleeps"])
    #expect(clock.sleeperDeadlines == [at(300), at(1000)])
    await clock.advance(to: at(300))
    try await backoff.value
    #expect(clock.sleeperDeadlines == [at(1000)])
    latency.cancel()
  }

  @Test("a cancelled sleeper never counts: it is removed at once")
  func cancelledSleepersDoNotCount() async {
    let clock = TestClock()
    let first = Task { try await clock.sleep(until: at(300)) }
    await clock.waitForSleepers(1)
    first.cancel()
    #expect(clock.sleeperCount == 0)
    #expect(clock.sleeperDeadlines == [])
    await withKnownIssue {
      await clock.waitForSleepers(1, timeout: .milliseconds(20))
    }
    // A sleep started by a task that is already cancelled never registers.
    let cancelledEarly = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(until: at(300))
    }
    await #expect(throws: CancellationError.self) { try await cancelledEarly.value }
    #expect(clock.sleeperCount == 0)
    // The replacement timer is the one that counts, and the one a specific wait finds.
    let replacement = Task { try await clock.sleep(until: at(400)) }
    await clock.waitForSleeper(until: at(400))
    #expect(clock.sleeperDeadlines == [at(400)])
    replacement.cancel()
  }

  @Test("sleepers with the same deadline are listed once each, in the order they started")
  func sameDeadline() async {
    let clock = TestClock()
    let sleepers = (0..<3).map { _ in Task { try await clock.sleep(until: at(100)) } }
    await clock.waitForSleepers(3)
    #expect(clock.sleeperDeadlines == [at(100), at(100), at(100)])
    await clock.waitForSleeper(until: at(100))
    await clock.advance(to: at(100))
    for sleeper in sleepers { try? await sleeper.value }
    #expect(clock.sleeperDeadlines == [])
  }
}
