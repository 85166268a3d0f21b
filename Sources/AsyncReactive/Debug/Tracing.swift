import Synchronization

/// Switches on the "why did nothing arrive?" trace for the graphs a block builds: each node made inside
/// ``tracing(_:)`` remembers the last event it received and what it did with it (sent it on, and to how many
/// consumers; dropped it in a `filter`; found it equal to the previous one in `removeDuplicates`; held it in a
/// `debounce` until an instant; waited for another input of a `combineLatest`; ignored it in a `flatMapFirst` while
/// an inner ran), and ``DebugGraph`` prints it beside the node.
///
/// Off by default: a node made outside `tracing` has no trace, and each event it handles pays one check of that.
///
/// ```swift
/// let viewModel = AsyncReactiveDebug.tracing { SignupViewModel() }
/// viewModel.password.send("short")
/// print(viewModel.isSignupEnabled.debugGraph())
/// // … #3 combineLatest → (Bool, Bool) … · last: received from input 2, waiting for input 1
/// ```
public enum AsyncReactiveDebug {
  /// Whether nodes made now, by this task, trace (see ``tracing(_:)``).
  @TaskLocal static var isTracing = false
  /// How many ``tracing(_:)`` blocks run now, in all tasks: while none does, a node made reads no task-local.
  static let openBlocks = Atomic<Int>(0)

  /// Runs `body`; the nodes it makes (and the tasks it starts make) trace their last event.
  ///
  /// ```swift
  /// let results = AsyncReactiveDebug.tracing { query.filter { $0.count >= 3 }.map(search) }
  /// ```
  public static func tracing<Result>(_ body: () throws -> Result) rethrows -> Result {
    openBlocks.add(1, ordering: .relaxed)
    defer { openBlocks.subtract(1, ordering: .relaxed) }
    return try $isTracing.withValue(true) { try body() }
  }

  /// Runs `body`, which may suspend; the nodes it makes (and the tasks it starts make) trace their last event.
  ///
  /// ```swift
  /// let viewModel = await AsyncReactiveDebug.tracing { await SearchViewModel.make(api: api) }
  /// ```
  public static func tracing<Result>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
  ) async rethrows -> Result {
    openBlocks.add(1, ordering: .relaxed)
    defer { openBlocks.subtract(1, ordering: .relaxed) }
    return try await $isTracing.withValue(true) { try await body() }
  }

  /// A trace for a node made now, or `nil` when nothing traces.
  @usableFromInline static func traceForNewNode() -> NodeTrace? {
    guard openBlocks.load(ordering: .relaxed) > 0, isTracing else { return nil }
    return NodeTrace()
  }
}

/// What a traced node did with the last event it received (see ``AsyncReactiveDebug``). It keeps the event as it
/// came and describes it only when a dump asks: a traced event costs a lock and a copy, not a string.
@usableFromInline package final class NodeTrace: Sendable {
  /// What happened to the last event.
  @usableFromInline enum Event: Sendable {
    /// Sent on to this many consumers.
    case sent(any Sendable, consumers: Int)
    /// Received and not sent, for this reason.
    case dropped(any Sendable, String)
    /// Received and held until an instant (a `debounce`'s value).
    case held(any Sendable, by: String, until: any Sendable)
    /// Described by the node itself (an operator with several inputs says which it waits for).
    case described(String)
  }

  private let last = Mutex<Event?>(nil)

  @usableFromInline init() {}

  /// Records what happened to the last event.
  @usableFromInline func record(_ event: Event) {
    last.withLock { $0 = event }
  }

  /// Records a value sent on to `consumers` consumers.
  @usableFromInline func noteSent(_ value: some Sendable, consumers: Int) {
    record(.sent(value, consumers: consumers))
  }

  /// What was recorded last, described, if anything.
  var lastEvent: String? {
    guard let event = last.withLock({ $0 }) else { return nil }
    switch event {
    case .sent(let value, let consumers):
      let to =
        switch consumers {
        case 0: "no consumer"
        case 1: "1 consumer"
        default: "\(consumers) consumers"
        }
      return "sent \(NodeSnapshot.summary(of: value)) to \(to)"
    case .dropped(let value, let why):
      return "received \(NodeSnapshot.summary(of: value)), \(why)"
    case .held(let value, let by, let until):
      return "received \(NodeSnapshot.summary(of: value)), held by \(by) until \(until)"
    case .described(let text):
      return text
    }
  }
}

extension Node {
  /// Records, when this node traces, that it received `value` and dropped it because of `why`.
  @inlinable package func traceDropped(_ value: @autoclosure () -> some Sendable, _ why: String) {
    if let trace { trace.record(.dropped(value(), why)) }
  }
}
