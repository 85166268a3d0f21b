/// The bookkeeping of a ``Command``: the runs in flight, the callers waiting for their turn (`.enqueue`), and
/// what the `executing` and "open" (the policy would admit another run) states last published. `enabledIf` is
/// not kept here: the storage reads it at each admission and passes it in.
///
/// Pure: ``CommandStorage`` calls one method per event under its lock and acts on the returned action
/// (publishes changes, cancels tasks, resumes waiting callers).
///
/// Deliberately not generic: a command is used from other modules, where generic code runs unspecialised,
/// and every generic type it forms (a dictionary of generic runs, a generic tuple) costs a metadata lookup
/// per call. Runs are therefore held as type-erased cancellers.
package struct CommandStateMachine: Sendable {
  /// Cancels a run's task.
  package typealias Canceller = @Sendable () -> Void
  /// A caller waiting for its turn under `.enqueue`; resumed with `true` for "run now", `false` for
  /// "cancelled while waiting".
  package typealias Turn = CheckedContinuation<Bool, Never>

  /// What to publish; `nil` means unchanged (the properties publish changes only).
  package struct Changes: Equatable {
    package var executing: Bool?
    /// Whether the command would admit another run, `enabledIf` aside: not released, and under the policy's
    /// limit.
    package var open: Bool?

    package init(executing: Bool? = nil, open: Bool? = nil) {
      self.executing = executing
      self.open = open
    }
  }

  package enum AdmitAction {
    /// Refuse the call: the work must not start.
    case disabled
    /// Start run `id` now, after cancelling `cancel` (`.cancelPrevious`).
    case run(id: Int, changes: Changes, cancel: [Canceller])
    /// Wait for a turn (`.enqueue`), then run as `id`.
    case wait(id: Int)
  }

  package enum ParkAction {
    /// The turn is not there yet: keep the continuation.
    case park
    /// Resume the continuation at once (`true`: run now; `false`: cancelled).
    case resume(Bool)
  }

  package struct FinishEffects {
    /// The run was cancelled: its caller gets `CommandError.cancelled`, nothing is published.
    package var cancelled: Bool
    package var changes: Changes
    /// The next waiting caller, whose turn it is now.
    package var next: Turn?
    /// The command was released and this was its last run: finish the streams.
    package var endStreams: Bool
  }

  package struct CancelEffects {
    package var tasks: [Canceller] = []
    package var turns: [Turn] = []
    package var endStreams = false
  }

  private struct Run {
    var task: Canceller?
    var cancelled = false
  }

  private enum Waiter {
    /// In the queue; the continuation is `nil` until the caller parks.
    case queued(Turn?)
    /// Its turn came before it parked: it is already counted in `runs`.
    case granted
    /// Cancelled before it parked.
    case cancelled
  }

  private let policy: CommandPolicy.Kind
  private var runs: [Int: Run] = [:]
  /// Waiting ids in call order.
  private var queue: [Int] = []
  private var waiters: [Int: Waiter] = [:]
  private var nextID = 0
  private var publishedExecuting = false
  private var publishedOpen = true
  private var closed = false
  private var streamsEnded = false

  package init(policy: CommandPolicy) {
    self.policy = policy.kind
  }

  // MARK: Events

  /// A caller wants to run; `enabled` is the value of `enabledIf` read for this call.
  package mutating func admit(enabled: Bool) -> AdmitAction {
    guard enabled, !closed else { return .disabled }
    switch policy {
    case .limit(let limit):
      guard runs.count < limit else { return .disabled }
      return startRun(cancel: [])
    case .enqueue:
      // A turn is handed over directly from a finishing run to the next waiter, so an empty `runs` means an
      // empty queue.
      guard !runs.isEmpty else { return startRun(cancel: []) }
      let id = makeID()
      queue.append(id)
      waiters[id] = .queued(nil)
      return .wait(id: id)
    case .cancelPrevious:
      var tasks: [Canceller] = []
      for id in runs.keys {
        runs[id]!.cancelled = true
        if let task = runs[id]!.task { tasks.append(task) }
      }
      return startRun(cancel: tasks)
    }
  }

  /// Records what cancels run `id`; returns `true` if the run was cancelled before its task existed.
  package mutating func attach(_ task: @escaping Canceller, to id: Int) -> Bool {
    // The run may have finished already: its work completed before `Task.immediate` returned.
    guard runs[id] != nil else { return false }
    runs[id]!.task = task
    return runs[id]!.cancelled
  }

  /// Whether run `id` is in flight (admitted and not finished).
  package func isRunning(_ id: Int) -> Bool {
    runs[id] != nil
  }

  /// Whether run `id` was cancelled before it started (a granted waiter checks this before starting).
  package func isCancelled(_ id: Int) -> Bool {
    guard let run = runs[id] else {
      preconditionFailure("Internal inconsistency: checking a run that is not in flight")
    }
    return run.cancelled
  }

  /// Waiter `id` parks with `turn`.
  package mutating func park(_ id: Int, _ turn: Turn) -> ParkAction {
    switch waiters[id] {
    case .queued(nil):
      waiters[id] = .queued(turn)
      return .park
    case .granted:
      waiters[id] = nil
      return .resume(true)
    case .cancelled:
      waiters[id] = nil
      return .resume(false)
    case .queued(.some), nil:
      preconditionFailure("Internal inconsistency: a waiter parked twice or after it left")
    }
  }

  /// Waiter `id`'s task was cancelled; returns the continuation to resume with `false`, if it parked.
  package mutating func cancelWaiter(_ id: Int) -> Turn? {
    guard case .queued(let turn) = waiters[id] else {
      // Granted (it notices the cancellation when it resumes), cancelled already, or gone.
      return nil
    }
    queue.removeAll { $0 == id }
    if let turn {
      waiters[id] = nil
      return turn
    }
    waiters[id] = .cancelled
    return nil
  }

  /// Run `id` ended; `taskCancelled` says whether its task was cancelled (by its caller).
  package mutating func finish(_ id: Int, taskCancelled: Bool) -> FinishEffects {
    guard let run = runs.removeValue(forKey: id) else {
      preconditionFailure("Internal inconsistency: a run finished twice")
    }
    var next: Turn?
    if !queue.isEmpty {
      let nextID = queue.removeFirst()
      runs[nextID] = Run()
      switch waiters[nextID] {
      case .queued(let turn?):
        waiters[nextID] = nil
        next = turn
      case .queued(nil):
        waiters[nextID] = .granted
      case .granted, .cancelled, nil:
        preconditionFailure("Internal inconsistency: a queued id is not waiting")
      }
    }
    return FinishEffects(
      cancelled: run.cancelled || taskCancelled,
      changes: changes(),
      next: next,
      endStreams: endStreamsIfDone()
    )
  }

  /// `cancel()`: cancels every run in flight and every waiting caller.
  package mutating func cancelAll() -> CancelEffects {
    var cancellation = CancelEffects()
    for id in runs.keys {
      runs[id]!.cancelled = true
      if let task = runs[id]!.task { cancellation.tasks.append(task) }
    }
    for id in queue {
      switch waiters[id] {
      case .queued(let turn?):
        waiters[id] = nil
        cancellation.turns.append(turn)
      case .queued(nil):
        waiters[id] = .cancelled
      case .granted, .cancelled, nil:
        preconditionFailure("Internal inconsistency: a queued id is not waiting")
      }
    }
    queue = []
    return cancellation
  }

  /// Whether a run is running or waiting for its turn.
  package var hasRunsInFlight: Bool { !runs.isEmpty || !queue.isEmpty }

  /// The command was released: cancel everything, refuse new calls, end the streams after the last run.
  package mutating func close() -> CancelEffects {
    closed = true
    var cancellation = cancelAll()
    cancellation.endStreams = endStreamsIfDone()
    return cancellation
  }

  // MARK: Helpers

  private mutating func makeID() -> Int {
    defer { nextID += 1 }
    return nextID
  }

  private mutating func startRun(cancel: [Canceller]) -> AdmitAction {
    let id = makeID()
    runs[id] = Run()
    return .run(id: id, changes: changes(), cancel: cancel)
  }

  private var policyAllowsAnotherRun: Bool {
    switch policy {
    case .limit(let limit): return runs.count < limit
    case .enqueue, .cancelPrevious: return true
    }
  }

  private mutating func changes() -> Changes {
    var changes = Changes()
    let executing = !runs.isEmpty
    if executing != publishedExecuting {
      publishedExecuting = executing
      changes.executing = executing
    }
    let open = !closed && policyAllowsAnotherRun
    if open != publishedOpen {
      publishedOpen = open
      changes.open = open
    }
    return changes
  }

  private mutating func endStreamsIfDone() -> Bool {
    guard closed, runs.isEmpty, !streamsEnded else { return false }
    streamsEnded = true
    return true
  }
}
