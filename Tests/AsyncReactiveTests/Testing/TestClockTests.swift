import AsyncReactive
import AsyncReactiveTesting
import Testing

private func instant(_ offset: Duration) -> TestClock.Instant {
  TestClock.Instant(offset: offset)
}

private struct TestFailure: Error, Equatable {
  var code: Int
}

@Suite("TestClock")
struct TestClockTests {
  @Test func instantPrintsCompactly() {
    #expect("\(instant(.zero))" == "t=0s")
    #expect("\(instant(.milliseconds(1500)))" == "t=1.5s")
    #expect("\(instant(.milliseconds(250)))" == "t=0.25s")
    #expect("\(instant(.nanoseconds(1)))" == "t=0.000000001s")
    #expect("\(instant(.milliseconds(-1500)))" == "t=-1.5s")
    #expect("\(instant(.milliseconds(-500)))" == "t=-0.5s")
    #expect("\(Timed(42, at: .milliseconds(250)))" == "t=0.25s: 42")
  }

  @Test func instantArithmetic() {
    let start = instant(.seconds(1))
    #expect(start + .milliseconds(500) == instant(.milliseconds(1500)))
    #expect(start.duration(to: instant(.milliseconds(250))) == .milliseconds(-750))
    #expect(start < start.advanced(by: .nanoseconds(1)))
  }

  @Test func timeStandsStillUntilAdvanced() async {
    let clock = TestClock(now: instant(.seconds(10)))
    #expect(clock.now == instant(.seconds(10)))
    #expect(clock.minimumResolution == .zero)
    await clock.advance(by: .milliseconds(1500))
    #expect(clock.now == instant(.milliseconds(11_500)))
    await clock.advance(by: .zero)
    #expect(clock.now == instant(.milliseconds(11_500)))
  }

