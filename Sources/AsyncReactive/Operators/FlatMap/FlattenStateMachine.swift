/// The transitions of a flatten operator (``AsyncFlattenSequence``): which inner sequences run, which wait for a
/// slot, when producers must wait for the consumer, and how it all ends.
///
/// A pure value kept behind the storage's lock: each method handles one event and returns what the caller must
/// do once the lock is released (cancel these tasks, resume those continuations). Inner sequences are known by
/// an id that the outer pump hands out in arrival order.
///
/// An inner sequence runs either in place, in the outer pump's task (an immediate ``Signal`` that never
/// suspends), or in a *worker* task. A worker whose inner sequence finishes takes the oldest waiting inner
/// sequence and runs it too, so that under a concurrency limit a queue of inners costs no task per inner. A
/// worker is known by the id of the first inner it ran; its task handle travels with it from inner to inner.
@usableFromInline struct FlattenStateMachine<Element: Sendable, Failure: Error, Inner: Sendable>: Sendable {
  @usableFromInline typealias Consumer = ConsumerQueue<Element, Failure>.Waiter
  /// A pump (the outer one waiting to read, or an inner one waiting for the consumer) parked until it may go on
  /// (`true`) or must stop (`false`).
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

  /// Whether the outer pump may read the next outer element (only asked under
  /// ``FlattenBuffering/suspendingOuter(after:)``).
  @usableFromInline enum ReadAction {
    case proceed
    case wait
    case stop
  }

  /// Whether an outer element that just arrived makes an inner sequence (only asked under ``FlattenStrategy/first``,
  /// which does not even call the transform while an inner runs).
  @usableFromInline enum ArrivalAction {
    case transform
    case ignore
    case stop
  }

  /// What the outer pump does with the inner sequence made from an outer element.
  @usableFromInline enum AdmitAction {
    /// Run it now in the outer pump's task (it is immediate); first perform the effects (under
    /// ``FlattenStrategy/latest``, they stop the inner sequence it replaces).
    case startInPlace(Effects)
    /// Start a worker task for it, then register the task with ``workerStarted(_:task:)``; first perform the
    /// effects.
    case startWorker(Effects)
    /// Every slot is taken: it waits its turn. `dropped` is a waiting inner sequence that the buffering let go
    /// of to make room (it never runs), released by the caller outside the lock.
    case queued(dropped: Inner?)
    /// Every slot is taken and the buffering (or ``FlattenStrategy/first``) drops it: it never runs.
    case dropped
    /// The operator ended.
    case stop
  }

  /// Where an inner sequence that is not run in place runs.
  @usableFromInline enum Runner: Sendable {
    /// In the worker that started with inner `id`; `task` is `nil` until ``workerStarted(_:task:)``.
    case worker(id: Int, task: Task<Void, Never>?)
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
  /// The outer pump, while it waits for room under ``FlattenBuffering/suspendingOuter(after:)``.
  @usableFromInline var outerParked: Pump?
  /// The running inner sequences that have a worker, by id, and where each runs. One dictionary for both, so
  /// that an inner that starts and ends costs one insertion and one removal.
  @usableFromInline var inners: [Int: Runner] = [:]
  /// The inner that the outer pump runs in place (an immediate one, `Signal.just`), if any: at most one at a
  /// time, since the outer pump reads nothing while it runs it. Kept out of `inners`, so that the common
  /// one-value inner costs no hashing.
  @usableFromInline var inPlace: Int?
  /// Workers that moved on to a waiting inner before their task was registered (rare): worker id → the inner
  /// it runs now.
  @usableFromInline var relocated: [Int: Int] = [:]
  /// The inner pumps waiting for the consumer to drain the buffer.
  @usableFromInline var parkedInners: [Int: Pump] = [:]
  /// The inner sequences waiting for a slot, oldest first, from `waitingHead` on; the slots before it were taken
  /// and emptied, so that an inner that started is not kept alive by the queue.
  @usableFromInline var waiting: [(id: Int, inner: Inner)?] = []
  @usableFromInline var waitingHead = 0

  /// The consumer's buffer; `nil` once the consumer stopped. The consumer's cursor works on it directly (and
  /// then calls ``consumerLooked()``); the pumps go through ``push(_:from:streak:)``.
  @usableFromInline var queue: ConsumerQueue<Element, Failure>? = ConsumerQueue(policy: .unbounded)
  /// Elements added to `queue` since the consumer last emptied it.
  @usableFromInline var buffered = 0
  @usableFromInline let limit: Int
  @usableFromInline let switchesToLatest: Bool
  @usableFromInline let ignoresWhileBusy: Bool
  @usableFromInline let buffering: FlattenBuffering.Kind
  @usableFromInline let bufferLimit: Int
  @usableFromInline let pauseAfter: Int

