import Synchronization

/// What every node of a graph tells ``DebugGraph`` of itself: which operator or source made it, where in the
/// user's code, which nodes it reads, and what it holds now. The library's node class conforms; a dump reaches a
/// node as `AnyObject` (an input, the node a sink feeds) and casts it once, when it draws the graph.
package protocol DumpableNode: AnyObject, Sendable {
  /// The operator or source, and where it was made.
  var origin: NodeOrigin { get }
  /// The nodes it reads.
  var inputs: NodeInputs { get }
  /// The name given to `debug(_:)`, for a debug node.
  var label: String? { get }
  /// What the node holds now, read under its lock.
  func snapshot() -> NodeSnapshot
}

/// A consumer that a graph dump can name (an observation, a binding): what it is, and what it is doing.
package protocol DumpableConsumer: AnyObject, Sendable {
  /// `observe(in:)`, or `observe(in:) (drain task running, 2 pending)`.
  func consumerDescription() -> String
}

/// Which nodes a node reads, held strongly (as its connection does). Each is a node of the library's (see
/// ``DumpableNode``), held as an object so that holding one costs no witness table.
@usableFromInline package enum NodeInputs: Sendable {
  case none
  case one(any AnyObject & Sendable)
  case many([any AnyObject & Sendable])

  @inlinable package init(_ nodes: [any AnyObject & Sendable]) {
    switch nodes.count {
    case 0: self = .none
    case 1: self = .one(nodes[0])
    default: self = .many(nodes)
    }
  }

  /// How many nodes it reads.
  @inlinable package var count: Int {
    switch self {
    case .none: 0
    case .one: 1
    case .many(let nodes): nodes.count
    }
  }

  var nodes: [any AnyObject & Sendable] {
    switch self {
    case .none: []
    case .one(let node): [node]
    case .many(let nodes): nodes
    }
  }
}

/// The operator or source that made a node, and where: a kind (one byte) and the caller's `#fileID` and `#line`,
/// captured as a `StaticString` and an integer (nothing allocated per node).
@usableFromInline package struct NodeOrigin: Sendable {
  @usableFromInline let fileID: StaticString
  @usableFromInline let kind: NodeKind
  @usableFromInline let line: UInt32

  /// A node made by `kind` at `fileID:line` (a line of 0 means unknown).
  @inlinable package init(_ kind: NodeKind, fileID: StaticString = "", line: UInt = 0) {
    self.kind = kind
    self.fileID = fileID
    self.line = UInt32(truncatingIfNeeded: line)
  }

  /// `"Signup.swift:42"`, or `nil` when the site is unknown or inside this library (an operator the library applied
  /// for one of its own, such as a cold `Signal`'s run or a command's state).
  var site: String? { siteText(fileID: fileID, line: line) }
}

/// `"Signup.swift:42"` for a caller's `#fileID` and `#line`; `nil` when unknown (a line of 0) or inside this library.
func siteText(fileID: StaticString, line: UInt32) -> String? {
  guard line > 0, fileID.utf8CodeUnitCount > 0 else { return nil }
  let file = fileID.description
  guard !file.hasPrefix("AsyncReactive/") else { return nil }
  return "\(file):\(line)"
}

/// Which call made a consumer of a node, and where: a kind (one byte) and the caller's `#fileID` and `#line`, as
/// ``NodeOrigin`` holds them (nothing allocated).
package struct ConsumerOrigin: Sendable {
  let fileID: StaticString
  let kind: ConsumerKind
  let line: UInt32

  init(_ kind: ConsumerKind, fileID: StaticString, line: UInt) {
    self.kind = kind
    self.fileID = fileID
    self.line = UInt32(truncatingIfNeeded: line)
  }

  /// `observe(in:) (Screen.swift:12)`; the call alone when made inside this library.
  var description: String {
    siteText(fileID: fileID, line: line).map { "\(kind.name) (\($0))" } ?? kind.name
  }
}

