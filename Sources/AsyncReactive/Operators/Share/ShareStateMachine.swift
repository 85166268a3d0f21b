/// The transitions of a share point (``AsyncShareSequence``): which consumers listen, which run of the upstream
/// feeds them, when its pump may pull, and how a run ends.
///
/// A pure value kept behind the storage's lock: each method handles one event and returns what the caller must do
/// once the lock is released (resume these continuations, cancel that task). There is no final state: whenever no
/// run is going, the next consumer starts a new one (`whileConnected`).
///
/// Consumers are *attached* while they belong to the current run (or, between runs, to none yet: then there are
/// none). When a run ends, its consumers are *detached*: they keep their queues (the values buffered for them and
/// the end) until they have read them, but no longer count for the next run.
///
/// Its members are `@usableFromInline` rather than private so that the whole path specialises in the client's
/// module (unspecialised generic code pays metadata look-ups per element).
@usableFromInline struct ShareStateMachine<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline typealias Queue = ConsumerQueue<Element, Failure>
  @usableFromInline typealias Waiter = Queue.Waiter
  /// The pump, parked until it may pull again (`true`) or must stop (`false`).
  @usableFromInline typealias Pump = UnsafeContinuation<Bool, Never>

  /// What the pump does after handing an element to the consumers.
  @usableFromInline enum PumpAction {
    /// Pull the next element.
    case proceed
    /// A consumer's buffer is full: wait in ``waitForPermission(_:run:)`` before pulling again.
    case wait
    /// The run ended (its consumers left): stop.
    case stop
  }

  /// The result of ``send(_:run:)``: the parked consumers to hand the element to, and what the pump does next.
  /// The first waiter is kept apart so that the usual single consumer costs no array.
  @usableFromInline struct SendEffects {
    @usableFromInline var first: Waiter?
    @usableFromInline var others: [Waiter] = []
    @usableFromInline var verdict: PumpAction

    @inlinable init(verdict: PumpAction) {
      self.verdict = verdict
    }
  }

  /// What to do after releasing the lock.
  @usableFromInline struct Effects {
    /// A consumer to wake so that it looks at its queue again.
    @usableFromInline var wake: Waiter?
    /// The task of a run that nobody listens to anymore.
    @usableFromInline var cancel: Task<Void, Never>?
    /// The parked pump, with whether it may go on.
    @usableFromInline var resume: (pump: Pump, goOn: Bool)?

    @inlinable init() {}

    @inlinable func perform() {
      // Cancel before resuming: a pump told to stop finds its task cancelled, so the upstream stops at once.
      cancel?.cancel()
      if let (pump, goOn) = resume { pump.resume(returning: goOn) }
      wake?.resume(returning: .recheck)
    }
  }

  /// One consumer of the current run.
  @usableFromInline struct Slot: Sendable {
    /// Never `nil` while attached; optional because ``ConsumerCursor`` works on an optional queue.
    @usableFromInline var queue: Queue?
    /// Elements added to `queue` since the consumer last emptied it.
    @usableFromInline var buffered: Int

    @inlinable init(queue: Queue?, buffered: Int) {
      self.queue = queue
      self.buffered = buffered
    }
  }

  /// One run of the upstream.
  @usableFromInline struct Run: Sendable {
    /// Tells this run's pump apart from the pumps of earlier, cancelled runs, which may still be on their way out.
    @usableFromInline let id: Int
    /// `nil` until the storage has spawned the pump.
    @usableFromInline var task: Task<Void, Never>?
    /// Whether a consumer has asked for a value: the pump pulls nothing before.
    @usableFromInline var isStarted = false
    /// The pump, while it waits for the start or for a full buffer to drain.
    @usableFromInline var parked: Pump?

    @inlinable init(id: Int) {
      self.id = id
    }
  }

  @usableFromInline enum State: Sendable {
    /// No run: no consumer is attached.
    case idle
    /// A run is subscribed to the upstream; it pumps once started.
    case running(Run)
  }

  @usableFromInline var state = State.idle
  @usableFromInline var attached: [Int: Slot] = [:]
  /// Consumers of a run that ended, until they have read what was buffered for them.
  @usableFromInline var detached: [Int: Queue] = [:]
  @usableFromInline var nextConsumerID = 0
  @usableFromInline var nextRunID = 0
  /// The latest elements of the current run, for consumers that attach later.
  @usableFromInline var replay: RingBuffer<Element>
  /// How many attached consumers have `bufferLimit` elements or more waiting: the pump waits while any does.
  @usableFromInline var fullCount = 0
  @usableFromInline let bufferLimit: Int

  /// - Parameters:
  ///   - replay: how many of the latest elements a consumer that attaches to a running run receives first.
  ///   - bufferLimit: how many elements may wait for one consumer before the pump pauses.
  @inlinable init(replay: Int, bufferLimit: Int) {
    self.replay = RingBuffer(capacity: replay)
    self.bufferLimit = bufferLimit
  }

  /// How many consumers are registered, including those still reading the end of an earlier run.
  @inlinable var consumerCount: Int { attached.count + detached.count }

  // MARK: Consumers

  /// Registers a consumer, pre-filled with the replayed elements. Returns its id and, when it is the first consumer
  /// since the last run ended, the id of the run the caller must now subscribe to the upstream for.
  @inlinable mutating func register() -> (id: Int, newRun: Int?) {
    let id = nextConsumerID
    nextConsumerID += 1
    var queue = Queue(policy: .unbounded)
    for element in replay.inOrder { _ = queue.enqueue(element) }
    let slot = Slot(queue: queue, buffered: replay.count)
    if slot.buffered >= bufferLimit { fullCount += 1 }
    attached[id] = slot
    switch state {
    case .idle:
      let run = nextRunID
      nextRunID += 1
      state = .running(Run(id: run))
      return (id, run)
    case .running:
      return (id, nil)
    }
  }

  /// Consumer `id` asked for its first value: the run starts pumping if it has not yet. Returns the parked pump to
  /// resume (with `true`), if any.
  @inlinable mutating func connect(_ id: Int) -> Pump? {
    // A detached consumer reads the end of its own run: it starts nothing.
    guard attached[id] != nil, case .running(var run) = state, !run.isStarted else { return nil }
    run.isStarted = true
    state = .running(run)
    return takeFreedPump()
  }

  /// Runs `body` on consumer `id`'s queue (the ``ConsumerCursor`` looking or parking). If that emptied a full
  /// buffer, also returns the pump that waited for it.
  @inlinable mutating func withQueue<R>(_ id: Int, _ body: (inout Queue?) -> R) -> (R, Pump?) {
    guard let index = attached.index(forKey: id) else { return (body(&detached[id]), nil) }
    let result = body(&attached.values[index].queue)
    let buffered = attached.values[index].buffered
    guard buffered > 0, attached.values[index].queue?.isReady == false else { return (result, nil) }
    attached.values[index].buffered = 0
    guard buffered >= bufferLimit else { return (result, nil) }
    fullCount -= 1
    return (result, takeFreedPump())
  }

  /// Consumer `id` stopped (cancelled, dropped its iterator, or read the end). If it was the last consumer of the
  /// run, the run stops: its task is cancelled and the replay buffer cleared.
  @inlinable mutating func removeConsumer(_ id: Int) -> Effects {
    var effects = Effects()
    if let slot = attached.removeValue(forKey: id) {
      var queue = slot.queue
      effects.wake = queue?.cancel()
      if slot.buffered >= bufferLimit { fullCount -= 1 }
      guard case .running(let run) = state else {
        preconditionFailure("Internal inconsistency: an attached consumer without a run")
      }
      if attached.isEmpty {
        precondition(fullCount == 0, "Internal inconsistency: a full buffer without a consumer")
        state = .idle
        replay.removeAll()
        effects.cancel = run.task
        effects.resume = run.parked.map { ($0, false) }
      } else {
        effects.resume = takeFreedPump().map { ($0, true) }
      }
    } else if var queue = detached.removeValue(forKey: id) {
      effects.wake = queue.cancel()
    }
    return effects
  }

  // MARK: Pump

  /// The pump of run `run` exists; returns `false` if that run already stopped, so that the caller cancels it.
  @inlinable mutating func runCreated(_ run: Int, task: Task<Void, Never>) -> Bool {
    guard case .running(var current) = state, current.id == run else { return false }
    precondition(current.task == nil, "Internal inconsistency: a run's pump was created twice")
    current.task = task
    state = .running(current)
    return true
  }

  /// Parks the pump of run `run` until it may pull (the run has started and no buffer is full). Returns what to
  /// resume it with at once, or `nil` if it is parked.
  @inlinable mutating func waitForPermission(_ pump: Pump, run: Int) -> Bool? {
    guard case .running(var current) = state, current.id == run else { return false }
    if current.isStarted && fullCount == 0 { return true }
    precondition(current.parked == nil, "Internal inconsistency: the pump parked twice")
    current.parked = pump
    state = .running(current)
    return nil
  }

  /// Run `run` produced `element`: every attached consumer gets it (or had it replayed if it attaches later).
  @inlinable mutating func send(_ element: Element, run: Int) -> SendEffects {
    guard case .running(let current) = state, current.id == run else { return SendEffects(verdict: .stop) }
    replay.append(element)
    var delivery = SendEffects(verdict: .proceed)
    // In place: `for slot in attached.values` would copy each consumer's buffer when it is mutated.
    var index = attached.values.startIndex
    while index != attached.values.endIndex {
      if let waiter = attached.values[index].queue?.enqueue(element) {
        if delivery.first == nil { delivery.first = waiter } else { delivery.others.append(waiter) }
      } else {
        attached.values[index].buffered += 1
        if attached.values[index].buffered == bufferLimit { fullCount += 1 }
      }
      attached.values.formIndex(after: &index)
    }
    if fullCount > 0 { delivery.verdict = .wait }
    return delivery
  }

  /// Run `run`'s upstream ended: every attached consumer gets the end after its buffered elements, and is detached.
  /// Returns the parked consumers to wake.
  @inlinable mutating func end(_ termination: Termination<Failure>, run: Int) -> [Waiter] {
    guard case .running(let current) = state, current.id == run else { return [] }
    precondition(current.parked == nil, "Internal inconsistency: a parked pump ended its run")
    var waiters: [Waiter] = []
    for (id, slot) in attached {
      guard var queue = slot.queue else { continue }
      if let waiter = queue.terminate(termination) { waiters.append(waiter) }
      detached[id] = queue
    }
    attached = [:]
    fullCount = 0
    replay.removeAll()
    state = .idle
    return waiters
  }

  /// Takes the parked pump if it may go on now.
  @inlinable mutating func takeFreedPump() -> Pump? {
    guard case .running(var run) = state, run.isStarted, fullCount == 0, let pump = run.parked else { return nil }
    run.parked = nil
    state = .running(run)
    return pump
  }
}
