import Synchronization

/// One connection of a hot flatten node (`flatMap`, `flatMapLatest`, `flatMapFirst`, `concatMap` on a hot outer
/// sequence, and `catch`'s fallback): the transform runs inside the outer `send`, once for all consumers; each inner
/// sequence then runs
/// where it can: in place when it is an immediate ``Signal`` (`.just`, `.empty`, `.fail`), observed synchronously
/// when it is hot, and otherwise as a fresh run of its graph, started at once and stopped when it is switched away from
/// or when the node disconnects.
///
/// Every delivery goes through one outbox, admitted under the lock with the check that its inner still runs, and
/// delivered by one thread at a time: a switched-away inner never delivers after the switch, and nothing recurses.
@usableFromInline final class FlattenConnection<Inner: AsyncSequence & Sendable, Failure: Error>: Sendable
where Inner.Element: Sendable {
  @usableFromInline typealias Element = Inner.Element

  @usableFromInline enum Delivery: Sendable {
    case value(Element)
    case end(Termination<Failure>)
    /// `flatMapLatest` switched to a new inner: the node forgets the old inner's value (see ``forgetsOnSwitch``).
    case switched
  }

  /// Where a running inner sequence runs, so that it can be stopped.
  @usableFromInline enum Runner: Sendable {
    /// Being started (its sink is not registered yet), or running in place.
    case starting
    /// Running: what stops it, and the node it runs (`nil` for a source observed directly), for a graph dump.
    case sink(@Sendable () -> Void, node: (any AnyObject & Sendable)?)

    @inlinable func stop() {
      switch self {
      case .starting: break
      case .sink(let detach, _): detach()
      }
    }
  }

  /// What an outer value does, decided under the lock.
  @usableFromInline enum Admission {
    case start(Int, stop: [Runner])
    case none
  }

  /// What an inner's end leads to, decided under the lock.
  @usableFromInline enum Next {
    case none
    case start(Inner, id: Int)
    case deliver
  }

  @usableFromInline struct State: Sendable {
    @usableFromInline var nextID = 0
    @usableFromInline var running: [Int: Runner] = [:]
    /// Inner sequences waiting for a slot (`concatMap`, a concurrency limit), oldest first.
    @usableFromInline var waiting = FIFO<(id: Int, inner: Inner)>()
    /// A thread is starting waiting inner sequences one after another (see ``startWaiting(_:id:)``).
    @usableFromInline var startingWaiting = false
    /// Waiting inner sequences given a slot while that thread was starting others: it starts them next.
    @usableFromInline var handedOver = FIFO<(id: Int, inner: Inner)>()
    @usableFromInline var outerFinished = false
    @usableFromInline var ended = false
    /// Inner sequences that ended while they were being started (an immediate one, a future that never suspended):
    /// their start need not stop them. Usually empty.
    @usableFromInline var endedWhileStarting: [Int] = []

    @inlinable init() {}

    /// Ends the result with `termination`; returns the runners to stop and whether the caller must deliver.
    @inlinable mutating func end(
      _ termination: Termination<Failure>, into outbox: PublicationQueue<Delivery>
    ) -> (stop: [Runner], deliver: Bool) {
      ended = true
      let stop = Array(running.values)
      running = [:]
      waiting.removeAll()
      handedOver.removeAll()
      outbox.enqueue(.end(termination))
      return (stop, true)
    }

    @inlinable var isIdle: Bool { running.isEmpty && waiting.isEmpty }
  }

  @usableFromInline let state = Locked(State())

  /// What it runs now, for a graph dump: `inners: 1 running, 2 waiting`.
  @usableFromInline func describe() -> (text: String?, runs: [any AnyObject & Sendable]) {
    state.withLock { state in
      var text = state.running.count == 1 ? "inners: 1 running" : "inners: \(state.running.count) running"
      if !state.waiting.isEmpty { text += ", \(state.waiting.count) waiting" }
      if state.outerFinished { text += ", outer finished" }
      let runs = state.running.sorted { $0.key < $1.key }.compactMap { _, runner -> (any AnyObject & Sendable)? in
        if case .sink(_, let node) = runner { return node }
        return nil
      }
      return (text, runs)
    }
  }

  /// What goes to the node, queued under `state`'s lock (with the check that its inner still counts) and
  /// delivered after it.
  @usableFromInline let outbox = PublicationQueue<Delivery>()
  @usableFromInline let node: Node<Element, Failure>
  @usableFromInline let kind: FlattenStrategy.Kind
  /// What happens to the inner sequences that wait for a slot (`concatMap`, a concurrency limit).
  @usableFromInline let buffering: FlattenBuffering.Kind
  /// What a cold outer's producer waits on under ``FlattenBuffering/suspendingOuter(after:)``.
  @usableFromInline let gate: FlattenGate?
  @usableFromInline let innerFailure: @Sendable (Inner.Failure) -> Failure
  /// How a cold inner's run starts: whom its producer waits for (a cold graph's one consumer, so that a fast inner
  /// pauses while that consumer is behind), and what a foreign inner's pump task is called (`catch`'s and
  /// `timeout`'s fallbacks run here too).
  @usableFromInline let innerStart: ColdStart
  /// The node replays its current value (`flatMapLatest` over a current value): on a switch it forgets the old
  /// inner's value, so that a consumer joining before the new inner produces one is given nothing stale.
  @usableFromInline let forgetsOnSwitch: Bool

  @inlinable init(
    node: Node<Element, Failure>, strategy: FlattenStrategy,
    buffering: FlattenBuffering = .unbounded, gate: FlattenGate? = nil,
    innerFailure: @escaping @Sendable (Inner.Failure) -> Failure,
    taskName: String = "flatMap inner", innerStart: ColdStart? = nil
  ) {
    self.node = node
    self.kind = strategy.kind
    self.buffering = buffering.kind
    self.gate = gate
    self.innerFailure = innerFailure
    self.innerStart = innerStart ?? ColdStart.shared.input(of: taskName)
    if case .current = node.replay, case .latest = strategy.kind {
      self.forgetsOnSwitch = true
    } else {
      self.forgetsOnSwitch = false
    }
  }

  /// Under the lock: whether a cold outer's producer must wait (``FlattenBuffering/suspendingOuter(after:)``): no
  /// slot is free and as many inner sequences wait as the limit allows.
  @inlinable func updateGate(_ state: State) {
    guard let gate, case .concurrent(let limit) = kind else { return }
    gate.set(full: state.running.count >= limit && state.waiting.count >= gate.limit)
  }

  /// Whether an outer value would be dropped without calling the transform (`flatMapFirst` while an inner
  /// runs). Only `.first` asks the lock; the other strategies call the transform, and `outerValue` drops what
  /// comes after the end.
  @inlinable var ignoresOuterValue: Bool {
    guard case .first = kind else { return false }
    return state.withLock { $0.ended || !$0.running.isEmpty }
  }

  /// The transform made `inner` from an outer value: start it, queue it or drop it, as the strategy says.
  @inlinable func outerValue(_ inner: Inner) {
    let admission = state.withLock { state -> Admission in
      guard !state.ended else { return .none }
      let id = state.nextID
      state.nextID += 1
      switch kind {
      case .first:
        guard state.running.isEmpty else { return .none }
        state.running[id] = .starting
        return .start(id, stop: [])
      case .latest:
        let replaced = Array(state.running.values)
        state.running = [id: .starting]
        // In order with the old inner's values: what it delivered before the switch stays current until then.
        if forgetsOnSwitch { outbox.enqueue(.switched) }
        return .start(id, stop: replaced)
      case .concurrent(let limit):
        guard state.running.count < limit else {
          switch buffering {
          case .unbounded, .suspending:
            state.waiting.append((id, inner))
          case .newest(let bound):
            if state.waiting.count == bound { _ = state.waiting.popFirst() }
            state.waiting.append((id, inner))
          case .oldest(let bound):
            if state.waiting.count < bound { state.waiting.append((id, inner)) }
          }
          updateGate(state)
          return .none
        }
        state.running[id] = .starting
        updateGate(state)
        return .start(id, stop: [])
      }
    }
    guard case .start(let id, let stop) = admission else { return }
    for runner in stop { runner.stop() }
    if forgetsOnSwitch { drain() }
    start(inner, id: id)
  }

  /// Runs `inner` as what its value is: an immediate ``Signal`` (`.just`, `.empty`, `.fail`) in place; a hot one
  /// observed inside its sends; a cold one as a fresh run of its graph, started now (a foreign sequence pumped by a
  /// task of its own).
  @inlinable func start(_ inner: Inner, id: Int) {
    let signal = Signal(inner)
    if let immediate = signal.immediate {
      switch immediate {
      case .value(let element):
        admit(.value(element), from: id)
        innerFinished(id, immediately: true)
      case .finished:
        innerFinished(id, immediately: true)
      case .failed(let error):
        innerFailed(innerFailure(error), id: id, immediately: true)
      }
      return
    }
    // Created now, whether or not the outer's node is connecting (an outer with a current value gives its first
    // inner during the connection): the inner's observer takes a new place among its source's observers.
    let (stop, innerNode) = CreationRank.attachingLater {
      signal.observeRun(innerStart, owner: node) { [self] element in
        admit(.value(element), from: id)
      } onEnd: { [self] termination in
        switch termination {
        case .finished: innerFinished(id)
        case .failed(let error): innerFailed(innerFailure(error), id: id)
        }
      }
    }
    let runner = Runner.sink(stop, node: innerNode)
    let stopNow = state.withLock { state -> Bool in
      guard state.running[id] != nil else {
        // Ended already, or switched away from (or the result ended) while it was being started.
        guard let index = state.endedWhileStarting.firstIndex(of: id) else { return true }
        state.endedWhileStarting.remove(at: index)
        return false
      }
      state.running[id] = runner
      return false
    }
    if stopNow { runner.stop() }
  }

  /// Queues a value of inner `id` unless that inner stopped running.
  @inlinable func admit(_ delivery: Delivery, from id: Int) {
    let deliver = state.withLock { state -> Bool in
      guard !state.ended, state.running[id] != nil else { return false }
      outbox.enqueue(delivery)
      return true
    }
    if deliver { drain() }
  }

  /// Inner `id` finished; `immediately` when it was an immediate signal, which its start does not look at again.
  @inlinable func innerFinished(_ id: Int, immediately: Bool = false) {
    let next = state.withLock { state -> Next in
      guard !state.ended, let runner = state.running.removeValue(forKey: id) else { return .none }
      if !immediately, case .starting = runner { state.endedWhileStarting.append(id) }
      if let (nextID, inner) = state.waiting.popFirst() {
        state.running[nextID] = .starting
        updateGate(state)
        // Another start of a waiting inner is under way (on this thread: the end of the inner it started came
        // inside that start): it starts this one next, so that a queue of inners ending at once is a loop.
        guard !state.startingWaiting else {
          state.handedOver.append((nextID, inner))
          return .none
        }
        state.startingWaiting = true
        return .start(inner, id: nextID)
      }
      updateGate(state)
      guard state.running.isEmpty, state.outerFinished else { return .none }
      return state.end(.finished, into: outbox).deliver ? .deliver : .none
    }
    switch next {
    case .none: break
    case .start(let inner, let nextID): startWaiting(inner, id: nextID)
    case .deliver: drain()
    }
  }

  /// Starts a waiting inner sequence, then the ones handed over while it started (see ``innerFinished(_:immediately:)``),
  /// until none is left: the end of an inner that ends inside its start never starts the next one recursively.
  @inlinable func startWaiting(_ inner: Inner, id: Int) {
    var next: (id: Int, inner: Inner)? = (id, inner)
    while let (id, inner) = next {
      start(inner, id: id)
      next = state.withLock { state -> (id: Int, inner: Inner)? in
        while let handedOver = state.handedOver.popFirst() {
          // Skipped when it was stopped meanwhile (the result ended).
          if state.running[handedOver.id] != nil { return handedOver }
        }
        state.startingWaiting = false
        return nil
      }
    }
  }

  @inlinable func innerFailed(_ failure: Failure, id: Int, immediately: Bool = false) {
    let (stop, deliver) = state.withLock { state -> ([Runner], Bool) in
      guard !state.ended, let runner = state.running.removeValue(forKey: id) else { return ([], false) }
      if !immediately, case .starting = runner { state.endedWhileStarting.append(id) }
      return state.end(.failed(failure), into: outbox)
    }
    for runner in stop { runner.stop() }
    if deliver { drain() }
  }

  /// The outer sequence ended (or the transform threw: `.failed`).
  @inlinable func outerEnded(_ termination: Termination<Failure>) {
    let (stop, deliver) = state.withLock { state -> ([Runner], Bool) in
      guard !state.ended else { return ([], false) }
      if case .finished = termination {
        state.outerFinished = true
        guard state.isIdle else { return ([], false) }
      }
      return state.end(termination, into: outbox)
    }
    for runner in stop { runner.stop() }
    if deliver { drain() }
  }

  /// The node disconnected: every inner stops.
  @inlinable func stopAll() {
    gate?.close()
    let stop = state.withLock { state -> [Runner] in
      state.ended = true
      defer {
        state.running = [:]
        state.waiting.removeAll()
        state.handedOver.removeAll()
      }
      return Array(state.running.values)
    }
    for runner in stop { runner.stop() }
  }

  /// Delivers what was queued, one thread at a time, outside the lock.
  @inlinable func drain() {
    outbox.flush { delivery in
      switch delivery {
      case .value(let element): node.send(element)
      case .end(let termination): node.terminate(termination)
      case .switched: node.forgetCurrent()
      }
    }
  }

}