/// The call that made a consumer. Its name is what the dump prints, and what the observation's task is called.
package enum ConsumerKind: UInt8, Sendable {
  case observe, observeWithFailure, bindToKeyPath, bind

  var name: String {
    switch self {
    case .observe: "observe(in:)"
    case .observeWithFailure: "observe(in:onValue:onFailure:)"
    case .bindToKeyPath: "bind(to:_:in:)"
    case .bind: "bind(to:in:)"  // to a subject or a command
    }
  }
}

/// What made a node: a source or an operator. Its raw value is what the dump prints.
@usableFromInline package enum NodeKind: UInt8, Sendable {
  case passthroughSubject, currentValueSubject, replaySubject, property, command, commandStream
  case signalNode, coldRun, pump, drivenSource, emitter, never, share
  case map, filter, compactMap, scan, removeDuplicates, prefix, prefixWhile, dropFirst, dropWhile, prepend
  case combinePrevious, enumerated, elementAt, first, single, groupBy, window
  case reduce, toArray, takeLast, last, ignoreElements, ifEmpty
  case mapError, replaceError, catchError, handleEvents, materialize, dematerialize
  case bufferByCount, bufferByTime, trackActivity
  case debug, not
  case combineLatest, merge, zip, withLatestFrom, sample, takeUntil, skipUntil, amb
  case flatMap, flatMapLatest, flatMapFirst, concatMap, switchToLatest
  case debounce, throttle, delay, timeout, timeoutFallback, timer
  case node

  /// The kind of a rule-driven operator's node, from its rule's name (read once, when the node is made).
  @usableFromInline package init(operatorName name: String) {
    switch name {
    case "zip": self = .zip
    case "merge": self = .merge
    case "combineLatest": self = .combineLatest
    case "withLatestFrom": self = .withLatestFrom
    case "sample(on:)": self = .sample
    case "take(until:)": self = .takeUntil
    case "skip(until:)": self = .skipUntil
    case "amb": self = .amb
    case "debounce": self = .debounce
    case "throttle": self = .throttle
    case "delay": self = .delay
    case "timeout": self = .timeout
    case "buffer(every:)": self = .bufferByTime
    default: self = .node
    }
  }

  /// The name the dump prints: the operator as the user wrote it.
  var name: String {
    switch self {
    case .passthroughSubject: "AsyncPassthroughSubject"
    case .currentValueSubject: "AsyncCurrentValueSubject"
    case .replaySubject: "AsyncReplaySubject"
    case .property: "Property"
    case .command: "Command"
    case .commandStream: "Command stream"
    case .signalNode: "Signal"
    case .coldRun: "cold source"
    case .pump: "pump"
    case .drivenSource: "source read by its consumer"
    case .emitter: "Signal emitter"
    case .never: "Signal.never"
    case .share: "share"
    case .catchError: "catch"
    case .prefixWhile: "prefix(while:)"
    case .dropWhile: "drop(while:)"
    case .sample: "sample(on:)"
    case .takeUntil: "take(until:)"
    case .skipUntil: "skip(until:)"
    case .bufferByTime: "buffer(every:)"
    case .bufferByCount: "buffer(count:)"
    case .elementAt: "element(at:)"
    case .first: "first()"
    case .last: "last()"
    case .ifEmpty: "ifEmpty(default:)"
    case .timeoutFallback: "timeout(fallback)"
    case .node: "node"
    default: "\(self)"
    }
  }
}

