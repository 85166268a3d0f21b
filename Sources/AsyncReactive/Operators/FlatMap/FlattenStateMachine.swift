/// The transitions of a flatten operator (``AsyncFlattenSequence``): which inner sequences run, when the
/// outer may be pulled, when producers must wait for the consumer, and how it all ends.
///
/// A pure value kept behind the storage's lock: each method handles one event and returns what the caller must
/// do once the lock is released (cancel these tasks, resume those continuations). Inner sequences are known by
/// an id that the outer pump hands out in order.
@usableFromInline struct FlattenStateMachine<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline typealias Consumer = ConsumerQueue<Element, Failure>.Waiter
  /// A pump (the outer one waiting for a slot, or an inner one waiting for the consumer) parked until it may
  /// go on (`true`) or must stop (`false`).
  @usableFromInline typealias Pump = UnsafeContinuation<Bool, Never>

  /// What to do after releasing the lock.
  @usableFromInline struct Effects {
    @usableFromInline var cancel: [Task<Void, Never>] = []
    @usableFromInline var resume: [(pump: Pump, goOn: Bool)] = []
    @usableFromInline var wake: Consumer?

    @inlinable init() {}

    @inlinable func perform() {
      for task in cancel { task.cancel() }
      for (pump, goOn) in resume { pump.resume(returning: goOn) }
      wake?.resume(returning: .recheck)
    }
  }

  /// What an inner pump does after handing over an element.
  @usableFromInline enum PushAction {
    /// Pull the next element; first hand this one to the parked consumer, if any.
    case proceed(wake: Consumer?)
    /// The buffer is full and this inner has pushed enough: wait until the consumer drains it
    /// (``waitForDrain(_:id:)``).
    case wait
    /// This inner sequence was switched away from, or the operator ended: stop.
    case stop
  }

  /// What the outer pump does before pulling the next outer value.
  @usableFromInline enum SlotAction {
    case proceed
    case wait
    case stop
  }

  @usableFromInline enum State: Sendable {
    /// The outer sequence or inner sequences run; the fields below are in use.
    case running
    /// Ended: finished, failed or abandoned by the consumer; every task was told to stop.
    case finished
  }

  // The bookkeeping of the running state lives in plain stored properties rather than in the enum's payload:
  // mutating a dictionary inside an enum payload copies it (the switch holds a second reference), which made
  // every inner start cost O(running inners).
  @usableFromInline var state = State.running
  @usableFromInline var outerTask: Task<Void, Never>?
  @usableFromInline var outerHasFinished = false
  /// The outer pump, while it waits for a free slot.
  @usableFromInline var outerParked: Pump?
  /// The running inner sequences, by id; the task is `nil` between ``innerStarting(id:)`` and
  /// ``innerStarted(id:task:)``.
  @usableFromInline var inners: [Int: Task<Void, Never>?] = [:]
  /// The inner pumps waiting for the consumer to drain the buffer.
  @usableFromInline var parkedInners: [Int: Pump] = [:]

  /// The consumer's buffer; `nil` once the consumer stopped. The consumer's cursor works on it directly (and
  /// then calls ``consumerLooked()``); the pumps go through ``push(_:from:)``.
  @usableFromInline var queue: ConsumerQueue<Element, Failure>? = ConsumerQueue(policy: .unbounded)
  /// Elements added to `queue` since the consumer last emptied it.
  @usableFromInline var buffered = 0
  @usableFromInline let limit: Int
  @usableFromInline let switchesToLatest: Bool
  @usableFromInline let bufferLimit: Int
  @usableFromInline let pauseAfter: Int

  /// - Parameters:
  ///   - strategy: how many inner sequences may run at once, and whether a new one replaces the old.
  ///   - bufferLimit: how many elements may wait for the consumer before inner pumps pause.
  ///   - pauseAfter: how many elements an inner pump pushes before a full buffer makes it pause.
  @inlinable init(strategy: FlattenStrategy, bufferLimit: Int, pauseAfter: Int) {
    switch strategy.kind {
    case .concurrent(let limit):
      self.limit = limit
      self.switchesToLatest = false
    case .latest:
      self.limit = .max
      self.switchesToLatest = true
    }
    self.bufferLimit = bufferLimit
    self.pauseAfter = pauseAfter
  }

  // MARK: Outer pump

  /// The outer task exists; returns `false` if the operator already ended, so that the caller cancels it.
  @inlinable mutating func outerStarted(task: Task<Void, Never>) -> Bool {
    switch state {
    case .running:
      precondition(outerTask == nil, "Internal inconsistency: the outer task started twice")
      outerTask = task
      return true
    case .finished:
      return false
    }
  }

  /// Whether the outer pump may pull the next outer value now.
  @inlinable func slotAction() -> SlotAction {
    switch state {
    case .running: inners.count < limit ? .proceed : .wait
    case .finished: .stop
    }
  }

  /// Parks the outer pump until a slot is free; returns what to resume it with at once, or `nil` if parked.
  @inlinable mutating func waitForSlot(_ pump: Pump) -> Bool? {
    switch state {
    case .running:
      guard inners.count >= limit else { return true }
      precondition(outerParked == nil, "Internal inconsistency: the outer pump parked twice")
      outerParked = pump
      return nil
    case .finished:
      return false
    }
  }

  /// The outer sequence finished: the result finishes once every running inner has.
  @inlinable mutating func outerFinished() -> Effects {
    switch state {
    case .running:
      outerHasFinished = true
      return inners.isEmpty ? finish() : Effects()
    case .finished:
      return Effects()
    }
  }

  // MARK: Inner pumps

  /// Registers inner `id` before its task exists. Under ``FlattenStrategy/latest`` this stops the inner it
  /// replaces. Returns `nil` if the operator ended (the inner must not start).
  @inlinable mutating func innerStarting(id: Int) -> Effects? {
    switch state {
    case .running:
      precondition(inners[id] == nil, "Internal inconsistency: inner \(id) started twice")
      var effects = Effects()
      if switchesToLatest {
        for case let task? in inners.values { effects.cancel.append(task) }
        for parked in parkedInners.values { effects.resume.append((parked, false)) }
        inners.removeAll(keepingCapacity: true)
        parkedInners.removeAll(keepingCapacity: true)
      }
      inners[id] = .some(nil)
      return effects
    case .finished:
      return nil
    }
  }

  /// Records the task of inner `id`; returns `false` if that inner already ended or was replaced, so that the
  /// caller cancels the task (harmless if it is done).
  @inlinable mutating func innerStarted(id: Int, task: Task<Void, Never>) -> Bool {
    switch state {
    case .running:
      guard inners[id] != nil else { return false }
      inners[id] = task
      return true
    case .finished:
      return false
    }
  }

  /// Inner `id` produced `element`, its `streak`-th since it last paused.
  @inlinable mutating func push(_ element: Element, from id: Int, streak: Int) -> PushAction {
    switch state {
    case .running:
      // A replaced inner may still be on its way out: its late values are stale.
      guard inners[id] != nil, queue != nil else { return .stop }
      if let consumer = queue?.enqueue(element) { return .proceed(wake: consumer) }
      buffered += 1
      return buffered >= bufferLimit && streak >= pauseAfter ? .wait : .proceed(wake: nil)
    case .finished:
      return .stop
    }
  }

  /// Parks inner pump `id` until the consumer drains the buffer; returns what to resume it with at once, or
  /// `nil` if parked.
  @inlinable mutating func waitForDrain(_ pump: Pump, id: Int) -> Bool? {
    switch state {
    case .running:
      guard inners[id] != nil else { return false }
      guard buffered >= bufferLimit else { return true }
      parkedInners[id] = pump
      return nil
    case .finished:
      return false
    }
  }

  /// Inner `id` finished; frees its slot, and finishes the result if it was the last one after the outer.
  @inlinable mutating func innerFinished(id: Int) -> Effects {
    switch state {
    case .running:
      guard inners.removeValue(forKey: id) != nil else { return Effects() }
      if outerHasFinished && inners.isEmpty { return finish() }
      var effects = Effects()
      if let parked = outerParked, inners.count < limit {
        outerParked = nil
        effects.resume.append((parked, true))
      }
      return effects
    case .finished:
      return Effects()
    }
  }

  // MARK: Ending

  /// The outer sequence (`id == nil`), the transform, or inner `id` failed: the result fails and everything
  /// stops. A failure of a replaced inner (typically its cancellation) is ignored.
  @inlinable mutating func fail(_ error: Failure, from id: Int?) -> Effects {
    switch state {
    case .running:
      if let id, inners[id] == nil { return Effects() }
      var effects = stopAll()
      effects.wake = queue?.terminate(.failed(error))
      return effects
    case .finished:
      return Effects()
    }
  }

  /// The consumer stopped (cancelled, dropped its iterator, or took the terminal event): drop its buffer and
  /// stop everything that still runs.
  @inlinable mutating func consumerStopped() -> Effects {
    var effects = state == .running ? stopAll() : Effects()
    effects.wake = queue?.cancel()
    queue = nil
    return effects
  }

  /// The consumer looked at ``queue``; if it emptied it, returns the inner pumps that waited for that.
  @inlinable mutating func consumerLooked() -> Effects {
    guard buffered > 0, let queue, !queue.isReady else { return Effects() }
    buffered = 0
    guard state == .running, !parkedInners.isEmpty else { return Effects() }
    var effects = Effects()
    for parked in parkedInners.values { effects.resume.append((parked, true)) }
    parkedInners.removeAll(keepingCapacity: true)
    return effects
  }

  /// Ends normally: the consumer gets the buffered elements, then the end. Nothing runs any more.
  @inlinable mutating func finish() -> Effects {
    var effects = Effects()
    if let outerParked { effects.resume.append((outerParked, false)) }
    effects.wake = queue?.terminate(.finished)
    end()
    return effects
  }

  /// Ends abnormally: every task is cancelled and every parked pump told to stop.
  @inlinable mutating func stopAll() -> Effects {
    var effects = Effects()
    if let outerTask { effects.cancel.append(outerTask) }
    if let outerParked { effects.resume.append((outerParked, false)) }
    for case let task? in inners.values { effects.cancel.append(task) }
    for parked in parkedInners.values { effects.resume.append((parked, false)) }
    end()
    return effects
  }

  @inlinable mutating func end() {
    state = .finished
    outerTask = nil
    outerParked = nil
    inners = [:]
    parkedInners = [:]
  }
}