  /// - Parameters:
  ///   - strategy: how many inner sequences may run at once, and what a new one does to the running ones.
  ///   - buffering: what happens to inner sequences that find every slot taken.
  ///   - bufferLimit: how many elements may wait for the consumer before inner pumps pause.
  ///   - pauseAfter: how many elements an inner pump pushes before a full buffer makes it pause.
  @inlinable init(strategy: FlattenStrategy, buffering: FlattenBuffering, bufferLimit: Int, pauseAfter: Int) {
    switch strategy.kind {
    case .concurrent(let limit):
      self.limit = limit
      self.switchesToLatest = false
      self.ignoresWhileBusy = false
    case .latest:
      self.limit = .max
      self.switchesToLatest = true
      self.ignoresWhileBusy = false
    case .first:
      self.limit = 1
      self.switchesToLatest = false
      self.ignoresWhileBusy = true
    }
    self.buffering = buffering.kind
    self.bufferLimit = bufferLimit
    self.pauseAfter = pauseAfter
  }

  @inlinable var waitingCount: Int { waiting.count - waitingHead }

  /// Whether the outer pump may read now: always, unless the buffering suspends it while enough inners wait.
  @inlinable var outerMayRead: Bool {
    guard case .suspending(let allowed) = buffering else { return true }
    return waitingCount < allowed || (waitingCount == 0 && runningCount < limit)
  }

  /// How many inner sequences run, in place or in workers.
  @inlinable var runningCount: Int { inPlace == nil ? inners.count : inners.count + 1 }

  /// Whether no inner sequence runs.
  @inlinable var noneRunning: Bool { inPlace == nil && inners.isEmpty }

  /// Whether inner `id` still runs (it was not replaced, stopped or finished).
  @inlinable func isRunning(_ id: Int) -> Bool { inPlace == id || inners[id] != nil }

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

  /// Whether the outer pump may read the next outer element now.
  @inlinable func readAction() -> ReadAction {
    switch state {
    case .running: outerMayRead ? .proceed : .wait
    case .finished: .stop
    }
  }

  /// Parks the outer pump until it may read; returns what to resume it with at once, or `nil` if parked.
  @inlinable mutating func waitToRead(_ pump: Pump) -> Bool? {
    switch state {
    case .running:
      guard !outerMayRead else { return true }
      precondition(outerParked == nil, "Internal inconsistency: the outer pump parked twice")
      outerParked = pump
      return nil
    case .finished:
      return false
    }
  }

  /// An outer element arrived: under ``FlattenStrategy/first`` it is ignored while an inner sequence runs.
  @inlinable func arrivalAction() -> ArrivalAction {
    switch state {
    case .running: noneRunning ? .transform : .ignore
    case .finished: .stop
    }
  }

  /// The transform made inner `id` (`immediate`: a ``Signal`` that never suspends) from an outer element that
  /// just arrived: start it, queue it, or drop it.
  @inlinable mutating func innerArrived(_ inner: Inner, id: Int, immediate: Bool) -> AdmitAction {
    guard case .running = state else { return .stop }
    if runningCount < limit && waitingCount == 0 {
      var effects = Effects()
      if switchesToLatest { effects = stopInners() }
      if immediate {
        inPlace = id
        return .startInPlace(effects)
      }
      inners[id] = .worker(id: id, task: nil)
      return .startWorker(effects)
    }
    if ignoresWhileBusy { return .dropped }
    switch buffering {
    case .unbounded, .suspending:
      break
    case .newest(let capacity):
      if waitingCount >= capacity {
        let dropped = takeOldestWaiting().inner
        waiting.append((id, inner))
        return .queued(dropped: dropped)
      }
    case .oldest(let capacity):
      if waitingCount >= capacity { return .dropped }
    }
    waiting.append((id, inner))
    return .queued(dropped: nil)
  }

  /// Records the task of worker `id`; returns `false` if that worker already ended (or the operator did), so that
  /// the caller cancels the task (harmless if it is done).
  @inlinable mutating func workerStarted(_ id: Int, task: Task<Void, Never>) -> Bool {
    guard case .running = state else { return false }
    let current = relocated.isEmpty ? id : relocated.removeValue(forKey: id) ?? id
    guard case .worker(id, nil)? = inners[current] else { return false }
    inners[current] = .worker(id: id, task: task)
    return true
  }

