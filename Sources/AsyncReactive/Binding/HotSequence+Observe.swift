// Observations and bindings of hot sources (subjects, properties, hot chains, a command's streams): a sink on the
// source plus, for handlers that run in a task or on an actor, a drain task that exists only while values wait.
// An idle observation keeps no task (it costs what a `sink` costs); the order, the handler's isolation and the
// lifetime rules are those of the `AsyncSequence` forms, which stay for cold sequences.

extension HotSequence where Failure == Never {
  /// Runs `onValue` for each element, for as long as `lifetime` lasts (RAC `subscribeNext:`, RxSwift
  /// `subscribe(onNext:).disposed(by:)`), keeping no task while no value waits.
  ///
  /// The observation is registered before this returns: values sent right after the call are not missed. Values
  /// are handled one at a time, in send order, off the caller's actor; a value sent while one is handled waits
  /// for it.
  ///
  /// **Cancellation:** ending the lifetime (or ``ObservationHandle/cancel()``) ends the observation: nothing more
  /// is handled, not even a value sent before and still waiting, and a handler in progress is cancelled.
  ///
  /// ```swift
  /// viewModel.isLoading.observe(in: lifetime) { loading in
  ///   print(loading ? "loading…" : "idle")
  /// }
  /// ```
  /// - Parameters:
  ///   - lifetime: ends the observation when it ends.
  ///   - onValue: called with each element.
  ///   - onFinished: called once if the source finishes (not when the observation is cancelled).
  /// - Returns: the observation, to cancel it or await its end.
  @discardableResult
  public func observe(
    in lifetime: Lifetime,
    _ onValue: @escaping @Sendable (Element) async -> Void,
    onFinished: (@Sendable () async -> Void)? = nil
  ) -> ObservationHandle {
    // No end handler unless asked for: an idle observation's size is what a view with many of them pays.
    var onEnd: (@Sendable (isolated (any Actor)?, Termination<Never>) async -> Void)?
    if let onFinished { onEnd = { _, _ in await onFinished() } }
    return HotObserver<Element, Never>(name: "observe(in:)", lifetime: lifetime, isolation: nil, onEnd: onEnd) {
      _, value in
      await onValue(value)
      return true
    }.start(observing: hotSignal.node, in: lifetime)
  }
}

extension HotSequence {
  /// Runs `onValue` for each element and `onFailure` if the source fails, for as long as `lifetime` lasts,
  /// keeping no task while no value waits; see ``HotSequence/observe(in:_:onFinished:)``.
  ///
  /// ```swift
  /// viewModel.orders.observe(in: lifetime) { orders in
  ///   show(orders)
  /// } onFailure: { error in
  ///   showError(error)
  /// }
  /// ```
  /// - Parameters:
  ///   - lifetime: ends the observation when it ends.
  ///   - onValue: called with each element.
  ///   - onFailure: called once if the source fails, after its values.
  ///   - onFinished: called once if the source finishes.
  /// - Returns: the observation, to cancel it or await its end.
  @discardableResult
  public func observe(
    in lifetime: Lifetime,
    onValue: @escaping @Sendable (Element) async -> Void,
    onFailure: @escaping @Sendable (Failure) async -> Void,
    onFinished: (@Sendable () async -> Void)? = nil
  ) -> ObservationHandle {
    HotObserver<Element, Failure>(name: "observe(in:onValue:onFailure:)", lifetime: lifetime, isolation: nil) {
      _, termination in
      switch termination {
      case .finished: await onFinished?()
      case .failed(let failure): await onFailure(failure)
      }
    } onValue: { _, value in
      await onValue(value)
      return true
    }.start(observing: hotSignal.node, in: lifetime)
  }
}

