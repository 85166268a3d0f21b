import AsyncReactive
import AsyncReactiveTesting
import Testing

/// The short watchdog these tests give each wait.
private let short: Duration = .milliseconds(50)

/// Runs `body`, which must record exactly one test failure, `message`: a wait that fails instead of hanging.
///
/// The message names the timeout that expired (`timed out after 0.05s`): that is what shows the wait gave up on
/// its own timeout. How long it took in real time is not checked: on a loaded machine (the whole suite under the
/// thread sanitizer on two cores) a watchdog's sleep wakes seconds late, and a wait that never gives up hangs the
/// test until the suite's time limit fails it.
private func expectTimeout(
  _ message: String,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () async -> Void
) async {
  await withKnownIssue(sourceLocation: sourceLocation) {
    await body()
  } matching: { issue in
    issue.comments.map(\.rawValue) == [message] && issue.sourceLocation?.fileID == #fileID
  }
}

@Suite("Waits that fail instead of hanging", .timeLimit(.minutes(1)))
struct WaitTimeoutTests {
  // MARK: Recorder

  @Test("waitForValues fails with the values so far and the clock's sleepers, and returns them")
  func waitForValues() async {
    let clock = TestClock()
    let subject = TestSubject<String, Never>()
    let recorder = Recorder(subject, clock: clock)
    await subject.send("a")
    var values: [Timed<String>] = []
    await expectTimeout(
      "Recorder.waitForValues(count: 2) timed out after 0.05s: 1 value recorded: [t=0s: a], and the sequence "
        + "has not ended; the clock is at t=0s with no sleeper"
    ) {
      values = await recorder.waitForValues(count: 2, timeout: short)
    }
    #expect(values == [Timed("a", at: .zero)])
    // The recorder keeps recording: a later wait succeeds.
    await subject.send("b")
    #expect(await recorder.waitForValues(count: 2) == [Timed("a", at: .zero), Timed("b", at: .zero)])
  }

  @Test("waitForEnd fails with what was recorded and the clock's sleepers, and returns nil")
  func waitForEnd() async {
    let clock = TestClock(now: TestClock.Instant(offset: .seconds(1)))
    let sleeper = Task { try await clock.sleep(for: .milliseconds(300)) }
    await clock.waitForSleepers(1)
    let recorder = Recorder(TestSubject<Int, Never>(), clock: clock)
    var end: Timed<Recorder<Int, Never>.End>?? = .none
    await expectTimeout(
      "Recorder.waitForEnd() timed out after 0.05s: the sequence has not ended, no value recorded; "
        + "the clock is at t=1s with 1 sleeper, until t=1.3s"
    ) {
      end = await recorder.waitForEnd(timeout: short)
    }
    #expect(end == .some(nil))
    sleeper.cancel()
  }

  @Test("waitForValues does not fail when the sequence ends first: it returns fewer values")
  func waitForValuesEndsEarlyWithoutFailure() async {
    let clock = TestClock()
    let subject = TestSubject<Int, Never>()
    let recorder = Recorder(subject, clock: clock)
    await subject.send(1)
    await subject.finish()
    #expect(await recorder.waitForValues(count: 3, timeout: short) == [Timed(1, at: .zero)])
  }

  // MARK: TestClock

  @Test("waitForSleepers fails with the sleepers there are and their deadlines")
  func waitForSleepers() async {
    let clock = TestClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    await clock.waitForSleepers(1)
    await expectTimeout(
      "TestClock.waitForSleepers(2) timed out after 0.05s: the clock is at t=0s with 1 sleeper, until t=1s"
    ) {
      await clock.waitForSleepers(2, timeout: short)
    }
    sleeper.cancel()
    await expectTimeout("TestClock.waitForSleepers(1) timed out after 0.05s: the clock is at t=0s with no sleeper") {
      await clock.waitForSleepers(timeout: short)
    }
  }

  @Test("waitForSleeper(until:) fails with the deadlines the sleepers do have")
  func waitForSleeperUntil() async {
    let clock = TestClock()
    let sleepers = [
      Task { try await clock.sleep(for: .seconds(1)) }, Task { try await clock.sleep(for: .milliseconds(300)) },
    ]
    await clock.waitForSleepers(2)
    await expectTimeout(
      "TestClock.waitForSleeper(until: t=0.5s) timed out after 0.05s: the clock is at t=0s with 2 sleepers, "
        + "until t=0.3s, t=1s"
    ) {
      await clock.waitForSleeper(until: clock.now + .milliseconds(500), timeout: short)
    }
    for sleeper in sleepers { sleeper.cancel() }
  }

  // MARK: TestSubject

