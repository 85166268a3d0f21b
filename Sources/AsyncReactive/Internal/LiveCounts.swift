import Synchronization

/// How many tasks and subject consumers of the library are alive now, process-wide: what a test reads to see
/// that nothing leaked (RxSwift's `Resources.total`). A test that ends with more than it started with has
/// leaked an observation.
///
/// The counters are cheap (one atomic add when a task or consumer starts, one when it ends). Tests that run in
/// parallel share them, so compare them only in a test that runs alone, or use `expectNoLeaks { … }` from
/// AsyncReactiveTesting, which counts only what its block started.
///
/// ```swift
/// let before = LiveCounts.total
/// viewModel = nil
/// lifetime.cancel()
/// // … once the tasks wound down:
/// #expect(LiveCounts.total == before)
/// ```
public enum LiveCounts {
  /// Live tasks and subject consumers: ``tasks`` + ``consumers``.
  ///
  /// ```swift
  /// print("AsyncReactive tasks and consumers alive:", LiveCounts.total)
  /// ```
  public static var total: Int { tasks + consumers }

  /// Tasks the library started (operator pumps, timers, command runs, observations and bindings) that have
  /// not ended.
  ///
  /// ```swift
  /// #expect(LiveCounts.tasks == tasksBefore)
  /// ```
  public static var tasks: Int { ResourceCounters.tasks.load(ordering: .relaxed) }

  /// Consumers registered with a subject (or a property over one) whose subscription or iterator still
  /// exists.
  ///
  /// ```swift
  /// #expect(LiveCounts.consumers == consumersBefore)
  /// ```
  public static var consumers: Int { ResourceCounters.consumers.load(ordering: .relaxed) }
}

/// The process-wide counters behind ``LiveCounts``.
@usableFromInline enum ResourceCounters {
  @usableFromInline static let tasks = Atomic<Int>(0)
  @usableFromInline static let consumers = Atomic<Int>(0)

  /// Counts a new subject consumer; returns the scope it was counted in, for ``releaseConsumer(in:)``. (An
  /// object of the consumer's own carries the scope, rather than a token object per consumer.)
  @usableFromInline static func acquireConsumer() -> ResourceScope? {
    consumers.add(1, ordering: .relaxed)
    let scope = ResourceScope.current
    scope?.acquire(.consumer)
    return scope
  }

  /// Counts a subject consumer's end.
  @usableFromInline static func releaseConsumer(in scope: ResourceScope?) {
    consumers.subtract(1, ordering: .relaxed)
    scope?.release(.consumer)
  }

  /// Counts a new task `kind` whose operation is sure to run to its end and call ``releaseTask(_:in:)`` (an
  /// immediate task: its operation starts before the task is returned), without a ``ResourceToken`` object:
  /// returns the scope it was counted in. A task that may be dropped before its operation runs keeps a token,
  /// whose deinit releases it.
  static func acquireTask(_ kind: ResourceKind) -> ResourceScope? {
    tasks.add(1, ordering: .relaxed)
    let scope = ResourceScope.current
    scope?.acquire(kind)
    return scope
  }

  /// Counts the end of a task counted by ``acquireTask(_:)``.
  static func releaseTask(_ kind: ResourceKind, in scope: ResourceScope?) {
    tasks.subtract(1, ordering: .relaxed)
    scope?.release(kind)
  }
}

/// What a resource is, for counting and for naming what leaked.
@usableFromInline package enum ResourceKind: Sendable {
  case task(String)
  case consumer

  var label: String {
    switch self {
    case .task(let name): "task '\(name)'"
    case .consumer: "subject consumer"
    }
  }
}