extension HotSequence {
  /// The node under every hot flatten operator.
  @inlinable func hotFlatten<Inner: AsyncSequence & Sendable, ResultFailure: Error>(
    origin: NodeOrigin = NodeOrigin(.flatMap),
    _ strategy: FlattenStrategy,
    buffering: FlattenBuffering = .unbounded,
    gate: FlattenGate? = nil,
    innerStart: ColdStart? = nil,
    releasesTransform: Bool = false,
    transform: @escaping @Sendable (Element) throws -> Inner,
    outerFailure: @escaping @Sendable (Failure) -> ResultFailure,
    innerFailure: @escaping @Sendable (Inner.Failure) -> ResultFailure,
    transformFailure: @escaping @Sendable (any Error) -> ResultFailure
  ) -> HotSignal<Inner.Element, ResultFailure> where Inner.Element: Sendable {
    let outer = hotSignal.node
    return HotSignal(
      node: flattenNode(
        origin: origin, outer: Signal(hot: outer), outerStart: .shared, restarts: outer.restarts, strategy,
        buffering: buffering, gate: gate, innerStart: innerStart, releasesTransform: releasesTransform,
        transform: transform, outerFailure: outerFailure, innerFailure: innerFailure,
        transformFailure: transformFailure))
  }
}

/// The node of a flatten operator over `outer`: each connection observes one run of `outer` (a hot outer's node
/// itself) started with `outerStart`, and runs the inner sequences as `strategy` says.
@inlinable
func flattenNode<
  Outer: Sendable, OuterFailure: Error, Inner: AsyncSequence & Sendable, ResultFailure: Error
