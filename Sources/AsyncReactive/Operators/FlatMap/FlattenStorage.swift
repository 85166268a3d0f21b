import Synchronization

/// The shared state of one iteration of an ``AsyncFlattenSequence``: the lock around its state machine, the
/// outer pump task and one task per inner sequence.
///
/// Pumps push into the consumer's ``ConsumerQueue`` (one lock per element); the consumer drains it in batches
/// through a ``ConsumerCursor``. Continuations are resumed and tasks cancelled after the lock is released.
@usableFromInline final class FlattenStorage<Element: Sendable, Failure: Error>: ConsumerQueueHost {
  @usableFromInline typealias StateMachine = FlattenStateMachine<Element, Failure>

  @usableFromInline let state: Locked<StateMachine>
  /// Moves whenever the consumer's queue may have changed; see ``ConsumerQueueHost/activity``.
  @usableFromInline let events = Atomic<Int>(0)
  /// One inner at a time (`.concat`): the outer pump iterates each inner itself, which spares a task per inner
  /// and a hand-over between tasks; the outer is not pulled meanwhile anyway.
  @usableFromInline let pumpsInnersInline: Bool

  @inlinable init(strategy: FlattenStrategy) {
    pumpsInnersInline = strategy.kind == .concurrent(limit: 1)
    state = Locked(
      StateMachine(strategy: strategy, bufferLimit: FlattenTuning.bufferLimit, pauseAfter: FlattenTuning.pauseAfter)
    )
  }

  // MARK: Pumps

  /// Starts the outer pump on `outer`, an iterator made by the consumer's `makeAsyncIterator()` (so that a
  /// subject outer is subscribed from that moment).
  ///
  /// Generic over the outer *sequence*, not its iterator: the pump calls the iterator's `next` in a task of its
  /// own, which needs a conformance that cannot be isolated to an actor (SE-0470). `Outer: SendableMetatype`
  /// guarantees that for every conformance reached through `Outer`, `Outer.AsyncIterator: AsyncIteratorProtocol`
  /// included, so callers need no `AsyncIterator: SendableMetatype` (which an opaque sequence cannot satisfy).
  @inlinable func start<Outer: AsyncSequence & SendableMetatype, Inner: AsyncSequence & Sendable>(
    outer: sending Outer.AsyncIterator,
    of _: Outer.Type,
    transform: @escaping @Sendable (Outer.Element) async throws(Failure) -> Inner,
    outerFailure: @escaping @Sendable (Outer.Failure) -> Failure,
    innerFailure: @escaping @Sendable (Inner.Failure) -> Failure
  ) where Inner.Element == Element {
    let task = Task {
      var outer = outer
      var nextID = 0
      while await waitForSlot() {
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
        let inner: Inner
        do throws(Failure) {
          inner = try await transform(value)
        } catch {
          fail(error, from: nil)
          return
        }
        if pumpsInnersInline || isImmediate(inner) {
          // An immediate inner (`Signal.just`, …) ends without suspending: pumping it here spares a task.
          guard let replaced = state.withLock({ $0.innerStarting(id: nextID) }) else { return }
          replaced.perform()
          await pump(inner, id: nextID, innerFailure: innerFailure)
        } else {
          guard startInner(inner, id: nextID, innerFailure: innerFailure) else { return }
        }
        nextID += 1
      }
    }
    if !state.withLock({ $0.outerStarted(task: task) }) { task.cancel() }
  }

  /// Whether `inner` is a ``Signal`` whose runs never suspend, so the outer pump can iterate it in place.
  @inlinable func isImmediate<Inner: AsyncSequence>(_ inner: Inner) -> Bool {
    (inner as? Signal<Element, Inner.Failure>)?.isImmediate ?? false
  }

  /// Starts the task that pumps `inner`; returns `false` if the operator ended meanwhile.
  @inlinable func startInner<Inner: AsyncSequence & Sendable>(
    _ inner: Inner,
    id: Int,
    innerFailure: @escaping @Sendable (Inner.Failure) -> Failure
  ) -> Bool where Inner.Element == Element {
    guard let replaced = state.withLock({ $0.innerStarting(id: id) }) else { return false }
    // Under `.latest`, the replaced inner is cancelled before the new one starts.
    replaced.perform()
    let task = Task { await pump(inner, id: id, innerFailure: innerFailure) }
    if !state.withLock({ $0.innerStarted(id: id, task: task) }) { task.cancel() }
    return true
  }

  /// Iterates inner `id` to its end, handing its elements to the consumer.
  @inlinable func pump<Inner: AsyncSequence & Sendable>(
    _ inner: Inner,
    id: Int,
    innerFailure: @escaping @Sendable (Inner.Failure) -> Failure
  ) async where Inner.Element == Element {
    var iterator = inner.makeAsyncIterator()
    var streak = 0
    do throws(Inner.Failure) {
      while let element = try await iterator.next(isolation: nil) {
        streak += 1
        switch await push(element, from: id, streak: streak) {
        case .proceed: continue
        case .paused: streak = 0
        case .stop: return
        }
      }
      finishInner(id: id)
    } catch {
      fail(innerFailure(error), from: id)
    }
  }

  /// Waits, if the strategy says so, until the outer pump may pull again; `false` means stop.
  @inlinable func waitForSlot() async -> Bool {
    switch state.withLock({ $0.slotAction() }) {
    case .proceed: return true
    case .stop: return false
    case .wait: break
    }
    // No cancellation handler: the only one that cancels this task is this storage, and it resumes the
    // parked pump whenever it does.
    return await withUnsafeContinuation { (pump: StateMachine.Pump) in
      if let goOn = state.withLock({ $0.waitForSlot(pump) }) { pump.resume(returning: goOn) }
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
      // As in `waitForSlot`, whoever cancels this task also resumes the parked pump.
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

  @inlinable func finishInner(id: Int) {
    state.withLock { machine in
      defer { events.wrappingAdd(1, ordering: .relaxed) }
      return machine.innerFinished(id: id)
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