extension HotSequence where Failure == Never {
  /// Runs `body` with `target` and each element, on the caller's actor, for as long as `lifetime` lasts and
  /// `target` exists (RxSwift `subscribe(with:onNext:)`, RxCocoa `Binder`), keeping no task while no value
  /// waits: each burst of values is handled by one job on the caller's actor.
  ///
  /// The target is held **weakly**, and `body` runs isolated to `isolation` (the main actor in a `@MainActor`
  /// view), one element at a time, in send order. A target that goes away ends the observation at the next
  /// element. The observation is registered before this returns.
  ///
  /// **Cancellation:** ending the lifetime ends the observation: nothing more is handled, not even a value sent
  /// before and still waiting.
  ///
  /// ```swift
  /// @MainActor final class ProfileView {
  ///   let lifetime = Lifetime()
  ///   let nameLabel = Label()
  ///   func bind(to viewModel: ProfileViewModel) {
  ///     viewModel.name.observe(on: self, in: lifetime) { view, name in
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
  /// - Returns: the observation, to cancel it or await its end.
  @discardableResult
  public func observe<Target: AnyObject>(
    on target: Target,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation,
    _ body: @escaping (Target, Element) -> Void
  ) -> ObservationHandle {
    let handler = IsolatedHandler(target: target, body: body)
    return HotObserver<Element, Never>(name: "observe(on:in:)", lifetime: lifetime, isolation: isolation) {
      _, value in handler.handle(value)
    }.start(observing: hotSignal.node, in: lifetime)
  }

  /// Assigns each element to `target[keyPath: keyPath]`, on the caller's actor, for as long as `lifetime` lasts
  /// and `target` exists (RAC `RAC(label, text) = signal`, RxCocoa `bind(to: label.rx.text)`), keeping no task
  /// while no value waits; see ``HotSequence/observe(on:in:isolation:_:)``.
  ///
  /// ```swift
  /// viewModel.title.bind(to: titleLabel, \.text, in: lifetime)
  /// ```
  /// - Parameters:
  ///   - target: the object to write to; held weakly.
  ///   - keyPath: the property that receives each element.
  ///   - lifetime: ends the binding when it ends.
  ///   - isolation: where the assignment runs; the caller's actor by default.
  /// - Returns: the binding, to cancel it or await its end.
  @discardableResult
  public func bind<Target: AnyObject>(
    to target: Target,
    _ keyPath: ReferenceWritableKeyPath<Target, Element>,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation
  ) -> ObservationHandle {
    observe(on: target, in: lifetime, isolation: isolation) { target, value in target[keyPath: keyPath] = value }
  }

  /// Assigns each element to an optional property of `target` (a label's `text: String?`), on the caller's
  /// actor, for as long as `lifetime` lasts and `target` exists, keeping no task while no value waits.
  ///
  /// ```swift
  /// viewModel.title.bind(to: titleLabel, \.text, in: lifetime)   // text: String?
  /// ```
  /// - Parameters:
  ///   - target: the object to write to; held weakly.
  ///   - keyPath: the optional property that receives each element.
  ///   - lifetime: ends the binding when it ends.
  ///   - isolation: where the assignment runs; the caller's actor by default.
  /// - Returns: the binding, to cancel it or await its end.
  @discardableResult
  public func bind<Target: AnyObject>(
    to target: Target,
    _ keyPath: ReferenceWritableKeyPath<Target, Element?>,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation
  ) -> ObservationHandle {
    observe(on: target, in: lifetime, isolation: isolation) { target, value in target[keyPath: keyPath] = value }
  }

  /// Sends each element to `subject` inside the source's `send`, for as long as `lifetime` lasts (RAC's
  /// `RAC(target, key) = signal`, RxSwift's `bind(to:)`): when `source.send(x)` returns, the subject has `x` and
  /// its own graph has run. No task.
  ///
  /// **Finishes:** when the source ends or the lifetime ends. The subject is not finished: it may have other
  /// sources, and a view model's state outlives the inputs bound into it.
  ///
  /// ```swift
  /// searchField.texts.bind(to: viewModel.searchText, in: lifetime)
  /// ```
  /// - Parameters:
  ///   - subject: receives each element; held until the binding ends.
  ///   - lifetime: ends the binding when it ends.
  /// - Returns: the binding, to cancel it or await its end.
  @discardableResult
  public func bind<Target: SubjectProtocol<Element, TargetFailure>, TargetFailure>(
    to subject: Target,
    in lifetime: Lifetime
  ) -> ObservationHandle {
    SinkObserver<Element, Never>(lifetime: lifetime).start(observing: hotSignal.node, in: lifetime) { value in
      subject.send(value)
      return true
    }
  }

