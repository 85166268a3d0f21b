/// One iteration of combineLatest, zip or merge: the lock, the inputs' pumping tasks and the output queue.
///
/// Each input is pumped by one task that pushes every element in with one lock; the consumer drains the
/// output queue in batches through a ``ConsumerCursor``. The state lives in a ``NaryStateMachine``; actions
/// (resuming the consumer, cancelling tasks) run after the lock is released. The storage is generic over the
/// output only, so the public iterators can name it; the rule lives in a ``NaryRuleCell`` that the inputs share
/// and that is only touched under this storage's lock.
@usableFromInline final class NaryStorage<Element: Sendable, Failure: Error>: ConsumerQueueHost {
  @usableFromInline typealias Machine = NaryStateMachine<Element, Failure>

  @usableFromInline let state: Locked<Machine>
  @usableFromInline let inputs: [NaryInput<Element, Failure>]

  /// Subscribing to the inputs happened when `inputs` were made; pumping starts with ``start()``.
  @inlinable init(inputs: [NaryInput<Element, Failure>]) {
    self.state = Locked(Machine(inputCount: inputs.count))
    self.inputs = inputs
  }

  /// Spawns the inputs' pumping tasks (first `next()`).
  @inlinable func start() {
    let tasks = inputs.map { $0.start(self) }
    let late = state.withLock { $0.inputsStarted(tasks) }
    for task in late { task.cancel() }
  }

  /// Pushes an input's element: `step` (run under the lock) stores it in the rule and says what it produces.
  /// Returns `false` once the result ended, so that the input stops.
  @inlinable func receive(_ step: () -> NaryStep<Element>) -> Bool {
    let (action, isRunning) = state.withLock { machine in
      let action = machine.receive(step)
      return (action, machine.isRunning)
    }
    perform(action)
    return isRunning
  }

  /// An input finished normally: `step` (run under the lock) tells the rule.
  @inlinable func inputFinished(_ step: () -> NaryStep<Element>) {
    perform(state.withLock { $0.inputFinished(step) })
  }

  @inlinable func inputFailed(_ failure: Failure) {
    perform(state.withLock { $0.inputFailed(failure) })
  }

  @inlinable func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R {
    state.withLock { body(&$0.queue) }
  }

  @inlinable func removeConsumer(_ id: Int) {
    perform(state.withLock { $0.consumerStopped() })
  }

  @inlinable func perform(_ action: Machine.Action) {
    switch action {
    case .none:
      break
    case .deliver(let waiter, let output):
      waiter.resume(returning: .element(output))
    case .end(let waiter, let output, let tasks):
      // Cancel first: by the time the consumer sees the end, every input has been told to stop.
      for task in tasks { task.cancel() }
      if let output {
        waiter?.resume(returning: .element(output))
      } else {
        waiter?.resume(returning: .recheck)
      }
    }
  }
}