/// A node's state at one instant, as ``DebugGraph`` prints it.
package struct NodeSnapshot: Sendable {
  /// What it sends: `"String"`, or `"Int, fails with MyError"`.
  package var output: String = ""
  /// Whether it observes its inputs now (a source is always connected).
  package var connected: Bool
  /// Whether it has inputs to observe (an operator's node); a subject has none.
  package var hasInputs = true
  /// `"finished"` or `"failed: …"` once it ended.
  package var ending: String?
  /// Its current or last replayed value, described and truncated.
  package var current: String?
  /// Consumers that iterate it with an unbounded buffer, and with a bounded one.
  package var iterators: Int
  package var boundedQueues: Int
  /// Values buffered for its iterators, in all.
  package var queued: Int
  /// What it did with its last event, when it traces (see ``AsyncReactiveDebug``).
  package var lastEvent: String?
  /// What its connection runs now (a flatten's inner sequences), for nodes that say.
  package var connection: String?
  /// The nodes its connection runs now and observes (a flatten's inner sequences that are graphs), in start order.
  package var runs: [any AnyObject & Sendable] = []
  /// Its synchronous observers in call order: the node each one feeds, or `nil` for a direct `sink`/`observe`.
  package var observers: [(any AnyObject & Sendable)?]
}

/// What only some nodes carry for a graph dump: a debug node's name, a traced node's last event, and what the
/// node's current connection runs (a flatten's inner sequences).
@usableFromInline package final class NodeExtras: Sendable {
  @usableFromInline let label: String?
  @usableFromInline let trace: NodeTrace?
  /// Describes the node's current connection (set while connected by operators that run something of their own):
  /// a text, and the nodes it runs.
  let connection = Mutex<(@Sendable () -> (text: String?, runs: [any AnyObject & Sendable]))?>(nil)

  @usableFromInline init(label: String?, trace: NodeTrace?) {
    self.label = label
    self.trace = trace
  }
}

extension Node {
  /// Lets a dump describe this node's connection with `describe` (called without the node's lock), until
  /// ``detachConnectionDescription()``. Nothing when the node was not made to describe its connection.
  @usableFromInline package func attachConnectionDescription(_ describe: @escaping @Sendable () -> String) {
    extras?.connection.withLock { $0 = { (describe(), []) } }
  }

  /// ``attachConnectionDescription(_:)`` for a connection that runs nodes of its own (a flatten's inner sequences):
  /// `describe` also gives them, and the dump draws them below this node.
  @usableFromInline package func attachConnectionDescription(
    running describe: @escaping @Sendable () -> (text: String?, runs: [any AnyObject & Sendable])
  ) {
    extras?.connection.withLock { $0 = describe }
  }

  /// Stops describing a connection that ended.
  @usableFromInline package func detachConnectionDescription() {
    extras?.connection.withLock { $0 = nil }
  }
}

extension Node: DumpableNode {
  package func snapshot() -> NodeSnapshot {
    // Read before the node's lock: the description takes the connection's own lock.
    let connection = extras?.connection.withLock { $0 }?()
    return state.withLock { state in
      var queued = 0
      let consumers = state.withConsumers { $0.side } ?? ConsumerSide()
      for queue in consumers.queues { queued += queue.map { $0.pending.count - $0.head } ?? 0 }
      for reader in consumers.readers {
        queued += (reader.queue.map { $0.pending.count - $0.head } ?? 0) + max(0, consumers.logEnd - reader.cursor)
      }
      let ending: String? =
        switch state.terminal {
        case nil: nil
        case .finished: "finished"
        case .failed(let error): "failed: \(error)"
        }
      let output = Failure.self == Never.self ? "\(Element.self)" : "\(Element.self), fails with \(Failure.self)"
      return NodeSnapshot(
        output: output,
        connected: connector == nil || state.link.disconnect != nil,
        hasInputs: connector != nil,
        ending: ending,
        current: state.replay.last.map { NodeSnapshot.summary(of: $0) },
        iterators: consumers.readers.count,
        boundedQueues: consumers.queues.count,
        queued: queued,
        lastEvent: trace?.lastEvent,
        connection: connection?.text ?? nil,
        runs: connection?.runs ?? [],
        observers: state.sinks.map(\.owner))
    }
  }
}

extension NodeSnapshot {
  /// `String(describing:)` of `value` (a string in quotes), cut to 40 characters.
  static func summary(of value: some Any) -> String {
    let text = value is String || value is Substring ? "\"\(value)\"" : String(describing: value)
    return text.count <= 40 ? text : String(text.prefix(39)) + "…"
  }
}
