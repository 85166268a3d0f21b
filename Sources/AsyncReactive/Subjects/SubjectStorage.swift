import Synchronization

/// The shared machinery of every subject: the consumers' queues, the replay buffer and the terminal event,
/// all behind one lock so that a send reaches every consumer in the same order with one lock acquisition.
package final class SubjectStorage<Element: Sendable, Failure: Error>: ConsumerQueueHost {
  package typealias Waiter = ConsumerQueue<Element, Failure>.Waiter

  /// What a new consumer is given before live values.
  package enum Replay: Sendable {
    /// Nothing (PassthroughSubject).
    case none
    /// The last `n` values, also after the subject terminated (ReplaySubject).
    case latest(Int)
    /// The current value, until the subject terminates (CurrentValueSubject).
    case current
  }

  private struct State: Sendable {
    var consumers: [Int: ConsumerQueue<Element, Failure>] = [:]
    var nextID = 0
    var terminal: Termination<Failure>?
    var replay: RingBuffer<Element>
  }

  private let state: Mutex<State>
  private let replay: Replay

  package init(replay: Replay, initial: Element? = nil) {
    let capacity: Int
    switch replay {
    case .none: capacity = 0
    case .latest(let count): capacity = count
    case .current: capacity = 1
    }
    var buffer = RingBuffer<Element>(capacity: capacity)
    if let initial { buffer.append(initial) }
    self.state = Mutex(State(replay: buffer))
    self.replay = replay
  }

  // MARK: Producer side

  package func send(_ element: Element) {
    let (first, others) = state.withLock { state -> (Waiter?, [Waiter]) in
      guard state.terminal == nil else { return (nil, []) }
      state.replay.append(element)
      var first: Waiter?
      var others: [Waiter] = []
      for index in state.consumers.values.indices {
        guard let waiter = state.consumers.values[index].enqueue(element) else { continue }
        if first == nil { first = waiter } else { others.append(waiter) }
      }
      return (first, others)
    }
    first?.resume(returning: .element(element))
    for waiter in others { waiter.resume(returning: .element(element)) }
  }

  package func terminate(_ termination: Termination<Failure>) {
    let waiters = state.withLock { state -> [Waiter] in
      guard state.terminal == nil else { return [] }
      state.terminal = termination
      var waiters: [Waiter] = []
      for index in state.consumers.values.indices {
        if let waiter = state.consumers.values[index].terminate(termination) { waiters.append(waiter) }
      }
      return waiters
    }
    for waiter in waiters { waiter.resume(returning: .recheck) }
  }

  /// The latest value (the current value of a CurrentValueSubject), `nil` when there is none.
  package var latest: Element? {
    state.withLock { $0.replay.last }
  }

  package var isTerminated: Bool { state.withLock { $0.terminal != nil } }

  // MARK: Consumer side

  /// Registers a consumer now, pre-filled with the replayed values and any terminal event.
  package func register(policy: BufferingPolicy) -> Int {
    state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      var queue = ConsumerQueue<Element, Failure>(policy: policy)
      if let terminal = state.terminal {
        // A terminated CurrentValueSubject has no "current" value to give (RxSwift, Combine): only the end.
        if case .latest = replay { state.replay.forEach { _ = queue.enqueue($0) } }
        _ = queue.terminate(terminal)
      } else {
        state.replay.forEach { _ = queue.enqueue($0) }
      }
      state.consumers[id] = queue
      return id
    }
  }

  package func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R {
    state.withLock { body(&$0.consumers[id]) }
  }

  package func removeConsumer(_ id: Int) {
    let waiter = state.withLock { state -> Waiter? in
      guard var queue = state.consumers.removeValue(forKey: id) else { return nil }
      return queue.cancel()
    }
    waiter?.resume(returning: .recheck)
  }

  /// How many consumers are registered: tests use it to prove that stopped consumers are removed.
  package var consumerCount: Int { state.withLock { $0.consumers.count } }
}