  /// Triggers `command` with each element inside the source's `send`, for as long as `lifetime` lasts: a
  /// button's taps bound to a command (RAC's `button.rac_command = command`). No task: each tap is admitted or
  /// refused by the command's policy and `enabledIf` during the send, as ``Command/trigger(_:)`` does.
  ///
  /// **Finishes:** when the source ends, the lifetime ends, or the command is released.
  ///
  /// ```swift
  /// searchButton.taps.bind(to: viewModel.search, in: lifetime)
  /// ```
  /// - Parameters:
  ///   - command: the command to trigger; held weakly, so the binding never keeps it alive.
  ///   - lifetime: ends the binding when it ends.
  /// - Returns: the binding, to cancel it or await its end.
  @discardableResult
  public func bind<Output, CommandFailure>(
    to command: Command<Element, Output, CommandFailure>,
    in lifetime: Lifetime
  ) -> ObservationHandle {
    SinkObserver<Element, Never>(lifetime: lifetime).start(observing: hotSignal.node, in: lifetime) {
      [weak command] input in
      guard let command else { return false }
      command.trigger(input)
      return true
    }
  }

  /// Binds a button to a command in one line (RAC's `button.rac_command = command`): each element (the taps)
  /// triggers `command` inside its send, and ``Command/isEnabled`` drives `button[keyPath: isEnabled]` on the
  /// caller's actor. No task while idle; the button and the command are held weakly.
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
  /// - Returns: the binding of the button's enabled state.
  @discardableResult
  public func bind<Output, CommandFailure, Button: AnyObject>(
    to command: Command<Element, Output, CommandFailure>,
    enabling button: Button,
    _ isEnabled: ReferenceWritableKeyPath<Button, Bool>,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation
  ) -> ObservationHandle {
    bind(to: command, in: lifetime)
    return command.isEnabled.bind(to: button, isEnabled, in: lifetime, isolation: isolation)
  }
}

/// The handler of an `observe(on:in:)`: the weakly held target and the caller's closure.
// Safe (`@unchecked Sendable`): the closure is formed in the caller's isolation, and `handle(_:)` is called only
// by the observation's drain, which runs isolated to that same actor (the `isolation` argument, the caller's by
// default), one value at a time. With no actor, drains run one after another, never at once, each taking over
// from the last under the observer's lock. The weak reference itself is safe to read from any thread.
final class IsolatedHandler<Target: AnyObject, Element>: @unchecked Sendable {
  weak var target: Target?
  let body: (Target, Element) -> Void

  init(target: Target, body: @escaping (Target, Element) -> Void) {
    self.target = target
    self.body = body
  }

  /// Hands `value` to the body; `false` when the target is gone.
  func handle(_ value: Element) -> Bool {
    guard let target else { return false }
    body(target, value)
    return true
  }
}

/// Sends each element of the hot `source` to `subject` inside the source's `send`, for as long as `lifetime`
/// lasts; the free-function spelling of `source.bind(to: subject, in: lifetime)`. No task.
///
/// ```swift
/// bind(searchField.texts, to: viewModel.searchText, in: lifetime)
/// ```
/// - Parameters:
///   - source: a non-failing hot sequence (a subject, a property, a hot chain).
///   - subject: receives each element; held until the binding ends.
///   - lifetime: ends the binding when it ends.
/// - Returns: the binding, to cancel it or await its end.
@discardableResult
public func bind<Source: HotSequence, Target: SubjectProtocol<Source.Element, TargetFailure>, TargetFailure>(
  _ source: Source,
  to subject: Target,
  in lifetime: Lifetime
) -> ObservationHandle where Source.Failure == Never {
  source.bind(to: subject, in: lifetime)
}

