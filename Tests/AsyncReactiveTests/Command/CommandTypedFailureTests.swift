import AsyncReactive
import AsyncReactiveTesting
import Testing

private enum LoadError: Error, Equatable {
  case notFound(Int)
  case offline
}

/// An API with an untyped and a typed `throws`.
private struct ItemAPI: Sendable {
  func load(_ id: Int) async throws -> String {
    guard id >= 0 else { throw TestError(code: id) }
    return "item \(id)"
  }

  func typedLoad(_ id: Int) async throws(LoadError) -> String {
    guard id >= 0 else { throw .notFound(id) }
    return "item \(id)"
  }

  func all() async throws -> [String] { ["item 1"] }
}

private actor ItemsViewModel {
  var loads = 0

  func count() -> Int {
    loads += 1
    return loads
  }

  func load(_ id: Int) async throws -> String { try await ItemAPI().load(id) }

  func typedLoad(_ id: Int) async throws(LoadError) -> String { try await ItemAPI().typedLoad(id) }
}

/// The typed error `execute` threw, or `nil` if it returned: keeps `CommandError<Failure>` static, which a
/// closure could not (a closure with an unannotated `try` is inferred `throws(any Error)`).
private func commandError<Input, Output, Failure>(
  of command: Command<Input, Output, Failure>,
  _ input: Input
) async -> CommandError<Failure>? {
  do {
    _ = try await command.execute(input)
    return nil
  } catch {
    return error
  }
}

@Suite("Command: typed failures (CommandError<Failure>, errors: HotSignal<Failure, Never>)")
struct CommandTypedFailureTests {
  /// Each `let _: Command<…> = command` compiles only if `command`'s type was inferred exactly: the closures
  /// carry no annotation but their parameter's type and, for a typed failure, `throws(E)`.
  @Test("Failure is inferred from the work: Never without throws, any Error for untyped throws, E for throws(E)")
  func inference() async throws {
    let api = ItemAPI()
    let double = Command { (value: Int) in value * 2 }
    let _: Command<Int, Int, Never> = double
    let contextual: Command<Int, Int, Never> = Command { $0 * 2 }
    let tick = Command { 42 }
    let _: Command<Void, Int, Never> = tick
    let load = Command { (id: Int) in try await api.load(id) }
    let _: Command<Int, String, any Error> = load
    let loadContextual: Command<Int, String, any Error> = Command { try await api.load($0) }
    let refresh = Command { try await api.all() }
    let _: Command<Void, [String], any Error> = refresh
    let typed = Command { (id: Int) throws(LoadError) in try await api.typedLoad(id) }
    let _: Command<Int, String, LoadError> = typed
    let typedVoid = Command { () throws(LoadError) in try await api.typedLoad(1) }
    let _: Command<Void, String, LoadError> = typedVoid
    // Swift 6.3 infers `throws(any Error)` for a closure that does not say `throws(E)`, even when it only calls
    // `throws(LoadError)` functions; `Command<Int, String, LoadError> { try await api.typedLoad($0) }` does
    // not compile ("invalid conversion of thrown error type 'any Error' to 'LoadError'").
    let untypedCallOfTyped = Command { (id: Int) in try await api.typedLoad(id) }
    let _: Command<Int, String, any Error> = untypedCallOfTyped

    let enabled = Property(value: true)
    let enabledNever = Command(enabledIf: enabled, policy: .enqueue) { (value: Int) in value }
    let _: Command<Int, Int, Never> = enabledNever
    let enabledTyped = Command(enabledIf: enabled) { (id: Int) throws(LoadError) in try await api.typedLoad(id) }
    let _: Command<Int, String, LoadError> = enabledTyped

    #expect(try await double.execute(21) == 42)
    #expect(try await contextual.execute(2) == 4)
    #expect(try await tick.execute() == 42)
    #expect(try await load.execute(1) == "item 1")
    #expect(try await loadContextual.execute(2) == "item 2")
    #expect(try await refresh.execute() == ["item 1"])
    #expect(try await typed.execute(3) == "item 3")
    #expect(try await typedVoid.execute() == "item 1")
    #expect(try await enabledNever.execute(5) == 5)
    #expect(await commandError(of: enabledTyped, -1) == .failed(.notFound(-1)))
    guard case .failed(let failure)? = await commandError(of: untypedCallOfTyped, -2) else {
      Issue.record("execute(-2) did not fail")
      return
    }
    #expect(failure as? LoadError == .notFound(-2))
  }

