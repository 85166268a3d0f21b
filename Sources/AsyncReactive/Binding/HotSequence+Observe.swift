// Observations and bindings of hot sources (subjects, properties, hot chains, a command's streams): a sink on the
// source plus, for handlers that run on the caller's actor, a drain task that exists only while values wait. An idle
// observation keeps no task (it costs what a `sink` costs); the order, the handler's isolation and the lifetime
// rules are those of the `AsyncSequence` forms, which stay for cold sequences.

extension HotSequence where Failure == Never {
  /// Runs `onValue` for each element on the caller's actor, for as long as `lifetime` lasts (RAC
  /// `subscribeNext:`, RxSwift `subscribe(onNext:).disposed(by:)`, ReactiveSwift `observeValues`), keeping no task
  /// while no value waits.
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
  @discardableResult
  package func hotBind<Output, CommandFailure>(
    to command: Command<Element, Output, CommandFailure>,
    in lifetime: Lifetime,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    SinkObserver<Element, Never>(ConsumerOrigin(.bind, fileID: fileID, line: line), lifetime: lifetime)
      .start(observing: hotSignal.node, in: lifetime) { input in
        // The binding keeps the command while it lives (RxSwift's `rx.action` retains the action).
        command.trigger(input)
        return true
      }
  }

  /// Binds a button to a command in one line (RAC's `button.rac_command = command`, RxSwift Action's
  /// `button.rx.action`): each element (the taps) triggers `command` inside its send, and ``Command/isEnabled``
  /// drives `button[keyPath: isEnabled]` on the caller's actor. No task while idle; the button is held weakly, the
  /// command kept while the binding lives.
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