>(
  origin: NodeOrigin = NodeOrigin(.flatMap),
  outer: Signal<Outer, OuterFailure>,
  outerStart: ColdStart,
  restarts: Bool,
  _ strategy: FlattenStrategy,
  buffering: FlattenBuffering,
  gate: FlattenGate?,
  innerStart: ColdStart?,
  releasesTransform: Bool = false,
  transform: @escaping @Sendable (Outer) throws -> Inner,
  outerFailure: @escaping @Sendable (OuterFailure) -> ResultFailure,
  innerFailure: @escaping @Sendable (Inner.Failure) -> ResultFailure,
  transformFailure: @escaping @Sendable (any Error) -> ResultFailure
) -> Node<Inner.Element, ResultFailure> where Inner.Element: Sendable {
  // flatMapLatest over a current value gives a consumer that joins the current inner's latest value, as a fresh
  // subscription would be given it (the outer's current value selects that inner, which replays it); the other
  // strategies replay nothing.
  let replay: Node<Inner.Element, ResultFailure>.Replay
  if case .latest = strategy.kind, let outerNode = outer.hotNode, outerNode.remembers {
    replay = .current
  } else {
    replay = .none
  }
  let outerNode = outer.hotNode
  // Built for a consumer's run, which connects later: the outer's run is built now (see ``PreparedRun``).
  let outerRun = outer.prepareRun(outerStart)
  // `releasesTransform` (a property's `flatMapLatest`): the transform, and what it captures (the inner properties), is
  // let go of once an outer that does not restart has ended, so that the inner it follows can end when its source
  // is released. Otherwise the node keeps it, with no lock on the per-value path.
  // Only one of the two is kept, so that the connection's closure does not capture the transform it must let go of.
  let released = releasesTransform && !restarts ? ReleasableTransform(transform) : nil
  let kept = released == nil ? transform : nil
  // A node of a hot graph tells a dump what it runs (one small object per node; a cold run's node does not).
  return Node(
    replay: replay, restarts: restarts, origin: origin, inputs: outerNode.map { .one($0) } ?? .none,
    describesConnection: outerNode != nil
  ) { node in
    let connection = FlattenConnection<Inner, ResultFailure>(
      node: node, strategy: strategy, buffering: buffering, gate: gate, innerFailure: innerFailure,
      innerStart: innerStart)
    node.attachConnectionDescription(running: { connection.describe() })
    // The transform is unwrapped once per connection, not per value: the value path calls it directly.
    let onValue: @Sendable (Outer) -> Void
    if let kept {
      onValue = { value in
        guard !connection.ignoresOuterValue else {
          node.traceDropped(value, "ignored by flatMapFirst: an inner runs")
          return
        }
        let inner: Inner
        do {
          inner = try kept(value)
        } catch {
          connection.outerEnded(.failed(transformFailure(error)))
          return
        }
        connection.outerValue(inner)
      }
    } else {
      onValue = { value in
        guard !connection.ignoresOuterValue else { return }
        do {
          guard let inner = try released?.apply(value) else { return }
          connection.outerValue(inner)
        } catch {
          connection.outerEnded(.failed(transformFailure(error)))
        }
      }
    }
    let stopOuter = outerRun.observe(onValue: onValue) { termination in
      released?.release()
      connection.outerEnded(mapTermination(termination, outerFailure))
    }
    return {
      node.detachConnectionDescription()
      stopOuter()
      connection.stopAll()
    }
  }
}