  @Test("Command(owner:) infers Failure the same way, with and without input")
  func ownerInference() async throws {
    let viewModel = ItemsViewModel()
    let this = WeakReference<ItemsViewModel>()
    this.set(viewModel)
    let count = Command(owner: this) { viewModel in viewModel.count() }
    let _: Command<Void, Int, Never> = count
    let load = Command(owner: this) { (viewModel, id: Int) in try await viewModel.load(id) }
    let _: Command<Int, String, any Error> = load
    let typed = Command(owner: this, enabledIf: Property(value: true)) { viewModel throws(LoadError) in
      try await viewModel.typedLoad(-4)
    }
    let _: Command<Void, String, LoadError> = typed
    #expect(try await count.execute() == 1)
    #expect(try await load.execute(2) == "item 2")
    #expect(await commandError(of: typed, ()) == .failed(.notFound(-4)))
  }

  @Test("a failing work: execute throws .failed(error) of the work's type; errors sends the error itself, typed")
  func failed() async throws {
    let command = Command { (id: Int) throws(LoadError) -> String in
      if id < 0 { throw .notFound(id) }
      if id == 0 { throw .offline }
      return "item \(id)"
    }
    let clock = TestClock()
    let errors = Recorder(command.errors, clock: clock)
    let values = Recorder(command.values, clock: clock)
    do {
      _ = try await command.execute(-3)
      Issue.record("execute(-3) returned")
    } catch {
      let typed: CommandError<LoadError> = error  // the static type: no cast
      #expect(typed == .failed(.notFound(-3)))
      guard case .failed(.notFound(let id)) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(id == -3)
    }
    #expect(errors.values.map(\.value) == [.notFound(-3)])  // published before execute threw
    #expect(await commandError(of: command, 0) == .failed(.offline))
    #expect(try await command.execute(1) == "item 1")
    #expect(errors.values.map(\.value) == [.notFound(-3), .offline])
    #expect(values.values.map(\.value) == ["item 1"])
  }

