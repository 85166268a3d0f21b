extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// Sends each element to `subject`, for as long as `lifetime` lasts: RAC's `RAC(target, key) = signal`,
  /// RxSwift's `bind(to:)`, ReactiveSwift's `subject <~ signal`.
  ///
  /// The source is registered before this returns (a subject's values sent right after the call are not
  /// missed), and its elements reach the subject in order. Takes no `isolation`: nothing of the caller's runs, and
  /// a subject is safe to send to from any thread, so the binding's task sends from wherever it runs.
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
  /// - Returns: the binding, to cancel it or await its end.
  @discardableResult
  public func bind<Target: SubjectProtocol<Element, TargetFailure>, TargetFailure>(
    to subject: Target,
    in lifetime: Lifetime,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    // A hot source, whatever its static type, is bound inside its sends (no task).
    if let node = Signal(self).hotNode {
      return HotSignal(node: node).hotBind(to: subject, in: lifetime, fileID: fileID, line: line)
    }
    let iterator = makeAsyncIterator()
    return ObservationHandle(
      task: lifetime.run(name: "bind(to: subject)") {
        var iterator = iterator
        while let value = await iterator.next(isolation: nil) {
          // A lifetime that ended delivers nothing more, not even what was buffered before its task ran
          // (ReactiveSwift's bindingFromSignal_tearsDownWhenDisposed).
          guard !Task.isCancelled else { break }
          subject.send(value)
        }
      })
  }

  /// Triggers `command` with each element, for as long as `lifetime` lasts: a button's taps bound to a
  /// command (RAC's `button.rac_command = command`, RxSwift Action's `bind(to: action.inputs)`).
  ///
  /// Each element starts a run with ``Command/trigger(_:)`` and does not wait for it, so the command's
  /// policy decides what happens to taps during a run (refused and reported on
  /// ``Command/disabledErrors``, queued, or replacing the run in flight). Outcomes go to the command's
  /// ``Command/values`` and ``Command/errors``. Takes no `isolation`: nothing of the caller's runs, and `trigger`
  /// is synchronous and safe from any thread.
  ///
  /// The binding keeps the command for as long as it lives (RxSwift's `button.rx.action = action` retains the
  /// action), so a command made for the binding (`taps.bind(to: makeRegisterCommand(), in: lifetime)`) runs.
  ///
  /// **Finishes:** when the source finishes or the lifetime ends. Either way the binding lets go of the command: a
  /// command that nothing else keeps is released then, which cancels its runs.
  ///
  /// **Cancellation:** ending the lifetime stops the binding and lets go of the command; runs already started
  /// belong to the command.
  ///
  /// ```swift
  /// searchButton.taps.bind(to: viewModel.search, in: lifetime)
  /// viewWillAppear.bind(to: viewModel.refreshCheck, in: lifetime)
  /// ```
  /// - Parameters:
  ///   - command: the command to trigger; kept while the binding lives.
  ///   - lifetime: ends the binding when it ends.
  /// - Returns: the binding, to cancel it or await its end.
  @discardableResult
  public func bind<Output, CommandFailure>(
    to command: Command<Element, Output, CommandFailure>,
    in lifetime: Lifetime,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    if let node = Signal(self).hotNode {
      return HotSignal(node: node).hotBind(to: command, in: lifetime, fileID: fileID, line: line)
    }
    let (iterator, executor) = TaskExecutorContext.discovering { makeAsyncIterator() }
    let slot = lifetime.reserve()
    let count = InPlaceTaskCount(named: "bind(to: command)", executor: executor)
    // Started in place: a cold source with values ready has triggered the command with them before this returns.
    let task = Task(inPlace: count) {
      defer {
        count.end()
        slot.done()
      }
      var iterator = iterator
      while let input = await iterator.next(isolation: nil) {
        // A lifetime that ended delivers nothing more, not even what was buffered before its task ran
        // (ReactiveSwift's bindingFromSignal_tearsDownWhenDisposed).
        guard !Task.isCancelled else { break }
        command.trigger(input)
      }
    }
    return ObservationHandle(task: lifetime.adopt(task, in: slot))
  }

  /// Binds a button to a command in one line (RAC's `button.rac_command = command`, RxSwift Action's
  /// `button.rx.action`): each element of this sequence (the taps) triggers `command`, and
  /// ``Command/isEnabled`` drives `button[keyPath: isEnabled]` on the caller's actor.
  ///
  /// The button is held weakly; the command is kept while the binding lives (RxSwift's `rx.action`). Taps are
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
  ///   - isolation: where the button is updated; the caller's actor (leave the default).
  /// - Returns: the binding of the button's enabled state.
  @discardableResult
  public func bind<Output, CommandFailure, Button: AnyObject>(
    to command: Command<Element, Output, CommandFailure>,
    enabling button: Button,
    _ isEnabled: ReferenceWritableKeyPath<Button, Bool>,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    bind(to: command, in: lifetime, fileID: fileID, line: line)
    return command.isEnabled.bind(to: button, isEnabled, in: lifetime, isolation: isolation, fileID: fileID, line: line)
  }
}
