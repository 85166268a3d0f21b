/// A weak reference to an object that does not exist yet: how a view model's synchronous `init` declares
/// commands and observations that call back into the view model itself.
///
/// In an actor's `init`, `self` cannot be captured before every stored property is set, so
/// `Command { [weak self] in await self?.reload() }` does not compile for a command stored in that actor.
/// Create a reference first, give it to the commands and observations, and set it last:
///
/// ```swift
/// actor LifecycleViewModel {
///   nonisolated let refreshCheck: Command<Void, Void, Never>
///   nonisolated let viewWillAppear = AsyncPassthroughSubject<Void, Never>()
///   private let lifetime = Lifetime()
///   private var lastRefresh: ContinuousClock.Instant?
///
///   init() {
///     let this = WeakReference<LifecycleViewModel>()
///     refreshCheck = Command(owner: this) { viewModel in viewModel.checkRefresh() }
///     viewWillAppear.observe(in: lifetime) { _ in await this.value()?.appeared() }
///     this.set(self)
///   }
///
///   func checkRefresh() { … }   // isolated: the command's work runs on the view model
///   func appeared() { … }
/// }
/// ```
///
/// The reference is weak: commands and observations never keep their view model alive. Work that starts before
/// ``set(_:)`` waits for it; work that starts after the object is gone finds `nil`.
public final class WeakReference<Object: AnyObject & Sendable>: Sendable {
  private struct State: Sendable {
    weak var object: Object?
    var isSet = false
    var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    var nextWaiter = 0
  }

  private let state = Locked(State())

  /// Creates an empty reference; call ``set(_:)`` once the object can be referenced.
  ///
  /// ```swift
  /// let this = WeakReference<SearchViewModel>()
  /// ```
  public init() {}

