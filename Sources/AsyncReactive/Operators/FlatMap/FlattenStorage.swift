import Synchronization

/// The shared state of one iteration of an ``AsyncFlattenSequence``: the lock around its state machine, the
/// outer pump task and the worker tasks that run the inner sequences.
///
/// The outer pump reads the outer sequence, calls the transform as each element arrives and hands the inner
/// sequence to the state machine, which starts it or queues it. Pumps push into the consumer's
/// ``ConsumerQueue`` (one lock per element); the consumer drains it in batches through a ``ConsumerCursor``.
/// Continuations are resumed and tasks cancelled after the lock is released.
@usableFromInline final class FlattenStorage<Inner: AsyncSequence & Sendable, Failure: Error>: ConsumerQueueHost
where Inner.Element: Sendable {
  @usableFromInline typealias Element = Inner.Element
  @usableFromInline typealias StateMachine = FlattenStateMachine<Element, Failure, Inner>

  @usableFromInline let state: Locked<StateMachine>
  /// Moves whenever the consumer's queue may have changed; see ``ConsumerQueueHost/activity``.
  @usableFromInline let events = Atomic<Int>(0)
  @usableFromInline let innerFailure: @Sendable (Inner.Failure) -> Failure
  /// ``FlattenBuffering/suspendingOuter(after:)``: the outer pump asks before each read whether it may.
  @usableFromInline let suspendsOuter: Bool
  /// ``FlattenStrategy/first``: the outer pump asks before each transform whether an inner runs.
  @usableFromInline let ignoresWhileBusy: Bool

  @inlinable init(
    strategy: FlattenStrategy,
    buffering: FlattenBuffering,
    innerFailure: @escaping @Sendable (Inner.Failure) -> Failure
  ) {
    let machine = StateMachine(
      strategy: strategy, buffering: buffering,
      bufferLimit: FlattenTuning.bufferLimit, pauseAfter: FlattenTuning.pauseAfter)
    // Only a limited strategy ever queues inners (`.merge` and `.latest` start each at once, `.first` drops).
    if case .suspending = buffering.kind, machine.limit != .max, !machine.ignoresWhileBusy {
      suspendsOuter = true
    } else {
      suspendsOuter = false
    }
    ignoresWhileBusy = machine.ignoresWhileBusy
    state = Locked(machine)
    self.innerFailure = innerFailure
  }

  // MARK: Pumps

  /// Starts the outer pump on `outer`, an iterator made by the consumer's `makeAsyncIterator()` (so that a
  /// subject outer is subscribed from that moment).
  ///
  /// Generic over the outer *sequence*, not its iterator: the pump calls the iterator's `next` in a task of its
  /// own, which needs a conformance that cannot be isolated to an actor (SE-0470). `Outer: SendableMetatype`
  /// guarantees that for every conformance reached through `Outer`, `Outer.AsyncIterator: AsyncIteratorProtocol`
  /// included, so callers need no `AsyncIterator: SendableMetatype` (which an opaque sequence cannot satisfy).
  @inlinable func start<Outer: AsyncSequence & SendableMetatype>(
    outer: sending Outer.AsyncIterator,
    of _: Outer.Type,
    transform: @escaping @Sendable (Outer.Element) async throws(Failure) -> Inner,
    outerFailure: @escaping @Sendable (Outer.Failure) -> Failure
  ) {
    let task = Task(named: "flatMap outer") { [self] in
      var outer = outer
      var nextID = 0
      while true {
        if suspendsOuter, await !waitToRead() { return }
        let value: Outer.Element?
        do throws(Outer.Failure) {
          value = try await outer.next(isolation: nil)
        } catch {
          fail(outerFailure(error), from: nil)
          return
        }
        guard let value else {
          outerFinished()
          return
        }
        if ignoresWhileBusy {
          switch state.withLock({ $0.arrivalAction() }) {
          case .transform: break
          case .ignore: continue
          case .stop: return
          }
        }
        // The transform runs as the element arrives (RxSwift calls its selector then), even if the inner
        // sequence has to wait for a slot: a throwing transform fails the result at once.
        let inner: Inner
        do throws(Failure) {
          inner = try await transform(value)
        } catch {
          fail(error, from: nil)
          return
        }
        let id = nextID
        nextID += 1
        let immediate = immediateOutcome(inner)
        switch state.withLock({ $0.innerArrived(inner, id: id, immediate: immediate != nil) }) {
        case .startInPlace(let replaced):
          // Under `.latest`, the replaced inner is cancelled before the new one starts. An immediate inner
          // (`Signal.just`, …) ends without suspending: delivering it here spares a task, an iterator and
          // its run.
          replaced.perform()
          let finished: Bool
          if let immediate {
            finished = await deliver(immediate, id: id)
          } else {
            finished = await pump(inner, id: id)
          }
          if finished { finishInPlace(id: id) }
        case .startWorker(let replaced):
          replaced.perform()
          startWorker(inner, id: id)
        case .queued, .dropped:
          continue
        case .stop:
          return
        }
      }
    }
    if !state.withLock({ $0.outerStarted(task: task) }) { task.cancel() }
  }

  /// What `inner` does at once if it is a ``Signal`` whose runs never suspend, so the outer pump can deliver
  /// it in place; `nil` for any other inner.
  @inlinable func immediateOutcome(_ inner: Inner) -> ImmediateOutcome<Element, Inner.Failure>? {
    (inner as? Signal<Element, Inner.Failure>)?.immediate
  }

  /// Delivers an immediate inner's outcome as inner `id`, as ``pump(_:id:)`` would iterate it; `false` means
  /// stop (the result ended or the inner failed).
  @inlinable func deliver(_ outcome: ImmediateOutcome<Element, Inner.Failure>, id: Int) async -> Bool {
    switch outcome {
    case .value(let element):
      if case .stop = await push(element, from: id, streak: 1) { return false }
      return true
    case .finished:
      return true
    case .failed(let error):
      fail(innerFailure(error), from: id)
      return false
    }
  }

  /// Starts worker `id` on inner `id`; it goes on with the inners that wait for a slot.
  @inlinable func startWorker(_ inner: Inner, id: Int) {
    let task = Task(named: "flatMap inner") { [self] in await work(on: inner, id: id) }
    if !state.withLock({ $0.workerStarted(id, task: task) }) { task.cancel() }
  }

  /// A worker's loop: pumps its inner sequence, then each waiting one the state machine hands it.
  @inlinable func work(on first: Inner, id: Int) async {
    var current = (id: id, inner: first)
    while await pump(current.inner, id: current.id) {
      let (effects, next) = state.withLock { machine in
        defer { events.wrappingAdd(1, ordering: .relaxed) }
        return machine.innerFinished(id: current.id)
      }
      effects.perform()
      guard let next else { return }
      current = next
    }
  }

  /// Iterates inner `id` to its end, handing its elements to the consumer. Returns `true` if it finished
  /// normally (the caller reports that), `false` if it failed or was told to stop.
  @inlinable func pump(_ inner: Inner, id: Int) async -> Bool {
    var iterator = inner.makeAsyncIterator()
    var streak = 0
    do throws(Inner.Failure) {
      while let element = try await iterator.next(isolation: nil) {
        streak += 1
        switch await push(element, from: id, streak: streak) {
        case .proceed: continue
        case .paused: streak = 0
        case .stop: return false
        }
      }
      return true
    } catch {
      fail(innerFailure(error), from: id)
      return false
    }
  }

  /// An inner pumped in place finished; nothing can wait behind it (see ``FlattenStateMachine/innerFinished(id:)``).
  @inlinable func finishInPlace(id: Int) {
    state.withLock { machine in
      defer { events.wrappingAdd(1, ordering: .relaxed) }
      return machine.innerFinished(id: id).effects
    }
    .perform()
  }

  /// Waits, under ``FlattenBuffering/suspendingOuter(after:)``, until the outer pump may read; `false` means stop.
  @inlinable func waitToRead() async -> Bool {
    switch state.withLock({ $0.readAction() }) {
    case .proceed: return true
    case .stop: return false
    case .wait: break
    }
    // No cancellation handler: the only one that cancels this task is this storage, and it resumes the
    // parked pump whenever it does.
    return await withUnsafeContinuation { (pump: StateMachine.Pump) in
      if let goOn = state.withLock({ $0.waitToRead(pump) }) { pump.resume(returning: goOn) }
    }
  }

  @usableFromInline enum PushOutcome {
    case proceed
    /// The pump waited for the consumer to drain the buffer.
    case paused
    case stop
  }

  /// Hands `element` to the consumer, waiting first if the buffer is full and inner `id` has pushed `streak`
  /// elements since it last waited.
  @inlinable func push(_ element: Element, from id: Int, streak: Int) async -> PushOutcome {
    let action = state.withLock { machine in
      defer { events.wrappingAdd(1, ordering: .relaxed) }
      return machine.push(element, from: id, streak: streak)
    }
    switch action {
    case .proceed(let consumer):
      consumer?.resume(returning: .element(element))
      return .proceed
    case .stop:
      return .stop
    case .wait:
      // As in `waitToRead`, whoever cancels this task also resumes the parked pump.
      let goOn = await withUnsafeContinuation { (pump: StateMachine.Pump) in
        if let goOn = state.withLock({ $0.waitForDrain(pump, id: id) }) { pump.resume(returning: goOn) }
      }
      return goOn ? .paused : .stop
    }
  }

  @inlinable func outerFinished() {
    state.withLock { machine in
      defer { events.wrappingAdd(1, ordering: .relaxed) }
      return machine.outerFinished()
    }
    .perform()
  }

  @inlinable func fail(_ error: Failure, from id: Int?) {
    state.withLock { machine in
      defer { events.wrappingAdd(1, ordering: .relaxed) }
      return machine.fail(error, from: id)
    }
    .perform()
  }

  // MARK: ConsumerQueueHost

  @inlinable func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R {
    var effects = StateMachine.Effects()
    let result = state.withLock { machine in
      defer { effects = machine.consumerLooked() }
      return body(&machine.queue)
    }
    effects.perform()
    return result
  }

  @inlinable var activity: Int? { events.load(ordering: .relaxed) }

  @inlinable func removeConsumer(_ id: Int) {
    state.withLock { $0.consumerStopped() }.perform()
  }
}

@usableFromInline enum FlattenTuning {
  /// How many elements may wait for a slow consumer before the inner pumps pause: enough to let a fast inner
  /// run ahead in batches, few enough that a fast inner cannot fill memory.
  @usableFromInline static let bufferLimit = 256
  /// How many elements an inner pump pushes before a full buffer makes it pause. Short inner sequences (a
  /// request's one answer) then never pause: pausing costs a suspension, and they end right away anyway.
  @usableFromInline static let pauseAfter = 16
}
