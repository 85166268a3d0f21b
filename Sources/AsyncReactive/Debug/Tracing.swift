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

/// What a traced node did with the last event it received (see ``AsyncReactiveDebug``).
@usableFromInline package final class NodeTrace: Sendable {
  private let last = Mutex<String?>(nil)

  @usableFromInline init() {}

  /// Records what happened to the last event.
  @usableFromInline func note(_ text: String) {
    last.withLock { $0 = text }
  }

  /// Records a value sent on to `consumers` consumers.
  @usableFromInline func noteSent(_ value: some Any, consumers: Int) {
    let to =
      switch consumers {
      case 0: "no consumer"
      case 1: "1 consumer"
      default: "\(consumers) consumers"
      }
    note("sent \(NodeSnapshot.summary(of: value)) to \(to)")
  }

  /// Records a value received and dropped, and why.
  @usableFromInline func noteDropped(_ value: some Any, _ why: String) {
    note("received \(NodeSnapshot.summary(of: value)), \(why)")
  }

  /// What was recorded last, if anything.
  var lastEvent: String? { last.withLock { $0 } }
}

extension SubjectStorage {
  /// Records, when this node traces, that it received `value` and dropped it because of `why`.
  @inlinable package func traceDropped(_ value: @autoclosure () -> some Any, _ why: @autoclosure () -> String) {
    if let trace { trace.noteDropped(value(), why()) }
  }

  /// Records, when this node traces, what happened to the last event (`text`).
  @inlinable package func traceNote(_ text: @autoclosure () -> String) {
    if let trace { trace.note(text()) }
  }
}
