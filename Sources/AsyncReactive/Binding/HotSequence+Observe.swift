// Observations and bindings of hot sources (subjects, properties, hot chains, a command's streams): a sink on the
// source plus, for handlers that run on the caller's actor, a drain task that exists only while values wait. An idle
// observation keeps no task (it costs what a `sink` costs); the order, the handler's isolation and the lifetime
// rules are those of the `AsyncSequence` forms, which stay for cold sequences.

extension HotSequence where Failure == Never {
  /// Runs `onValue` for each element on the caller's actor, for as long as `lifetime` lasts (RAC
  /// `subscribeNext:`, RxSwift `subscribe(onNext:).disposed(by:)`, ReactiveSwift `observeValues`), keeping no task
  /// while no value waits.
  ///
  /// The observation is registered before this returns: values sent right after the call are not missed. Values
  /// are handled one at a time, in send order, isolated to the caller's actor (the main actor in a `@MainActor`
  /// view, the actor in an actor's method; off any actor for a caller that has none), so the closure touches the
  /// caller's state directly and need not be `@Sendable`. A value sent while one is handled waits for it.
  ///
  /// **Cancellation:** ending the lifetime (or ``ObservationHandle/cancel()``) ends the observation: nothing more
  /// is handled, not even a value sent before and still waiting, and a handler in progress is cancelled.
  ///
  /// ```swift
  /// @MainActor final class ProfileView {
  ///   let lifetime = Lifetime()
  ///   let nameLabel = Label()
  ///   func show(_ viewModel: ProfileViewModel) {
  ///     viewModel.name.observe(in: lifetime) { self.nameLabel.text = $0 }
  ///   }
  /// }
  /// ```
  /// - Parameters:
  ///   - lifetime: ends the observation when it ends.
  ///   - isolation: where the closures run; the caller's actor (leave the default).
  ///   - onValue: called with each element.
  ///   - onFinish: called once if the source finishes (not when the observation is cancelled).
  /// - Returns: the observation, to cancel it or await its end.
  @discardableResult
  package func hotObserve(
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext _ onValue: sending @escaping (Element) async -> Void,
    @_inheritActorContext onFinish: sending (() async -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    // No end handler unless asked for: an idle observation's size is what a view with many of them pays.
    var onEnd: IsolatedHandler<Termination<Never>>?
    if let onFinish { onEnd = IsolatedHandler { _ in await onFinish() } }
    return HotObserver<Element, Never>(
      ConsumerOrigin(.observe, fileID: fileID, line: line), lifetime: lifetime, isolation: isolation, onEnd: onEnd,
      onValue: IsolatedHandler(onValue)
    ).start(observing: hotSignal.node, in: lifetime)
  }
}

extension HotSequence {
  /// Runs `onValue` for each element and `onFailure` if the source fails, on the caller's actor, for as long as
  /// `lifetime` lasts, keeping no task while no value waits; see `hotObserve(in:isolation:_:onFinish:fileID:line:)`.
  ///
  /// ```swift
  /// viewModel.orders.observe(in: lifetime) { orders in
  ///   self.show(orders)
  /// } onFailure: { error in
  ///   self.showError(error)
  /// }
  /// ```
  /// - Parameters:
  ///   - lifetime: ends the observation when it ends.
  ///   - isolation: where the closures run; the caller's actor (leave the default).
  ///   - onValue: called with each element.
  ///   - onFailure: called once if the source fails, after its values.
  ///   - onFinish: called once if the source finishes.
  /// - Returns: the observation, to cancel it or await its end.
  @discardableResult
  package func hotObserve(
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext onValue: sending @escaping (Element) async -> Void,
    @_inheritActorContext onFailure: sending @escaping (Failure) async -> Void,
    @_inheritActorContext onFinish: sending (() async -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    let onEnd = IsolatedHandler<Termination<Failure>> { termination in
      switch termination {
      case .finished: await onFinish?()
      case .failed(let failure): await onFailure(failure)
      }
    }
    return HotObserver<Element, Failure>(
      ConsumerOrigin(.observeWithFailure, fileID: fileID, line: line), lifetime: lifetime, isolation: isolation,
      onEnd: onEnd,
      onValue: IsolatedHandler(onValue)
    ).start(observing: hotSignal.node, in: lifetime)
  }
}

extension HotSequence where Failure == Never {
  /// Assigns each element to `target[keyPath: keyPath]` on the caller's actor, for as long as `lifetime` lasts and
  /// `target` exists (RAC `RAC(label, text) = signal`, RxCocoa `bind(to: label.rx.text)`, ReactiveSwift
  /// `label.reactive.text <~ signal`), keeping no task while no value waits.
  ///
  /// The target is held **weakly**: a view that binds to its own widgets creates no retain cycle, and a target
  /// that goes away ends the binding at the next element. The assignment runs isolated to the caller's actor (the
  /// main actor in a `@MainActor` view), one element at a time, in send order. The binding is registered before
  /// this returns; ending the lifetime ends it: nothing more is written, not even a value sent before and still
  /// waiting.
  ///
  /// ```swift
  /// viewModel.title.bind(to: titleLabel, \.text, in: lifetime)
  /// ```
  /// - Parameters:
  ///   - target: the object to write to; held weakly.
  ///   - keyPath: the property that receives each element.
  ///   - lifetime: ends the binding when it ends.
  ///   - isolation: where the assignment runs; the caller's actor (leave the default).
  /// - Returns: the binding, to cancel it or await its end.
  @discardableResult
  package func hotBind<Target: AnyObject>(
    to target: Target,
    _ keyPath: ReferenceWritableKeyPath<Target, Element>,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    HotObserver<Element, Never>(
      ConsumerOrigin(.bindToKeyPath, fileID: fileID, line: line), lifetime: lifetime, isolation: isolation,
      onValue: IsolatedHandler(target: target) { object, value in
        unsafeDowncast(object, to: Target.self)[keyPath: keyPath] = value
      }
    ).start(observing: hotSignal.node, in: lifetime)
  }