  @Test("send fails when a consumer never takes the value, naming it")
  func sendToAConsumerThatDoesNotIterate() async {
    let subject = TestSubject<String, Never>()
    var iterator = subject.makeAsyncIterator()  // subscribed, never iterated: an operator that never started
    await expectTimeout(
      "TestSubject.send(a) timed out after 0.05s: consumer 1 has not taken it (it took 0 of the 1 value sent to it)"
    ) {
      await subject.send("a", timeout: short)
    }
    // The value stayed sent: the consumer takes it when it does iterate.
    #expect(await iterator.next() == "a")
  }

  @Test("send fails when a consumer took the value but never comes back; others are not named")
  func sendToAConsumerThatHoldsTheValue() async {
    let subject = TestSubject<Int, Never>()
    let recorder = Recorder(subject, clock: TestClock())
    var stuck = subject.makeAsyncIterator()
    let taken = Task { await stuck.next() }  // takes the value, then never asks for the next one
    await expectTimeout(
      "TestSubject.send(1) timed out after 0.05s: consumer 2 took it but has not asked for the next value "
        + "(it took 1 of the 1 value sent to it)"
    ) {
      await subject.send(1, timeout: short)
    }
    #expect(await taken.value == 1)
    #expect(await recorder.waitForValues(count: 1).map(\.value) == [1])
  }

  @Test("finish and fail fail when a consumer never receives the end")
  func terminalEventsTimeOut() async throws {
    let finishing = TestSubject<Int, TestError>()
    var first = finishing.makeAsyncIterator()
    await expectTimeout(
      "TestSubject.finish() timed out after 0.05s: consumer 1 has not received the end (nothing was sent to it; "
        + "it has not asked for the next value)"
    ) {
      await finishing.finish(timeout: short)
    }
    #expect(try await first.next() == nil)

    let failing = TestSubject<Int, TestError>()
    var second = failing.makeAsyncIterator()
    await expectTimeout(
      "TestSubject.send(1) timed out after 0.05s: consumer 1 has not taken it (it took 0 of the 1 value sent to it)"
    ) {
      await failing.send(1, timeout: short)
    }
    await expectTimeout(
      "TestSubject.fail(TestError(code: 2)) timed out after 0.05s: consumer 1 has not received the end (it took 0 "
        + "of the 1 value sent to it; 1 still buffered)"
    ) {
      await failing.fail(TestError(code: 2), timeout: short)
    }
    // The buffered value first, then the failure.
    #expect(try await second.next() == 1)
    await #expect(throws: TestError(code: 2)) { try await second.next() }
  }

  @Test("waitForConsumers fails with how many consumers there are")
  func waitForConsumers() async {
    let subject = TestSubject<Int, Never>()
    let recorder = Recorder(subject, clock: TestClock())
    await expectTimeout("TestSubject.waitForConsumers(2) timed out after 0.05s: 1 consumer is subscribed") {
      await subject.waitForConsumers(2, timeout: short)
    }
    recorder.cancel()
  }

  // MARK: Cancellation and misuse

  @Test("a cancelled wait returns at once, without a failure")
  func cancelledWaitsDoNotFail() async {
    let clock = TestClock()
    let subject = TestSubject<Int, Never>()
    let recorder = Recorder(subject, clock: clock)
    let unread = subject.makeAsyncIterator()
    // Each wait would time out only after 10 minutes, far beyond the suite's time limit: that the test ends at all
    // shows cancellation ended each one, and no issue is recorded (a timeout would record one).
    let timeout = Duration.seconds(600)
    let waits = Task {
      #expect(await recorder.waitForValues(count: 1, timeout: timeout) == [])
      #expect(await recorder.waitForEnd(timeout: timeout) == nil)
      await clock.waitForSleepers(1, timeout: timeout)
      await clock.waitForSleeper(until: clock.now + .seconds(1), timeout: timeout)
      await subject.waitForConsumers(3, timeout: timeout)
      await subject.send(1, timeout: timeout)
      await subject.finish(timeout: timeout)
    }
    waits.cancel()
    await waits.value
    _ = unread
  }

  @Test("a timeout that is not positive traps with a clear message")
  func nonPositiveTimeoutTraps() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await TestClock().waitForSleepers(1, timeout: .zero)
    }
    expectTrapMessage(result, "TestClock.waitForSleepers(1): the timeout must be positive, not 0.0 seconds")
    await #expect(processExitsWith: .failure) {
      _ = await Recorder(TestSubject<Int, Never>(), clock: TestClock()).waitForValues(count: 1, timeout: .seconds(-1))
    }
    await #expect(processExitsWith: .failure) {
      await TestSubject<Int, Never>().send(1, timeout: .zero)
    }
  }

  @Test("the failure is reported where the caller says")
  func explicitSourceLocation() async {
    let location = SourceLocation(fileID: "MyApp/MyTests.swift", filePath: "/MyTests.swift", line: 42, column: 7)
    await withKnownIssue {
      await TestClock().waitForSleepers(
        1, timeout: short, fileID: location.fileID, filePath: location.filePath, line: 42, column: 7)
    } matching: { issue in
      issue.sourceLocation == location
    }
  }
}