  @Test func movingTimeBackwardTraps() async throws {
    let byNegative = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await TestClock().advance(by: .seconds(-1))
    }
    expectTrapMessage(byNegative, "time cannot move backward")
    let toThePast = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let clock = TestClock(now: TestClock.Instant(offset: .seconds(2)))
      await clock.advance(to: TestClock.Instant(offset: .seconds(1)))
    }
    expectTrapMessage(toThePast, "TestClock.advance(to: t=1s): time cannot move backward from t=2s")
  }

  @Test func sleepReturnsOnlyOnceAdvanceReachesTheDeadline() async throws {
    let clock = TestClock()
    let sleeper = Task {
      try await clock.sleep(until: instant(.milliseconds(100)))
      return clock.now
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(99))
    #expect(clock.sleeperCount == 1)
    #expect(clock.now == instant(.milliseconds(99)))
    await clock.advance(by: .milliseconds(1))
    #expect(clock.sleeperCount == 0)
    #expect(try await sleeper.value == instant(.milliseconds(100)))
  }

  @Test func sleepForUsesTheClocksNow() async throws {
    let clock = TestClock()
    await clock.advance(by: .seconds(5))
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(999))
    #expect(clock.hasSleepers)
    await clock.advance(by: .milliseconds(1))
    try await sleeper.value
    #expect(!clock.hasSleepers)
  }

  @Test func sleepUntilNowOrEarlierReturnsAtOnce() async throws {
    let clock = TestClock(now: instant(.seconds(1)))
    try await clock.sleep(until: instant(.seconds(1)))
    try await clock.sleep(until: instant(.zero))
    try await clock.sleep(for: .zero)
    #expect(!clock.hasSleepers)
    #expect(clock.now == instant(.seconds(1)))
  }

  @Test func sleepersWakeInDeadlineOrderWithNowAtEachDeadline() async throws {
    let clock = TestClock()
    let (wakes, wake) = AsyncStream.makeStream(of: String.self)
    let sleepers = [("a", 300), ("b", 100), ("c", 200)].map { name, milliseconds in
      Task {
        try await clock.sleep(until: instant(.milliseconds(milliseconds)))
        wake.yield("\(name)@\(clock.now)")
      }
    }
    await clock.waitForSleepers(3)
    var woken = wakes.makeAsyncIterator()
    var timeline: [String] = []
    for _ in 0..<3 {
      await clock.advance(by: .milliseconds(100))
      timeline.append(await woken.next() ?? "none")
    }
    #expect(timeline == ["b@t=0.1s", "c@t=0.2s", "a@t=0.3s"])
    for sleeper in sleepers { try await sleeper.value }
    #expect(!clock.hasSleepers)
  }

  @Test func oneAdvanceWakesEveryDueSleeperAndStopsAtTheTarget() async throws {
    let clock = TestClock()
    let early = Task { try await clock.sleep(until: instant(.milliseconds(200))) }
    let earliest = Task { try await clock.sleep(until: instant(.milliseconds(100))) }
    let late = Task {
      try await clock.sleep(until: instant(.milliseconds(300)))
      return clock.now
    }
    await clock.waitForSleepers(3)
    await clock.advance(to: instant(.milliseconds(250)))
    #expect(clock.now == instant(.milliseconds(250)))
    #expect(clock.sleeperCount == 1)
    try await early.value
    try await earliest.value
    await clock.advance(to: instant(.milliseconds(300)))
    #expect(try await late.value == instant(.milliseconds(300)))
    #expect(!clock.hasSleepers)
  }

  @Test func advanceToWakesSleepersAtExactlyTheTarget() async throws {
    let clock = TestClock()
    let sleeper = Task {
      try await clock.sleep(until: instant(.milliseconds(1500)))
      return clock.now
    }
    await clock.waitForSleepers(1)
    await clock.advance(to: instant(.seconds(1)))
    #expect(clock.hasSleepers)
    await clock.advance(to: instant(.milliseconds(1500)))
    #expect(try await sleeper.value == instant(.milliseconds(1500)))
    #expect(clock.now == instant(.milliseconds(1500)))
  }

  @Test func runWakesEverySleeperAndEndsAtTheLatestDeadline() async throws {
    let clock = TestClock()
    let sleepers = [3, 1, 2].map { seconds in
      Task { try await clock.sleep(until: instant(.seconds(seconds))) }
    }
    await clock.waitForSleepers(3)
    await clock.run()
    #expect(clock.now == instant(.seconds(3)))
    #expect(!clock.hasSleepers)
    for sleeper in sleepers { try await sleeper.value }
  }

  @Test func runWithNoSleepersLeavesTimeAlone() async {
    let clock = TestClock()
    await clock.run()
    #expect(clock.now == instant(.zero))
  }

  @Test func runDrainsAChainOfSleeps() async throws {
    let clock = TestClock()
    let (stamps, stamp) = AsyncStream.makeStream(of: TestClock.Instant.self)
    let recorder = Recorder(stamps, clock: clock)
    let chain = Task {
      for _ in 0..<5 {
        try await clock.sleep(for: .seconds(1))
        stamp.yield(clock.now)
      }
      stamp.finish()
    }
    // A woken link registers its next sleep concurrently with `run`, so a pass of `run` may stop between links:
    // run again each time the chain sleeps, until it has ended.
    while await sleepsOrEnds(recorder, on: clock) {
      await clock.run()
    }
    try await chain.value
    #expect(recorder.values.map(\.value) == (1...5).map { instant(.seconds($0)) })
    #expect(clock.now == instant(.seconds(5)))
    #expect(!clock.hasSleepers)
  }

  @Test func cancellingASleeperThrowsAndRemovesIt() async {
    let clock = TestClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    await clock.waitForSleepers(1)
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(1))
    #expect(clock.now == instant(.seconds(1)))
  }

  @Test func cancellingOneSleeperLeavesTheOthers() async throws {
    let clock = TestClock()
    let cancelled = Task { try await clock.sleep(for: .seconds(1)) }
    let kept = Task { try await clock.sleep(for: .seconds(1)) }
    await clock.waitForSleepers(2)
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { try await cancelled.value }
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    try await kept.value
  }

  @Test func aCancelledTaskThrowsEvenForAPastDeadline() async {
    let clock = TestClock()
    let sleepers = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      var errors = 0
      for deadline in [instant(.zero), instant(.seconds(1))] {
        do { try await clock.sleep(until: deadline) } catch is CancellationError { errors += 1 } catch {}
      }
      return errors
    }
    #expect(await sleepers.value == 2)
    #expect(!clock.hasSleepers)
  }

  @Test func waitForSleepersIsResumedByTheSleepsRegistration() async throws {
    let clock = TestClock()
    let waiter = Task {
      await clock.waitForSleepers(2)
      return clock.sleeperCount
    }
    let first = Task { try await clock.sleep(for: .seconds(1)) }
    let second = Task { try await clock.sleep(for: .seconds(2)) }
    #expect(await waiter.value == 2)
    await clock.waitForSleepers(2)  // already satisfied: returns at once
    await clock.waitForSleepers(0)
    await clock.run()
    try await first.value
    try await second.value
  }

  @Test func waitForSleepersReturnsWhenCancelled() async {
    let clock = TestClock()
    let waiter = Task { await clock.waitForSleepers(1) }
    waiter.cancel()
    await waiter.value
    #expect(!clock.hasSleepers)
  }

  @Test(arguments: 0..<200)
  func repeatedHandshakesAreDeterministic(iteration: Int) async throws {
    let clock = TestClock()
    let ticks = AsyncPassthroughSubject<Int, Never>()
    let recorder = Recorder(ticks, clock: clock)
    let producer = Task {
      for tick in 1...3 {
        try await clock.sleep(for: .milliseconds(100 * tick))
        ticks.send(tick)
      }
      ticks.finish()
    }
    for tick in 1...3 {
      await clock.waitForSleepers(1)
      await clock.advance(by: .milliseconds(100 * tick))
      _ = await recorder.waitForValues(count: tick)
    }
    try await producer.value
    #expect(
      await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(600)),
      "iteration \(iteration)"
    )
    #expect(
      recorder.values == [
        Timed(1, at: .milliseconds(100)), Timed(2, at: .milliseconds(300)), Timed(3, at: .milliseconds(600)),
      ]
    )
  }
}

