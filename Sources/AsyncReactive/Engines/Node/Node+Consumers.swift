import Synchronization

// The consumers that iterate a node (`for await`, `subscribe`): each has a queue, or reads the shared log, and
// looks at it through `ConsumerCursor`.

extension Node {
  /// Registers a consumer now, pre-filled with the prefix, the replayed values and any terminal event.
  @inlinable package func register(policy: BufferingPolicy) -> Int {
    var released: String?
    defer {
      if let released { reportRegistration(afterReleaseOf: released) }
      if connector != nil { reconcileInputs(registering: true) }
    }
    return state.withLock { state in
      if restarts { state.restartIfEnded() }
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
      let id = state.addConsumer(queue)
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
