/// An action a view model offers, with its state as streams: what RACCommand, ReactiveSwift's `Action` and
/// RxSwift's `Action` are, for async/await.
///
/// A command wraps an async operation (the business logic behind a button). Each ``execute(_:)`` runs it
/// once and returns its result; meanwhile the command publishes whether it is ``executing``, whether it
/// ``isEnabled``, and every result on ``values`` and every failure on ``errors``, so that a view can bind
/// its loading indicator and its button without knowing who pressed it. What happens when a call arrives
/// during a run is the command's ``CommandPolicy``: refuse it (the default), run a few at once, queue it, or
/// cancel the run in flight.
///
/// All members are `nonisolated` and synchronous to reach (the state is behind a lock), so reading a stream
/// or starting a run never waits for the command. Runs execute in a task of their own, which is how ``cancel()``
/// and `.cancelPrevious` can stop them. An awaited ``execute(_:)`` starts that task's work at once, on the thread
/// `execute` runs on: like every `nonisolated async` function, `execute` first leaves the caller's actor for the
/// global executor, so a work closure that is not isolated to an actor never runs on the main actor, and the
/// caller resumes on its actor when the run ends (from the main actor that is a hop each way, microseconds).
/// ``trigger(_:)`` schedules the run and returns at once.
///
/// **Work that is a sequence:** ``signal(policy:fileID:line:_:)`` makes a command whose runs each iterate a
/// sequence (RxSwift's `Action { input in observable }`, ReactiveSwift's `Action { input in SignalProducer }`):
/// every element goes to ``values`` as it comes, the run lasts until the sequence ends, and ``execute(_:)`` returns
/// the last element.
///
/// **Failure:** the work's own error type, as in ReactiveSwift's `Action<Input, Output, Error>`, inferred
/// from the work's closure: a work that does not throw makes a
/// `Command<Input, Output, Never>`, a `try` on an untyped `throws` call makes `any Error`, and a closure
/// declared `throws(LoginError)` makes `LoginError`. (Swift 6.3 infers `any Error` for a closure that only
/// calls `throws(LoginError)` functions unless the closure says `throws(LoginError)` itself.) A typed work that
/// awaits something cancellable gets a `CancellationError` its `Failure` may not hold: it may throw any
/// `Failure` (or return) then, since a cancelled run ends in ``CommandError/cancelled`` whatever its work threw.
///
/// **Throws:** ``execute(_:)`` throws ``CommandError``: `.failed(failure)` with the work's `Failure` (also
/// sent on ``errors``), `.disabled` when the command refuses the call (sent on ``disabledErrors``),
/// `.cancelled`, or, for a command whose work is a sequence, `.noValue` when the sequence sent nothing.
///
/// **Cancellation:** cancelling a caller's task cancels its run; ``cancel()`` cancels every run and every
/// waiting caller; releasing the command cancels what is still running. A cancelled run's caller gets
/// ``CommandError/cancelled``, and nothing is sent on ``values`` or ``errors`` for it (for a sequence's run:
/// nothing after the cancellation, whose iteration stops).
///
/// **Finishes:** the streams finish once the command has been released and its last run has ended.
///
/// ```swift
/// actor SearchViewModel {
///   nonisolated let searchText = AsyncCurrentValueSubject<String, Never>("")
///   nonisolated let results = AsyncCurrentValueSubject<[String], Never>([])
///   nonisolated let search: Command<Void, [String], any Error>
///
///   init(api: SearchAPI) {
///     let text = searchText
///     let results = results
///     search = Command(enabledIf: searchText.map { $0.count >= 2 }) {
///       let found = try await api.search(text.value)
///       results.send(found)
///       return found
///     }
///   }
/// }
/// // The view:
/// viewModel.search.executing.observe(in: lifetime) { spinner.isAnimating = $0 }
/// viewModel.search.isEnabled.observe(in: lifetime) { button.isEnabled = $0 }
/// button.onTap { viewModel.search.trigger() }
/// ```
public actor Command<Input: Sendable, Output: Sendable, Failure: Error> {
  /// Whether a run is in flight: the current value first, then each change (`false`, `true`, `false` for
  /// one run; it stays `true` while any run is in flight). Drive activity indicators with it.
  ///
  /// ```swift
  /// command.executing.observe(in: lifetime) { spinner.isHidden = !$0 }
  /// ```
  public nonisolated let executing: Property<Bool>

  /// Whether a call would run now: `enabledIf` is `true` and the policy allows another run (under `.reject`
  /// and `.concurrent(limit:)`: not at the limit). Its ``Property/value`` is computed at the moment it is
  /// read, so it always agrees with what ``execute(_:)`` would decide; iterating it yields the current
  /// value first, then each change (never the same value twice in a row). Drive a button's `isEnabled`
  /// with it.
  ///
  /// ```swift
  /// command.isEnabled.observe(in: lifetime) { button.isEnabled = $0 }
  /// ```
  public nonisolated let isEnabled: Property<Bool>

  /// The input of each run, when it starts (RAC's `executionSignals`, which fire as a run begins): after the
  /// call was admitted and, under `.enqueue`, when its turn came; before the work runs. Refused calls send
  /// nothing here (they go to ``disabledErrors``).
  ///
  /// ```swift
  /// search.started.observe(in: lifetime) { query in print("searching \(query)…") }
  /// ```
  public nonisolated let started: HotSignal<Input, Never>

  /// Each successful output, in the order the runs finished (RACCommand's `executionSignals` flattened,
  /// Action's `values`); for a command made with ``signal(policy:fileID:line:_:)``, each element of each run's
  /// sequence as it comes (RxSwift Action's `elements`). Each iteration is a new consumer that sees the outputs
  /// from then on.
  ///
  /// ```swift
  /// for await results in search.values { show(results) }
  /// ```
  public nonisolated let values: HotSignal<Output, Never>

  /// Each error thrown by the work, typed (RACCommand's and Action's `errors`), in the order the runs
  /// failed. Neither a cancelled run (nor a work that threw `CancellationError`) nor a refused call is sent
  /// here: ``execute(_:)`` throws ``CommandError/cancelled`` and ``CommandError/disabled`` for those.
  ///
  /// ```swift
  /// logIn.errors.observe(in: lifetime) { (error: LoginError) in showAlert(error) }
  /// ```
  public nonisolated let errors: HotSignal<Failure, Never>

  /// One event per call refused because the command was disabled (Action's `disabledErrors`).
  ///
  /// ```swift
  /// login.disabledErrors.observe(in: lifetime) { _ in shakeButton() }
  /// ```
  public nonisolated let disabledErrors: HotSignal<Void, Never>

  /// What the command does with a call that arrives while runs are in flight.
  public nonisolated let policy: CommandPolicy

  nonisolated let storage: CommandStorage<Input, Output, Failure>

  /// Creates a command that is always enabled (subject to its policy).
  ///
  /// `Failure` comes from the work: no annotation for a work that cannot fail (`Never`) or throws untyped
  /// (`any Error`); `throws(E)` on the closure for a typed failure.
  ///
  /// Releasing the command cancels its runs; in debug builds a release while a run is in flight is reported on
  /// standard error, naming the line that made the command (keep it in a `let`; a binding to it keeps it).
  ///
  /// ```swift
  /// let refresh = Command { try await api.orders() }  // Command<Void, [Order], any Error>
  /// let double = Command { (value: Int) in value * 2 }  // Command<Int, Int, Never>
  /// let logIn = Command { () throws(LoginError) in try await api.logIn() }  // Command<Void, Token, LoginError>
  /// let rename = Command(policy: .enqueue) { (name: String) in try await api.rename(to: name) }
  /// ```
  /// - Parameters:
  ///   - policy: what to do with a call during a run; `.reject` by default.
  ///   - work: the operation each run performs.
  public init(
    policy: CommandPolicy = .reject, fileID: StaticString = #fileID, line: UInt = #line,
    work: @escaping @Sendable (Input) async throws(Failure) -> Output
  ) {
    self.init(enabledIfValue: nil, policy: policy, origin: (fileID, line), work: work)
  }

  /// Creates a command that is enabled only while `enabledIf` is `true` (RACCommand's
  /// `initWithEnabled:signalBlock:`, Action's `enabledIf:`).
  ///
  /// `enabledIf` is a ``Property``, an ``AsyncCurrentValueSubject`` or any ``PropertyProtocol``: something with a
  /// current value. Each call reads it at the moment of the call, so `enabled.value = true` followed at once
  /// by `execute` runs, and the command starts in `enabledIf`'s state (a login button never flashes enabled
  /// on load). To drive it from a stream, say what holds until the stream's first element:
  /// `Command(enabledIf: Property(initial: false, then: stream))`.
  ///
  /// ```swift
  /// let canLogIn = combineLatest(username, password).map { $0.count >= 3 && $1.count >= 8 }
  /// let logIn = Command(enabledIf: canLogIn) { try await api.logIn(username.value, password.value) }
  /// ```
  /// - Parameters:
  ///   - enabledIf: whether the command may run; read synchronously at each call.
  ///   - policy: what to do with a call during a run; `.reject` by default.
  ///   - work: the operation each run performs.
  public init(
    enabledIf: some PropertyProtocol<Bool>,
    policy: CommandPolicy = .reject,
    fileID: StaticString = #fileID, line: UInt = #line,
    work: @escaping @Sendable (Input) async throws(Failure) -> Output
  ) {
    self.init(enabledIfValue: enabledIf.property, policy: policy, origin: (fileID, line), work: work)
  }

  /// `work` is the run as the storage sees it: it throws a `Failure`, or `CancellationError` (a
  /// `Command(owner:)` whose owner is gone). Untyped inside the library: see ``CommandStorage``.
  init(
    enabledIfValue enabledIf: Property<Bool>?,
    policy: CommandPolicy,
    origin: (fileID: StaticString, line: UInt)? = nil,
    work: @escaping @Sendable (Input) async throws -> Output
  ) {
    self.init(enabledIfValue: enabledIf, policy: policy, origin: origin, run: .value(work))
  }

  /// A command whose runs do `run`: one value per run, or a sequence's elements (``signal(policy:fileID:line:_:)``).
  init(
    enabledIfValue enabledIf: Property<Bool>?,
    policy: CommandPolicy,
    origin: (fileID: StaticString, line: UInt)?,
    run: CommandStorage<Input, Output, Failure>.Work
  ) {
    self.origin = origin
    let storage = CommandStorage<Input, Output, Failure>(policy: policy, enabledIf: enabledIf, work: run)
    self.storage = storage
    self.policy = policy
    executing = Property(storage.executing)
    isEnabled = Self.isEnabled(enabledIf, open: storage.open)
    // Hot, read-only: operators on them run inside the command's publication, and a consumer registers at
    // `makeAsyncIterator()` (or `subscribe()`). They do not keep the command alive.
    started = storage.starts.hotSignal
    values = storage.values.hotSignal
    errors = storage.errors.hotSignal
    disabledErrors = storage.disabledErrors.hotSignal
  }

  /// Where the command was made, for the debug report of a command released with runs in flight; `nil` for a
  /// `Command(owner:)`, which its owner keeps.
  private nonisolated let origin: (fileID: StaticString, line: UInt)?

  deinit {
    let inFlight = storage.close()
    #if DEBUG
      if inFlight, let origin {
        DebugReport.emit(
          "AsyncReactive: the Command made at \(origin.fileID):\(origin.line) was released while a run was in flight, "
            + "which cancels the run. Keep the command while it runs (a let of the view model); a binding to it "
            + "keeps it (taps.bind(to: command, in: lifetime)).")
      }
    #else
      _ = inFlight
    #endif
  }

  /// Runs the work with `input` and returns its output (RACCommand's `execute:`).
  ///
  /// The command is ``executing`` from the call until the work ends; the output is also sent on ``values``.
  /// Under `.enqueue`, a call made during a run waits for its turn first. For a command whose work is a
  /// sequence (``signal(policy:fileID:line:_:)``), the run lasts until the sequence ends, each element is sent on
  /// ``values`` as it comes, and this returns the last one.
  ///
  /// **Throws:** ``CommandError/disabled`` at once, without starting the work, if the command is disabled
  /// (one event goes to ``disabledErrors``); ``CommandError/failed(_:)`` with the work's error, which also
  /// goes to ``errors``; ``CommandError/cancelled`` if the run was cancelled, whatever the work returned;
  /// ``CommandError/noValue`` if the run's sequence finished without an element (only a command made with
  /// ``signal(policy:fileID:line:_:)`` can end so). A `Command<Input, Output, Never>` never throws `.failed`.
  ///
  /// **Cancellation:** cancelling the calling task cancels this run (or, while it waits for its turn, removes
  /// it from the queue). The call returns when the work has returned.
  ///
  /// ```swift
  /// do {
  ///   show(try await viewModel.search.execute("swift"))
  /// } catch {
  ///   if case .failed(let failure) = error { showAlert(failure) }  // error: CommandError<SearchError>
  /// }
  /// ```
  /// - Parameter input: the input of this run.
  /// - Returns: the work's output; the last element of the run's sequence for a command made with
  ///   ``signal(policy:fileID:line:_:)``.
  public nonisolated func execute(_ input: Input) async throws(CommandError<Failure>) -> Output {
    do {
      return try await storage.execute(input)
    } catch {
      throw CommandStorage<Input, Output, Failure>.typed(error)
    }
  }

  /// Starts a run with `input` without waiting for it: for button taps and other fire-and-forget inputs
  /// (RxSwift Action's `inputs`, a `CocoaAction`). The outcome goes to ``values`` or ``errors``.
  ///
  /// The call is admitted (or refused, with an event on ``disabledErrors``) before this returns, so the
  /// order of calls is the order of their turns under `.enqueue`. An admitted run starts in place and runs until
  /// its work first waits, as RxSwift's Action does inside `execute`: work that never really waits (a stub, a
  /// cached answer, a `for await` over `Signal.just`) has finished, with its value on ``values``, when this
  /// returns; so has a run whose sequence answers without waiting (`Signal([1, 2, 3])` for a command made with
  /// ``signal(policy:fileID:line:_:)``), with every element on ``values``. The run belongs to the command:
  /// releasing the command or calling ``cancel()`` cancels it. A sequence's run that sends no element just ends:
  /// nothing goes to ``values`` or ``errors``.
  ///
  /// ```swift
  /// searchButton.onTap { viewModel.search.trigger("swift") }
  /// ```
  /// - Parameter input: the input of this run.
  public nonisolated func trigger(_ input: Input) {
    storage.trigger(input)
  }

  /// Cancels every run in flight and every caller waiting for its turn; their callers get
  /// ``CommandError/cancelled``. The command stays usable: later calls run as usual.
  ///
  /// ```swift
  /// cancelButton.onTap { viewModel.upload.cancel() }
  /// ```
  public nonisolated func cancel() {
    storage.cancelAll()
  }

  // MARK: Helpers

  /// `enabledIf && open`, read when it is read; its iteration ends when the command is released (`open`
  /// turns `nil`), even while `enabledIf` lives on, after a final `false`. `open` keeps its `nil` (it does not
  /// finish), so that a consumer that comes after the release is given that `false` and the end too.
  private static func isEnabled(_ enabledIf: Property<Bool>?, open: AsyncCurrentValueSubject<Bool?, Never>) -> Property<
    Bool
  > {
    let enabledIf = enabledIf ?? Property(value: true)
    let open = Property(open)
    // Evaluated inside the sends of `enabledIf` and of the command's state: a consumer gets the state at its
    // subscription, then every change; the command closing (`open` becomes `nil`) gives `false` and finishes it.
    return Property(
      read: { enabledIf.value && (open.value ?? false) },
      changes: HotSignal(
        node: makeCombineLatest(
          enabledIf, open, origin: NodeOrigin(.combineLatest), failures: neverFailure, neverFailure)
      )
      .hotPrefix(while: { $1 != nil }, inclusive: true)
      .hotMap { $0 && ($1 ?? false) }
      .hotRemoveDuplicates())
  }
}

extension Command where Input == Void {
  /// Runs the work and returns its output; see ``execute(_:)``.
  ///
  /// ```swift
  /// let orders = try await viewModel.refresh.execute()
  /// ```
  /// - Returns: the work's output.
  public nonisolated func execute() async throws(CommandError<Failure>) -> Output {
    try await execute(())
  }

  /// Starts a run without waiting for it; see ``trigger(_:)``.
  ///
  /// ```swift
  /// refreshButton.onTap { viewModel.refresh.trigger() }
  /// ```
  public nonisolated func trigger() {
    trigger(())
  }
}
