/// The core shared by the n-ary operators: N inputs pushing into one consumer's output queue. Merge is this
/// machine alone (each element is delivered; the result ends when every input has ended); combineLatest and
/// zip add a rule.
///
/// A pure value kept behind the storage's lock. It owns the consumer's ``ConsumerQueue`` (drained in batches by
/// a ``ConsumerCursor``), the inputs' pumping tasks and the count of inputs still running; the rule's steps are
/// computed by the caller under the same lock and passed in. Each method handles one event and returns what
/// to do once the lock is released. (Its members are `@usableFromInline` rather than private so that the
/// whole path specialises in the client's module: unspecialised generic code pays metadata look-ups per
/// element.)
@usableFromInline struct NaryStateMachine<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline typealias Queue = ConsumerQueue<Element, Failure>

  /// What the storage does after releasing the lock.
  @usableFromInline enum Action {
    case none
    /// Hand `output` to the parked consumer.
    case deliver(Queue.Waiter, Element)
    /// The result ended: cancel the inputs that may still run, and wake the consumer if it is parked (with
    /// the last output, if that was handed to it directly).
    case end(Queue.Waiter?, Element?, cancel: [Task<Void, Never>])
  }

  @usableFromInline enum State: Sendable {
    /// Inputs are pumping; `tasks` is filled in once they are spawned (first `next()`).
    case running(tasks: [Task<Void, Never>], unfinished: Int)
    case finished
  }

  @usableFromInline var state: State
  /// The consumer's queue, which its ``ConsumerCursor`` works on directly (under the storage's lock); `nil`
  /// once the consumer stopped.
  @usableFromInline var queue: Queue? = Queue(policy: .unbounded)

  @inlinable init(inputCount: Int) {
    if inputCount == 0 {
      // No inputs: nothing will ever arrive, so the result is over before it starts (no waiter to wake yet).
      state = .finished
      _ = queue?.terminate(.finished)
    } else {
      state = .running(tasks: [], unfinished: inputCount)
    }
  }

  /// Whether the result still takes elements: a pumping task stops as soon as it is not.
  @inlinable var isRunning: Bool {
    if case .running = state { return true }
    return false
  }

  /// An input produced an element; `step` stores it in the rule and says what that produces.
  @inlinable mutating func receive(_ step: () -> NaryStep<Element>) -> Action {
    guard case .running = state else { return .none }
    return perform(step())
  }

  /// An input finished normally; `step` tells the rule and says whether that ends the result early.
  @inlinable mutating func inputFinished(_ step: () -> NaryStep<Element>) -> Action {
    guard case .running(let tasks, let unfinished) = state else { return .none }
    state = .running(tasks: tasks, unfinished: unfinished - 1)
    let action = perform(step())
    if unfinished == 1, case .running = state {
      return merge(action, end(.finished))
    }
    return action
  }

  /// An input failed: the result fails at once.
  @inlinable mutating func inputFailed(_ failure: Failure) -> Action {
    end(.failed(failure))
  }

  /// The pumping tasks were spawned; returns the ones to cancel at once because the result already ended.
  @inlinable mutating func inputsStarted(_ tasks: [Task<Void, Never>]) -> [Task<Void, Never>] {
    guard case .running(let existing, let unfinished) = state else { return tasks }
    precondition(existing.isEmpty, "Internal inconsistency: the inputs of an n-ary operator started twice")
    state = .running(tasks: tasks, unfinished: unfinished)
    return []
  }

  /// The consumer stopped (cancelled, dropped its iterator, or read the end): drop its queue, stop the inputs.
  @inlinable mutating func consumerStopped() -> Action {
    let waiter = queue?.cancel()
    queue = nil
    var tasks: [Task<Void, Never>] = []
    if case .running(let running, _) = state { tasks = running }
    state = .finished
    return .end(waiter, nil, cancel: tasks)
  }

  @inlinable mutating func perform(_ step: NaryStep<Element>) -> Action {
    switch step {
    case .none:
      return .none
    case .emit(let output):
      return deliver(output)
    case .emitThenFinish(let output):
      return merge(deliver(output), end(.finished))
    case .finish:
      return end(.finished)
    }
  }

  @inlinable mutating func deliver(_ output: Element) -> Action {
    // The queue is only gone once the state is finished, and the callers checked that it is not.
    guard let waiter = queue?.enqueue(output) else { return .none }
    return .deliver(waiter, output)
  }

  @inlinable mutating func end(_ termination: Termination<Failure>) -> Action {
    guard case .running(let tasks, _) = state else { return .none }
    state = .finished
    return .end(queue?.terminate(termination), nil, cancel: tasks)
  }

  /// Combines a delivery with the end that follows it: at most one of them has a parked consumer to wake.
  @inlinable func merge(_ first: Action, _ second: Action) -> Action {
    switch (first, second) {
    case (_, .none):
      return first
    case (.none, _):
      return second
    case (.deliver(let waiter, let output), .end(nil, nil, let tasks)):
      return .end(waiter, output, cancel: tasks)
    default:
      preconditionFailure("Internal inconsistency: an n-ary operator woke its consumer twice for one event")
    }
  }
}
