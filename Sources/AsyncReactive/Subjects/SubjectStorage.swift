import Synchronization

/// The shared machinery of every subject: the consumers' queues, the replay buffer and the terminal event,
/// all behind one lock so that a send reaches every consumer in the same order with one lock acquisition.
@usableFromInline package final class Node<Element: Sendable, Failure: Error>: ConsumerQueueHost {
  @usableFromInline package typealias Waiter = ConsumerQueue<Element, Failure>.Waiter

  /// What a new consumer is given before live values.
  @usableFromInline package enum Replay: Sendable {
    /// Nothing (AsyncPassthroughSubject).
    case none
    /// The last `n` values, also after the subject terminated (AsyncReplaySubject).
    case latest(Int)
    /// The current value, until the subject terminates (AsyncCurrentValueSubject).
    case current
    /// The latest value from each of `count` inputs that has one, in input order, until the node ends: what a
    /// fresh subscription to a `merge` of current values gives at once (each input's current value).
    case eachInput(Int)
  }

  @usableFromInline struct State: Sendable {
    /// The queues of the consumers with a bounded buffer (each drops by its own policy, so each keeps its own
    /// copy), contiguous, so that a send walks an array rather than a hash table. Optional only so that
    /// ``Node/withQueue(_:_:)`` can lend an element in place; never `nil` here.
    @usableFromInline var queues: [ConsumerQueue<Element, Failure>?] = []
    /// `ids[i]` is the id of `queues[i]`.
    @usableFromInline var ids: [Int] = []
    /// The consumers with an unbounded buffer (the default): they read the shared ``log``, each at its own
    /// position (``Reader/cursor``), so that a send stores an element once, not once per consumer. Their queue holds
    /// what they were given at registration (prefix, replay) and, while they look, what they read from the log.
    @usableFromInline var readers: [Reader] = []
    /// The ids of the readers parked for the next element: a send resumes them with it directly.
    @usableFromInline var parked: [Int] = []
    /// What was sent since the slowest reader last read: `log[0]` is the element at position ``logStart``.
    @usableFromInline var log: [Element] = []
    @usableFromInline var logStart = 0
    /// The log's length at which the next read by one of several readers drops what all of them have read (a
    /// walk over every cursor, so it is done once per this many elements).
    @usableFromInline var trimAt = SubjectLogTuning.minimumTrim
    /// Where each consumer is, by id: see ``ConsumerSlots``.
    @usableFromInline var slots = ConsumerSlots()
    @usableFromInline var terminal: Termination<Failure>?
    #if DEBUG
      /// The subject whose release ended this storage (its type, for the report), until an observer that registers
      /// after that end is reported (see ``Node/endReleased(_:)``). Debug builds only: a release build's
      /// nodes do not carry it.
      @usableFromInline var releasedSubject: String?
    #endif
    @usableFromInline var replay: RingBuffer<Element>
    /// A ``Replay/eachInput(_:)`` node's latest value from each input (`nil` for an input that has none); empty for
    /// every other node.
    @usableFromInline var inputValues: [Element?] = []
    /// The synchronous observers (`sink`), in registration order. A queued event holds a copy of this array
    /// (copy-on-write), so it goes to the sinks registered when it was sent, not to later ones.
    @usableFromInline var sinks: [Sink] = []
    /// Events for the sinks, in send order, each with the sinks it is for; delivered by the thread that has the
    /// storage's ``Node/sinkTurn``.
    @usableFromInline var sinkOutbox: [(event: SinkEvent, sinks: [Sink])] = []
    /// Sinks removed while a thread had the sinks' turn: that thread may be calling one of them through a borrowed
    /// reference (see ``Node/admit(_:in:)``), so they are kept alive until the turn has been left.
    @usableFromInline var retiredSinks: [Sink] = []
    /// A hot operator's link to its inputs (unused by subjects): see ``Node/reconcileInputs(registering:)``.
    @usableFromInline var link = InputLink()

    /// Adds `sink` after every sink of an earlier or equal rank: observers are called in the order their nodes
    /// were created (usually the end of the list: a consumer attached now is the latest).
    @inlinable mutating func insertSink(_ sink: Sink) {
      var index = sinks.endIndex
      while index > sinks.startIndex, sinks[index - 1].rank > sink.rank { index -= 1 }
      if index == sinks.endIndex { sinks.append(sink) } else { sinks.insert(sink, at: index) }
    }

    @inlinable init(replay: RingBuffer<Element>) {
      self.replay = replay
    }

    @inlinable var consumerCount: Int { queues.count + readers.count }

    /// A restarting node that ended and stopped observing its inputs starts a new run for a new observer: nothing
    /// of the old one is kept (see ``Node/restarts``). A consumer of the ended run still holds what it was
    /// given and that run's end, and reads nothing more from the log: the new run's values are not for it.
    @inlinable mutating func restartIfEnded() {
      guard terminal != nil, link.disconnect == nil, !link.busy else { return }
      for reader in readers.indices {
        catchUp(reader)
        readers[reader].cursor = .max
      }
      terminal = nil
      forgetReplay()
    }

    /// Forgets every replayed value: the ring and, for a node that replays each input's value, those values.
    @inlinable mutating func forgetReplay() {
      replay.removeAll()
      if !inputValues.isEmpty { inputValues = Array(repeating: nil, count: inputValues.count) }
    }

    /// The position just after the last element sent.
    @inlinable var logEnd: Int { logStart + log.count }

    /// Mutates every consumer's queue in place.
    @inlinable mutating func forEachConsumer(_ body: (inout ConsumerQueue<Element, Failure>) -> Void) {
      for index in 0..<queues.count { body(&queues[index]!) }
      for index in 0..<readers.count { body(&readers[index].queue!) }
    }

    @inlinable mutating func add(_ queue: ConsumerQueue<Element, Failure>, id: Int) {
      if queue.policy.isUnbounded {
        slots.setPosition(~readers.count, of: id)
        readers.append(Reader(queue: queue, id: id, cursor: logEnd))
      } else {
        slots.setPosition(queues.count, of: id)
        queues.append(queue)
        ids.append(id)
      }
    }

    /// Takes consumer `id`'s queue out (the last queue of its kind moves into its place); `nil` if it is gone
    /// already.
    @inlinable mutating func remove(_ id: Int) -> ConsumerQueue<Element, Failure>? {
      guard let position = slots.free(id) else { return nil }
      if position >= 0 {
        let last = queues.count - 1
        if position != last {
          queues.swapAt(position, last)
          ids.swapAt(position, last)
          slots.setPosition(position, of: ids[position])
        }
        ids.removeLast()
        return queues.removeLast()
      }
      let reader = ~position
      let last = readers.count - 1
      if reader != last {
        readers.swapAt(reader, last)
        slots.setPosition(~reader, of: readers[reader].id)
      }
      let removed = readers.removeLast().queue
      if readers.isEmpty {
        // Nobody reads the log any more: drop it (and what its elements hold) now.
        logStart = logEnd
        log = []
        parked = []
        trimAt = SubjectLogTuning.minimumTrim
      }
      return removed
    }

    /// Appends what reader `reader` has not read yet from the log to its queue, then drops from the log what
    /// every reader has read (at once when it is the only reader, otherwise once per ``trimAt`` elements).
    @inlinable mutating func catchUp(_ reader: Int) {
      let cursor = readers[reader].cursor
      let end = logEnd
      guard cursor < end else { return }
      readers[reader].queue!.append(contentsOf: log[(cursor - logStart)...])
      readers[reader].cursor = end
      if readers.count == 1 {
        log.removeAll(keepingCapacity: true)
        logStart = end
      } else if log.count >= trimAt {
        trimLog()
      }
    }

    /// Drops from the log what every reader has read.
    @inlinable mutating func trimLog() {
      var slowest = logEnd
      for reader in readers where reader.cursor < slowest { slowest = reader.cursor }
      let read = slowest - logStart
      if read == log.count {
        log.removeAll(keepingCapacity: true)
      } else if read > 0 {
        log.removeFirst(read)
      }
      logStart = slowest
      trimAt = Swift.max(SubjectLogTuning.minimumTrim, readers.count, 2 * log.count)
    }

    /// Runs `body` on consumer `id`'s queue (`nil` when that consumer was removed); see
    /// ``Node/withQueue(_:_:)``.
    @inlinable mutating func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R {
      guard let position = slots.position(of: id) else {
        var removed: ConsumerQueue<Element, Failure>? = nil
        return body(&removed)
      }
      if position >= 0 { return body(&queues[position]) }
      let reader = ~position
      catchUp(reader)
      let wasParked = readers[reader].queue!.isParked
      let result = body(&readers[reader].queue)
      if !wasParked && readers[reader].queue!.isParked { parked.append(id) }
      return result
    }

    /// Under the lock, after `element` was appended to the log: takes the parked readers' continuations to resume
    /// with it. A parked reader had read everything, so it has now read `element` too.
    @inlinable mutating func wakeParkedReaders(first: inout Waiter?, others: inout [Waiter]) {
      let end = logEnd
      // One allocation for a fan-out's thousands of waiters, not one per doubling.
      if parked.count > 1 { others.reserveCapacity(others.count + parked.count) }
      for id in parked {
        // A reader removed since it parked was woken by its removal.
        guard let position = slots.position(of: id), position < 0 else { continue }
        let reader = ~position
        guard let waiter = readers[reader].queue!.takeWaiter() else { continue }
        readers[reader].cursor = end
        if first == nil { first = waiter } else { others.append(waiter) }
      }
      parked.removeAll(keepingCapacity: true)
      // The only reader was parked, so it has read everything: nothing in the log is needed any more. (Not when
      // it was not parked: a parked reader that was removed since leaves its id here, and the one that remains
      // may still have to read this element.)
      if readers.count == 1 && readers[0].cursor == end {
        log.removeAll(keepingCapacity: true)
        logStart = end
      }
    }
  }

  /// A consumer with an unbounded buffer: it reads the shared log (see ``State/readers``). Its queue, id and log
  /// position sit side by side, so that a look, a wake-up or a removal touches one place in memory, not three.
  @usableFromInline struct Reader: Sendable {
    /// Optional only so that ``Node/withQueue(_:_:)`` can lend it in place; never `nil` here.
    @usableFromInline var queue: ConsumerQueue<Element, Failure>?
    @usableFromInline let id: Int
    /// The position in the log (counted from the first send) up to which this reader has read.
    @usableFromInline var cursor: Int

    @inlinable init(queue: ConsumerQueue<Element, Failure>, id: Int, cursor: Int) {
      self.queue = queue
      self.id = id
      self.cursor = cursor
    }
  }

  /// What a synchronous observer receives.
  @usableFromInline package enum SinkEvent: Sendable {
    case value(Element)
    case end(Termination<Failure>)
  }

  /// A synchronous observer: its closure and whether it still wants events.
  @usableFromInline package final class Sink: Sendable {
    /// The observer's own closure, called directly: the per-value path stays specialised.
    @usableFromInline let onValue: @Sendable (Element) -> Void
    @usableFromInline let onEnd: @Sendable (Termination<Failure>) -> Void
    /// Cleared when its lifetime ends: an event already queued for it is then skipped.
    @usableFromInline let active = Atomic<Bool>(true)
    /// Where it stands among the source's sinks (see ``CreationRank``): the observing node's creation rank.
    @usableFromInline let rank: Int
    /// The node it feeds, or the observation it serves (`observe`, `bind`), or `nil` for a plain `sink` (what a
    /// graph dump shows).
    @usableFromInline let owner: (any AnyObject & Sendable)?

    @inlinable init(
      onValue: @escaping @Sendable (Element) -> Void,
      onEnd: @escaping @Sendable (Termination<Failure>) -> Void,
      owner: (any AnyObject & Sendable)? = nil
    ) {
      self.onValue = onValue
      self.onEnd = onEnd
      self.owner = owner ?? CreationRank.connectingNode()
      self.rank = CreationRank.forNewSink()
    }

    @inlinable func receive(_ event: SinkEvent) {
      switch event {
      case .value(let element): onValue(element)
      case .end(let termination): onEnd(termination)
      }
    }
  }

  /// How a hot operator's node starts observing its inputs; returns how to stop. Called without any lock, by one
  /// thread at a time, when the node gains its first observer; `nil` for a subject, which has no inputs.
  @usableFromInline package typealias Connector = @Sendable (Node) -> @Sendable () -> Void

  /// Whether the node observes its inputs now, and who is changing that.
  @usableFromInline struct InputLink: Sendable {
    /// How to stop observing the inputs; `nil` while not connected.
    @usableFromInline var disconnect: (@Sendable () -> Void)?
    /// A thread is connecting or disconnecting now; others leave it a note (`dirty`), and a registration waits
    /// for it (see ``Node/reconcileInputs(registering:)``).
    @usableFromInline var busy = false
    @usableFromInline var dirty = false
    /// The thread that is busy, to let a registration made by that thread itself (from inside the connection)
    /// go on instead of waiting for itself.
    @usableFromInline var owner: UInt = 0
    /// How many times the node connected: a connection that sends with ``Node/send(_:epoch:)`` is heard
    /// only while it is the current one.
    @usableFromInline var epoch = 0

    @inlinable init() {}
  }

  @usableFromInline let state: Locked<State>
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
    if case .eachInput(let count) = replay { state.inputValues = Array(repeating: nil, count: count) }
    self.state = Locked(state)
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

  // MARK: Producer side

  @inlinable package func send(_ element: Element) {
    if _slowPath(extras != nil) { traceSent(element) }
    // Relaxed is enough: a registration that happened before this send (in its task, or through whatever
    // ordered the two) is seen; one racing with it may or may not get the value, as under the lock.
    if !remembers && registered.load(ordering: .relaxed) == 0 { return }
    let admitted = state.withLock { state -> Admitted in
      guard state.terminal == nil else { return .nothing }
      return admit(element, in: &state)
    }
    deliver(element, admitted)
  }

  /// Records `element` as sent, when this node traces (see `AsyncReactiveDebug`). Out of line, so that the send
  /// of a node that does not trace carries only the check of ``extras``.
  @inline(never) @usableFromInline func traceSent(_ element: Element) {
    if let trace { trace.noteSent(element, consumers: registered.load(ordering: .relaxed)) }
  }

  /// Ends the storage because the last handle that could send to it (`subject`, a description of its type) was
  /// released: its consumers end, as with `finish()`. In debug builds an observer that registers afterwards, which
  /// gets only the end, is reported once, naming the subject (see ``DebugReport``): a subject kept nowhere but in a
  /// `hotSignal` (a default argument, say) has finished before anything observes it.
  @usableFromInline package func endReleased(_ subject: @autoclosure () -> String) {
    #if DEBUG
      let name = subject()
      state.withLock { state in
        if state.terminal == nil { state.releasedSubject = name }
      }
    #endif
    terminate(.finished)
    // Nobody can read the released subject's value any more, and an ended current value replays nothing: let go of
    // it, so that what it holds (an inner property of a flattened one) is released with the subject.
    // Released after the lock: the value's own release may end other nodes, which call back into this one.
    if case .current = replay {
      let dropped = state.withLock { state -> RingBuffer<Element> in
        var dropped = RingBuffer<Element>(capacity: 1)
        swap(&dropped, &state.replay)
        return dropped
      }
      withExtendedLifetime(dropped) {}
    }
  }

  /// Reports an observer that registered after the subject was released (see ``endReleased(_:)``).
  @usableFromInline func reportRegistration(afterReleaseOf subject: String) {
    DebugReport.emit(
      "AsyncReactive: an observer registered with \(subject) after it was released: nothing can send to it any more, "
        + "so the observer gets only its end. Keep the subject while it is observed, or give a constant "
        + "(Signal.just(value), Signal.never, HotSignal(Signal.just(value))).")
  }

  /// The current connection's number, read by a connector when it connects (see ``send(_:epoch:)``).
  @inlinable package var epoch: Int { state.withLock { $0.link.epoch } }

  /// Sends `element` if connection `epoch` is still the node's current one: a restarting node's old run may still
  /// be delivering on another thread when a new run has connected, and must not reach the new run's consumers.
  @inlinable package func send(_ element: Element, epoch: Int) {
    if _slowPath(extras != nil) { traceSent(element) }
    let admitted = state.withLock { state -> Admitted in
      guard state.terminal == nil, state.link.epoch == epoch else { return .nothing }
      return admit(element, in: &state)
    }
    deliver(element, admitted)
  }

  /// Sends `element`, which came from input `input` of a ``Replay/eachInput(_:)`` node: it becomes that input's
  /// replayed value.
  @inlinable package func send(_ element: Element, fromInput input: Int) {
    if _slowPath(extras != nil) { traceSent(element) }
    let admitted = state.withLock { state -> Admitted in
      guard state.terminal == nil else { return .nothing }
      state.inputValues[input] = element
      return admit(element, in: &state)
    }
    deliver(element, admitted)
  }

  /// Input `input` of a ``Replay/eachInput(_:)`` node ended: a consumer that joins now is given nothing of it.
  @inlinable package func forgetInput(_ input: Int) {
    state.withLock { state in
      if state.terminal == nil { state.inputValues[input] = nil }
    }
  }

  /// Replaces the current value with what `body` makes of it and sends the result, in one critical section: no
  /// other send comes between the read and the write, so concurrent modifications lose nothing. `body` runs under
  /// the lock. After termination it runs on a copy of the last value and nothing changes (a send is ignored
  /// then); when it throws, nothing changes either.
  @inlinable package func modifyCurrent<Result, BodyFailure: Error>(
    _ body: (inout Element) throws(BodyFailure) -> Result
  ) throws(BodyFailure) -> Result {
    let (result, element, admitted) = try state.withLock {
      state throws(BodyFailure) -> (Result, Element, Admitted) in
      // A current-value storage always holds exactly one value.
      var value = state.replay.last!
      let result = try body(&value)
      guard state.terminal == nil else { return (result, value, .nothing) }
      return (result, value, admit(value, in: &state))
    }
    deliver(element, admitted)
    return result
  }

  /// Who must be given a value that was just admitted, once the lock is released.
  ///
  /// A single sink (a hot operator's node usually has one observer: the next node) is lent as a borrowed reference,
  /// not retained: the thread that has the sinks' turn is the only one that calls it, and a sink removed while the turn
  /// is held goes to ``State/retiredSinks`` instead of being released (see ``retire(_:in:)``), so it outlives the
  /// call. Several sinks are lent as a retained copy of the array.
  ///
  /// An enum whose common cases hold no reference: a send through a hot graph (sinks only, no consumer) ends with
  /// nothing to release, where a tuple of arrays made two calls to the runtime per send to release them, empty or
  /// not (six sends per tap of the signup form: half of its fifteen releases per tap).
  @usableFromInline enum Admitted {
    /// No consumer: only the sinks to call, if this thread took their turn.
    case sinks(SinkCall)
    /// The waiting consumers to resume, then the sinks to call.
    case consumers(first: Waiter?, others: [Waiter], sinks: SinkCall)

    /// Nothing to do after the lock.
    @inlinable static var nothing: Admitted { .sinks(.none) }
  }

  /// Which sinks the thread that admitted a value calls after the lock.
  @usableFromInline enum SinkCall {
    /// None: no sink, or another thread has the sinks' turn and delivers the value from the outbox.
    case none
    /// The one sink, lent unretained (see ``Admitted``).
    case sole(Unmanaged<Sink>)
    /// Several sinks, lent as a retained copy of the array.
    case several([Sink])
  }

  /// Under the lock, for a subject that has not ended: records `element` and queues it for every consumer and
  /// sink. Returns the waiting consumers to resume and, when this thread took the sinks' turn, the sinks to call.
  ///
  /// Inlined into its callers: the sink-only path (a hot graph's nodes) then makes no call here, and the path with
  /// consumers one, to ``admitWithConsumers(_:in:)``.
  @inline(__always) @inlinable func admit(_ element: Element, in state: inout State) -> Admitted {
    state.replay.append(element)
    if !state.queues.isEmpty || !state.readers.isEmpty { return admitWithConsumers(element, in: &state) }
    return .sinks(admitToSinks(element, in: &state))
  }

  /// ``admit(_:in:)`` when the subject has consumers (iterating ones): queues `element` for each, takes the
  /// parked ones' continuations, then admits it to the sinks.
  @inlinable func admitWithConsumers(_ element: Element, in state: inout State) -> Admitted {
    var first: Waiter?
    var others: [Waiter] = []
    // Only consumers read the counter (to know whether to wait): a node that only sinks observe skips it.
    events.wrappingAdd(1, ordering: .relaxed)
    // Checked first: the loop makes `queues` unique before it runs, and the empty array is a shared singleton, so
    // without this a send to only unbounded consumers (the usual case) "copied" an empty array on every send.
    if !state.queues.isEmpty {
      for index in 0..<state.queues.count {
        guard let waiter = state.queues[index]!.enqueue(element) else { continue }
        if first == nil { first = waiter } else { others.append(waiter) }
      }
    }
    if !state.readers.isEmpty {
      // Once for every reader; each copies it when it looks (see `withQueue`).
      state.log.append(element)
      if !state.parked.isEmpty { state.wakeParkedReaders(first: &first, others: &others) }
    }
    return .consumers(first: first, others: others, sinks: admitToSinks(element, in: &state))
  }

  /// Under the lock: the sinks this thread calls with `element` after the lock, when nobody else delivers to
  /// them (it takes their turn); otherwise `element` is queued for the thread that does.
  @inline(__always) @inlinable func admitToSinks(_ element: Element, in state: inout State) -> SinkCall {
    guard !state.sinks.isEmpty else { return .none }
    guard DeliveryTurn.claim(sinkTurn) else {
      state.sinkOutbox.append((.value(element), state.sinks))
      return .none
    }
    sinkOwner.store(ThreadIdentity.current, ordering: .relaxed)
    if state.sinks.count == 1 { return .sole(Unmanaged.passUnretained(state.sinks[0])) }
    return .several(state.sinks)
  }

  /// After the lock: resumes the consumers that waited for `element` and calls the sinks this thread delivers to.
  @inlinable func deliver(_ element: Element, _ admitted: Admitted) {
    switch admitted {
    case .sinks(let sinks):
      call(sinks, element)
    case .consumers(let first, let others, let sinks):
      first?.resume(returning: .element(element))
      for waiter in others { waiter.resume(returning: .element(element)) }
      call(sinks, element)
    }
  }

  /// Calls the sinks this thread took the turn for with `element`, then leaves the turn.
  @inlinable func call(_ sinks: SinkCall, _ element: Element) {
    switch sinks {
    case .none:
      return
    case .sole(let sole):
      // Alive until this thread leaves the turn: see `Admitted`.
      sole._withUnsafeGuaranteedRef { sink in
        if sink.active.load(ordering: .acquiring) { sink.onValue(element) }
      }
    case .several(let direct):
      direct.withUnsafeBufferPointer { sinks in
        for index in sinks.indices where sinks[index].active.load(ordering: .acquiring) {
          // `direct` holds the sinks for the whole loop, so each is alive: a guaranteed reference lets the call
          // use the sink's closure in place instead of retaining and releasing its context around every call.
          Unmanaged.passUnretained(sinks[index])._withUnsafeGuaranteedRef { $0.onValue(element) }
        }
      }
    }
    leaveSinkTurn()
  }

  /// By the thread that delivered directly to the sinks: leaves the turn, or delivers what was queued meanwhile;
  /// then releases the sinks removed while it had the turn.
  @inlinable func leaveSinkTurn() {
    if !DeliveryTurn.leave(sinkTurn) {
      deliverSinkEvents()
    } else if retiredPending.load(ordering: .sequentiallyConsistent) {
      releaseRetiredSinks()
    }
  }

  /// Under the lock, for sinks just taken out of ``State/sinks``: while a thread has the turn it may be calling one
  /// of them through a borrowed reference, so they are kept in ``State/retiredSinks`` until the turn is left.
  /// Returns whether the caller must call ``releaseRetiredSinks()`` after the lock (the turn may have been left
  /// meanwhile, by a thread that did not see them yet).
  @inlinable func retire(_ removed: some Sequence<Sink>, in state: inout State) -> Bool {
    guard sinkTurn.load(ordering: .sequentiallyConsistent) != DeliveryTurn.idle else { return false }
    state.retiredSinks.append(contentsOf: removed)
    retiredPending.store(true, ordering: .sequentiallyConsistent)
    return true
  }

  /// Releases the retired sinks if nobody has the turn (the thread that takes it next lends only current sinks);
  /// otherwise the thread that has it does, when it leaves. Their closures are released after the lock.
  @inlinable func releaseRetiredSinks() {
    let released = state.withLock { state -> [Sink] in
      guard sinkTurn.load(ordering: .sequentiallyConsistent) == DeliveryTurn.idle else { return [] }
      retiredPending.store(false, ordering: .relaxed)
      defer { state.retiredSinks = [] }
      return state.retiredSinks
    }
    withExtendedLifetime(released) {}
  }

  /// Under the lock: queues `event` for `sinks`; returns whether the caller must deliver the outbox (it took the
  /// turn: nobody else was delivering).
  @inlinable func queue(_ event: SinkEvent, for sinks: [Sink], in state: inout State) -> Bool {
    state.sinkOutbox.append((event, sinks))
    guard DeliveryTurn.claim(sinkTurn) else { return false }
    sinkOwner.store(ThreadIdentity.current, ordering: .relaxed)
    return true
  }

  @inlinable package func terminate(_ termination: Termination<Failure>, epoch: Int? = nil) {
    var deliver = false
    var retired = false
    let waiters = state.withLock { state -> [Waiter] in
      guard state.terminal == nil, epoch == nil || epoch == state.link.epoch else { return [] }
      events.wrappingAdd(1, ordering: .relaxed)
      state.terminal = termination
      var waiters: [Waiter] = []
      state.forEachConsumer { queue in
        if let waiter = queue.terminate(termination) { waiters.append(waiter) }
      }
      state.parked = []
      if !state.sinks.isEmpty {
        // The end is the sinks' last event: they are dropped now.
        deliver = queue(.end(termination), for: state.sinks, in: &state)
        registered.wrappingSubtract(state.sinks.count, ordering: .relaxed)
        retired = retire(state.sinks, in: &state)
        state.sinks = []
      }
      return waiters
    }
    for waiter in waiters { waiter.resume(returning: .recheck) }
    if deliver { deliverSinkEvents() }
    if retired { releaseRetiredSinks() }
    if connector != nil { reconcileInputs() }
  }

  // MARK: Synchronous observers

  /// Registers a synchronous observer: it gets the prefix and the replayed values (and the end, if the subject
  /// ended) first, then every later event, each once, in send order, never two at a time. Returns the sink, for
  /// removal.
  @inlinable package func addSink(
    owner: (any AnyObject & Sendable)? = nil,
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Termination<Failure>) -> Void
  ) -> Sink {
    let sink = Sink(onValue: onValue, onEnd: onEnd, owner: owner)
    var released: String?
    // What the sink gets at once, when the registration comes from inside this source's own delivery.
    var inPlace: [SinkEvent] = []
    let deliver = state.withLock { state -> Bool in
      if restarts { state.restartIfEnded() }
      // A registration made by the thread delivering this source's events (an observer of it registering another:
      // a flatten's inner reading the outer's source, `catch` switching to the source that just failed) gets its
      // prefix, replay and end now, inside the call, as RxSwift's subjects replay inside `subscribe`: before the
      // event in flight reaches the older observers. That thread has the turn, so nothing else reaches the new
      // sink meanwhile, and what is sent later is queued behind, for it to deliver.
      let reentrant =
        sinkTurn.load(ordering: .relaxed) != DeliveryTurn.idle
        && sinkOwner.load(ordering: .relaxed) == ThreadIdentity.current
      var deliver = false
      let only = [sink]
      func add(_ event: SinkEvent, _ state: inout State) {
        if reentrant { inPlace.append(event) } else { deliver = queue(event, for: only, in: &state) || deliver }
      }
      for element in prefix { add(.value(element), &state) }
      if let terminal = state.terminal {
        #if DEBUG
          released = state.releasedSubject.take()
        #endif
        if case .latest = replay {
          for element in state.replay.inOrder { add(.value(element), &state) }
        }
        add(.end(terminal), &state)
        return deliver
      }
      for element in state.replay.inOrder { add(.value(element), &state) }
      for case let element? in state.inputValues { add(.value(element), &state) }
      state.insertSink(sink)
      registered.wrappingAdd(1, ordering: .relaxed)
      return deliver
    }
    if let released { reportRegistration(afterReleaseOf: released) }
    for event in inPlace where sink.active.load(ordering: .acquiring) { sink.receive(event) }
    if deliver { deliverSinkEvents() }
    if connector != nil { reconcileInputs(registering: true) }
    return sink
  }

  /// Turns consumer `id`, which nobody iterates, into a synchronous observer, in one critical section: what its
  /// queue holds (its values, then its end) goes to the sink first, then every later event, as replayed values go
  /// to a sink that ``addSink(onValue:onEnd:)`` registers. A consumer removed already counts as finished.
  @inlinable package func adoptConsumer(
    _ id: Int,
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Termination<Failure>) -> Void
  ) -> Sink {
    let sink = Sink(onValue: onValue, onEnd: onEnd)
    let (deliver, removed) = state.withLock { state -> (Bool, ConsumerQueue<Element, Failure>?) in
      var held: [Element] = []
      var start = 0
      var end: Termination<Failure>? = .finished
      state.withQueue(id) { consumer in
        guard consumer != nil else { return }
        end = consumer!.terminal
        if case .elements(let first) = consumer!.take(into: &held) { start = first }
      }
      let removed = state.remove(id)
      if removed != nil { registered.wrappingSubtract(1, ordering: .relaxed) }
      let only = [sink]
      var deliver = false
      for element in held[start...] { deliver = queue(.value(element), for: only, in: &state) || deliver }
      if let end { return (queue(.end(end), for: only, in: &state) || deliver, removed) }
      state.insertSink(sink)
      registered.wrappingAdd(1, ordering: .relaxed)
      return (deliver, removed)
    }
    // The consumer's buffer is released after the lock.
    withExtendedLifetime(removed) {}
    if deliver { deliverSinkEvents() }
    return sink
  }

  /// Removes `sink`: no event starts for it after this returns (one being delivered on another thread may
  /// finish).
  @inlinable package func removeSink(_ sink: Sink) {
    sink.active.store(false, ordering: .releasing)
    let retired = state.withLock { state -> Bool in
      guard let index = state.sinks.firstIndex(where: { $0 === sink }) else { return false }
      state.sinks.remove(at: index)
      registered.wrappingSubtract(1, ordering: .relaxed)
      return retire(CollectionOfOne(sink), in: &state)
    }
    if retired { releaseRetiredSinks() }
    if connector != nil { reconcileInputs() }
  }

  /// Delivers the sinks' outbox until it is empty, outside the lock; only the thread that has the turn calls it.
  /// Events queued meanwhile (by other threads, or by a sink that sends to this subject again) are delivered by
  /// this same loop, after the current one: no recursion, no reordering.
  @inlinable package func deliverSinkEvents() {
    var batch: [(event: SinkEvent, sinks: [Sink])] = []
    repeat {
      state.withLock { state in
        swap(&batch, &state.sinkOutbox)
        DeliveryTurn.resume(sinkTurn)
      }
      for (event, sinks) in batch {
        // `batch` holds the sinks until the loop is done: guaranteed references, no retain per call (see `deliver`).
        sinks.withUnsafeBufferPointer { sinks in
          for index in sinks.indices where sinks[index].active.load(ordering: .acquiring) {
            Unmanaged.passUnretained(sinks[index])._withUnsafeGuaranteedRef { $0.receive(event) }
          }
        }
      }
      batch.removeAll(keepingCapacity: true)
    } while !DeliveryTurn.leave(sinkTurn)
    if retiredPending.load(ordering: .sequentiallyConsistent) { releaseRetiredSinks() }
  }

  /// Registers a synchronous observer for as long as `lifetime` lasts; see ``SubjectProtocol/sink(in:onValue:onEnd:)``.
  package func sink(
    in lifetime: Lifetime,
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Failure?) -> Void
  ) {
    let slot = lifetime.reserve()
    guard !slot.ended else { return }
    let sink = addSink(onValue: onValue) { termination in
      if case .failed(let failure) = termination { onEnd(failure) } else { onEnd(nil) }
      slot.done()  // the lifetime forgets it: a long-lived lifetime does not collect ended sinks
    }
    lifetime.adopt(LifetimeSink(node: self, sink: sink), in: slot)
  }

  // MARK: A hot operator's inputs

  /// Connects the node to its inputs when it has observers and has not ended, and disconnects it when it has
  /// none (ReactiveSwift's reference-counted `Signal`): called after every registration change.
  ///
  /// Connecting runs outside the lock (it registers with the inputs, which may replay into this node and so
  /// into user code). One thread at a time does it; a change meanwhile, on another thread or from inside the
  /// connection (a sink that stops observing during its first value), leaves a note that makes that thread
  /// look again before it lets go. A node that ended never connects again: it stays ended, like its inputs.
  ///
  /// A registration (`registering`) must return with the node connected, so that a value sent right after it is
  /// seen: when another thread is busy with the link (connecting, or disconnecting after its last observer left),
  /// it waits until the node is connected or that thread is done, then looks again itself. A registration made by
  /// the busy thread itself, from inside the connection, does not wait: that thread connects once it returns.
  /// Known limit: two threads that each connect a node and, from user code run during that connection (a replayed
  /// value reaching a sink), register with the node the other is connecting would wait for each other; the library
  /// itself never registers from inside a connection that way.
  @inlinable package func reconcileInputs(registering: Bool = false) {
    guard let connector else { return }
    let me = registering ? currentThreadID() : 0
    while true {
      let claim = state.withLock { state -> LinkClaim in
        if !state.link.busy {
          state.link.busy = true
          state.link.owner = me
          return .mine
        }
        state.link.dirty = true
        if !registering || state.link.owner == me || state.link.disconnect != nil || state.terminal != nil {
          // Connected (and it stays so while this registration lasts), ended, or being connected by this thread.
          return .leave
        }
        return .wait
      }
      switch claim {
      case .mine: break
      case .leave: return
      case .wait:
        yieldThread()
        continue
      }
      break
    }
    while true {
      let step = state.withLock { state -> LinkStep in
        let wanted = state.terminal == nil && registered.load(ordering: .relaxed) > 0
        if wanted && state.link.disconnect == nil {
          state.link.epoch &+= 1
          return .connect
        }
        if !wanted, let disconnect = state.link.disconnect {
          state.link.disconnect = nil
          // The connection is over as soon as it is decided: what it still delivers is not heard (`send(_:epoch:)`).
          state.link.epoch &+= 1
          // What a disconnected node last held is stale by the time it connects again.
          if state.terminal == nil { state.forgetReplay() }
          return .disconnect(disconnect)
        }
        if state.link.dirty {
          state.link.dirty = false
          return .again
        }
        state.link.busy = false
        state.link.owner = 0
        return .done
      }
      switch step {
      case .connect:
        let previous = CreationRank.beginConnecting(self, as: rank)
        let disconnect = connector(self)
        CreationRank.endConnecting(previous)
        state.withLock { $0.link.disconnect = disconnect }
      case .disconnect(let disconnect):
        disconnect()
      case .again:
        continue
      case .done:
        return
      }
    }
  }

  /// Whether ``reconcileInputs(registering:)`` may change the link now, decided under the lock.
  @usableFromInline enum LinkClaim {
    case mine
    case leave
    case wait
  }

  /// What ``reconcileInputs(registering:)`` does next, decided under the lock.
  @usableFromInline enum LinkStep {
    case connect
    case disconnect(@Sendable () -> Void)
    case again
    case done
  }

  /// Forgets the replayed current value: the last input event of a current-value node produced nothing (a
  /// `filter` dropped it), so a consumer that joins now must not be given an older output as current.
  @inlinable package func forgetCurrent() {
    state.withLock { state in
      if state.terminal == nil { state.forgetReplay() }
    }
  }

  /// The latest value (the current value of a AsyncCurrentValueSubject), `nil` when there is none.
  @inlinable package var latest: Element? {
    state.withLock { $0.replay.last }
  }

  @inlinable package var isTerminated: Bool { state.withLock { $0.terminal != nil } }

  // MARK: Consumer side

  /// Registers a consumer now, pre-filled with the prefix, the replayed values and any terminal event.
  @inlinable package func register(policy: BufferingPolicy) -> Int {
    var released: String?
    defer {
      if let released { reportRegistration(afterReleaseOf: released) }
      if connector != nil { reconcileInputs(registering: true) }
    }
    return state.withLock { state in
      if restarts { state.restartIfEnded() }
      let id = state.slots.allocate()
      var queue = ConsumerQueue<Element, Failure>(policy: policy)
      for element in prefix { _ = queue.enqueue(element) }
      if let terminal = state.terminal {
        #if DEBUG
          released = state.releasedSubject.take()
        #endif
        // A terminated AsyncCurrentValueSubject has no "current" value to give (RxSwift, Combine): only the end.
        if case .latest = replay {
          for element in state.replay.inOrder { _ = queue.enqueue(element) }
        }
        _ = queue.terminate(terminal)
      } else {
        for element in state.replay.inOrder { _ = queue.enqueue(element) }
        for case let element? in state.inputValues { _ = queue.enqueue(element) }
      }
      state.add(queue, id: id)
      registered.wrappingAdd(1, ordering: .relaxed)
      return id
    }
  }

  /// Runs `body` on consumer `id`'s queue under the lock; a reader's queue first gets what the reader has not
  /// read from the log, and a reader that parks in `body` is noted for the next send to wake.
  @inlinable package func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R {
    state.withLock { $0.withQueue(id, body) }
  }

  /// A look that leaves nothing more to come also removes the consumer, in the same critical section (a fan-out's
  /// consumer takes the lock once less); a consumer removed already (cancelled) is told so.
  @inlinable package func take(_ id: Int, into batch: inout [Element]) -> ConsumerTake<Failure> {
    let (look, removedQueue) = state.withLock { state -> (ConsumerTake<Failure>, ConsumerQueue<Element, Failure>?) in
      var look = state.withQueue(id) { queue in
        queue == nil ? ConsumerTake(.terminal(.finished), removed: true) : queue!.look(into: &batch)
      }
      guard look.isLast && !look.removed else { return (look, nil) }
      look.removed = true
      registered.wrappingSubtract(1, ordering: .relaxed)
      return (look, state.remove(id))
    }
    // The removed queue's buffer is released after the lock; a node may now have no consumer left.
    if let removedQueue {
      withExtendedLifetime(removedQueue) {}
      if connector != nil { reconcileInputs() }
    }
    return look
  }

  @inlinable package var activity: Int? { events.load(ordering: .relaxed) }

  /// A consumer starts empty unless the storage replays values or prepends some. (A consumer of a terminated
  /// storage starts with the end: its park fails, and its look finds the end.)
  @inlinable package var consumersStartEmpty: Bool { !remembers && prefix.isEmpty }

  /// A send never waits for a consumer: a consumer that keeps pace with a burst may suspend while a batch gathers.
  @inlinable package static var producersNeverWait: Bool { true }

  @inlinable package func removeConsumer(_ id: Int) {
    let waiter = state.withLock { state -> Waiter? in
      guard var queue = state.remove(id) else { return nil }
      registered.wrappingSubtract(1, ordering: .relaxed)
      return queue.cancel()
    }
    waiter?.resume(returning: .recheck)
    if connector != nil { reconcileInputs() }
  }

  /// How many consumers are registered: tests use it to prove that stopped consumers are removed.
  @inlinable package var consumerCount: Int { state.withLock { $0.consumerCount + $0.sinks.count } }
}

