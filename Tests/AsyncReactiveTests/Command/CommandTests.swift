import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("Command: runs, streams, enabledIf, cancellation")
struct CommandTests {
  @Test("one run: the output is returned and sent on values; executing reads false, true, false")
  func oneRun() async throws {
    var command: Command<Int, Int, Never>? = Command { $0 * 2 }
    var executing = command!.executing.subscribe().makeAsyncIterator()
    var values = command!.values.makeAsyncIterator()
    var errors = command!.errors.makeAsyncIterator()
    #expect(try await command!.execute(21) == 42)
    #expect(command!.executing.value == false)
    command = nil  // releasing the command finishes its streams
    #expect(await drain(&executing) == [false, true, false])
    #expect(await drain(&values) == [42])
    #expect(await drain(&errors).isEmpty)
  }

  @Test("a work error is thrown to the caller and sent on errors, not on values")
  func workError() async {
    var command: Command<Void, Int, any Error>? = Command { throw TestError(code: 7) }
    var values = command!.values.makeAsyncIterator()
    var errors = command!.errors.makeAsyncIterator()
    #expect(await Outcome { try await command!.execute() } == .failed(TestError(code: 7)))
    command = nil
    #expect(await drain(&values).isEmpty)
    #expect(await drain(&errors).map { $0 as? TestError } == [TestError(code: 7)])
  }

  @Test("a late subscriber to executing gets the current value first")
  func lateSubscriber() async throws {
    let release = Latch()
    let started = Gate()
    let command = Command<Void, Int, any Error> {
      started.open()
      try await release.pass()
      return 1
    }
    let run = Task { try await command.execute() }
    await started.wait()
    var executing = command.executing.makeAsyncIterator()
    #expect(await executing.next() == true)
    release.open()
    #expect(try await run.value == 1)
    #expect(await executing.next() == false)
  }

  @Test("disabled by enabledIf: .disabled, one disabledErrors event, the work never starts")
  func disabledByEnabledIf() async {
    let enabled = AsyncCurrentValueSubject<Bool, Never>(false)
    let runs = Counter()
    var command: Command<Void, Int, Never>? = Command(enabledIf: enabled) {
      runs.increment()
      return 1
    }
    var disabled = command!.disabledErrors.makeAsyncIterator()
    var errors = command!.errors.makeAsyncIterator()
    var executing = command!.executing.subscribe().makeAsyncIterator()
    // A current-value source applies at once, before its observation task runs.
    #expect(command!.isEnabled.value == false)
    #expect(await Outcome { try await command!.execute() } == .disabled)
    command!.trigger()
    #expect(runs.value == 0)
    command = nil
    #expect(await drain(&disabled).count == 2)
    #expect(await drain(&errors).isEmpty)
    #expect(await drain(&executing) == [false])
  }

  @Test("a command starts in enabledIf's state: no enabled flash, and a stream needs an explicit initial value")
  func startsInEnabledIfState() async throws {
    let enabled = AsyncPassthroughSubject<Bool, Never>()
    let command = Command(enabledIf: Property(initial: false, then: enabled.subscribe())) { (value: Int) in
      value + 1
    }
    #expect(command.isEnabled.value == false)
    #expect(await Outcome { try await command.execute(1) } == .disabled)
    let always = Command(enabledIf: Property(value: false)) { (value: Int) in value }
    #expect(always.isEnabled.value == false)
    #expect(await Outcome { try await always.execute(1) } == .disabled)
  }

  @Test("enabled.value = true, then execute at once: runs (enabledIf is read at the call), 1,000 of 1,000")
  func enabledIfReadAtTheCall() async throws {
    let enabled = AsyncCurrentValueSubject<Bool, Never>(false)
    let command = Command(enabledIf: enabled) { (value: Int) in value }
    for round in 0..<1_000 {
      enabled.value = true
      #expect(command.isEnabled.value == true)
      #expect(try await command.execute(round) == round)
      enabled.value = false
      #expect(command.isEnabled.value == false)
      #expect(await Outcome { try await command.execute(round) } == .disabled)
    }
  }

  @Test("enabledIf switching while a run is in flight: the run completes; calls follow the latest value")
  func enabledIfSwitchesWhileRunning() async throws {
    let enabled = AsyncCurrentValueSubject<Bool, Never>(true)
    let release = Latch()
    let started = Gate()
    let command = Command(enabledIf: enabled, policy: .concurrent(limit: 2)) { (value: Int) in
      if value == 1 {
        started.open()
        try await release.pass()
      }
      return value
    }
    var isEnabled = command.isEnabled.makeAsyncIterator()
    #expect(await isEnabled.next() == true)
    let first = Task { try await command.execute(1) }
    await started.wait()
    enabled.send(false)
    #expect(await isEnabled.next() == false)
    #expect(await Outcome { try await command.execute(2) } == .disabled)
    #expect(command.executing.value == true)
    release.open()
    #expect(try await first.value == 1)
    enabled.send(true)
    #expect(await isEnabled.next() == true)
    #expect(try await command.execute(3) == 3)
  }

