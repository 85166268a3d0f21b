import Synchronization

/// The shared machinery of every subject: the consumers' queues, the replay buffer and the terminal event,
/// all behind one lock so that a send reaches every consumer in the same order with one lock acquisition.
@usableFromInline package final class SubjectStorage<Element: Sendable, Failure: Error>: ConsumerQueueHost {
  @usableFromInline package typealias Waiter = ConsumerQueue<Element, Failure>.Waiter

  /// What a new consumer is given before live values.
  @usableFromInline package enum Replay: Sendable {
    /// Nothing (PassthroughSubject).
    case none
    /// The last `n` values, also after the subject terminated (ReplaySubject).
    case latest(Int)
    /// The current value, until the subject terminates (CurrentValueSubject).
    case current
  }

  @usableFromInline struct State: Sendable {
    /// Every consumer's queue, contiguous, so that a send walks an array rather than a hash table. Optional
    /// only so that ``SubjectStorage/withQueue(_:_:)`` can lend an element in place; never `nil` here.
    @usableFromInline var queues: [ConsumerQueue<Element, Failure>?] = []
    /// `ids[i]` is the id of `queues[i]`.
    @usableFromInline var ids: [Int] = []
    /// Where each consumer's queue is in `queues`. Ids are never reused, so a late call with the id of a
    /// removed consumer finds nothing instead of another consumer.
    @usableFromInline var positions: [Int: Int] = [:]
    @usableFromInline var nextID = 0
    @usableFromInline var terminal: Termination<Failure>?
    @usableFromInline var replay: RingBuffer<Element>

    @inlinable init(replay: RingBuffer<Element>) {
      self.replay = replay
    }

    /// Mutates every consumer's queue in place.
    @inlinable mutating func forEachConsumer(_ body: (inout ConsumerQueue<Element, Failure>) -> Void) {
      for index in 0..<queues.count { body(&queues[index]!) }
    }

    @inlinable mutating func add(_ queue: ConsumerQueue<Element, Failure>, id: Int) {
      positions[id] = queues.count
      queues.append(queue)
      ids.append(id)
    }

    /// Takes consumer `id`'s queue out (the last queue moves into its place); `nil` if it is gone already.
    @inlinable mutating func remove(_ id: Int) -> ConsumerQueue<Element, Failure>? {
      guard let position = positions.removeValue(forKey: id) else { return nil }
      let last = queues.count - 1
      if position != last {
        queues.swapAt(position, last)
        ids.swapAt(position, last)
        positions[ids[position]] = position
      }
      ids.removeLast()
      return queues.removeLast()
    }
  }

  @usableFromInline let state: Locked<State>
  @usableFromInline let replay: Replay
  /// Moves on every send and on termination; see ``ConsumerQueueHost/activity``.
  @usableFromInline let events = Atomic<Int>(0)
  /// How many consumers are registered (changed under the lock, read without it): a send to a subject that
  /// keeps no values and has no consumer returns without taking the lock. A command's `values` and
  /// `started` that nobody observes cost a load per run.
  @usableFromInline let registered = Atomic<Int>(0)
  /// Whether a send must be recorded even without consumers (replay or current value).
  @usableFromInline let remembers: Bool

  @inlinable package init(replay: Replay, initial: Element? = nil) {
    let capacity: Int
    switch replay {
    case .none: capacity = 0
    case .latest(let count): capacity = count
    case .current: capacity = 1
    }
    var buffer = RingBuffer<Element>(capacity: capacity)
    if let initial { buffer.append(initial) }
    self.state = Locked(State(replay: buffer))
    self.replay = replay
    self.remembers = capacity > 0
  }

  // MARK: Producer side

  @inlinable package func send(_ element: Element) {
    // Relaxed is enough: a registration that happened before this send (in its task, or through whatever
    // ordered the two) is seen; one racing with it may or may not get the value, as under the lock.
    if !remembers && registered.load(ordering: .relaxed) == 0 { return }
    let (first, others) = state.withLock { state -> (Waiter?, [Waiter]) in
      guard state.terminal == nil else { return (nil, []) }
      events.wrappingAdd(1, ordering: .relaxed)
      state.replay.append(element)
      var first: Waiter?
      var others: [Waiter] = []
      state.forEachConsumer { queue in
        guard let waiter = queue.enqueue(element) else { return }
        if first == nil { first = waiter } else { others.append(waiter) }
      }
      return (first, others)
    }
    first?.resume(returning: .element(element))
    for waiter in others { waiter.resume(returning: .element(element)) }
  }

  @inlinable package func terminate(_ termination: Termination<Failure>) {
    let waiters = state.withLock { state -> [Waiter] in
      guard state.terminal == nil else { return [] }
      events.wrappingAdd(1, ordering: .relaxed)
      state.terminal = termination
      var waiters: [Waiter] = []
      state.forEachConsumer { queue in
        if let waiter = queue.terminate(termination) { waiters.append(waiter) }
      }
      return waiters
    }
    for waiter in waiters { waiter.resume(returning: .recheck) }
  }

  /// The latest value (the current value of a CurrentValueSubject), `nil` when there is none.
  @inlinable package var latest: Element? {
    state.withLock { $0.replay.last }
  }

  @inlinable package var isTerminated: Bool { state.withLock { $0.terminal != nil } }

  // MARK: Consumer side

  /// Registers a consumer now, pre-filled with the replayed values and any terminal event.
  @inlinable package func register(policy: BufferingPolicy) -> Int {
    state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      var queue = ConsumerQueue<Element, Failure>(policy: policy)
      if let terminal = state.terminal {
        // A terminated CurrentValueSubject has no "current" value to give (RxSwift, Combine): only the end.
        if case .latest = replay {
          for element in state.replay.inOrder { _ = queue.enqueue(element) }
        }
        _ = queue.terminate(terminal)
      } else {
        for element in state.replay.inOrder { _ = queue.enqueue(element) }
      }
      state.add(queue, id: id)
      registered.wrappingAdd(1, ordering: .relaxed)
      return id
    }
  }

  @inlinable package func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R {
    state.withLock { state in
      guard let position = state.positions[id] else {
        var removed: ConsumerQueue<Element, Failure>? = nil
        return body(&removed)
      }
      return body(&state.queues[position])
    }
  }

  @inlinable package var activity: Int? { events.load(ordering: .relaxed) }

  @inlinable package func removeConsumer(_ id: Int) {
    let waiter = state.withLock { state -> Waiter? in
      guard var queue = state.remove(id) else { return nil }
      registered.wrappingSubtract(1, ordering: .relaxed)
      return queue.cancel()
    }
    waiter?.resume(returning: .recheck)
  }

  /// How many consumers are registered: tests use it to prove that stopped consumers are removed.
  @inlinable package var consumerCount: Int { state.withLock { $0.queues.count } }
}
