/// The pure state of a ``TestClock``: the current instant, the sleepers ordered by deadline and the tasks
/// waiting for sleepers.
///
/// Generic over the continuation types so that it can be unit-tested synchronously with plain values. Every
/// method returns what the caller must resume; nothing is resumed here, so the clock can act after releasing
/// its lock.
package struct TestClockStateMachine<Sleeper: Sendable, Waiter: Sendable>: Sendable {
  package typealias Instant = TestClock.Instant

  private struct Sleeping: Sendable {
    var id: Int
    var deadline: Instant
    /// When the work was scheduled: sleepers due at one instant wake in this order (RxTest's rule).
    var order: Int
    var sleeper: Sleeper
  }

  private struct Waiting: Sendable {
    var id: Int
    var condition: SleeperCondition
    var waiter: Waiter
  }

  /// What a `waitForSleepers` / `waitForSleeper(until:)` caller waits for.
  package enum SleeperCondition: Sendable, Equatable {
    /// At least this many sleepers.
    case count(Int)
    /// A sleeper whose deadline is this instant.
    case deadline(Instant)
  }

  /// What ``registerSleeper(_:id:deadline:isCancelled:)`` asks the caller to do.
  package enum RegisterSleeperAction {
    /// The deadline passed before the sleeper registered: resume it normally.
    case resume(Sleeper)
    /// The task was cancelled before the sleeper registered: resume it with `CancellationError`.
    case fail(Sleeper)
    /// The sleeper is registered; resume these `waitForSleepers` callers.
    case sleep(resumingWaiters: [Waiter])
  }

  /// What ``step(toward:)`` asks the caller to do.
  package enum StepAction {
    /// `now` moved to the earliest deadline; resume these sleepers (in the order their work was scheduled).
    case wake([Sleeper])
    /// No sleeper is due by the target: `now` is at the target (or beyond it).
    case reachedTarget
  }

  package private(set) var now: Instant
  /// Sorted by deadline, then by the order their work was scheduled in.
  private var sleeping: [Sleeping] = []
  private var waiting: [Waiting] = []
  private var nextID = 0

  package init(now: Instant) {
    self.now = now
  }

  package var sleeperCount: Int { sleeping.count }

  /// The deadlines of the sleepers, earliest first (one per sleeper).
  package var deadlines: [Instant] { sleeping.map(\.deadline) }

  /// Whether `condition` holds now.
  package func isSatisfied(_ condition: SleeperCondition) -> Bool {
    switch condition {
    case .count(let count): sleeping.count >= count
    case .deadline(let deadline): sleeping.contains { $0.deadline == deadline }
    }
  }

  package var latestDeadline: Instant? { sleeping.last?.deadline }

  /// Hands out an identifier for a sleep or a wait, so that its cancellation handler can find it. Identifiers
  /// increase: a sleep's identifier is also its place among the work due at its instant.
  package mutating func makeID() -> Int {
    defer { nextID += 1 }
    return nextID
  }

  /// Reserves `count` places among the work due at any instant, taken now and used later: a timeline schedules
  /// all its events when it is made (a cold one when it is subscribed), as RxTest does, though its task sleeps
  /// until one instant at a time.
  package mutating func reserveOrders(_ count: Int) -> Range<Int> {
    defer { nextID += count }
    return nextID..<(nextID + count)
  }

  /// Registers a sleeper until `deadline`, placed after the work scheduled before `order` (its `id` when `nil`).
  package mutating func registerSleeper(
    _ sleeper: Sleeper,
    id: Int,
    deadline: Instant,
    order: Int? = nil,
    isCancelled: Bool
  ) -> RegisterSleeperAction {
    // The cancellation handler may already have run and found nothing to remove; the task's cancelled flag,
    // read under the same lock, is what tells us.
    if isCancelled { return .fail(sleeper) }
    // `advance` may have passed the deadline between the caller's check and this registration.
    if deadline <= now { return .resume(sleeper) }
    let order = order ?? id
    let index = sleeping.firstIndex { ($0.deadline, $0.order) > (deadline, order) } ?? sleeping.endIndex
    sleeping.insert(Sleeping(id: id, deadline: deadline, order: order, sleeper: sleeper), at: index)
    var resumed: [Waiter] = []
    var stillWaiting: [Waiting] = []
    for waiting in waiting {
      if isSatisfied(waiting.condition) { resumed.append(waiting.waiter) } else { stillWaiting.append(waiting) }
    }
    waiting = stillWaiting
    return .sleep(resumingWaiters: resumed)
  }

  /// Removes the sleeper `id` and returns it to be resumed with `CancellationError`; `nil` if it already woke
  /// (or has not registered yet, in which case registration sees the cancellation).
  package mutating func cancelSleeper(id: Int) -> Sleeper? {
    guard let index = sleeping.firstIndex(where: { $0.id == id }) else { return nil }
    return sleeping.remove(at: index).sleeper
  }

  /// Moves `now` to the earliest deadline not after `target` and removes the sleepers due then, in the order their
  /// work was scheduled, or, if none is due, moves `now` to `target`.
  package mutating func step(toward target: Instant) -> StepAction {
    guard let deadline = sleeping.first?.deadline, deadline <= target else {
      now = max(now, target)
      return .reachedTarget
    }
    now = max(now, deadline)
    let end = sleeping.firstIndex { $0.deadline > deadline } ?? sleeping.endIndex
    let woken = sleeping[..<end].map(\.sleeper)
    sleeping.removeSubrange(..<end)
    return .wake(woken)
  }

  /// Registers a caller waiting for `condition`; returns it if it must be resumed at once (the condition
  /// holds already, or its task is cancelled).
  package mutating func registerWaiter(
    _ waiter: Waiter,
    id: Int,
    condition: SleeperCondition,
    isCancelled: Bool
  ) -> Waiter? {
    if isCancelled || isSatisfied(condition) { return waiter }
    waiting.append(Waiting(id: id, condition: condition, waiter: waiter))
    return nil
  }

  /// Removes the waiter `id` and returns it to be resumed; `nil` if it was already resumed.
  package mutating func cancelWaiter(id: Int) -> Waiter? {
    guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
    return waiting.remove(at: index).waiter
  }
}

extension TestClockStateMachine.RegisterSleeperAction: Sendable where Sleeper: Sendable, Waiter: Sendable {}

extension TestClockStateMachine.StepAction: Sendable where Sleeper: Sendable {}
