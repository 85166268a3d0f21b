import Synchronization

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

/// The rule of one iteration (combineLatest slots, zip buffers), shared by the inputs' pumping tasks.
@usableFromInline final class NaryRuleCell<Rule: NaryRule>: @unchecked Sendable {
  // Safe: `rule` is read and written only inside the closures that `NaryStorage.receive` and
  // `NaryStorage.inputFinished` run under the storage's lock, so that lock serialises every access; and the
  // rule itself is Sendable. A class so that the storage's type does not have to name the rule's.
  @usableFromInline var rule: Rule

  @inlinable init(_ rule: Rule) {
    self.rule = rule
  }
}

/// One input of an n-ary operator: subscribed already, pumped by a task of its own once started.
@usableFromInline struct NaryInput<Element: Sendable, Failure: Error>: Sendable {
  /// Spawns the task that pumps this input into the storage.
  @usableFromInline let start: @Sendable (NaryStorage<Element, Failure>) -> Task<Void, Never>

  @inlinable init(start: @escaping @Sendable (NaryStorage<Element, Failure>) -> Task<Void, Never>) {
    self.start = start
  }

  /// Subscribes to `base` now (a subject registers its consumer here, so nothing sent from now on is
  /// missed) and returns the input that pumps it once started, through a rule shared by all inputs.
  ///
  /// - Parameters:
  ///   - index: the input's position, for the rule.
  ///   - failure: turns the input's failure into the result's.
  ///   - cell: the rule shared by all inputs.
  ///   - apply: stores an element in the rule (a tuple slot, a zip buffer) and says what it produces.
  @inlinable static func subscribe<Base: AsyncSequence & Sendable, Rule: NaryRule>(
    _ base: Base,
    index: Int,
    failure: @escaping @Sendable (Base.Failure) -> Failure,
    rule cell: NaryRuleCell<Rule>,
    apply: @escaping @Sendable (inout Rule, Base.Element) -> NaryStep<Element>
  ) -> NaryInput where Base.Element: Sendable, Rule.Output == Element {
    subscribe(
      base,
      failure: failure,
      receive: { element in apply(&cell.rule, element) },
      finished: { cell.rule.inputFinished(index) }
    )
  }

  /// Subscribes to `base` now and returns the input that delivers its elements as they are (merge: no rule;
  /// the result ends when every input has ended, which ``NaryStateMachine`` tracks).
  @inlinable static func forwarding<Base: AsyncSequence & Sendable>(
    _ base: Base,
    failure: @escaping @Sendable (Base.Failure) -> Failure
  ) -> NaryInput where Base.Element == Element {
    subscribe(base, failure: failure, receive: { .emit($0) }, finished: { .none })
  }

  /// Makes the iterator of `base` now and returns what spawns its pumping task.
  ///
  /// - Parameters:
  ///   - receive: run under the storage's lock for each element: what it produces.
  ///   - finished: run under the storage's lock when `base` finishes: whether that ends the result early.
  @inlinable static func subscribe<Base: AsyncSequence & Sendable>(
    _ base: Base,
    failure: @escaping @Sendable (Base.Failure) -> Failure,
    receive: @escaping @Sendable (Base.Element) -> NaryStep<Element>,
    finished: @escaping @Sendable () -> NaryStep<Element>
  ) -> NaryInput where Base.Element: Sendable {
    let pending = PendingIterator(base.makeAsyncIterator())
    return NaryInput { storage in
      Task {
        guard var iterator = pending.take() else { return }
        do throws(Base.Failure) {
          while let element = try await iterator.next(isolation: nil) {
            guard storage.receive({ receive(element) }) else {
              // The result ended while this input was between elements. Dropping an iterator stops most
              // sequences, but an `AsyncStream` that is still referenced learns that its consumer left only
              // when a pending `next()` is cancelled: make sure this task is (the storage cancels it too, but
              // maybe not yet) and ask once more.
              withUnsafeCurrentTask { $0?.cancel() }
              _ = try? await iterator.next(isolation: nil)
              return
            }
          }
          storage.inputFinished(finished)
        } catch {
          storage.inputFailed(failure(error))
        }
      }
    }
  }
}

/// Hands an upstream iterator, made when the consumer subscribed, to the task that pumps it.
///
/// A `Mutex` rather than ``Locked``: only `Mutex` moves a non-`Sendable` value in and out (`sending`), and this
/// lock is taken once, by one task, so it is never contended (the case ThreadSanitizer cannot follow).
@usableFromInline final class PendingIterator<Iterator: AsyncIteratorProtocol>: Sendable {
  @usableFromInline let iterator: Mutex<Iterator?>

  @inlinable init(_ iterator: sending Iterator) {
    self.iterator = Mutex(iterator)
  }

  /// The iterator, once; `nil` afterwards.
  @inlinable func take() -> sending Iterator? {
    iterator.withLock { $0.take() }
  }
}
