import Synchronization

/// The lock, the run tasks and the output subjects of a ``Command``.
///
/// Kept apart from the command so that the runs and the `enabledIf` observation can reach it without
/// keeping the command alive: when the command is released, its `deinit` closes the storage, which cancels
/// what is in flight.
///
/// Its functions throw untyped, carrying ``CommandError`` values that ``Command/execute(_:)`` casts back once, on
/// the failure path: a `throws(CommandError<Failure>)` call in this generic code needs the error type's metadata
/// for its error buffer, a generic look-up on every call, success included (measured: +18 % on a round trip
/// when every step of a run was typed).
final class CommandStorage<Input: Sendable, Output: Sendable, Failure: Error>: Sendable {
  typealias Machine = CommandStateMachine

  /// What each run does: throws the `Failure` of the command, or `CancellationError` (a run that could not start,
  /// or work that stopped because it was cancelled).
  enum Work {
    /// One value per run: the run's result is what the work returns, sent on `values` when the run ends.
    case value(@Sendable (Input) async throws -> Output)
    /// A sequence per run (`Command.signal`): the work sends each element through `publish`, which puts it on
    /// `values` at once and returns whether the run goes on (`false` once it was cancelled: the work stops
    /// iterating). It returns the last element, already published, or `nil` if there was none.
    case elements(Elements)
  }

  /// What `Work.elements` holds.
  typealias Elements = @Sendable (Input, _ publish: @Sendable (Output) -> Bool) async throws -> Output?

  /// The work of `.value`; for `.elements` a stand-in that is never called. Kept apart from `elements`, rather than
  /// as the `Work` that a run would switch over, so that a run of one-value work calls it as it did before sequences
  /// existed (measured: a switch over `Work` in each run cost 5 to 7 % of a round trip).
  private let valueWork: @Sendable (Input) async throws -> Output
  /// The work of `.elements`; `nil` for `.value`.
  private let elements: Elements?
  let executing = AsyncCurrentValueSubject<Bool, Never>(false)
  /// Whether the policy would admit another run (`enabledIf` aside); `nil` once the command was released, so
  /// that `isEnabled`'s consumers can finish although `enabledIf` lives on.
  let open = AsyncCurrentValueSubject<Bool?, Never>(true)
  /// Read at each admission; `nil` for a command that is always enabled.
  let enabledIf: Property<Bool>?
  let values = AsyncPassthroughSubject<Output, Never>()
  let starts = AsyncPassthroughSubject<Input, Never>()
  let errors = AsyncPassthroughSubject<Failure, Never>()
  let disabledErrors = AsyncPassthroughSubject<Void, Never>()
  private let state: Locked<Machine>
  /// Set by `Command.debug`; read only when `isDebugged` says so, so that an undebugged command pays one
  /// relaxed load per event.
  private let debugger = Locked<CommandDebugger?>(nil)
  /// Trackers fed by this command (`ActivityTracker.track(executionsOf:)`), and the activity each holds while executing.
  private let trackers = Locked<[(tracker: ActivityTracker, token: ActivityToken?)]>([])
  private let isDebugged = Atomic<Bool>(false)
  /// Whether `trackers` has any: written and read under the command's lock, so that a command nobody tracks
  /// takes no second lock per `executing` change.
  private let isTracked = Atomic<Bool>(false)
  /// What the command publishes, queued under its lock (so in the order of its transitions) and delivered after
  /// it: publishing runs user code (hot graphs, sinks, Observation `onChange`), which may call the command again.
  /// Of a type that is not generic over `Output` (see ``CommandPublication``): the queue's type is then the same
  /// for every command, so its metadata is a cached global instead of a generic look-up on every publication
  /// (measured: the look-ups took ~10 % of a round trip and slowed it enough that the `executing` observer parked
  /// between runs).
  private let publications = PublicationQueue<CommandPublication>()

  init(policy: CommandPolicy, enabledIf: Property<Bool>?, work: Work) {
    switch work {
    case .value(let work):
      valueWork = work
      elements = nil
    case .elements(let work):
      valueWork = { _ in preconditionFailure("Internal inconsistency: a sequence's command ran its one-value work") }
      elements = work
    }
    self.enabledIf = enabledIf
    self.state = Locked(Machine(policy: policy))
  }

  // MARK: Debugging

  func setDebugger(_ debugger: CommandDebugger) {
    self.debugger.withLock { $0 = debugger }
    isDebugged.store(true, ordering: .releasing)
  }