/// What a cold outer sequence's producer waits on under ``FlattenBuffering/suspendingOuter(after:)``: full while no
/// slot is free and `limit` inner sequences wait, so the outer produces its next element only when that element can
/// start or wait.
@usableFromInline package final class FlattenGate: ColdPacer {
  @usableFromInline struct State: Sendable {
    var full = false
    var closed = false
    var producers: [UnsafeContinuation<Void, Never>] = []
  }

  @usableFromInline let limit: Int
  @usableFromInline let state = Locked(State())
  @usableFromInline let fullFlag = Atomic<Bool>(false)

  @inlinable package init(limit: Int) {
    self.limit = limit
  }

  @usableFromInline package var isFull: Bool { fullFlag.load(ordering: .relaxed) }

  @usableFromInline package func waitForRoom() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let parked = state.withLock { state -> Bool in
        guard state.full, !state.closed else { return false }
        state.producers.append(continuation)
        return true
      }
      if !parked { continuation.resume() }
    }
  }

  /// Called under the flatten's lock, so that the flag follows its state in order; resumes the producers that
  /// waited when it is no longer full.
  @usableFromInline func set(full: Bool) {
    let resume = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
      state.full = full
      fullFlag.store(full, ordering: .relaxed)
      guard !full else { return [] }
      defer { state.producers = [] }
      return state.producers
    }
    for producer in resume { producer.resume() }
  }

  /// The flatten stopped: nobody waits any more.
  @usableFromInline func close() {
    let resume = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
      state.closed = true
      fullFlag.store(false, ordering: .relaxed)
      defer { state.producers = [] }
      return state.producers
    }
    for producer in resume { producer.resume() }
  }
}

