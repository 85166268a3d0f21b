/// A model object held by a service, loaded on demand, shared by every caller, and never loading past its
/// owner: the "initial" and "update" operations of an MVVM model layer.
///
/// ``value()`` returns the held value, or loads it; however many callers ask while the load runs, there is
/// one load, and they all get its result (single flight). ``refresh()`` loads again; ``update(_:)`` runs an
/// update operation on the held value and stores what it returns. ``values`` replays the latest stored
/// value to each new consumer, so a view can observe the model while someone else triggers the loads.
///
/// ``values`` is hot (a ``HotSignal``): operators on it and its sinks run when a value is stored, before the
/// ``value()``, ``refresh()`` or ``update(_:)`` that stored it returns. They may call the resource back: what
/// such a call stores is published after the current value, never recursively, and no lock of the resource is
/// held while they run.
///
/// A failed load stores nothing: its callers get the error, ``values`` sends nothing, and the next ``value()``
/// tries again.
///
/// All members are `nonisolated` (the state is behind a lock), so a held value costs no actor hop.
///
/// **Throws:** the load's or the update's error; `CancellationError` when the caller or the load was
/// cancelled.
///
/// **Cancellation:** a load belongs to the resource, not to the caller that started it: a cancelled caller
/// stops waiting (with `CancellationError`) while the load goes on for the others and for the cache.
/// ``cancel()`` cancels the load in flight, and **releasing the resource cancels it too**: a request never
/// outlives the service that owns it. An update runs in its caller's task and is cancelled with it.
///
/// **Finishes:** ``values`` finishes when the resource is released.
///
/// ```swift
/// actor OrdersService {
///   let orders: Resource<[Order]>
///   init(api: API) { orders = Resource { try await api.orders() } }
/// }
/// let list = try await service.orders.value()          // loads once, then returns the held list
/// let renamed = try await service.orders.update { current in
///   try await api.rename(current[0], to: "Tom")        // stored on success, old list kept on failure
/// }
/// ```
public actor Resource<Value: Sendable> {
  /// The stored values, hot: the latest one replayed to each new consumer, then every value stored later
  /// (loads, refreshes and updates).
  ///
  /// Nothing is sent until the first load succeeds, and nothing for a failed load or update. Operators on it
  /// (`map`, `combineLatest`, …) and its sinks run inside the store, once per value however many consumers
  /// they have: when ``refresh()`` or ``update(_:)`` returns, they have seen its value (unless another thread,
  /// or the sink that called it, is publishing for the resource at that moment: that publication then delivers
  /// it next, in order). A consumer registers at `makeAsyncIterator()` (or
  /// ``HotSignal/subscribe(bufferingPolicy:)``). It does not keep the resource alive.
  ///
  /// **Finishes:** when the resource is released (a late consumer still gets the last value first).
  ///
  /// **Cancellation:** a consumer that stops is removed at once; the loads go on.
  ///
  /// ```swift
  /// let counts = service.orders.values.map(\.count)   // Signal<Int, Never>, hot
  /// counts.sink(in: lifetime) { print("\($0) orders") }
  /// _ = try await service.orders.refresh()            // printed before refresh() returns
  /// ```
  public nonisolated let values: HotSignal<Value, Never>

  private nonisolated let storage: ResourceStorage<Value>

  /// Creates an empty resource that loads with `load` when a value is first asked for.
  ///
  /// ```swift
  /// let wallet = Resource { try await api.wallet(for: user) }
  /// ```
  /// - Parameter load: fetches the value (from the backend or local storage); runs in a task that belongs
  ///   to the resource, and is cancelled when the resource is released or ``cancel()`` is called.
  public init(load: @escaping @Sendable () async throws -> Value) {
    storage = ResourceStorage(load: load)
    // Hot and read-only: operators on it run inside the resource's publication. It holds the subject's node, not
    // the resource, so releasing the resource still cancels its load and finishes `values`.
    values = storage.values.hotSignal
  }

  deinit {
    storage.close()
  }

  /// The held value, or, if there is none, the result of a load (the one in flight, or a new one).
  ///
  /// **Throws:** the load's error (nothing is stored, and the next call loads again); `CancellationError`
  /// if the caller or the load was cancelled.
  ///
  /// **Cancellation:** cancelling the caller stops its wait at once; the load goes on.
  ///
  /// ```swift
  /// let profile = try await service.profile.value()
  /// ```
  /// - Returns: the held or loaded value.
  public nonisolated func value() async throws -> Value {
    try await storage.value(force: false)
  }

  /// Loads the value again and stores it; callers during a load share it (a load already in flight is
  /// joined, not repeated).
  ///
  /// When this returns, the stored value has gone out on ``values``: its operators and sinks have run (unless
  /// a publication of the resource was under way, which then delivers it next).
  ///
  /// **Throws:** the load's error (the held value stays); `CancellationError` if the caller or the load was
  /// cancelled.
  ///
  /// ```swift
  /// let fresh = try await service.orders.refresh()   // pull to refresh
  /// ```
  /// - Returns: the loaded value.
  public nonisolated func refresh() async throws -> Value {
    try await storage.value(force: true)
  }

  /// Runs `operation` on the current value (loaded first if none is held) and stores its result.
  ///
  /// Updates run one at a time, in call order, so none works on a value another is replacing. A load that
  /// started before an update stored its result does not overwrite it. When this returns, the result has gone
  /// out on ``values``, as with ``refresh()``.
  ///
  /// **Throws:** the operation's error (the held value stays untouched), or the load's error.
  ///
  /// **Cancellation:** the operation runs in the caller's task: cancelling the caller cancels it.
  ///
  /// ```swift
  /// let user = try await service.user.update { current in
  ///   try await api.rename(current, to: "Tom")
  /// }
  /// ```
  /// - Parameter operation: sends the update (to the backend, say) and returns the new value.
  /// - Returns: the stored value.
  public nonisolated func update(_ operation: @Sendable (Value) async throws -> Value) async throws -> Value {
    try await storage.update(operation)
  }

  /// Cancels the load in flight, if any: its callers get `CancellationError`. The held value stays, and a
  /// later ``value()`` loads again if none is held.
  ///
  /// ```swift
  /// service.orders.cancel()
  /// ```
  public nonisolated func cancel() {
    storage.cancel()
  }
}
