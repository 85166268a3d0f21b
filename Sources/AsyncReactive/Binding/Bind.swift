extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// Sends each element to `subject`, for as long as `lifetime` lasts: RAC's `RAC(target, key) = signal`,
  /// RxSwift's `bind(to:)`.
  ///
  /// The source is registered before this returns (a subject's values sent right after the call are not
  /// missed), and its elements reach the subject in order.
  ///
  /// **Finishes:** when the source finishes or the lifetime ends. The subject is not finished: it may have
  /// other sources, and a view model's state outlives the inputs bound into it.
  ///
  /// **Cancellation:** ending the lifetime cancels the binding, which stops the source's work and lets go
  /// of the subject.
  ///
  /// ```swift
  /// searchField.texts.bind(to: viewModel.searchText, in: lifetime)
  /// ```
  /// - Parameters:
  ///   - subject: receives each element; held until the binding ends.
  ///   - lifetime: ends the binding when it ends.
  /// - Returns: the binding's task, for callers that want to await its end.
  @discardableResult
  public func bind<Target: SubjectProtocol<Element, TargetFailure>, TargetFailure>(
    to subject: Target,
    in lifetime: Lifetime
  ) -> Task<Void, Never> {
    observe(in: lifetime) { subject.send($0) }
  }

  /// Triggers `command` with each element, for as long as `lifetime` lasts: a button's taps bound to a
  /// command (RAC's `button.rac_command = command`, RxSwift Action's `bind(to: action.inputs)`).
  ///
  /// Each element starts a run with ``Command/trigger(_:)`` and does not wait for it, so the command's
  /// policy decides what happens to taps during a run (refused and reported on
  /// ``Command/disabledErrors``, queued, or replacing the run in flight). Outcomes go to the command's
  /// ``Command/values`` and ``Command/errors``.
  ///
  /// **Finishes:** when the source finishes, the lifetime ends, or the command is released.
  ///
  /// **Cancellation:** ending the lifetime stops the binding; runs already started belong to the command.
  ///
  /// ```swift
  /// searchButton.taps.bind(to: viewModel.search, in: lifetime)
  /// viewWillAppear.bind(to: viewModel.refreshCheck, in: lifetime)
  /// ```
  /// - Parameters:
  ///   - command: the command to trigger; held weakly, so the binding never keeps it alive.
  ///   - lifetime: ends the binding when it ends.
  /// - Returns: the binding's task, for callers that want to await its end.
  @discardableResult
  public func bind<Output, CommandFailure>(
    to command: Command<Element, Output, CommandFailure>,
    in lifetime: Lifetime
  ) -> Task<Void, Never> {
    let iterator = makeAsyncIterator()
    return lifetime.run(name: "bind(to: command)") { [weak command] in
      var iterator = iterator
      while let input = await iterator.next(isolation: nil) {
        // A lifetime that ended delivers nothing more, not even what was buffered before its task ran
        // (ReactiveSwift's bindingFromSignal_tearsDownWhenDisposed).
        guard !Task.isCancelled else { break }
        guard let command else { return }
        command.trigger(input)
      }
    }
  }
}

/// Sends each element of `source` to `subject`, for as long as `lifetime` lasts (RAC's
/// `RAC(target, key) = signal`); the free-function spelling of `source.bind(to: subject, in: lifetime)`.
///
/// Inside an actor, use the method form or write `AsyncReactive.bind(…)`: the actor's own
/// `bind(_:in:_:)` shadows this name there.
///
/// **Finishes:** when the source finishes or the lifetime ends; the subject is not finished.
///
/// ```swift
/// bind(searchField.texts, to: viewModel.searchText, in: lifetime)
/// ```
/// - Parameters:
///   - source: any non-failing `AsyncSequence`.
///   - subject: receives each element; held until the binding ends.
///   - lifetime: ends the binding when it ends.
/// - Returns: the binding's task.
@discardableResult
public func bind<
  Source: AsyncSequence & Sendable, Target: SubjectProtocol<Source.Element, TargetFailure>, TargetFailure
>(
  _ source: Source,
  to subject: Target,
  in lifetime: Lifetime
) -> Task<Void, Never> where Source.Failure == Never {
  source.bind(to: subject, in: lifetime)
}

/// Triggers `command` with each element of `source`, for as long as `lifetime` lasts (RAC's
/// `button.rac_command = command`); the free-function spelling of `source.bind(to: command, in: lifetime)`.
///
/// ```swift
/// bind(viewWillAppear, to: viewModel.refreshCheck, in: lifetime)
/// ```
/// - Parameters:
///   - source: any non-failing `AsyncSequence` of the command's input.
///   - command: the command to trigger; held weakly.
///   - lifetime: ends the binding when it ends.
/// - Returns: the binding's task.
@discardableResult
public func bind<Source: AsyncSequence & Sendable, Output, CommandFailure>(
  _ source: Source,
  to command: Command<Source.Element, Output, CommandFailure>,
  in lifetime: Lifetime
) -> Task<Void, Never> where Source.Failure == Never {
  source.bind(to: command, in: lifetime)
}

extension Actor {
  /// Assigns each element of `source` to the actor's isolated state, for as long as `lifetime` lasts and
  /// the actor exists: RAC's `RAC(self.viewModel, searchText) = textField.rac_textSignal` for a view model
  /// that is an actor.
  ///
  /// Swift does not let anyone form a key path to an actor-isolated property, so the assignment is a
  /// closure that receives the actor `isolated`: it runs on the actor and may touch any of its state.
  ///
  /// **Finishes:** when the source finishes, the lifetime ends, or the actor is released.
  ///
  /// **Cancellation:** ending the lifetime stops the binding and the source's work.
  ///
  /// ```swift
  /// actor SearchViewModel {
  ///   var searchText = ""
  /// }
  /// // The view:
  /// await viewModel.bind(searchField.texts, in: lifetime) { viewModel, text in
  ///   viewModel.searchText = text
  /// }
  /// ```
  /// - Parameters:
  ///   - source: any non-failing `AsyncSequence`; registered before this returns.
  ///   - lifetime: ends the binding when it ends.
  ///   - assign: stores an element; runs isolated to the actor, one element at a time, in order.
  /// - Returns: the binding's task. The actor is held weakly, so the binding never keeps it alive.
  @discardableResult
  public func bind<Source: AsyncSequence & Sendable>(
    _ source: Source,
    in lifetime: Lifetime,
    _ assign: @escaping @Sendable (isolated Self, Source.Element) -> Void
  ) -> Task<Void, Never>
  where Source.Element: Sendable, Source.Failure == Never {
    let iterator = source.makeAsyncIterator()
    return lifetime.run(name: "Actor.bind(_:in:_:)") { [weak self] in
      var iterator = iterator
      while let value = await iterator.next(isolation: nil) {
        // A lifetime that ended delivers nothing more, not even what was buffered before its task ran
        // (ReactiveSwift's bindingFromSignal_tearsDownWhenDisposed).
        guard !Task.isCancelled else { break }
        guard let target = self else { return }
        await target.assign(value, with: assign)
      }
    }
  }

  func assign<Value>(_ value: Value, with body: @Sendable (isolated Self, Value) -> Void) {
    body(self, value)
  }
}