/// Triggers `command` with each element of the hot `source` inside its `send`, for as long as `lifetime` lasts;
/// the free-function spelling of `source.bind(to: command, in: lifetime)`. No task.
///
/// ```swift
/// bind(viewWillAppear, to: viewModel.refreshCheck, in: lifetime)
/// ```
/// - Parameters:
///   - source: a non-failing hot sequence of the command's input.
///   - command: the command to trigger; held weakly.
///   - lifetime: ends the binding when it ends.
/// - Returns: the binding, to cancel it or await its end.
@discardableResult
public func bind<Source: HotSequence, Output, CommandFailure>(
  _ source: Source,
  to command: Command<Source.Element, Output, CommandFailure>,
  in lifetime: Lifetime
) -> ObservationHandle where Source.Failure == Never {
  source.bind(to: command, in: lifetime)
}

extension Actor {
  /// Assigns each element of the hot `source` to the actor's isolated state, for as long as `lifetime` lasts and
  /// the actor exists, keeping no task while no value waits; see the `AsyncSequence` form
  /// ``_Concurrency/Actor/bind(_:in:_:)->Task<Void,Never>``.
  ///
  /// ```swift
  /// await viewModel.bind(searchField.texts, in: lifetime) { viewModel, text in
  ///   viewModel.searchText = text
  /// }
  /// ```
  /// - Parameters:
  ///   - source: a non-failing hot sequence; observed from before this returns.
  ///   - lifetime: ends the binding when it ends.
  ///   - assign: stores an element; runs isolated to the actor, one element at a time, in send order.
  /// - Returns: the binding, to cancel it or await its end. The actor is held weakly.
  @discardableResult
  public func bind<Source: HotSequence>(
    _ source: Source,
    in lifetime: Lifetime,
    _ assign: @escaping @Sendable (isolated Self, Source.Element) -> Void
  ) -> ObservationHandle where Source.Failure == Never {
    HotObserver<Source.Element, Never>(name: "Actor.bind(_:in:_:)", lifetime: lifetime, isolation: nil) {
      [weak self] _, value in
      guard let target = self else { return false }
      await target.assign(value, with: assign)
      return true
    }.start(observing: source.hotSignal.node, in: lifetime)
  }
}

extension WeakReference where Object: Actor {
  /// Assigns each element of the hot `source` to the object's isolated state, for as long as `lifetime` lasts
  /// and the object exists, keeping no task while no value waits; elements wait until ``set(_:)`` was called.
  /// See the `AsyncSequence` form.
  ///
  /// ```swift
  /// let this = WeakReference<SearchViewModel>()
  /// this.bind(searchText, in: lifetime) { viewModel, text in viewModel.query = text }
  /// this.set(self)
  /// ```
  /// - Parameters:
  ///   - source: a non-failing hot sequence; observed from before this returns.
  ///   - lifetime: ends the binding when it ends.
  ///   - assign: stores an element; runs isolated to the object, one element at a time, in send order.
  /// - Returns: the binding, to cancel it or await its end.
  @discardableResult
  public func bind<Source: HotSequence>(
    _ source: Source,
    in lifetime: Lifetime,
    _ assign: @escaping @Sendable (isolated Object, Source.Element) -> Void
  ) -> ObservationHandle where Source.Failure == Never {
    HotObserver<Source.Element, Never>(name: "WeakReference.bind(_:in:_:)", lifetime: lifetime, isolation: nil) {
      [self] _, value in
      guard let target = await self.value() else { return false }
      await target.assign(value, with: assign)
      return true
    }.start(observing: source.hotSignal.node, in: lifetime)
  }
}