  /// Assigns each element to an optional property of `target` (a label's `text: String?`) on the caller's actor,
  /// for as long as `lifetime` lasts and `target` exists, keeping no task while no value waits; see
  /// `hotBind(to:_:in:isolation:fileID:line:)`.
  ///
  /// ```swift
  /// viewModel.title.bind(to: titleLabel, \.text, in: lifetime)   // text: String?
  /// ```
  /// - Parameters:
  ///   - target: the object to write to; held weakly.
  ///   - keyPath: the optional property that receives each element.
  ///   - lifetime: ends the binding when it ends.
  ///   - isolation: where the assignment runs; the caller's actor (leave the default).
  /// - Returns: the binding, to cancel it or await its end.
  @discardableResult
  package func hotBind<Target: AnyObject>(
    to target: Target,
    _ keyPath: ReferenceWritableKeyPath<Target, Element?>,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    HotObserver<Element, Never>(
      ConsumerOrigin(.bindToKeyPath, fileID: fileID, line: line), lifetime: lifetime, isolation: isolation,
      onValue: IsolatedHandler(target: target) { object, value in
        unsafeDowncast(object, to: Target.self)[keyPath: keyPath] = value
      }
    ).start(observing: hotSignal.node, in: lifetime)
  }

  /// Sends each element to `subject` inside the source's `send`, for as long as `lifetime` lasts (RAC's
  /// `RAC(target, key) = signal`, RxSwift's `bind(to:)`, ReactiveSwift's `subject <~ signal`): when
  /// `source.send(x)` returns, the subject has `x` and its own graph has run. No task.
  ///
  /// Takes no `isolation`: nothing of the caller's runs. A subject is safe to send to from any thread, so the
  /// binding writes it where the value is sent, as ``SubjectProtocol/sink(in:_:)`` runs.
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
  package func hotBind<Target: SubjectProtocol<Element, TargetFailure>, TargetFailure>(
    to subject: Target,
    in lifetime: Lifetime,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    SinkObserver<Element, Never>(ConsumerOrigin(.bind, fileID: fileID, line: line), lifetime: lifetime)
      .start(observing: hotSignal.node, in: lifetime) { value in
        subject.send(value)
        return true
      }
  }

  /// Triggers `command` with each element inside the source's `send`, for as long as `lifetime` lasts: a
  /// button's taps bound to a command (RAC's `button.rac_command = command`, RxSwift Action's
  /// `bind(to: action.inputs)`). No task: each tap is admitted or refused by the command's policy and `enabledIf`
  /// during the send, as ``Command/trigger(_:)`` does.
  ///
  /// Takes no `isolation`: nothing of the caller's runs, and ``Command/trigger(_:)`` is synchronous and safe from
  /// any thread, so the binding triggers the command where the tap is sent.
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
  package func hotBind<Output, CommandFailure>(
    to command: Command<Element, Output, CommandFailure>,
    in lifetime: Lifetime,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    SinkObserver<Element, Never>(ConsumerOrigin(.bind, fileID: fileID, line: line), lifetime: lifetime)
      .start(observing: hotSignal.node, in: lifetime) {
        [weak command] input in
        guard let command else { return false }
        command.trigger(input)
        return true
      }
  }

  /// Binds a button to a command in one line (RAC's `button.rac_command = command`, RxSwift Action's
  /// `button.rx.action`): each element (the taps) triggers `command` inside its send, and ``Command/isEnabled``
  /// drives `button[keyPath: isEnabled]` on the caller's actor. No task while idle; the button and the command are
  /// held weakly.
  ///
  /// ```swift
  /// loginButton.taps.bind(to: viewModel.logIn, enabling: loginButton, \.isEnabled, in: lifetime)
  /// ```
  /// - Parameters:
  ///   - command: triggered with each element.
  ///   - button: the object whose enabled state follows the command; held weakly.
  ///   - isEnabled: the button's enabled property.
  ///   - lifetime: ends both bindings when it ends.
  ///   - isolation: where the button is updated; the caller's actor (leave the default).
  /// - Returns: the binding of the button's enabled state.
  @discardableResult
  package func hotBind<Output, CommandFailure, Button: AnyObject>(
    to command: Command<Element, Output, CommandFailure>,
    enabling button: Button,
    _ isEnabled: ReferenceWritableKeyPath<Button, Bool>,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    hotBind(to: command, in: lifetime, fileID: fileID, line: line)
    return command.isEnabled.hotSignal.hotBind(
      to: button, isEnabled, in: lifetime, isolation: isolation, fileID: fileID, line: line)
  }
}