/// Waits until a task sleeps on `clock` (true) or `recorder`'s sequence has ended (false), whichever comes first.
private func sleepsOrEnds<Element: Sendable, Failure: Error>(
  _ recorder: Recorder<Element, Failure>,
  on clock: TestClock
) async -> Bool {
  await withTaskGroup(of: Bool.self) { group in
    group.addTask {
      await clock.waitForSleepers(1)
      return !Task.isCancelled
    }
    group.addTask {
      await recorder.waitForEnd()
      return false
    }
    let sleeps = await group.next() ?? false
    group.cancelAll()
    return sleeps
  }
}

@Suite("TestClock Recorder")
struct TestClockRecorderTests {
  @Test func recordsValuesSentRightAfterCreation() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let recorder = Recorder(subject, clock: clock)
    subject.send(1)
    subject.send(2)
    subject.finish()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .zero))
    #expect(recorder.values == [Timed(1, at: .zero), Timed(2, at: .zero)])
  }

  @Test func stampsEachValueWithTheClockTimeItArrived() async throws {
    let clock = TestClock()
    let (stream, continuation) = AsyncStream.makeStream(of: String.self)
    let recorder = Recorder(stream, clock: clock)
    let producer = Task {
      try await clock.sleep(for: .milliseconds(100))
      continuation.yield("a")
      try await clock.sleep(for: .milliseconds(150))
      continuation.yield("b")
      continuation.finish()
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(100))
    #expect(await recorder.waitForValues(count: 1) == [Timed("a", at: .milliseconds(100))])
    #expect(recorder.end == nil)
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(150))
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(250)))
    #expect(recorder.values == [Timed("a", at: .milliseconds(100)), Timed("b", at: .milliseconds(250))])
    try await producer.value
  }

  @Test func recordsAFailureWithItsTime() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, TestFailure>()
    let recorder = Recorder(subject, clock: clock)
    subject.send(1)
    #expect(await recorder.waitForValues(count: 1) == [Timed(1, at: .zero)])
    await clock.advance(by: .seconds(2))
    subject.fail(TestFailure(code: 7))
    #expect(await recorder.waitForEnd() == Timed(.failed(TestFailure(code: 7)), at: .seconds(2)))
  }

  @Test func waitForValuesReturnsFewerIfTheSequenceEnds() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let recorder = Recorder(subject, clock: clock)
    let waiter = Task { await recorder.waitForValues(count: 3) }
    subject.send(1)
    subject.finish()
    #expect(await waiter.value == [Timed(1, at: .zero)])
  }

  @Test func waitForValuesReturnsOnlyTheFirstCount() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let recorder = Recorder(subject, clock: clock)
    for value in 1...3 { subject.send(value) }
    subject.finish()
    await recorder.waitForEnd()
    #expect(await recorder.waitForValues(count: 2) == [Timed(1, at: .zero), Timed(2, at: .zero)])
  }

  @Test func cancelStopsTheRecording() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let recorder = Recorder(subject, clock: clock)
    subject.send(1)
    _ = await recorder.waitForValues(count: 1)
    recorder.cancel()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .zero))
    subject.send(2)
    #expect(recorder.values == [Timed(1, at: .zero)])
  }

  @Test func waitsReturnWhenTheirTaskIsCancelled() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let recorder = Recorder(subject, clock: clock)
    let values = Task { await recorder.waitForValues(count: 1) }
    let end = Task { await recorder.waitForEnd() }
    values.cancel()
    end.cancel()
    #expect(await values.value == [])
    #expect(await end.value == nil)
    recorder.cancel()
  }
}

@Suite("TestClock state machine")
struct TestClockStateMachineTests {
  private typealias Machine = TestClockStateMachine<String, String>

