import Synchronization

/// Where the library's tasks run when a test asks for it: AsyncReactiveTesting's `TestClock.withVirtualTime` sets
/// its serial test executor here for the body it runs. An unstructured task does not inherit its creator's
/// executor preference (child tasks do), but it does inherit task-locals: so every task the library starts reads
/// this and asks for the same executor, and the test's executor knows when nothing the library started can run.
/// `nil` outside such a test: the tasks run on the global executor as usual, for the cost of reading a task-local.
@usableFromInline package enum TaskExecutorContext {
  @TaskLocal package static var preferred: (any TaskExecutor)?

  /// The executor a task that waits on `clock` should prefer: the one in the task-local, or else the clock's own
  /// (a test clock's), so that a timer created outside the test's body (a view model built in a suite's `init()`,
  /// even before the virtual time began) still runs where the test clock can wait for it. The check is a dynamic cast, made when
  /// such a task is created, never per element.
  @usableFromInline package static func preferred<C: Clock>(for clock: C) -> (any TaskExecutor)? {
    if let preferred { return preferred }
    return (clock as? any VirtualTimeClock)?.virtualTimeExecutor
  }
}

extension TaskExecutorContext {
  /// While a consumer builds a cold run (its `makeAsyncIterator()`), collects the executor of a test clock the run
  /// waits on (a retry's delay, a timer read by the consumer, a time operator of the run's graph): see
  /// ``discovering(_:)``. `nil` otherwise: noting a clock then costs the read of a task-local.
  @TaskLocal package static var discovery: ClockDiscovery?

  /// Notes, while a run is being built, that it waits on `clock`: the consumer's task will prefer the clock's own
  /// executor when it is a test clock (see ``VirtualTimeClock``). Called when such a run or node is made, never per
  /// element.
  @usableFromInline package static func note<C: Clock>(_ clock: C) {
    guard let discovery else { return }
    if let executor = (clock as? any VirtualTimeClock)?.virtualTimeExecutor { discovery.record(executor) }
  }

  /// Builds a consumer's run with `build` and returns it with the executor the consumer's task should prefer: the
  /// test's (inside virtual time), or else that of a test clock the run waits on, so that an observation made
  /// outside the virtual time (a view model built in a suite's `init()`) still runs where the clock waits for it.
  /// `nil` for a run that waits on no test clock, outside a test.
  @usableFromInline package static func discovering<Result>(_ build: () -> Result) -> (Result, (any TaskExecutor)?) {
    if let preferred { return (build(), preferred) }
    let discovery = ClockDiscovery()
    let result = $discovery.withValue(discovery) { build() }
    return (result, discovery.executor)
  }
}

/// What ``TaskExecutorContext/discovering(_:)`` collects: the first test clock's executor noted.
@usableFromInline package final class ClockDiscovery: Sendable {
  @usableFromInline let found = Locked<(any TaskExecutor)?>(nil)

  @usableFromInline init() {}

  @usableFromInline func record(_ executor: any TaskExecutor) {
    found.withLock { found in
      if found == nil { found = executor }
    }
  }

  @usableFromInline var executor: (any TaskExecutor)? { found.withLock { $0 } }
}

/// A clock that can run virtual time on an executor of its own (the testing module's `TestClock`): the library's
/// tasks that wait on it prefer the executor it gives, wherever and whenever they were created.
package protocol VirtualTimeClock: Sendable {
  /// The executor the library's tasks that wait on this clock prefer (one that runs their jobs in the clock's
  /// virtual time while it runs).
  var virtualTimeExecutor: (any TaskExecutor)? { get }
}

extension Task where Failure == Never {
  /// A task the library starts: named where the platform names tasks (Swift 6.2 runtimes), so that a debugger or
  /// a task dump shows what it serves, and counted in ``LiveCounts`` until its operation returns.
  ///
  /// `@_inheritActorContext`, as on `Task.init`: an operation that captures an `isolated` parameter runs on that
  /// actor, which is how the main-actor bindings run on the caller's actor.
  @usableFromInline @discardableResult
  init(
    named name: String,
    priority: TaskPriority? = nil,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Success
  ) {
    self.init(named: name, priority: priority, executor: TaskExecutorContext.preferred, operation: operation)
  }

  /// A task the library starts that prefers `executor` (``TaskExecutorContext/preferred(for:)`` for one that waits
  /// on a clock); see the form without it.
  @usableFromInline @discardableResult
  init(
    named name: String,
    priority: TaskPriority? = nil,
    executor: (any TaskExecutor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Success
  ) {
    let token = ResourceToken(.task(name))
    let (executor, escape) = TaskPlacementHook.place(taskNamed: name, executor: executor)
    let counted: () async -> Success = {
      defer {
        token.release()
        withExtendedLifetime(escape) {}
      }
      guard let executor else { return await operation() }
      // The tasks this one starts (a cold input's pump, made when its graph connects) prefer the same executor.
      return await TaskExecutorContext.$preferred.withValue(executor) { await operation() }
    }
    // No `executorPreference:` argument at all without a preferred executor: given one, even `nil`, the runtime
    // records a preference on the task (the argument is not a constant in this generic code), and then reads
    // that record under the task's status-record lock at every executor check and drops it at the end.
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      if let executor {
        self.init(name: name, executorPreference: executor, priority: priority, operation: counted)
      } else {
        self.init(name: name, priority: priority, operation: counted)
      }
    } else if let executor {
      self.init(executorPreference: executor, priority: priority, operation: counted)
    } else {
      self.init(priority: priority, operation: counted)
    }
  }
}

