import Synchronization

/// One node of a hot graph: what every subject, hot operator and shared run is made of. The consumers' queues, the
/// replay buffer and the terminal event sit behind one lock, so that a send reaches every consumer in the same order
/// with one lock acquisition.
///
/// Its parts, one file each: the state behind the lock (`Node+State`), sending and ending (`Node+Send`), what it
/// replays (`Node+Replay`), the consumers that iterate it (`Node+Consumers`), its synchronous observers
/// (`Node+Sinks`), the connection to its inputs (`Node+Connection`), and a node fed by one other node
/// (`Node+SingleInput`).
// Safe (`@unchecked Sendable`): its one mutable stored property, `lockedState`, is read and written only through
// `state.withLock`, which holds `lockWord` for the whole access; every other stored property is a `let` of a
// `Sendable` type.
@usableFromInline package final class Node<Element: Sendable, Failure: Error>: ConsumerQueueHost, @unchecked Sendable {
  @usableFromInline package typealias Waiter = ConsumerQueue<Element, Failure>.Waiter

  /// The lock of ``lockedState``: kept in the node itself, not in an object of its own (one allocation and one
  /// pointer to follow fewer per node).
  @usableFromInline let lockWord = Atomic<Int>(LockWord.unlocked)
  /// What the node keeps behind its lock; reached only through ``state``.
  @exclusivity(unchecked) @usableFromInline var lockedState: State
  /// The node's state behind its lock: `state.withLock { … }`.
  @inlinable var state: StateLock { StateLock(node: self) }
  @usableFromInline let replay: Replay
  /// What every consumer and observer is given first, when it registers, before the replayed values and any end:
  /// a hot `prepend`'s values. Empty for every other node.
  @usableFromInline let prefix: [Element]
  @usableFromInline let connector: Connector?
  /// Who delivers the sinks' outbox now; see ``DeliveryTurn``.
  @usableFromInline let sinkTurn = Atomic<Int>(DeliveryTurn.idle)
  /// The thread that took ``sinkTurn`` last (written when it takes it, so while the turn is taken it names the
  /// thread delivering): a registration from that thread comes from inside one of this source's observers.
  @usableFromInline let sinkOwner = Atomic<UInt>(0)
  /// Whether ``State/retiredSinks`` may hold sinks to release once the turn is left.
  @usableFromInline let retiredPending = Atomic<Bool>(false)
  /// Moves on every send and on termination; see ``ConsumerQueueHost/activity``.
  @usableFromInline let events = Atomic<Int>(0)
  /// How many consumers are registered (changed under the lock, read without it): a send to a subject that
  /// keeps no values and has no consumer returns without taking the lock. A command's `values` and
  /// `started` that nobody observes cost a load per run.
  @usableFromInline let registered = Atomic<Int>(0)
  /// What only some nodes carry for a graph dump (a debug node's name, a trace, what a flatten runs), in one object
  /// that most nodes do not have. Beside ``registered``: a send reads both, on one cache line.
  @usableFromInline package let extras: NodeExtras?
  /// Whether a send must be recorded even without consumers (replay or current value).
  @usableFromInline let remembers: Bool
  /// Whether a node that ended starts anew for an observer that comes once it stopped observing its inputs (a
  /// shared cold run, RxSwift's `share(scope: .whileConnected)`): the end of a run is not the end of the node.
  @usableFromInline let restarts: Bool
  /// When this node was made, among all nodes and direct observers (see ``CreationRank``).
  @usableFromInline let rank: Int
  /// The operator or source that made it, and where (see ``DebugGraph``).
  @usableFromInline package let origin: NodeOrigin
  /// The nodes it reads.
  @usableFromInline package let inputs: NodeInputs
  /// The name given to `debug(_:)`, for a debug node.
  @inlinable package var label: String? { extras?.label }
  /// What it did with its last event, when it was made inside `AsyncReactiveDebug.tracing`; `nil` otherwise.
  @inlinable package var trace: NodeTrace? { extras?.trace }

  @inlinable package init(
    replay: Replay, initial: Element? = nil, prefix: [Element] = [], restarts: Bool = false,
    origin: NodeOrigin = NodeOrigin(.node), inputs: NodeInputs = .none, label: String? = nil,
    describesConnection: Bool = false,
    connector: Connector? = nil
  ) {
    let capacity: Int
    switch replay {
    case .none: capacity = 0
    case .latest(let count): capacity = count
    case .current: capacity = 1
    case .eachInput: capacity = 0
    }
    var buffer = RingBuffer<Element>(capacity: capacity)
    if let initial { buffer.append(initial) }
    var state = State(replay: buffer)
    if case .eachInput(let replays) = replay { state.inputValues = Array(repeating: nil, count: replays.count) }
    self.lockedState = state
    self.replay = replay
    self.prefix = prefix
    self.remembers = capacity > 0 || !state.inputValues.isEmpty
    self.restarts = restarts
    self.connector = connector
    self.origin = origin
    self.inputs = inputs
    let trace = AsyncReactiveDebug.traceForNewNode()
    self.extras =
      label != nil || trace != nil || describesConnection ? NodeExtras(label: label, trace: trace) : nil
    self.rank = CreationRank.next()
  }

  @inlinable package var isTerminated: Bool { state.withLock { $0.terminal != nil } }

  deinit {
    // The consumers' side is held unmanaged (see `State.consumers`).
    lockedState.consumers?.release()
  }

  /// Access to a node's state under its lock (see ``Node/state``).
  @usableFromInline struct StateLock {
    @usableFromInline let node: Node

    @inlinable init(node: Node) {
      self.node = node
    }

    /// Runs `body` on the state with the node's lock held.
    @inline(__always)
    @inlinable func withLock<Result, BodyFailure: Error>(
      _ body: (inout State) throws(BodyFailure) -> Result
    ) throws(BodyFailure) -> Result {
      LockWord.acquire(node.lockWord)
      defer { LockWord.release(node.lockWord) }
      return try body(&node.lockedState)
    }
  }
}