/// The transform failure of a flatten overload whose transform cannot throw.
@usableFromInline func absurdTransformFailure<Failure>(_ error: any Error) -> Failure {
  preconditionFailure("Internal inconsistency: a non-throwing flatten transform threw \(error)")
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// The flatten operators on any sequence: the hot flatten node, applied once to a hot outer sequence or to each
  /// run of a cold one. Under ``FlattenBuffering/suspendingOuter(after:)`` a cold outer's producer waits on the
  /// flatten's gate while too many inner sequences wait; a hot one never waits (its inner sequences then queue).
  @inlinable func liftFlatten<Inner: AsyncSequence & Sendable, ResultFailure: Error>(
    origin: NodeOrigin = NodeOrigin(.flatMap),
    _ strategy: FlattenStrategy,
    buffering: FlattenBuffering = .unbounded,
    transform: @escaping @Sendable (Element) throws -> Inner,
    outerFailure: @escaping @Sendable (Failure) -> ResultFailure,
    innerFailure: @escaping @Sendable (Inner.Failure) -> ResultFailure,
    transformFailure: @escaping @Sendable (any Error) -> ResultFailure
  ) -> Signal<Inner.Element, ResultFailure> where Inner.Element: Sendable {
    let outer = Signal(self)
    guard outer.isHot else {
      // Each run's inner sequences start with the run's start (a fast cold inner pauses while the run's consumer is
      // behind), and under `suspendingOuter(after:)` the outer's producer is paced by the run's own gate.
      return Signal(
        cold: ColdRecipe { start in
          var gate: FlattenGate?
          if case .suspending(let limit) = buffering.kind { gate = FlattenGate(limit: limit) }
          return flattenNode(
            origin: origin, outer: outer,
            outerStart: ColdStart(pacer: gate ?? start.pacer, drive: nil, pumpName: "flatMap outer"),
            restarts: false, strategy, buffering: buffering, gate: gate, innerStart: start.input(of: "flatMap inner"),
            transform: transform, outerFailure: outerFailure, innerFailure: innerFailure,
            transformFailure: transformFailure)
        })
    }
    return outer.lift(synchronous: false) { outer in
      outer.hotFlatten(
        origin: origin, strategy, buffering: buffering, transform: transform, outerFailure: outerFailure,
        innerFailure: innerFailure, transformFailure: transformFailure)
    }
  }
}

/// A flatten's transform that can be let go of (see `flattenNode`'s `releasesTransform`): read under a lock, run
/// outside it.
@usableFromInline final class ReleasableTransform<Outer, Inner>: Sendable {
  @usableFromInline let transform: Locked<(@Sendable (Outer) throws -> Inner)?>

  @inlinable init(_ transform: @escaping @Sendable (Outer) throws -> Inner) {
    self.transform = Locked(transform)
  }

  /// The transform's result for `value`, or `nil` once released.
  @inlinable func apply(_ value: Outer) throws -> Inner? {
    guard let transform = transform.withLock({ $0 }) else { return nil }
    return try transform(value)
  }

  /// Lets go of the transform (after the lock: what it captures may be the last reference to a subject, whose release
  /// ends other nodes).
  @inlinable func release() {
    let released = transform.withLock { transform in
      defer { transform = nil }
      return transform
    }
    withExtendedLifetime(released) {}
  }
}