  private func report(_ event: @autoclosure () -> String) {
    guard isDebugged.load(ordering: .acquiring), let debugger = debugger.withLock({ $0 }) else { return }
    debugger.report(event())
  }

  // MARK: Running

  /// `execute`: admission, the wait for a turn if there is one, then the run, awaited. **Throws:** a
  /// `CommandError<Failure>`.
  nonisolated(nonsending) func execute(_ input: Input) async throws -> Output {
    guard !Task.isCancelled else { throw CommandError<Failure>.cancelled }
    let id: Int
    switch try admit() {
    case .run(let runID): id = runID
    case .wait(let waitID):
      try await waitForTurn(waitID)
      id = waitID
    }
    let (task, ended) = start(id, input, named: false)
    // Quick work has ended before `start` returned (the immediate task ran it to its end): there is no run left
    // for the caller's cancellation to cancel, so no handler to install and remove (two status-record locks).
    if ended { return try await task.value }
    return try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
  }

  /// What `execute` threw, typed again.
  static func typed(_ error: any Error) -> CommandError<Failure> {
    guard let error = error as? CommandError<Failure> else {
      preconditionFailure("Internal inconsistency: a command run threw \(type(of: error))")
    }
    return error
  }

  /// `trigger`: admission now (so that call order and the disabled check are those of the call), the run in
  /// a task of its own.
  func trigger(_ input: Input) {
    let admission: Admitted
    do { admission = try admit() } catch { return }
    switch admission {
    case .run(let id):
      // The work starts in place and runs until it first waits (RxSwift's Action runs its work inside
      // `execute`): work that never really waits (a stub, a cached answer) has finished, and its value has been
      // published, when `trigger` returns, even if the command is released on the next line. A button handler is
      // held up only by that synchronous part.
      _ = start(id, input, named: true)
    case .wait(let id):
      Task(named: "Command queued trigger") { [self] in
        try await waitForTurn(id)
        let (task, _) = start(id, input, named: true)
        try await withTaskCancellationHandler {
          _ = try await task.value
        } onCancel: {
          task.cancel()
        }
      }
    }
  }

  private enum Admitted {
    case run(Int)
    case wait(Int)
  }

  /// **Throws:** `CommandError<Failure>.disabled`.
  private func admit() throws -> Admitted {
    // Read now, outside the lock (it may run the user's `map` closures): the call is admitted or refused on
    // the state of `enabledIf` at the moment of the call, never on a value a task has yet to deliver.
    let enabled = enabledIf?.value ?? true
    var toCancel: [Machine.Canceller] = []
    let admission = state.withLock { machine -> Admitted? in
      switch machine.admit(enabled: enabled) {
      case .disabled:
        return nil
      case .run(let id, let changes, let cancel):
        publish(changes)
        toCancel = cancel
        return .run(id)
      case .wait(let id):
        return .wait(id)
      }
    }
    flushPublications()
    for cancel in toCancel { cancel() }
    guard let admission else {
      report("refused: disabled")
      disabledErrors.send(())
      throw CommandError<Failure>.disabled
    }
    return admission
  }

  /// Waits until waiter `id`'s turn comes. **Throws:** `.cancelled` if its task or the command was cancelled
  /// first (the turn, if it came, is handed on).
  private func waitForTurn(_ id: Int) async throws {
    let granted = await withTaskCancellationHandler {
      await withCheckedContinuation { (turn: Machine.Turn) in
        let action = state.withLock { $0.park(id, turn) }
        if case .resume(let granted) = action { turn.resume(returning: granted) }
      }
    } onCancel: {
      let turn = state.withLock { $0.cancelWaiter(id) }
      turn?.resume(returning: false)
    }
    guard granted else { throw CommandError<Failure>.cancelled }
    if Task.isCancelled || state.withLock({ $0.isCancelled(id) }) {
      end(id, taskCancelled: true) { _ in nil }
      throw CommandError<Failure>.cancelled
    }
  }

