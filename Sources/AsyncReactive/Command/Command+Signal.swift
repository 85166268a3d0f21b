// Commands whose work is a sequence: ReactiveSwift's `Action { input in SignalProducer }`, RxSwift's
// `Action { input in observable }` and `CocoaAction { _ in observable }`.
//
// Static factories rather than initialisers: an unlabeled trailing closure matches the first closure parameter
// whatever its label, so an `init(signal:)` would be tried for every `Command { … }` call (measured: +40 % on their
// type-checking), and `Command { someSignal }`, a command whose output is a signal, would silently become one that
// iterates it.

extension Command {
  /// Creates a command whose work is a sequence, always enabled (subject to its policy): each run iterates the
  /// sequence `work` makes for its input, and every element goes to ``values`` as it comes (ReactiveSwift's
  /// `Action { input in SignalProducer }`, RxSwift's `Action { input in observable }` with its `elements`, a
  /// `CocoaAction { _ in observable }`).
  ///
  /// `Output` and `Failure` are the sequence's: a `Signal<Int, Never>` makes a `Command<Input, Int, Never>`, a
  /// `Signal<Int, UploadError>` a `Command<Input, Int, UploadError>`, with no annotation. `work` itself does not
  /// throw: a sequence that cannot be made fails instead (`Signal.fail(error)`).
  ///
  /// **A run** starts as ``execute(_:)`` or ``trigger(_:)`` is admitted and lasts until its sequence ends:
  /// - each element is sent on ``values`` as the sequence produces it, in order, inside the run; ``executing`` is
  ///   `true` from the run's start until the sequence has ended;
  /// - the sequence finishes: ``execute(_:)`` returns its last element (sent on ``values`` already, not again); if
  ///   it sent none, ``execute(_:)`` throws ``CommandError/noValue`` and nothing else happens: nothing goes to
  ///   ``errors``, and a ``trigger(_:)`` of such a run just ends;
  /// - the sequence fails: its failure goes to ``errors`` and the run ends in ``CommandError/failed(_:)``; the
  ///   elements before the failure were published;
  /// - the run is cancelled (``cancel()``, a later call under `.cancelPrevious`, the calling task of
  ///   ``execute(_:)``, the release of the command): the iteration stops, which cancels the sequence's work (a
  ///   timer's sleep, a `Signal`'s upstream), nothing more of the run is published, and ``execute(_:)`` throws
  ///   ``CommandError/cancelled``.
  ///
  /// A ``trigger(_:)`` whose sequence answers without waiting (`Signal([1, 2, 3])`, `Signal.just`, a cached
  /// answer) has published every element and ended (``executing`` is `false` again) when it returns, as for work
  /// that returns one value. The policy treats a run the same whatever its work: `.reject` refuses a call while a
  /// sequence runs, `.enqueue` starts the next once it ended, `.cancelPrevious` stops it.
  ///
  /// ```swift
  /// let upload = Command.signal { (file: File) in api.upload(file) }  // Command<File, Progress, UploadError>
  /// upload.values.observe(in: lifetime) { progress in bar.progress = progress.fraction }
  /// upload.trigger(file)
  /// let refresh = Command.signal(policy: .cancelPrevious) { (_: Void) in store.reload() }
  /// // In a view model, with the property's type said:
  /// nonisolated let progress: Command<Int, Int, Never>
  /// progress = .signal { id in api.progress(of: id) }
  /// ```
  /// - Parameters:
  ///   - policy: what to do with a call during a run; `.reject` by default.
  ///   - work: makes the sequence a run iterates, from the run's input.
  /// - Returns: the command.
  public static func signal<S: AsyncSequence & SendableMetatype>(
    policy: CommandPolicy = .reject, fileID: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Input) -> S
  ) -> Command where S.Element == Output, S.Failure == Failure {
    Command(enabledIfValue: nil, policy: policy, origin: (fileID, line), run: elements(of: work))
  }

  /// Creates a command whose work is a sequence, enabled only while `enabledIf` is `true` (ReactiveSwift's
  /// `Action(enabledIf:execute:)` with a `SignalProducer`, RxSwift's `Action(enabledIf:workFactory:)`); see
  /// ``signal(policy:fileID:line:_:)`` for what a run does, and ``init(enabledIf:policy:fileID:line:work:)`` for
  /// `enabledIf`.
  ///
  /// ```swift
  /// let sync = Command.signal(enabledIf: isOnline) { (_: Void) in store.syncSteps() }  // Command<Void, Step, SyncError>
  /// syncButton.onTap { sync.trigger() }
  /// ```
  /// - Parameters:
  ///   - enabledIf: whether the command may run; read synchronously at each call.
  ///   - policy: what to do with a call during a run; `.reject` by default.
  ///   - work: makes the sequence a run iterates, from the run's input.
  /// - Returns: the command.
  public static func signal<S: AsyncSequence & SendableMetatype>(
    enabledIf: some PropertyProtocol<Bool>,
    policy: CommandPolicy = .reject,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Input) -> S
  ) -> Command where S.Element == Output, S.Failure == Failure {
    Command(enabledIfValue: enabledIf.property, policy: policy, origin: (fileID, line), run: elements(of: work))
  }

  /// A run of a sequence's command: iterates the sequence in the run's task, publishing each element as it comes,
  /// and returns the last one. Stops when the run is cancelled (`publish` says so, or the sequence ends or throws
  /// because its task was): the iterator is dropped, which ends the sequence's work.
  private static func elements<S: AsyncSequence & SendableMetatype>(
    of work: @escaping @Sendable (Input) -> S
  ) -> CommandStorage<Input, Output, Failure>.Work where S.Element == Output, S.Failure == Failure {
    .elements { input, publish in
      var last: Output?
      for try await element in work(input) {
        guard publish(element) else { break }
        last = element
      }
      return last
    }
  }
}