  @Test("errors and values are typed streams in the order the runs ended; execute's outcomes match them")
  func streamsOrder() async {
    let command = Command(policy: .enqueue) { (id: Int) throws(LoadError) -> Int in
      if id.isMultiple(of: 2) { throw .notFound(id) }
      return id * 10
    }
    let lifetime = Lifetime()
    let log = Log<String>()
    command.errors.sink(in: lifetime) { (error: LoadError) in log.append("error \(error)") }
    command.values.sink(in: lifetime) { (value: Int) in log.append("value \(value)") }
    let clock = TestClock()
    let errors = Recorder(command.errors, clock: clock)
    var outcomes: [CommandError<LoadError>?] = []
    for id in 0..<5 { outcomes.append(await commandError(of: command, id)) }
    #expect(outcomes == [.failed(.notFound(0)), nil, .failed(.notFound(2)), nil, .failed(.notFound(4))])
    // Triggered: admitted in call order, run one after another under .enqueue.
    for id in 5..<9 { command.trigger(id) }
    #expect(await errors.waitForValues(count: 5).map(\.value) == [0, 2, 4, 6, 8].map { .notFound($0) })
    #expect(
      log.all == [
        "error notFound(0)", "value 10", "error notFound(2)", "value 30", "error notFound(4)",
        "value 50", "error notFound(6)", "value 70", "error notFound(8)",
      ])
  }

  @Test("a refused call throws .disabled: enabledIf false, .reject during a run; nothing on errors")
  func disabled() async throws {
    let enabled = AsyncCurrentValueSubject<Bool, Never>(false)
    let release = Latch()
    let started = Gate()
    let command = Command(enabledIf: enabled) { (id: Int) throws(LoadError) -> Int in
      started.open()
      do { try await release.pass() } catch { throw .offline }
      return id
    }
    let clock = TestClock()
    let errors = Recorder(command.errors, clock: clock)
    let refusals = Recorder(command.disabledErrors, clock: clock)
    #expect(await commandError(of: command, 1) == .disabled)
    enabled.value = true
    let first = Task { await commandError(of: command, 2) }
    await started.wait()
    #expect(await commandError(of: command, 3) == .disabled)  // .reject: one run at a time
    release.open()
    #expect(await first.value == nil)
    #expect(refusals.values.count == 2)
    #expect(errors.values.isEmpty)
  }

  @Test("a Command<_, _, Never> throws no .failed: a switch over its error has no .failed case")
  func neverFailure() async {
    let command = Command(enabledIf: Property(value: false)) { (value: Int) in value }
    do {
      _ = try await command.execute(1)
      Issue.record("execute returned")
    } catch {
      switch error {
      case .disabled: break
      case .cancelled: Issue.record("cancelled")
      case .noValue: Issue.record("noValue")
      }
    }
    let _: HotSignal<Never, Never> = command.errors
  }

  @Test("every way a run is cancelled throws .cancelled, typed, and sends nothing on errors or values")
  func cancelled() async {
    let clock = TestClock()
    // The caller's task.
    let started = Gate()
    let stuck = Command(policy: .concurrent(limit: 2)) { (id: Int) throws(LoadError) -> Int in
      if id == 0 { started.open() }
      await waitForCancellation()
      throw .offline  // a cancelled run's own error is dropped
    }
    let stuckErrors = Recorder(stuck.errors, clock: clock)
    let caller = Task { await commandError(of: stuck, 0) }
    await started.wait()
    caller.cancel()
    #expect(await caller.value == .cancelled)
    // cancel().
    let second = Gate()
    let waiting = Command(policy: .concurrent(limit: 2)) { (id: Int) throws(LoadError) -> Int in
      second.open()
      await waitForCancellation()
      return id
    }
    let run = Task { await commandError(of: waiting, 1) }
    await second.wait()
    waiting.cancel()
    #expect(await run.value == .cancelled)
    // .cancelPrevious: a later call replaces the run in flight.
    let replacedStarted = Gate()
    let latest = Command(policy: .cancelPrevious) { (id: Int) throws(LoadError) -> Int in
      if id == 0 {
        replacedStarted.open()
        await waitForCancellation()
      }
      return id
    }
    let replaced = Task { await commandError(of: latest, 0) }
    await replacedStarted.wait()
    #expect(await commandError(of: latest, 1) == nil)
    #expect(await replaced.value == .cancelled)
    // A queued caller cancelled while it waits for its turn.
    let queueRelease = Latch()
    let queueStarted = Gate()
    let queue = Command(policy: .enqueue) { (id: Int) throws(LoadError) -> Int in
      queueStarted.open()
      do { try await queueRelease.pass() } catch { throw .offline }
      return id
    }
    let head = Task { await commandError(of: queue, 0) }
    await queueStarted.wait()
    let queued = Task { await commandError(of: queue, 1) }
    queued.cancel()
    #expect(await queued.value == .cancelled)
    queueRelease.open()
    #expect(await head.value == nil)
    // The work throws CancellationError (Failure == any Error).
    let throwsCancellation: Command<Int, Int, any Error> = Command { _ in throw CancellationError() }
    let untypedErrors = Recorder(throwsCancellation.errors, clock: clock)
    let thrown = await commandError(of: throwsCancellation, 0)
    guard case .cancelled? = thrown else {
      Issue.record("the work's CancellationError gave \(String(describing: thrown))")
      return
    }
    // Command(owner:) whose owner is gone.
    let gone = WeakReference<ItemsViewModel>()
    do {
      let viewModel = ItemsViewModel()
      gone.set(viewModel)
    }
    #expect(gone.object == nil)
    let orphan = Command(owner: gone) { viewModel in viewModel.count() }
    #expect(await commandError(of: orphan, ()) == .cancelled)

    #expect(stuckErrors.values.isEmpty)
    #expect(untypedErrors.values.isEmpty)
  }

  @Test("bind(to:) and ActivityTracker.track take a command of any Failure; its failures arrive on errors, typed")
  func bindingsAndTracking() async {
    let api = ItemAPI()
    let command = Command(policy: .enqueue) { (id: Int) throws(LoadError) in try await api.typedLoad(id) }
    let tracker = ActivityTracker()
    tracker.track(executionsOf: command)
    let clock = TestClock()
    let activity = Recorder(tracker, clock: clock)
    let errors = Recorder(command.errors, clock: clock)
    let values = Recorder(command.values, clock: clock)
    let taps = AsyncPassthroughSubject<Int, Never>()
    let lifetime = Lifetime()
    taps.bind(to: command, in: lifetime)
    taps.send(-1)
    taps.send(2)
    #expect(await errors.waitForValues(count: 1).map(\.value) == [.notFound(-1)])
    #expect(await values.waitForValues(count: 1).map(\.value) == ["item 2"])
    // Both runs are one activity: under .enqueue the turn passes from the first run to the second directly.
    #expect(await activity.waitForValues(count: 3).map(\.value) == [false, true, false])
  }
}
