/// The lock, the load task and the `values` subject of a ``Resource``.
///
/// Kept apart from the resource so that its load task can deliver results without keeping the resource
/// alive: when the resource is released, its `deinit` closes the storage, which cancels the load.
final class ResourceStorage<Value: Sendable>: Sendable {
  typealias Machine = ResourceStateMachine<Value>

  /// What the resource publishes on `values`.
  enum Publication: Sendable {
    /// A load or an update stored this value.
    case stored(Value)
    /// The resource was released: `values` finishes.
    case closed
  }

  /// Feeds ``Resource/values`` (its hot signal): replays the latest stored value to a new consumer.
  let values = AsyncReplaySubject<Value, Never>(bufferSize: 1)
  private let load: @Sendable () async throws -> Value
  private let state = Locked(Machine())
  /// What the resource publishes, queued under its lock (so in the order the stores happened) and delivered after
  /// it: publishing runs user code (hot operators, sinks, Observation `onChange`), which may call the resource
  /// again (`cancel()`, `value()`, a refresh or an update started from a sink). What such a call stores goes out
  /// after the current publication, never recursively.
  private let publications = PublicationQueue<Publication>()

  init(load: @escaping @Sendable () async throws -> Value) {
    self.load = load
  }

  // MARK: Loading

  /// The held value, or the result of the load in flight (started if there is none).
  func value(force: Bool) async throws -> Value {
    let waiterID: Int
    switch state.withLock({ $0.lookUp(force: force) }) {
    case .held(let value): return value
    case .load(let id): waiterID = id
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (waiter: Machine.Waiter) in
        // `Task.isCancelled` is read under the lock: if the cancellation handler ran before the waiter
        // joined, it found nothing to remove, and this check sees the cancellation instead.
        let action = state.withLock { $0.join(waiterID, waiter, force: force, cancelled: Task.isCancelled) }
        switch action {
        case .parked: break
        case .resume(let result): waiter.resume(with: result)
        case .startLoad(let loadID): startLoad(loadID)
        }
      }
    } onCancel: {
      let waiter = state.withLock { $0.leave(waiterID) }
      waiter?.resume(throwing: CancellationError())
    }
  }

  private func startLoad(_ id: Int) {
    // The task holds the storage, never the resource.
    let task = Task(named: "Resource load") { [self, load] in
      let result: Result<Value, any Error>
      do {
        result = .success(try await load())
      } catch {
        result = .failure(error)
      }
      complete(id, with: result)
    }
    if state.withLock({ $0.attach(task, toLoad: id) }) { task.cancel() }
  }

  private func complete(_ id: Int, with result: Result<Value, any Error>) {
    let completion = state.withLock { machine -> Machine.CompletionEffects in
      let completion = machine.complete(id, with: result)
      if let stored = completion.stored { publications.enqueue(.stored(stored)) }
      return completion
    }
    // Published before the callers resume: when `value()` or `refresh()` returns, `values` has delivered what the
    // load stored (unless another thread is delivering, which then delivers it next).
    flushPublications()
    for waiter in completion.waiters { waiter.resume(with: completion.result) }
  }

  // MARK: Updating

  /// Runs `operation` on the current value once the updates before it are done, and stores its result.
  func update(_ operation: @Sendable (Value) async throws -> Value) async throws -> Value {
    try await waitForUpdateTurn()
    defer { finishUpdate() }
    let current = try await value(force: false)
    let updated = try await operation(current)
    state.withLock { machine in
      machine.store(updated)
      publications.enqueue(.stored(updated))
    }
    flushPublications()
    return updated
  }

  private func waitForUpdateTurn() async throws {
    let id = state.withLock { $0.makeUpdateID() }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (turn: Machine.UpdateTurn) in
        let action = state.withLock { $0.enqueueUpdate(id, turn, cancelled: Task.isCancelled) }
        if case .resume(let result) = action { turn.resume(with: result) }
      }
    } onCancel: {
      let turn = state.withLock { $0.leaveUpdateQueue(id) }
      turn?.resume(throwing: CancellationError())
    }
  }

  private func finishUpdate() {
    let next = state.withLock { $0.finishUpdate() }
    next?.resume()
  }

  // MARK: Control

  /// Cancels the load in flight; its callers get `CancellationError`.
  func cancel() {
    apply(state.withLock { $0.cancelLoad() })
  }

  /// The resource was released: cancel the load and finish `values` (after any value still queued).
  func close() {
    let cancellation = state.withLock { machine -> Machine.CancelEffects in
      let cancellation = machine.close()
      publications.enqueue(.closed)
      return cancellation
    }
    apply(cancellation)
    flushPublications()
  }

  private func apply(_ cancellation: Machine.CancelEffects) {
    for waiter in cancellation.waiters { waiter.resume(throwing: CancellationError()) }
    cancellation.task?.cancel()
  }

  // MARK: Publishing

  /// Delivers the queued publications; called with no lock held.
  private func flushPublications() {
    publications.flush { [values] publication in
      switch publication {
      case .stored(let value): values.send(value)
      case .closed: values.finish()
      }
    }
  }
}