extension Task where Failure == any Error {
  /// A throwing task the library starts; see the non-throwing form.
  @usableFromInline @discardableResult
  init(
    named name: String,
    priority: TaskPriority? = nil,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async throws -> Success
  ) {
    let token = ResourceToken(.task(name))
    let (executor, escape) = TaskPlacementHook.place(taskNamed: name, executor: TaskExecutorContext.preferred)
    let counted: () async throws -> Success = {
      defer {
        token.release()
        withExtendedLifetime(escape) {}
      }
      return try await operation()
    }
    // No `executorPreference:` argument at all without a preferred executor: given one, even `nil`, the runtime
    // records a preference on the task (the argument is not a constant in this generic code), and then reads
    // that record under the task's status-record lock at every executor check and drops it at the end.
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      if let executor {
        self.init(name: name, executorPreference: executor, priority: priority, operation: counted)
      } else {
        self.init(name: name, priority: priority, operation: counted)
      }
    } else if let executor {
      self.init(executorPreference: executor, priority: priority, operation: counted)
    } else {
      self.init(priority: priority, operation: counted)
    }
  }
}

extension Task where Success == Void, Failure == Never {
  /// A task the library starts in place, isolated to the caller's actor (`operation` captures the caller's
  /// `isolated` parameter): it runs at once, on the calling thread, up to its first suspension (`Task.immediate`),
  /// so a cold run whose source has values ready has delivered them before this returns. `operation` is handed to
  /// the runtime as it is, which keeps its isolation; so it ends the task's `count` itself, in a `defer`.
  @usableFromInline @discardableResult
  init(
    inPlace count: InPlaceTaskCount,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Void
  ) {
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      if let executor = count.executor {
        self = Task.immediate(name: count.name, executorPreference: executor, operation: operation)
      } else {
        self = Task.immediate(name: count.name, operation: operation)
      }
    } else {
      self = Task(executorPreference: count.executor, operation: operation)
    }
  }

  /// A task the library starts that runs its operation at once, on the calling thread, up to its first suspension
  /// (`Task.immediate`): an operation that never suspends has ended when this returns, with no scheduling. Counted
  /// in ``LiveCounts`` until its operation returns; on a test's virtual time it prefers the test's executor.
  @usableFromInline @discardableResult
  init(immediateNamed name: String, operation: sending @escaping () async -> Void) {
    self.init(immediateNamed: name, executor: TaskExecutorContext.preferred, operation: operation)
  }

  /// The pump of a cold run's source (a foreign sequence, a synchronous read, a restarting run), started in place
  /// when its graph connects: it delivers what its source has ready before the subscribing call returns, as
  /// RxSwift's `subscribe` does, and carries its name (which input of which operator it reads), as a debugger's task
  /// list shows it; a pump lives as long as its run, so the name's record costs little beside it.
  @usableFromInline @discardableResult
  init(pumpNamed name: String, operation: sending @escaping () async -> Void) {
    self.init(immediateNamed: name, executor: TaskExecutorContext.preferred, keepsName: true, operation: operation)
  }

  /// An immediate task the library starts that prefers `executor` (``TaskExecutorContext/preferred(for:)`` for one
  /// that waits on a clock); see the form without it.
  @usableFromInline @discardableResult
  init(
    immediateNamed name: String, executor: (any TaskExecutor)?, keepsName: Bool = false,
    operation: sending @escaping () async -> Void
  ) {
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      // Counted without a token object (an allocation per task): an immediate task's operation always runs.
      let scope = ResourceCounters.acquireTask(.task(name))
      let (executor, escape) = TaskPlacementHook.place(taskNamed: name, executor: executor)
      let counted: () async -> Void = {
        defer {
          ResourceCounters.releaseTask(.task(name), in: scope)
          withExtendedLifetime(escape) {}
        }
        await operation()
      }
      if let executor {
        self = Task.immediate(name: name, executorPreference: executor, operation: counted)
      } else if keepsName {
        self = Task.immediate(name: name, operation: counted)
      } else {
        // No name: a name is a record the runtime adds to the task and removes at its end, each under the task's
        // status-record lock, and an inner that runs for a moment paid more for it than for its work. The library
        // counts the task under its name all the same (``LiveCounts``).
        self = Task.immediate(operation: counted)
      }
    } else {
      self.init(named: name, executor: executor, operation: operation)
    }
  }
}

/// What a task started in place (``_Concurrency/Task/init(inPlace:operation:)``) is counted by in ``LiveCounts``, and
/// where it runs: made before the task, ended by the task's operation when it returns.
@usableFromInline package final class InPlaceTaskCount: Sendable {
  let name: String
  let executor: (any TaskExecutor)?
  private let token: ResourceToken
  /// What the test's task placement keeps while the task lives (see ``TaskPlacement``); only held.
  private let escape: Mutex<AnyObject?>

  /// Counts a task named `name` that prefers `executor` (or what a test's placement gives).
  @usableFromInline package init(named name: String, executor: (any TaskExecutor)?) {
    self.name = name
    token = ResourceToken(.task(name))
    let (executor, escape) = TaskPlacementHook.place(taskNamed: name, executor: executor)
    self.executor = executor
    self.escape = Mutex(escape)
  }

  /// The task's operation returned.
  @usableFromInline package func end() {
    token.release()
    escape.withLock { $0 = nil }
  }
}
