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
      name: "\(Rule.operatorName) input \(index + 1)",
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
    subscribe(base, name: "merge input", failure: failure, receive: { .emit($0) }, finished: { .none })
  }

  /// Makes the iterator of `base` now and returns what spawns its pumping task.
  ///
  /// - Parameters:
  ///   - name: the pumping task's name.
  ///   - receive: run under the storage's lock for each element: what it produces.
  ///   - finished: run under the storage's lock when `base` finishes: whether that ends the result early.
  @inlinable static func subscribe<Base: AsyncSequence & Sendable>(
    _ base: Base,
    name: String,
    failure: @escaping @Sendable (Base.Failure) -> Failure,
    receive: @escaping @Sendable (Base.Element) -> NaryStep<Element>,
    finished: @escaping @Sendable () -> NaryStep<Element>
  ) -> NaryInput where Base.Element: Sendable {
    let pending = PendingIterator(base.makeAsyncIterator())
    return NaryInput { storage in
      Task(named: name) {
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