  deinit {
    // Nobody can set it any more: release whoever waits for it (they see `nil`).
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Points the reference at `object`, weakly; call it once, at the end of the owner's `init`.
  ///
  /// ```swift
  /// this.set(self)
  /// ```
  public func set(_ object: Object) {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      precondition(!state.isSet, "WeakReference.set(_:) was called twice: set the reference once, at the end of init")
      state.object = object
      state.isSet = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// The object, or `nil` if it is not set yet or is gone.
  ///
  /// ```swift
  /// this.object?.cancelSearch()
  /// ```
  public var object: Object? { state.withLock { $0.object } }

  /// The object once it is set; `nil` if it is gone (or the reference was released unset).
  ///
  /// **Cancellation:** cancelling the waiting task returns `nil` at once, so a run of a `Command(owner:)` whose
  /// reference is never set (an `init` that forgot ``set(_:)``, or left before it) ends as
  /// ``CommandError/cancelled`` when it is cancelled instead of waiting for ever.
  ///
  /// ```swift
  /// guard let viewModel = await this.value() else { return }
  /// ```
  public func value() async -> Object? {
    let id = state.withLock { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let ready = state.withLock { state -> Bool in
          // Cancelled before this registration: the handler found nothing to resume, so do not wait.
          if state.isSet || Task.isCancelled { return true }
          state.waiters[id] = continuation
          return false
        }
        if ready { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
    return object
  }
}

extension Command {
  /// Creates a command whose work runs isolated to `owner`'s object, held weakly: the RACCommand a view
  /// model declares in its own `init` to call its own methods.
  ///
  /// The work receives the object `isolated`, so it calls the object's methods and touches its state
  /// directly. A run that starts after the object is gone ends in ``CommandError/cancelled``; a run that starts
  /// before ``WeakReference/set(_:)`` waits for it, and ends in ``CommandError/cancelled`` if it is cancelled
  /// meanwhile. `Failure` is inferred from the work as for ``init(policy:fileID:line:work:)``. See ``WeakReference``.
  ///
  /// ```swift
  /// let this = WeakReference<LifecycleViewModel>()
  /// addLeaveTimer = Command(owner: this, policy: .cancelPrevious) { viewModel, _ in
  ///   try await viewModel.runLeaveTimer()
  /// }
  /// this.set(self)
  /// ```
  /// - Parameters:
  ///   - owner: the reference to the object the work runs on.
  ///   - policy: what to do with a call during a run; `.reject` by default.
  ///   - work: the operation each run performs, isolated to the object.
  public init<Owner: Actor>(
    owner: WeakReference<Owner>,
    policy: CommandPolicy = .reject,
    work: @escaping @Sendable (isolated Owner, Input) async throws(Failure) -> Output
  ) {
    self.init(enabledIfValue: nil, policy: policy, work: Self.work(on: owner, work))
  }

  /// Creates a command enabled by `enabledIf` whose work runs isolated to `owner`'s object; see
  /// ``init(owner:policy:work:)-2hbob`` and ``init(enabledIf:policy:fileID:line:work:)``.
  ///
  /// ```swift
  /// logIn = Command(owner: this, enabledIf: isValid) { viewModel, _ in try await viewModel.logIn() }
  /// ```
  /// - Parameters:
  ///   - owner: the reference to the object the work runs on.
  ///   - enabledIf: whether the command may run; read synchronously at each call.
  ///   - policy: what to do with a call during a run; `.reject` by default.
  ///   - work: the operation each run performs, isolated to the object.
  public init<Owner: Actor>(
    owner: WeakReference<Owner>,
    enabledIf: some PropertyProtocol<Bool>,
    policy: CommandPolicy = .reject,
    work: @escaping @Sendable (isolated Owner, Input) async throws(Failure) -> Output
  ) {
    self.init(enabledIfValue: enabledIf.property, policy: policy, work: Self.work(on: owner, work))
  }

  private static func work<Owner: Actor>(
    on owner: WeakReference<Owner>,
    _ work: @escaping @Sendable (isolated Owner, Input) async throws(Failure) -> Output
  ) -> @Sendable (Input) async throws -> Output {
    { input in
      // The command reads `CancellationError` as a cancelled run.
      guard let object = await owner.value() else { throw CancellationError() }
      return try await work(object, input)
    }
  }
}

extension Command where Input == Void {
  /// Creates a command without input whose work runs isolated to `owner`'s object, held weakly; see
  /// ``init(owner:policy:work:)-2hbob``.
  ///
  /// ```swift
  /// refreshCheck = Command(owner: this) { viewModel in viewModel.checkRefresh() }
  /// ```
  /// - Parameters:
  ///   - owner: the reference to the object the work runs on.
  ///   - policy: what to do with a call during a run; `.reject` by default.
  ///   - work: the operation each run performs, isolated to the object.
  public init<Owner: Actor>(
    owner: WeakReference<Owner>,
    policy: CommandPolicy = .reject,
    work: @escaping @Sendable (isolated Owner) async throws(Failure) -> Output
  ) {
    self.init(owner: owner, policy: policy) { (object: isolated Owner, _: Void) throws(Failure) in
      try await work(object)
    }
  }

  /// Creates a command without input, enabled by `enabledIf`, whose work runs isolated to `owner`'s object;
  /// see ``init(owner:enabledIf:policy:work:)-935np``.
  ///
  /// ```swift
  /// logIn = Command(owner: this, enabledIf: isValid) { viewModel in try await viewModel.logIn() }
  /// ```
  /// - Parameters:
  ///   - owner: the reference to the object the work runs on.
  ///   - enabledIf: whether the command may run; read synchronously at each call.
  ///   - policy: what to do with a call during a run; `.reject` by default.
  ///   - work: the operation each run performs, isolated to the object.
  public init<Owner: Actor>(
    owner: WeakReference<Owner>,
    enabledIf: some PropertyProtocol<Bool>,
    policy: CommandPolicy = .reject,
    work: @escaping @Sendable (isolated Owner) async throws(Failure) -> Output
  ) {
    self.init(owner: owner, enabledIf: enabledIf, policy: policy) { (object: isolated Owner, _: Void) throws(Failure) in
      try await work(object)
    }
  }
}
