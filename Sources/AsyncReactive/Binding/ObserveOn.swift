// Binding to objects a view owns (labels, buttons, view controllers): the target is held weakly, and the
// closure runs isolated to the caller's actor, which for UI code is the main actor. RxSwift's
// `subscribe(with:onNext:)` and RxCocoa's `Binder`, ReactiveCocoa's `BindingTarget` (`label.reactive.text <~`).

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// Runs `body` with `target` and each element, on the caller's actor, for as long as `lifetime` lasts and
  /// `target` exists (RxSwift `subscribe(with:onNext:)`, RxCocoa `Binder`).
  ///
  /// The target is held **weakly**: a view that binds to itself creates no retain cycle, so it deallocates,
  /// and with it the lifetime it owns, which ends the observation at once. A target that goes away while the
  /// lifetime lives on ends the observation at the next element.
  ///
  /// `body` runs isolated to the actor the call is made from, given by `isolation` (the main actor in a
  /// `@MainActor` view), one element at a time, in order. Nothing needs `@MainActor` or `[weak self]`.
  ///
  /// The consumer is registered before this returns. **Cancellation:** ending the lifetime cancels the
  /// observation, which stops the sequence's work.
  ///
  /// ```swift
  /// @MainActor final class ProfileView {
  ///   let lifetime = Lifetime()
  ///   let nameLabel = Label()
  ///   func show(_ names: AsyncStream<String>) {       // a cold sequence; a hot one takes the task-free form
  ///     names.observe(on: self, in: lifetime) { view, name in
  ///       view.nameLabel.text = name
  ///     }
  ///   }
  /// }
  /// ```
  /// - Parameters:
  ///   - target: passed to `body` with each element; held weakly.
  ///   - lifetime: ends the observation when it ends.
  ///   - isolation: where `body` runs; the caller's actor by default.
  ///   - body: handles an element; runs isolated to `isolation`.
  /// - Returns: the observing task, for callers that want to await its end.
  @discardableResult
  public func observe<Target: AnyObject>(
    on target: Target,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation,
    _ body: @escaping (Target, Element) -> Void
  ) -> Task<Void, Never> {
    let iterator = makeAsyncIterator()
    let slot = lifetime.reserve()
    let task = Task(named: "observe(on:in:)") { [weak target] in
      // Capturing the isolated parameter makes this task run on the caller's actor.
      _ = isolation
      defer { slot.done() }
      var iterator = iterator
      while let value = await iterator.next(isolation: isolation) {
        // A lifetime that ended delivers nothing more, not even what was buffered before its task ran
        // (ReactiveSwift's bindingFromSignal_tearsDownWhenDisposed).
        guard !Task.isCancelled else { break }
        guard let target else { return }
        body(target, value)
      }
    }
    return lifetime.adopt(task, in: slot)
  }

  /// Assigns each element to `target[keyPath: keyPath]`, on the caller's actor, for as long as `lifetime`
  /// lasts and `target` exists (RAC `RAC(label, text) = signal`, RxCocoa `bind(to: label.rx.text)`,
  /// ReactiveCocoa `label.reactive.text <~ signal`).
  ///
  /// The target is held weakly; see ``_Concurrency/AsyncSequence/observe(on:in:isolation:_:)``.
  ///
  /// ```swift
  /// Signal.future { await api.title() }.bind(to: titleLabel, \.text, in: lifetime)
  /// ```
  /// - Parameters:
  ///   - target: the object to write to; held weakly.
  ///   - keyPath: the property that receives each element.
  ///   - lifetime: ends the binding when it ends.
  ///   - isolation: where the assignment runs; the caller's actor by default.
  /// - Returns: the binding's task.
  @discardableResult
  public func bind<Target: AnyObject>(
    to target: Target,
    _ keyPath: ReferenceWritableKeyPath<Target, Element>,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation
  ) -> Task<Void, Never> {
    observe(on: target, in: lifetime, isolation: isolation) { target, value in target[keyPath: keyPath] = value }
  }

  /// Assigns each element to an optional property of `target` (a label's `text: String?`), on the caller's
  /// actor, for as long as `lifetime` lasts and `target` exists.
  ///
  /// ```swift
  /// viewModel.title.bind(to: titleLabel, \.text, in: lifetime)   // text: String?
  /// ```
  /// - Parameters:
  ///   - target: the object to write to; held weakly.
  ///   - keyPath: the optional property that receives each element.
  ///   - lifetime: ends the binding when it ends.
  ///   - isolation: where the assignment runs; the caller's actor by default.
  /// - Returns: the binding's task.
  @discardableResult
  public func bind<Target: AnyObject>(
    to target: Target,
    _ keyPath: ReferenceWritableKeyPath<Target, Element?>,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation
  ) -> Task<Void, Never> {
    observe(on: target, in: lifetime, isolation: isolation) { target, value in target[keyPath: keyPath] = value }
  }

  /// Binds a button to a command in one line (RAC's `button.rac_command = command`, RxSwift Action's
  /// `button.rx.action`): each element of this sequence (the taps) triggers `command`, and
  /// ``Command/isEnabled`` drives `button[keyPath: isEnabled]`.
  ///
  /// The button is held weakly; the command is held weakly too, so the binding keeps neither alive. Taps are
  /// admitted or refused when they arrive, by the command's policy and `enabledIf`.
  ///
  /// ```swift
  /// loginButton.taps.bind(to: viewModel.logIn, enabling: loginButton, \.isEnabled, in: lifetime)
  /// ```
  /// - Parameters:
  ///   - command: triggered with each element.
  ///   - button: the object whose enabled state follows the command; held weakly.
  ///   - isEnabled: the button's enabled property.
  ///   - lifetime: ends both bindings when it ends.
  ///   - isolation: where the button is updated; the caller's actor by default.
  /// - Returns: the task that drives the button's enabled state.
  @discardableResult
  public func bind<Output, CommandFailure, Button: AnyObject>(
    to command: Command<Element, Output, CommandFailure>,
    enabling button: Button,
    _ isEnabled: ReferenceWritableKeyPath<Button, Bool>,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation
  ) -> Task<Void, Never> {
    bind(to: command, in: lifetime)
    return command.isEnabled.bind(to: button, isEnabled, in: lifetime, isolation: isolation)
  }
}
