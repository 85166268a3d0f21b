import AsyncReactive
import AsyncReactiveTesting
import Testing

/// A command whose work is a sequence (`Command.signal`, RxSwift's `Action { input in observable }`, ReactiveSwift's
/// `Action { input in SignalProducer }`): each element goes to `values` as it comes, the run lasts until the sequence
/// ends, `execute` returns the last element.
@Suite("StreamingCommand: Command.signal, a sequence per run")
struct StreamingCommandTests {
  @Test("each element goes to values, inside the run; execute returns the last; executing reads false, true, false")
  func elementsOfOneRun() async throws {
    let clock = TestClock()
    let command = Command.signal { (_: Void) in Signal<Int, Never>([1, 2, 3]) }
    let values = Recorder(command.values, clock: clock)
    let executing = Recorder(command.executing, clock: clock)
    let errors = Recorder(command.errors, clock: clock)
    let seen = Log<String>()
    let lifetime = Lifetime()
    let isExecuting = command.executing
    command.values.sink(in: lifetime) { seen.append("\($0) while executing: \(isExecuting.value)") }

    #expect(try await command.execute() == 3)
    #expect(values.values.map(\.value) == [1, 2, 3])
    #expect(executing.values.map(\.value) == [false, true, false])
    #expect(errors.values.isEmpty)
    #expect(seen.all == ["1 while executing: true", "2 while executing: true", "3 while executing: true"])
  }

  @Test("trigger() with a sequence that answers at once: every element and the run's end before it returns")
  func triggerPublishesInPlace() {
    let clock = TestClock()
    let command = Command.signal { (_: Void) in Signal<Int, Never>([1, 2, 3]) }
    let values = Recorder(command.values, clock: clock)
    let executing = Recorder(command.executing, clock: clock)
    command.trigger()
    #expect(values.values.map(\.value) == [1, 2, 3])
    #expect(executing.values.map(\.value) == [false, true, false])
    #expect(command.executing.value == false)
    command.trigger()  // and again: the previous run has ended, .reject admits the next
    #expect(values.values.map(\.value) == [1, 2, 3, 1, 2, 3])
    #expect(executing.values.map(\.value) == [false, true, false, true, false])
  }

  @Test("trigger() of Signal.just: one value, the run ended")
  func triggerJust() {
    let clock = TestClock()
    let command = Command.signal { (name: String) in Signal<String, Never>.just(name + "!") }
    let values = Recorder(command.values, clock: clock)
    command.trigger("hi")
    #expect(values.values.map(\.value) == ["hi!"])
    #expect(command.executing.value == false)
  }

  @Test("an empty sequence: execute throws .noValue; trigger publishes nothing on values or errors")
  func emptySequence() async {
    let clock = TestClock()
    let command = Command.signal { (_: Void) in Signal<Int, Never>.empty }
    let values = Recorder(command.values, clock: clock)
    let errors = Recorder(command.errors, clock: clock)
    let executing = Recorder(command.executing, clock: clock)
    await #expect(throws: CommandError<Never>.noValue) { try await command.execute() }
    command.trigger()
    #expect(values.values.isEmpty)
    #expect(errors.values.isEmpty)
    #expect(executing.values.map(\.value) == [false, true, false, true, false])
  }

  @Test("a sequence that sends 1 and fails: values [1], errors gets the failure, execute throws .failed")
  func failingSequence() async {
    let clock = TestClock()
    let command = Command.signal { (_: Void) in
      Signal<Int, TestError>.create { emitter in
        emitter.send(1)
        emitter.fail(TestError(code: 7))
        return {}
      }
    }
    let values = Recorder(command.values, clock: clock)
    let errors = Recorder(command.errors, clock: clock)
    let executing = Recorder(command.executing, clock: clock)
    let error = await #expect(throws: CommandError<TestError>.self) { try await command.execute() }
    #expect(error == .failed(TestError(code: 7)))
    #expect(values.values.map(\.value) == [1])
    #expect(errors.values.map(\.value) == [TestError(code: 7)])
    #expect(executing.values.map(\.value) == [false, true, false])
  }