  private func register(_ name: String, at milliseconds: Int, in machine: inout Machine) -> [String] {
    let id = machine.makeID()
    let action = machine.registerSleeper(
      name, id: id, deadline: instant(.milliseconds(milliseconds)), isCancelled: false)
    guard case .sleep(let waiters) = action else {
      Issue.record("\(name) did not sleep: \(action)")
      return []
    }
    return waiters
  }

  private func step(_ machine: inout Machine, toward milliseconds: Int) -> [String]? {
    switch machine.step(toward: instant(.milliseconds(milliseconds))) {
    case .wake(let sleepers): sleepers
    case .reachedTarget: nil
    }
  }

  @Test func stepsWakeByDeadlineThenRegistrationOrder() {
    var machine = Machine(now: instant(.zero))
    _ = register("late", at: 300, in: &machine)
    _ = register("tie1", at: 100, in: &machine)
    _ = register("middle", at: 200, in: &machine)
    _ = register("tie2", at: 100, in: &machine)
    #expect(step(&machine, toward: 250) == ["tie1", "tie2"])
    #expect(machine.now == instant(.milliseconds(100)))
    #expect(step(&machine, toward: 250) == ["middle"])
    #expect(machine.now == instant(.milliseconds(200)))
    #expect(step(&machine, toward: 250) == nil)
    #expect(machine.now == instant(.milliseconds(250)))
    #expect(machine.sleeperCount == 1)
    #expect(machine.latestDeadline == instant(.milliseconds(300)))
  }

  @Test func reservedPlacesWakeInTheOrderTheyWereTaken() {
    var machine = Machine(now: instant(.zero))
    let reserved = machine.reserveOrders(2)  // a timeline made now, with events at 100 ms and 200 ms
    _ = register("timer", at: 200, in: &machine)  // a timer started after it
    _ = machine.registerSleeper(
      "event 1", id: machine.makeID(), deadline: instant(.milliseconds(100)), order: reserved.lowerBound,
      isCancelled: false)
    #expect(step(&machine, toward: 1000) == ["event 1"])
    // The timeline's second sleep is registered after the timer's, but its place was taken before.
    _ = machine.registerSleeper(
      "event 2", id: machine.makeID(), deadline: instant(.milliseconds(200)), order: reserved.upperBound - 1,
      isCancelled: false)
    #expect(step(&machine, toward: 1000) == ["event 2", "timer"])
  }

  @Test func registrationAfterTheDeadlineOrCancellationResumesAtOnce() {
    var machine = Machine(now: instant(.seconds(1)))
    let due = machine.registerSleeper("due", id: machine.makeID(), deadline: instant(.seconds(1)), isCancelled: false)
    guard case .resume("due") = due else {
      Issue.record("expected resume, got \(due)")
      return
    }
    let cancelled = machine.registerSleeper(
      "cancelled", id: machine.makeID(), deadline: instant(.seconds(2)), isCancelled: true)
    guard case .fail("cancelled") = cancelled else {
      Issue.record("expected fail, got \(cancelled)")
      return
    }
    #expect(machine.sleeperCount == 0)
  }

  @Test func cancellingRemovesOnlyThatSleeper() {
    var machine = Machine(now: instant(.zero))
    let first = machine.makeID()
    _ = machine.registerSleeper("first", id: first, deadline: instant(.seconds(1)), isCancelled: false)
    _ = register("second", at: 1000, in: &machine)
    #expect(machine.cancelSleeper(id: first) == "first")
    #expect(machine.cancelSleeper(id: first) == nil)
    #expect(step(&machine, toward: 1000) == ["second"])
  }

  @Test func waitersResumeWhenEnoughSleepersRegister() {
    var machine = Machine(now: instant(.zero))
    #expect(machine.registerWaiter("two", id: machine.makeID(), condition: .count(2), isCancelled: false) == nil)
    #expect(machine.registerWaiter("one", id: machine.makeID(), condition: .count(1), isCancelled: false) == nil)
    let cancelledID = machine.makeID()
    #expect(machine.registerWaiter("cancelled", id: cancelledID, condition: .count(3), isCancelled: false) == nil)
    #expect(machine.cancelWaiter(id: cancelledID) == "cancelled")
    #expect(register("a", at: 100, in: &machine) == ["one"])
    #expect(register("b", at: 100, in: &machine) == ["two"])
    #expect(machine.registerWaiter("now", id: machine.makeID(), condition: .count(2), isCancelled: false) == "now")
    #expect(machine.registerWaiter("gone", id: machine.makeID(), condition: .count(5), isCancelled: true) == "gone")
  }
}