  /// Starts run `id`: its work begins at once, in a task that `cancel()` and `.cancelPrevious` can cancel.
  ///
  /// `named`: whether the task says "Command run" to a debugger. Not for an awaited `execute`, whose run serves the
  /// caller's task (the one a debugger shows waiting in `execute`): a name is a record the runtime adds to the
  /// task and walks on every executor check, ~12 % of a round trip.
  /// Returns the run's task and whether the run had ended already when it was attached.
  private func start(_ id: Int, _ input: Input, named: Bool) -> (Task<Output, any Error>, ended: Bool) {
    report("start: \(input)")
    starts.send(input)
    let task: Task<Output, any Error>
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      // An immediate task runs the work synchronously up to its first suspension: no scheduling round trip,
      // which is most of the cost of a task.
      // Counted without a token object (an allocation per run): an immediate task's operation always runs.
      let scope = ResourceCounters.acquireTask(.task("Command run"))
      let (executor, escape) = TaskPlacementHook.place(
        taskNamed: "Command run", executor: TaskExecutorContext.preferred)
      task = Task.immediate(name: named ? "Command run" : nil, executorPreference: executor) {
        [self] in
        defer {
          ResourceCounters.releaseTask(.task("Command run"), in: scope)
          withExtendedLifetime(escape) {}
        }
        return try await runBody(id, input)
      }
    } else {
      task = Task(named: "Command run") { [self] in try await runBody(id, input) }
    }
    return (task, attach(task, to: id))
  }

  /// Gives run `id` its task, for `cancel()` and `.cancelPrevious`. Returns whether the run had ended already.
  @discardableResult
  private func attach(_ task: Task<Output, any Error>, to id: Int) -> Bool {
    let (ended, cancelNow) = state.withLock { machine -> (Bool, Bool) in
      // Most runs of quick work have finished by now (the immediate task ran them to the end): no canceller to
      // make for them.
      guard machine.isRunning(id) else { return (true, false) }
      return (false, machine.attach({ task.cancel() }, to: id))
    }
    if cancelNow { task.cancel() }
    return ended
  }

  /// The body of a run's task: the work, then the bookkeeping, then the caller's result. A run that was
  /// cancelled ends in `.cancelled`, whatever the work returned or threw; so does a work that threw
  /// `CancellationError` (the work's way of saying it stopped, as for any task). A sequence's run has published its
  /// elements as they came: it ends with its last one, published already, or in `.noValue` if there was none.
  private nonisolated(nonsending) func runBody(_ id: Int, _ input: Input) async throws -> Output {
    let output: Output
    // Whether `output` went to `values` already: the last element of a sequence.
    let published: Bool
    do {
      if let elements {
        output = try await lastElement(id, input, elements)
        published = true
      } else {
        output = try await valueWork(input)
        published = false
      }
    } catch {
      // The work throws only `Failure` (boxed by the conversion of its typed closure) or `CancellationError`;
      // `NoValue` is the sequence that sent nothing.
      let noValue = error is NoValue
      let failure = noValue || error is CancellationError ? nil : error as? Failure
      let cancelled = end(id, taskCancelled: Task.isCancelled) { cancelled -> CommandPublication? in
        guard !cancelled, let failure else {
          report(!cancelled && noValue ? "finished without a value" : "cancelled")
          return nil
        }
        report("failure: \(failure)")
        return .other { [errors] in errors.send(failure) }
      }
      if !cancelled, noValue { throw CommandError<Failure>.noValue }
      guard !cancelled, let failure else { throw CommandError<Failure>.cancelled }
      throw CommandError<Failure>.failed(failure)
    }
    let cancelled = end(id, taskCancelled: Task.isCancelled) { cancelled -> CommandPublication? in
      if cancelled {
        report("cancelled")
        return nil
      }
      guard !published else {
        report("finished")
        return nil
      }
      report("value: \(output)")
      return .other { [values] in values.send(output) }
    }
    if cancelled { throw CommandError<Failure>.cancelled }
    return output
  }

  /// A sequence's run finished without an element.
  private struct NoValue: Error {}

  /// Runs a sequence's work for run `id`, each element published as it comes; returns the last one. **Throws:** what
  /// the work throws, or `NoValue`.
  private nonisolated(nonsending) func lastElement(_ id: Int, _ input: Input, _ work: Elements) async throws -> Output {
    guard let last = try await work(input, { [self] element in publish(element, of: id) }) else { throw NoValue() }
    return last
  }

  /// Publishes `element`, sent by run `id`'s sequence, on `values` at once, unless the run was cancelled: then nothing
  /// more of it is published. Returns whether the run goes on.
  private func publish(_ element: Output, of id: Int) -> Bool {
    // Checked and queued under the lock, as a run's end is: an element of a run that `.cancelPrevious` replaced is
    // never sent after the run that replaced it started.
    let live = state.withLock { machine -> Bool in
      guard !Task.isCancelled, !machine.isCancelled(id) else { return false }
      report("value: \(element)")
      publications.enqueue(.other { [values] in values.send(element) })
      return true
    }
    flushPublications()
    return live
  }

  /// Ends run `id`: its outcome (what `result` makes of it, told whether the run was cancelled) is published,
  /// then the new state, and the turn is handed on. Returns whether the run was cancelled.
  @discardableResult
  private func end(_ id: Int, taskCancelled: Bool, result: (Bool) -> CommandPublication?) -> Bool {
    var next: Machine.Turn?
    let cancelled = state.withLock { machine -> Bool in
      let finish = machine.finish(id, taskCancelled: taskCancelled)
      // Queued under the lock: `executing` must read false → true → false in the order the transitions
      // happened, and a result dropped by `.cancelPrevious` must never be sent after the run that replaced it
      // started. Delivered after it (`flushPublications`), since delivering runs user code.
      let outcome = result(finish.cancelled)
      publications.enqueue { pending in
        if let outcome { pending.append(outcome) }
        Self.append(finish.changes, to: &pending)
        if finish.endStreams { pending.append(.other { [self] in endStreams() }) }
      }
      next = finish.next
      return finish.cancelled
    }
    flushPublications()
    next?.resume(returning: true)
    return cancelled
  }

  // MARK: Control

  /// Cancels every run and every waiting caller.
  func cancelAll() {
    apply(state.withLock { $0.cancelAll() })
  }

  /// The command was released: closes it (see the state machine's `close()`). Returns whether runs were in flight,
  /// cancelled now.
  @discardableResult
  func close() -> Bool {
    let (inFlight, cancellation) = state.withLock { ($0.hasRunsInFlight, $0.close()) }
    apply(cancellation)
    return inFlight
  }

  private func apply(_ cancellation: Machine.CancelEffects) {
    for turn in cancellation.turns { turn.resume(returning: false) }
    for cancel in cancellation.tasks { cancel() }
    if cancellation.endStreams {
      publications.enqueue(.other { [self] in endStreams() })
      flushPublications()
    }
  }

  /// Called under the lock, so that changes are queued in the order they happened.
  private func publish(_ changes: Machine.Changes) {
    publications.enqueue { Self.append(changes, to: &$0) }
  }

  /// The publications of a change of state, in the order they are published.
  private static func append(_ changes: Machine.Changes, to pending: inout [CommandPublication]) {
    if let executing = changes.executing { pending.append(.executing(executing)) }
    if let open = changes.open { pending.append(.open(open)) }
  }

  /// Delivers the queued publications; called with no lock held.
  private func flushPublications() {
    publications.flush { publication in
      switch publication {
      case .executing(let executing):
        self.executing.send(executing)
        trackExecuting(executing)
      case .open(let open):
        self.open.send(open)
      case .other(let deliver):
        deliver()
      }
    }
  }

  /// Begins or ends the trackers' activity as `executing` changes. Called by the one thread delivering the
  /// command's publications, so the trackers see the changes in order.
  private func trackExecuting(_ executing: Bool) {
    guard isTracked.load(ordering: .relaxed) else { return }
    // Only the delivering thread touches the list; the tracker's begin and end run with no lock held (they
    // publish the tracker's count, which runs user code).
    var list = trackers.withLock { $0 }
    for index in list.indices {
      if executing {
        if list[index].token == nil { list[index].token = list[index].tracker.begin() }
      } else {
        list[index].token?.end()
        list[index].token = nil
      }
    }
    trackers.withLock { $0 = list }
  }

  /// Feeds `tracker` from now on: it is active while this command executes.
  func addTracker(_ tracker: ActivityTracker) {
    // Through the publications, so that the tracker starts from the `executing` of the last change published
    // before it and sees every later one.
    publications.enqueue(
      .other { [self] in
        let executing = self.executing.value
        trackers.withLock { $0.append((tracker, executing ? tracker.begin() : nil)) }
        isTracked.store(true, ordering: .relaxed)
      })
    flushPublications()
  }

  private func endStreams() {
    executing.finish()
    starts.finish()
    // `nil` for good, not finished: a finished subject gives a late consumer only its end, and `isEnabled`, which
    // combines `open` with a live `enabledIf`, would then never end for it.
    open.send(nil)
    values.finish()
    errors.finish()
    disabledErrors.finish()
  }
}

/// What a command publishes after its lock, in the order its transitions happened. Not generic (it is declared
/// outside ``CommandStorage``): its metadata is a global constant, and the two changes every run makes
/// (`executing`, and `isEnabled`'s `open` under `.reject`) are stored inline, with no closure to allocate.
enum CommandPublication: Sendable {
  case executing(Bool)
  case open(Bool)
  /// A result, an error, the streams' end or a tracker joining: whatever the closure sends.
  case other(@Sendable () -> Void)
}