  @Test("a timer's ticks go to values at 1 s, 2 s, 3 s; executing is true until the sequence ends")
  func timerSequence() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let command = Command.signal { (_: Void) in Signal.timer(every: .seconds(1), clock: clock).prefix(3) }
      let values = Recorder(command.values, clock: clock)
      let executing = Recorder(command.executing, clock: clock)
      async let outcome = Outcome { try await command.execute() }
      await clock.settle()
      #expect(command.executing.value == true)
      await clock.advance(by: .milliseconds(2500))
      #expect(values.values == [Timed(1, at: .seconds(1)), Timed(2, at: .seconds(2))])
      #expect(command.executing.value == true)
      await clock.advance(by: .seconds(1))
      #expect(await outcome == .value(3))
      #expect(values.values == [Timed(1, at: .seconds(1)), Timed(2, at: .seconds(2)), Timed(3, at: .seconds(3))])
      #expect(executing.values == [Timed(false, at: .zero), Timed(true, at: .zero), Timed(false, at: .seconds(3))])
      values.cancel()
      executing.cancel()
      await clock.expectNoLeaks()
    }
  }

  @Test("cancel() at 1.5 s stops the timer: values [1], execute throws .cancelled, no task left")
  func cancelStopsTheSequence() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let command = Command.signal { (_: Void) in Signal.timer(every: .seconds(1), clock: clock).prefix(3) }
      let values = Recorder(command.values, clock: clock)
      let errors = Recorder(command.errors, clock: clock)
      async let outcome = Outcome { try await command.execute() }
      await clock.settle()
      await clock.advance(by: .milliseconds(1500))
      command.cancel()
      #expect(await outcome == .cancelled)
      #expect(command.executing.value == false)
      await clock.advance(by: .seconds(5))
      #expect(values.values == [Timed(1, at: .seconds(1))])
      #expect(errors.values.isEmpty)
      #expect(!clock.hasSleepers)
      values.cancel()
      errors.cancel()
      await clock.expectNoLeaks()
    }
  }

  @Test("cancelling the caller's task stops its run's sequence")
  func callerCancellationStopsTheSequence() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let command = Command.signal { (_: Void) in Signal.timer(every: .seconds(1), clock: clock).prefix(3) }
      let values = Recorder(command.values, clock: clock)
      await withTaskGroup(of: Outcome<Int>.self) { group in
        group.addTask { await Outcome { try await command.execute() } }
        await clock.settle()
        await clock.advance(by: .milliseconds(1500))
        group.cancelAll()
        #expect(await group.next() == .cancelled)
      }
      await clock.advance(by: .seconds(5))
      #expect(values.values == [Timed(1, at: .seconds(1))])
      values.cancel()
      await clock.expectNoLeaks()
    }
  }

  @Test("releasing the command stops the sequence of its triggered run, and its streams finish")
  func releaseStopsTheSequence() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let reports = Log<String>()
      let line = #line + 1
      var command: Command<Void, Int, Never>? = Command.signal { (_: Void) in
        Signal.timer(every: .seconds(1), clock: clock).prefix(3)
      }
      let values = Recorder(command!.values, clock: clock)
      command!.trigger()
      await clock.advance(by: .milliseconds(1500))
      DebugReport.$handler.withValue(.init { reports.append($0) }) {
        command = nil
      }
      await clock.settle()
      #expect(values.end?.instant == TestClock.Instant(offset: .milliseconds(1500)))
      await clock.advance(by: .seconds(5))
      #expect(values.values == [Timed(1, at: .seconds(1))])
      #if DEBUG
        #expect(reports.all.count == 1)
        #expect(reports.all.first?.contains("StreamingCommandTests.swift:\(line)") == true)
      #endif
      await clock.expectNoLeaks()
    }
  }

  @Test("a sequence that ignores cancellation: what it sends after cancel() is not published, and it is dropped")
  func sequenceIgnoringCancellation() async {
    let clock = TestClock()
    let afterFirst = Gate()
    let resume = Gate()
    let pulled = Log<Int>()
    let command = Command.signal { (_: Void) in
      Stubborn(pulled: pulled, afterFirst: afterFirst, resume: resume)
    }
    let values = Recorder(command.values, clock: clock)
    let run = Task { await Outcome { try await command.execute() } }
    await afterFirst.wait()
    command.cancel()
    resume.open()
    #expect(await run.value == .cancelled)
    #expect(values.values.map(\.value) == [1])
    // The iteration stopped at the first element sent after the cancellation.
    #expect(pulled.all == [1, 2])
  }

  @Test(".cancelPrevious: a second execute cancels the first sequence mid-way; only the second's elements follow")
  func cancelPrevious() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let command = Command.signal(policy: .cancelPrevious) { (run: Int) in
        Signal.timer(every: .seconds(1), clock: clock).prefix(3).map { run * 10 + $0 }
      }
      let values = Recorder(command.values, clock: clock)
      let executing = Recorder(command.executing, clock: clock)
      async let first = Outcome { try await command.execute(1) }
      await clock.settle()
      await clock.advance(by: .milliseconds(1500))
      async let second = Outcome { try await command.execute(2) }
      #expect(await first == .cancelled)
      await clock.advance(by: .seconds(5))
      #expect(await second == .value(23))
      #expect(
        values.values == [
          Timed(11, at: .seconds(1)), Timed(21, at: .milliseconds(2500)), Timed(22, at: .milliseconds(3500)),
          Timed(23, at: .milliseconds(4500)),
        ])
      // One stretch of executing: the second run started before the first ended.
      #expect(executing.values.map(\.value) == [false, true, false])
      values.cancel()
      executing.cancel()
      await clock.expectNoLeaks()
    }
  }

  @Test(".reject: a call during a running sequence is refused; the run goes on")
  func rejectDuringASequence() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let command = Command.signal { (_: Void) in Signal.timer(every: .seconds(1), clock: clock).prefix(2) }
      let values = Recorder(command.values, clock: clock)
      async let first = Outcome { try await command.execute() }
      await clock.settle()
      #expect(command.isEnabled.value == false)
      #expect(await Outcome { try await command.execute() } == .disabled)
      await clock.advance(by: .seconds(2))
      #expect(await first == .value(2))
      #expect(command.isEnabled.value == true)
      #expect(values.values.map(\.value) == [1, 2])
      values.cancel()
      await clock.expectNoLeaks()
    }
  }

  @Test(".enqueue: the next call's sequence starts once the previous one ended")
  func enqueueSequences() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let command = Command.signal(policy: .enqueue) { (run: Int) in
        Signal.timer(every: .seconds(1), clock: clock).prefix(2).map { run * 10 + $0 }
      }
      let values = Recorder(command.values, clock: clock)
      async let first = Outcome { try await command.execute(1) }
      await clock.settle()
      async let second = Outcome { try await command.execute(2) }
      await clock.settle()
      await clock.advance(by: .seconds(4))
      #expect(await first == .value(12))
      #expect(await second == .value(22))
      #expect(
        values.values == [
          Timed(11, at: .seconds(1)), Timed(12, at: .seconds(2)), Timed(21, at: .seconds(3)),
          Timed(22, at: .seconds(4)),
        ])
      values.cancel()
      await clock.expectNoLeaks()
    }
  }

  @Test("a temporary command made by a factory: trigger() iterates a synchronous sequence before it returns")
  func factoryMadeTemporary() {
    let seen = Log<Int>()
    func make() -> Command<Void, Int, Never> {
      Command.signal {
        Signal<Int, Never>([1, 2, 3]).map { value in
          seen.append(value)
          return value
        }
      }
    }
    make().trigger()
    #expect(seen.all == [1, 2, 3])
  }

  @Test("Output and Failure come from the sequence: Never, any Error, a typed error, with no annotation")
  func typedFailureInference() async throws {
    let never = Command.signal { (_: Void) in Signal<Int, Never>([1]) }
    let _: Command<Void, Int, Never> = never
    let untyped = Command.signal { (_: Void) in Signal<Int, any Error>([1]) }
    let _: Command<Void, Int, any Error> = untyped
    let typed = Command.signal { (_: Void) in Signal<Int, TestError>([1]) }
    let _: Command<Void, Int, TestError> = typed
    let withInput = Command.signal(policy: .enqueue) { (id: Int) in Signal<String, TestError>.just("\(id)") }
    let _: Command<Int, String, TestError> = withInput
    let enabled = Command.signal(enabledIf: Property(value: true)) { (id: Int) in Signal<Int, Never>([id]) }
    let _: Command<Int, Int, Never> = enabled
    let implicit: Command<Int, Int, TestError> = .signal { id in Signal([id, id + 1]) }
    let stream = Command.signal { (count: Int) in
      AsyncStream<Int> { continuation in
        for value in 1...count { continuation.yield(value) }
        continuation.finish()
      }
    }
    let _: Command<Int, Int, Never> = stream
    // The typed error reaches execute and errors without a cast.
    #expect(try await implicit.execute(4) == 5)
    #expect(try await stream.execute(3) == 3)
    let _: HotSignal<TestError, Never> = typed.errors
  }

  @Test("enabledIf: false refuses the call; the sequence is not made")
  func enabledIf() async {
    let enabled = AsyncCurrentValueSubject<Bool, Never>(false)
    let made = Counter()
    let command = Command.signal(enabledIf: enabled) { (_: Void) in
      made.increment()
      return Signal<Int, Never>([1])
    }
    #expect(await Outcome { try await command.execute() } == .disabled)
    #expect(made.value == 0)
    enabled.value = true
    #expect(await Outcome { try await command.execute() } == .value(1))
    #expect(made.value == 1)
  }

  @Test("debug() writes each element, then the end of the run")
  func debugLines() async throws {
    let clock = TestClock()
    let lines = Log<String>()
    let command = Command.signal { (_: Void) in Signal<Int, Never>([1, 2]) }
      .debug("steps", clock: clock, sink: DebugSink { lines.append($0) })
    let empty = Command.signal { (_: Void) in Signal<Int, Never>.empty }
      .debug("empty", clock: clock, sink: DebugSink { lines.append($0) })
    _ = try await command.execute()
    _ = try? await empty.execute()
    #expect(
      lines.all == [
        "[steps] +0ms start: ()", "[steps] +0ms value: 1", "[steps] +0ms value: 2", "[steps] +0ms finished",
        "[empty] +0ms start: ()", "[empty] +0ms finished without a value",
      ])
  }
}

/// A sequence of 1, 2, 3, … that waits, without heeding cancellation, for `resume` after its first element.
private struct Stubborn: AsyncSequence, Sendable {
  let pulled: Log<Int>
  let afterFirst: Gate
  let resume: Gate

  struct AsyncIterator: AsyncIteratorProtocol {
    let sequence: Stubborn
    var next = 1

    mutating func next() async -> Int? {
      if next == 2 {
        sequence.afterFirst.open()
        await sequence.resume.wait()
      }
      defer { next += 1 }
      sequence.pulled.append(next)
      return next
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(sequence: self) }
}
