/// The bookkeeping of a ``Resource``: the held value, the load in flight with its waiting callers, and the
/// queue of updates.
///
/// Pure: ``ResourceStorage`` calls one method per event under its lock and acts on the returned action
/// (starts or cancels the load task, resumes callers, publishes the new value).
struct ResourceStateMachine<Value: Sendable>: Sendable {
  typealias Waiter = CheckedContinuation<Value, any Error>
  typealias UpdateTurn = CheckedContinuation<Void, any Error>

  enum LookupAction {
    /// A value is held: return it.
    case held(Value)
    /// Join (or start) a load as waiter `id`.
    case load(waiterID: Int)
  }

  enum JoinAction {
    /// The waiter is parked on the load in flight.
    case parked
    /// The waiter is parked on a new load, whose task the storage must start.
    case startLoad(id: Int)
    /// Resume the waiter at once.
    case resume(Result<Value, any Error>)
  }

  struct CompletionEffects {
    var waiters: [Waiter] = []
    var result: Result<Value, any Error> = .failure(CancellationError())
    /// The value to publish, if the load's result was stored.
    var stored: Value?
  }

  struct CancelEffects {
    var task: Task<Void, Never>?
    var waiters: [Waiter] = []
  }

  enum UpdateAction {
    case parked
    case resume(Result<Void, any Error>)
  }

  private struct Load {
    let id: Int
    /// `version` when the load started: a result older than a stored update is not stored.
    let version: Int
    var task: Task<Void, Never>?
    var waiters: [Int: Waiter] = [:]
  }

  private(set) var held: Value?
  /// Bumped on every store.
  private var version = 0
  private var load: Load?
  private var nextID = 0
  private var updating = false
  private var updateQueue: [(id: Int, turn: UpdateTurn)] = []
  private(set) var isClosed = false

  // MARK: Loading

  /// `value()` (`force == false`) or `refresh()` (`force == true`) begins.
  mutating func lookUp(force: Bool) -> LookupAction {
    if !force, let held { return .held(held) }
    return .load(waiterID: makeID())
  }

  /// Waiter `id` parks; `cancelled` says whether its task was cancelled already.
  mutating func join(_ id: Int, _ waiter: Waiter, force: Bool, cancelled: Bool) -> JoinAction {
    if cancelled || isClosed { return .resume(.failure(CancellationError())) }
    // Between `lookUp` and now, a load may have finished.
    if !force, let held { return .resume(.success(held)) }
    if load != nil {
      load!.waiters[id] = waiter
      return .parked
    }
    let loadID = makeID()
    load = Load(id: loadID, version: version, waiters: [id: waiter])
    return .startLoad(id: loadID)
  }

  /// Records the task of load `id`; returns `true` if the load was cancelled before its task existed.
  mutating func attach(_ task: Task<Void, Never>, toLoad id: Int) -> Bool {
    guard load?.id == id else { return true }
    load!.task = task
    return false
  }

  /// Waiter `id`'s task was cancelled: it leaves (the load goes on for the others and for the cache).
  mutating func leave(_ id: Int) -> Waiter? {
    load?.waiters.removeValue(forKey: id)
  }

  /// Load `id` ended with `result`.
  mutating func complete(_ id: Int, with result: Result<Value, any Error>) -> CompletionEffects {
    // A cancelled load's late result is dropped.
    guard let finished = load, finished.id == id else { return CompletionEffects() }
    load = nil
    var completion = CompletionEffects(waiters: Array(finished.waiters.values))
    switch result {
    case .success(let value) where version == finished.version:
      store(value)
      completion.stored = value
      completion.result = .success(value)
    case .success:
      // An update stored a newer value while this load ran: that one stands.
      guard let held else { preconditionFailure("Internal inconsistency: a stored update left no value") }
      completion.result = .success(held)
    case .failure(let error):
      completion.result = .failure(error)
    }
    return completion
  }

  /// `cancel()`: the load in flight stops; its waiters get `CancellationError`.
  mutating func cancelLoad() -> CancelEffects {
    guard let cancelled = load else { return CancelEffects() }
    load = nil
    return CancelEffects(task: cancelled.task, waiters: Array(cancelled.waiters.values))
  }

  /// The resource was released.
  mutating func close() -> CancelEffects {
    isClosed = true
    return cancelLoad()
  }

  // MARK: Updating

  mutating func makeUpdateID() -> Int { makeID() }

  /// Update `id` waits for its turn; `cancelled` says whether its task was cancelled already.
  mutating func enqueueUpdate(_ id: Int, _ turn: UpdateTurn, cancelled: Bool) -> UpdateAction {
    if cancelled { return .resume(.failure(CancellationError())) }
    guard updating else {
      updating = true
      return .resume(.success(()))
    }
    updateQueue.append((id, turn))
    return .parked
  }

  /// Update `id`'s task was cancelled while it waited: returns its turn to resume with `CancellationError`.
  mutating func leaveUpdateQueue(_ id: Int) -> UpdateTurn? {
    guard let index = updateQueue.firstIndex(where: { $0.id == id }) else { return nil }
    return updateQueue.remove(at: index).turn
  }

  /// The running update ended: returns the next one's turn.
  mutating func finishUpdate() -> UpdateTurn? {
    precondition(updating, "Internal inconsistency: an update finished while none was running")
    guard !updateQueue.isEmpty else {
      updating = false
      return nil
    }
    return updateQueue.removeFirst().turn
  }

  /// Stores `value` (a load's or an update's result).
  mutating func store(_ value: Value) {
    held = value
    version += 1
  }

  private mutating func makeID() -> Int {
    defer { nextID += 1 }
    return nextID
  }
}
