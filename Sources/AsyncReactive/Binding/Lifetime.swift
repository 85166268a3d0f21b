/// Owns tasks and observations and ends them all when it ends: explicitly with ``cancel()``, or when it is
/// deinitialised.
///
/// The counterpart of RxSwift's `DisposeBag`, ReactiveSwift's `Lifetime` and Combine's
/// `Set<AnyCancellable>`. A view keeps one for as long as it shows a view model; everything it observes or
/// binds in that lifetime stops with it.
///
/// ```swift
/// final class SearchView {
///   let lifetime = Lifetime()
///   func bind(to viewModel: SearchViewModel) {
///     viewModel.results.observe(in: lifetime) { results in print(results) }
///   }
/// }   // deinit of the view → deinit of the lifetime → the observation is cancelled
/// ```
public final class Lifetime: Sendable {
  private struct State: Sendable {
    var tasks: [Int: Task<Void, Never>] = [:]
    /// The observations that need no task (a subject's `sink`, an observation of a hot source), by slot; removed
    /// when they end first.
    var members: [Int: any LifetimeMember] = [:]
    /// Slots whose work finished before it could be recorded (so it is never recorded).
    var finishedEarly: Set<Int> = []
    var onEnd: [@Sendable () -> Void] = []
    var nextID = 0
    var ended = false
  }

  private let state = Locked(State())

  /// Creates a lifetime that has not ended.
  ///
  /// ```swift
  /// let lifetime = Lifetime()
  /// ```
  public init() {}

  deinit { cancel() }

  /// Whether ``cancel()`` was called. (A deinitialised lifetime cannot be asked.)
  public var hasEnded: Bool { state.withLock { $0.ended } }

  /// How many owned tasks are still running: a finished task removes itself, so the count never grows
  /// with finished work.
  package var taskCount: Int { state.withLock { $0.tasks.count } }

  /// How many task-free observations (a subject's `sink`) this lifetime still ends: one that ended by
  /// itself removes itself, so the count never grows with finished observations.
  package var observationCount: Int { state.withLock { $0.members.count } }

  /// Runs `operation` in a new task owned by this lifetime; if the lifetime has ended, the task is
  /// cancelled at once.
  ///
  /// ```swift
  /// lifetime.run(name: "refresh on appear") { await viewModel.refresh() }
  /// ```
  /// - Parameters:
  ///   - name: the task's name, shown by debuggers and task dumps (where the platform names tasks).
  ///   - priority: the task's priority.
  ///   - operation: the work; it runs isolated to whatever it is isolated to.
  /// - Returns: the task, for callers that want to await it.
  @discardableResult
  public func run(
    name: String? = nil,
    priority: TaskPriority? = nil,
    _ operation: sending @escaping @isolated(any) () async -> Void
  ) -> Task<Void, Never> {
    let slot = reserve()
    let task = Task(named: name ?? "Lifetime.run", priority: priority) {
      await operation()
      slot.done()
    }
    return adopt(task, in: slot)
  }

  /// A place for one task of this lifetime: reserved before the task exists, so that the task can tell the
  /// lifetime when it is done (and be forgotten) even if it finishes before ``adopt(_:in:)``.
  package struct Slot: Sendable {
    weak var lifetime: Lifetime?
    let id: Int
    let ended: Bool

    /// The slot's work is over: the lifetime forgets it.
    package func done() {
      lifetime?.state.withLock { state in
        if state.tasks.removeValue(forKey: id) == nil && state.members.removeValue(forKey: id) == nil {
          state.finishedEarly.insert(id)
        }
      }
    }
  }

  /// Reserves a slot for a task the caller creates itself (to run it on its own actor); hand the task to
  /// ``adopt(_:in:)`` and call ``Slot/done()`` at the end of its work.
  package func reserve() -> Slot {
    state.withLock { state in
      defer { state.nextID += 1 }
      return Slot(lifetime: self, id: state.nextID, ended: state.ended)
    }
  }

  /// Owns `task` in `slot`; cancels it at once if the lifetime has ended.
  @discardableResult
  package func adopt(_ task: Task<Void, Never>, in slot: Slot) -> Task<Void, Never> {
    if slot.ended {
      task.cancel()
      return task
    }
    let inserted = state.withLock { state -> Bool in
      guard !state.ended else { return false }
      if state.finishedEarly.remove(slot.id) == nil { state.tasks[slot.id] = task }
      return true
    }
    if !inserted { task.cancel() }
    return task
  }

  /// Ends `member` when the lifetime ends, unless the slot's work is done first (``Slot/done()``); at once if
  /// the lifetime has ended. What ends an observation that needs no task.
  package func adopt(_ member: any LifetimeMember, in slot: Slot) {
    if slot.ended {
      member.lifetimeEnded()
      return
    }
    let recorded = state.withLock { state -> Bool in
      guard !state.ended else { return false }
      if state.finishedEarly.remove(slot.id) == nil { state.members[slot.id] = member }
      return true
    }
    if !recorded { member.lifetimeEnded() }
  }

  /// A picture of every graph this lifetime observes (see `HotSequence.debugGraph()`): the nodes its observations,
  /// bindings and sinks of hot sources observe, what those nodes read, and what else reads them. An observation of
  /// a cold sequence is a task that reads a run of its own, and is not drawn.
  ///
  /// ```swift
  /// let lifetime = Lifetime()
  /// viewModel.isSignupEnabled.bind(to: button, \.isEnabled, in: lifetime)
  /// viewModel.errors.observe(in: lifetime) { showError($0) }
  /// print(lifetime.debugGraph())   // what this screen observes, and why it does (or does not) update
  /// ```
  public func debugGraph() -> DebugGraph {
    let members = state.withLock { state in state.members.sorted { $0.key < $1.key }.map(\.value) }
    return DebugGraph(around: members.compactMap(\.observedNode))
  }

  /// Runs `action` once when the lifetime ends (at once if it already has).
  ///
  /// ```swift
  /// lifetime.onEnd { print("screen closed") }
  /// ```
  public func onEnd(_ action: @escaping @Sendable () -> Void) {
    let runNow = state.withLock { state -> Bool in
      guard !state.ended else { return true }
      state.onEnd.append(action)
      return false
    }
    if runNow { action() }
  }

  /// Ends the lifetime: cancels every owned task and runs the ``onEnd(_:)`` actions. Later calls do nothing.
  ///
  /// ```swift
  /// lifetime.cancel()
  /// ```
  public func cancel() {
    let (tasks, members, actions) = state.withLock {
      state -> ([Task<Void, Never>], [any LifetimeMember], [@Sendable () -> Void]) in
      guard !state.ended else { return ([], [], []) }
      state.ended = true
      defer {
        state.tasks = [:]
        state.members = [:]
        state.onEnd = []
      }
      return (Array(state.tasks.values), Array(state.members.values), state.onEnd)
    }
    for task in tasks { task.cancel() }
    for member in members { member.lifetimeEnded() }
    for action in actions { action() }
  }
}

/// What a lifetime ends that needs no task of its own: an observation or a binding of a hot source, a subject's
/// `sink`. It names the node it observes, for ``Lifetime/debugGraph()``.
package protocol LifetimeMember: AnyObject, Sendable {
  /// The lifetime ended: stop observing.
  func lifetimeEnded()
  /// The node it observes, while it observes one.
  var observedNode: (any AnyObject & Sendable)? { get }
}