/// Counts the resources started while it is the current scope (a task-local, inherited by the tasks those
/// resources start), so that a test can check that everything its block started has ended, whatever other
/// tests do meanwhile. What `expectNoLeaks` uses.
@usableFromInline package final class ResourceScope: Sendable {
  @TaskLocal package static var current: ResourceScope?

  private struct State: Sendable {
    var live: [String: Int] = [:]
    var total = 0
    /// Who waits for the total to drop to a bound, with the bound.
    var waiters: [(bound: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// The live consumers whose node is known, by consumer: what kind of consumer, and the node it observes.
    var consumers: [ObjectIdentifier: (kind: String, node: any AnyObject & Sendable)] = [:]
  }

  private let state = Locked(State())

  package init() {}

  /// What is alive, by kind: `["task 'combineLatest input 2'": 1]`.
  package var live: [String: Int] { state.withLock { $0.live.filter { $0.value > 0 } } }

  /// How many resources are alive.
  package var total: Int { state.withLock { $0.total } }

  /// Remembers that consumer `owner` (a `kind`: "an iterator", "a sink") observes `node`, until
  /// ``forgetConsumer(_:)``: what a leak report names.
  @usableFromInline package func noteConsumer(_ owner: AnyObject, kind: String, of node: any AnyObject & Sendable) {
    state.withLock { $0.consumers[ObjectIdentifier(owner)] = (kind, node) }
  }

  /// Forgets what ``noteConsumer(_:kind:of:)`` remembered for `owner`.
  @usableFromInline package func forgetConsumer(_ owner: AnyObject) {
    _ = state.withLock { $0.consumers.removeValue(forKey: ObjectIdentifier(owner)) }
  }

  /// The live consumers whose node is known: their kind and the node each observes.
  package var liveConsumers: [(kind: String, node: any AnyObject & Sendable)] {
    state.withLock { Array($0.consumers.values) }
  }

  fileprivate func acquire(_ kind: ResourceKind) {
    state.withLock { state in
      state.live[kind.label, default: 0] += 1
      state.total += 1
    }
  }

  fileprivate func release(_ kind: ResourceKind) {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.live[kind.label, default: 0] -= 1
      state.total -= 1
      let total = state.total
      guard state.waiters.contains(where: { total <= $0.bound }) else { return [] }
      var ready: [CheckedContinuation<Void, Never>] = []
      state.waiters.removeAll { waiter in
        guard total <= waiter.bound else { return false }
        ready.append(waiter.continuation)
        return true
      }
      return ready
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once nothing is alive (at once if nothing is); cancelling the waiting task returns early.
  package func waitUntilEmpty() async {
    await waitUntil(atMost: 0)
  }

  /// Returns once at most `bound` resources are alive (at once if so); cancelling the waiting task returns early.
  /// What a test uses to see that a transient task (an observation's drain) has ended while the rest lives on.
  package func waitUntil(atMost bound: Int) async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let ready = state.withLock { state -> Bool in
          if state.total <= bound || Task.isCancelled { return true }
          state.waiters.append((bound, continuation))
          return false
        }
        if ready { continuation.resume() }
      }
    } onCancel: {
      let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
        defer { state.waiters = [] }
        return state.waiters.map(\.continuation)
      }
      for waiter in waiters { waiter.resume() }
    }
  }
}

/// One live resource: counted from its creation until it is released (or deinitialised).
@usableFromInline package final class ResourceToken: Sendable {
  let kind: ResourceKind
  let scope: ResourceScope?
  private let released = Atomic<Bool>(false)

  @usableFromInline package init(_ kind: ResourceKind) {
    self.kind = kind
    self.scope = ResourceScope.current
    switch kind {
    case .task: ResourceCounters.tasks.add(1, ordering: .relaxed)
    case .consumer: ResourceCounters.consumers.add(1, ordering: .relaxed)
    }
    scope?.acquire(kind)
  }

  /// Ends the resource; later calls (and the deinit) do nothing.
  @usableFromInline package func release() {
    guard !released.exchange(true, ordering: .relaxed) else { return }
    switch kind {
    case .task: ResourceCounters.tasks.subtract(1, ordering: .relaxed)
    case .consumer: ResourceCounters.consumers.subtract(1, ordering: .relaxed)
    }
    scope?.release(kind)
  }

  deinit { release() }
}