  @Test("cancelling the caller cancels its run: .cancelled, nothing on values or errors")
  func callerCancellation() async {
    let started = [1: Gate(), 2: Gate()]
    var command: Command<Int, Int, any Error>? = Command { value in
      started[value]!.open()
      await waitForCancellation()
      // A work that ignores cancellation and returns, or throws its own error, is still a cancelled run.
      if value == 1 { return 1 }
      throw TestError(code: 1)
    }
    var executing = command!.executing.subscribe().makeAsyncIterator()
    var values = command!.values.makeAsyncIterator()
    var errors = command!.errors.makeAsyncIterator()
    for input in [1, 2] {
      let run = Task { [command] in await Outcome { try await command!.execute(input) } }
      await started[input]!.wait()
      run.cancel()
      #expect(await run.value == .cancelled)
    }
    command = nil
    #expect(await drain(&executing) == [false, true, false, true, false])
    #expect(await drain(&values).isEmpty)
    #expect(await drain(&errors).isEmpty)
  }

  @Test("a caller that is cancelled already does not start the work")
  func alreadyCancelledCaller() async {
    let runs = Counter()
    let command = Command<Void, Int, Never> {
      runs.increment()
      return 1
    }
    let proceed = Gate()
    let run = Task {
      await proceed.wait()
      return await Outcome { try await command.execute() }
    }
    run.cancel()
    proceed.open()
    #expect(await run.value == .cancelled)
    #expect(runs.value == 0)
    #expect(command.executing.value == false)
  }

  @Test("a CancellationError thrown by the work itself ends the run as .cancelled and is not sent on errors")
  func workThrowsCancellation() async {
    var command: Command<Void, Int, any Error>? = Command { throw CancellationError() }
    var errors = command!.errors.makeAsyncIterator()
    #expect(await Outcome { try await command!.execute() } == .cancelled)
    command = nil
    #expect(await drain(&errors).isEmpty)
  }

  @Test("cancel() cancels every run in flight; the command stays usable")
  func cancelAll() async throws {
    let started = Counter()
    let allStarted = Gate()
    let command = Command(policy: .concurrent(limit: 3)) { (value: Int) -> Int in
      if value < 3 {
        if started.increment() == 3 { allStarted.open() }
        try await Latch().pass()  // never opened: only cancellation ends it
      }
      return value
    }
    let runs = (0..<3).map { input in Task { await Outcome { try await command.execute(input) } } }
    await allStarted.wait()
    command.cancel()
    for run in runs { #expect(await run.value == .cancelled) }
    #expect(command.executing.value == false)
    #expect(try await command.execute(5) == 5)
  }

  @Test("releasing the command cancels its runs and then finishes its streams")
  func deinitCancelsRuns() async {
    let started = Gate()
    let cancelled = Gate()
    var command: Command<Void, Int, Never>? = Command {
      started.open()
      await waitForCancellation()
      cancelled.open()
      return 0
    }
    var executing = command!.executing.subscribe().makeAsyncIterator()
    var values = command!.values.makeAsyncIterator()
    command!.trigger()  // the run belongs to the command, not to a caller that would keep it alive
    await started.wait()
    command = nil
    await cancelled.wait()
    #expect(await drain(&executing) == [false, true, false])
    #expect(await drain(&values).isEmpty)
  }

  @Test("enabledIf does not keep the command alive, and isEnabled's consumers finish with the command")
  func enabledIfDoesNotRetain() async {
    let enabled = AsyncCurrentValueSubject<Bool, Never>(true)
    weak var weakCommand: Command<Void, Void, Never>?
    var isEnabled: Property<Bool>.Iterator
    do {
      let command = Command(enabledIf: enabled) {}
      weakCommand = command
      isEnabled = command.isEnabled.makeAsyncIterator()
      #expect(await isEnabled.next() == true)
    }
    #expect(weakCommand == nil)
    // enabledIf lives on, yet the loop over the released command's isEnabled ends, after the final `false`.
    #expect(await drain(&isEnabled) == [false])
    #expect(enabled.consumerCount == 0)
  }

  @Test("re-entrant execute: refused under .reject, run under .concurrent; executing never flickers")
  func reentrantExecute() async throws {
    let inner = Log<Outcome<Int>>()
    for policy in [CommandPolicy.reject, .concurrent(limit: 2)] {
      let reference = WeakReference<Command<Int, Int, Never>>()
      let command = Command(policy: policy) { (value: Int) -> Int in
        if value == 0, let command = reference.object {
          inner.append(await Outcome { try await command.execute(1) })
        }
        return value
      }
      reference.set(command)
      var executing = command.executing.subscribe().makeAsyncIterator()
      var disabled = command.disabledErrors.makeAsyncIterator()
      #expect(try await command.execute(0) == 0)
      #expect(await take(3, from: &executing) == [false, true, false])
      if policy == .reject { #expect(await disabled.next() != nil) }
    }
    #expect(inner.all == [.disabled, .value(1)])
  }
}
