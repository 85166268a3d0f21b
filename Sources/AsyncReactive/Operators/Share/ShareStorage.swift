/// The share point behind every copy of one ``AsyncShareSequence``: the lock around its state machine, the upstream
/// and the task that pumps the current run of it.
///
/// The pump hands each element to every consumer's ``ConsumerQueue`` with one lock; each consumer drains its queue
/// in batches through a ``ConsumerCursor``. Continuations are resumed and tasks cancelled after the lock is released.
@usableFromInline final class ShareStorage<Base: AsyncSequence & Sendable>: ConsumerQueueHost
where Base.Element: Sendable {
  @usableFromInline typealias Element = Base.Element
  @usableFromInline typealias Failure = Base.Failure
  @usableFromInline typealias StateMachine = ShareStateMachine<Element, Failure>

  @usableFromInline let base: Base
  @usableFromInline let state: Locked<StateMachine>

  @inlinable init(base: Base, replay: Int) {
    self.base = base
    self.state = Locked(StateMachine(replay: replay, bufferLimit: ShareTuning.bufferLimit))
  }

  @inlinable var consumerCount: Int { state.withLock { $0.consumerCount } }

  // MARK: Consumers

  /// Registers a consumer now; the first one since the last run ended subscribes to the upstream (on the caller's
  /// thread, so that a hot upstream's values sent from now on are kept for the run).
  @inlinable func register() -> Int {
    let (id, newRun) = state.withLock { $0.register() }
    if let newRun { startRun(newRun) }
    return id
  }

  /// Consumer `id` asked for its first value: the run starts pulling from the upstream.
  @inlinable func connect(_ id: Int) {
    state.withLock { $0.connect(id) }?.resume(returning: true)
  }

  @inlinable func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R {
    let (result, pump) = state.withLock { $0.withQueue(id, body) }
    pump?.resume(returning: true)
    return result
  }

  @inlinable func removeConsumer(_ id: Int) {
    state.withLock { $0.removeConsumer(id) }.perform()
  }

  // MARK: Pump

  @inlinable func startRun(_ run: Int) {
    let iterator = base.makeAsyncIterator()
    let task = Task(named: "share upstream") { [self] in
      var iterator = iterator
      await pump(&iterator, run: run)
    }
    if !state.withLock({ $0.runCreated(run, task: task) }) { task.cancel() }
  }

  @inlinable func pump(_ iterator: inout Base.AsyncIterator, run: Int) async {
    guard await waitForPermission(run: run) else { return }
    do throws(Failure) {
      while let element = try await iterator.next(isolation: nil) {
        let delivery = state.withLock { $0.send(element, run: run) }
        delivery.first?.resume(returning: .element(element))
        for waiter in delivery.others { waiter.resume(returning: .element(element)) }
        switch delivery.verdict {
        case .proceed:
          continue
        case .wait:
          if await waitForPermission(run: run) { continue }
          await stop(&iterator)
          return
        case .stop:
          await stop(&iterator)
          return
        }
      }
      end(.finished, run: run)
    } catch {
      end(.failed(error), run: run)
    }
  }

  /// Ends a run whose consumers left while the pump was between elements. Dropping the iterator stops most
  /// sequences, but an `AsyncStream` that is still referenced (this storage holds it as `base`) learns that its
  /// consumer left only when a pending `next()` is cancelled: so make sure this task is cancelled (the storage
  /// cancels it too, but maybe not yet) and ask once more. Not done before the first pull, which would start the
  /// upstream's work only to cancel it.
  @inlinable func stop(_ iterator: inout Base.AsyncIterator) async {
    withUnsafeCurrentTask { $0?.cancel() }
    _ = try? await iterator.next(isolation: nil)
  }

  /// Waits until the run has started and no consumer's buffer is full; `false` means stop.
  @inlinable func waitForPermission(run: Int) async -> Bool {
    // No cancellation handler: the only one that cancels the pump is this storage, and it resumes the parked pump
    // whenever it does.
    await withUnsafeContinuation { (pump: StateMachine.Pump) in
      if let goOn = state.withLock({ $0.waitForPermission(pump, run: run) }) { pump.resume(returning: goOn) }
    }
  }

  @inlinable func end(_ termination: Termination<Failure>, run: Int) {
    let waiters = state.withLock { $0.end(termination, run: run) }
    for waiter in waiters { waiter.resume(returning: .recheck) }
  }
}

@usableFromInline enum ShareTuning {
  /// How many elements may wait for one consumer before the pump pauses: enough to let a fast upstream run ahead
  /// in batches, few enough that a slow consumer cannot fill memory.
  @usableFromInline static let bufferLimit = 256
}