  /// The outer sequence finished: the result finishes once every inner has, running or waiting.
  @inlinable mutating func outerFinished() -> Effects {
    switch state {
    case .running:
      outerHasFinished = true
      return noneRunning && waitingCount == 0 ? finish() : Effects()
    case .finished:
      return Effects()
    }
  }

  // MARK: Inner pumps

  /// Inner `id` produced `element`, its `streak`-th since it last paused.
  @inlinable mutating func push(_ element: Element, from id: Int, streak: Int) -> PushAction {
    switch state {
    case .running:
      // A replaced inner may still be on its way out: its late values are stale.
      guard isRunning(id), queue != nil else { return .stop }
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
      guard isRunning(id) else { return false }
      guard buffered >= bufferLimit else { return true }
      parkedInners[id] = pump
      return nil
    case .finished:
      return false
    }
  }

  /// Inner `id` finished. Its worker goes on with the oldest waiting inner, if any (returned as `next`);
  /// otherwise the slot frees, and the result finishes if this was the last inner after the outer.
  @inlinable mutating func innerFinished(id: Int) -> (effects: Effects, next: (id: Int, inner: Inner)?) {
    guard case .running = state else { return (Effects(), nil) }
    if inPlace == id {
      // Only the outer pump queues inners, and it starts one in place only when none waits: while it runs one,
      // nothing can have been queued behind it.
      precondition(waitingCount == 0, "Internal inconsistency: an inner ran in place while others waited")
      inPlace = nil
    } else {
      guard case .worker(let worker, let task)? = inners.removeValue(forKey: id) else { return (Effects(), nil) }
      if waitingCount > 0 {
        let next = takeOldestWaiting()
        inners[next.id] = .worker(id: worker, task: task)
        if task == nil { relocated[worker] = next.id }
        return (resumeOuterIfItMayRead(), next)
      }
      // The worker ends; if its task is not registered yet, the registration will find nothing (and cancel a
      // task that is done anyway).
      if task == nil && !relocated.isEmpty { relocated.removeValue(forKey: worker) }
    }
    if outerHasFinished && noneRunning && waitingCount == 0 { return (finish(), nil) }
    return (resumeOuterIfItMayRead(), nil)
  }

  @inlinable mutating func resumeOuterIfItMayRead() -> Effects {
    var effects = Effects()
    if let parked = outerParked, outerMayRead {
      outerParked = nil
      effects.resume.append((parked, true))
    }
    return effects
  }

  /// Removes the oldest waiting inner from the queue and returns it.
  @inlinable mutating func takeOldestWaiting() -> (id: Int, inner: Inner) {
    guard let oldest = waiting[waitingHead] else {
      preconditionFailure("Internal inconsistency: an empty slot in the queue of waiting inners")
    }
    waiting[waitingHead] = nil
    waitingHead += 1
    if waitingHead == waiting.count {
      waiting.removeAll(keepingCapacity: true)
      waitingHead = 0
    } else if waitingHead >= 32 && waitingHead * 2 >= waiting.count {
      waiting.removeFirst(waitingHead)
      waitingHead = 0
    }
    return oldest
  }

  // MARK: Ending

  /// The outer sequence (`id == nil`), the transform, or inner `id` failed: the result fails and everything
  /// stops. A failure of a replaced inner (typically its cancellation) is ignored.
  @inlinable mutating func fail(_ error: Failure, from id: Int?) -> Effects {
    switch state {
    case .running:
      if let id, !isRunning(id) { return Effects() }
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
    var effects = stopInners()
    if let outerTask { effects.cancel.append(outerTask) }
    if let outerParked { effects.resume.append((outerParked, false)) }
    end()
    return effects
  }

  /// Stops every running inner sequence (a switch to the latest one, or the end): their workers are cancelled
  /// and their parked pumps told to stop.
  @inlinable mutating func stopInners() -> Effects {
    var effects = Effects()
    for case .worker(_, let task?) in inners.values { effects.cancel.append(task) }
    for parked in parkedInners.values { effects.resume.append((parked, false)) }
    inners.removeAll(keepingCapacity: true)
    inPlace = nil
    relocated.removeAll(keepingCapacity: true)
    parkedInners.removeAll(keepingCapacity: true)
    return effects
  }

  @inlinable mutating func end() {
    state = .finished
    outerTask = nil
    outerParked = nil
    inners = [:]
    inPlace = nil
    relocated = [:]
    parkedInners = [:]
    waiting = []
    waitingHead = 0
  }
}