@usableFromInline package enum SubjectLogTuning {
  /// The shortest log that one of several readers trims when it reads (see `Node.State.trimAt`).
  @usableFromInline package static let minimumTrim = 64
}

/// Where each consumer of a subject is, by id, without hashing: an id is a slot (its low 32 bits) and how many
/// consumers used that slot before (its high bits), so a slot is reused but an id never is. A late call with the
/// id of a removed consumer finds nothing instead of the slot's new consumer.
///
/// A slot keeps the id and the position side by side (a lookup reads one place in memory), and the free slots form
/// a list through their positions, so that freeing 10,000 consumers allocates nothing.
@usableFromInline package struct ConsumerSlots: Sendable {
  @usableFromInline struct Slot: Sendable {
    /// The id of the consumer in this slot, or the complement (negative) of the last one while it is free.
    @usableFromInline var id: Int
    /// The consumer's position (`i` for `queues[i]`, `~i` for `readers[i]`); while the slot is free, the next free
    /// slot (`-1`: none).
    @usableFromInline var position: Int

    @inlinable init(id: Int, position: Int) {
      self.id = id
      self.position = position
    }
  }

  @usableFromInline var slots: [Slot] = []
  /// The free slot that ``allocate()`` reuses next (the last one freed); `-1` when none is free.
  @usableFromInline var firstFree = -1

  @inlinable package init() {}

  /// A new id, in a free slot (or a new one).
  @inlinable package mutating func allocate() -> Int {
    if firstFree >= 0 {
      let slot = firstFree
      firstFree = slots[slot].position
      let id = slot | (((~slots[slot].id) >> 32) + 1) << 32
      slots[slot].id = id
      return id
    }
    let slot = slots.count
    precondition(slot <= Int(UInt32.max), "Internal inconsistency: more than 2^32 consumers of one subject")
    slots.append(Slot(id: slot, position: 0))
    return slot
  }

  @inlinable package func position(of id: Int) -> Int? {
    let slot = id & 0xFFFF_FFFF
    guard slot < slots.count, slots[slot].id == id else { return nil }
    return slots[slot].position
  }

  @inlinable package mutating func setPosition(_ position: Int, of id: Int) {
    slots[id & 0xFFFF_FFFF].position = position
  }

  /// Frees `id`'s slot; returns where the consumer was, `nil` if it was freed already.
  @inlinable package mutating func free(_ id: Int) -> Int? {
    guard let position = position(of: id) else { return nil }
    let slot = id & 0xFFFF_FFFF
    slots[slot] = Slot(id: ~id, position: firstFree)
    firstFree = slot
    return position
  }
}

/// A subject's `sink(in:)` as its lifetime holds it: ending the lifetime removes the sink; the node is held weakly
/// (a sink keeps no source alive).
final class LifetimeSink<Element: Sendable, Failure: Error>: LifetimeMember {
  weak let node: Node<Element, Failure>?
  let sink: Node<Element, Failure>.Sink

  init(node: Node<Element, Failure>, sink: Node<Element, Failure>.Sink) {
    self.node = node
    self.sink = sink
  }

  func lifetimeEnded() { node?.removeSink(sink) }

  var observedNode: (any AnyObject & Sendable)? { node }
}
