import Synchronization

/// The queue between one run of a cold ``Signal`` and the one consumer that iterates it: what a producer (a body,
/// a callback, a graph's last node) sends waits here until the consumer takes it.
///
/// It is also the run's pacer: a body's `await emitter.send(_:)` waits while ``ColdPacing/limit`` values wait
/// for the consumer, so a fast cold producer feeding a slow consumer holds a bounded number of them.
@usableFromInline package final class SignalChannel<Element: Sendable, Failure: Error>: ConsumerQueueHost, ColdPacer {
  @usableFromInline package typealias Waiter = ConsumerQueue<Element, Failure>.Waiter

  @usableFromInline struct State: Sendable {
    /// `nil` once the consumer stopped.
    @usableFromInline var queue: ConsumerQueue<Element, Failure>? = ConsumerQueue(policy: .unbounded)
    /// What stops the producer (cancel its task, or the callback API's cancellation handler); runs once.
    @usableFromInline var stop: (@Sendable () -> Void)?
    /// Set when the run ended (either side), so that a stop handler installed late runs at once.
    @usableFromInline var ended = false
    /// How many values the consumer has not taken yet.
    @usableFromInline var waiting = 0
    /// Producers waiting for the consumer to catch up.
    @usableFromInline var producers: [UnsafeContinuation<Void, Never>] = []

    @inlinable init() {}

    /// Hands out the producers that waited for room.
    @inlinable mutating func releaseProducers() -> [UnsafeContinuation<Void, Never>] {
      guard !producers.isEmpty else { return [] }
      defer { producers = [] }
      return producers
    }

    /// Marks the run ended and hands out the stop handler, at most once.
    @inlinable mutating func end() -> (@Sendable () -> Void)? {
      ended = true
      defer { stop = nil }
      return stop
    }
  }

  @usableFromInline let state = Locked(State())
  /// Whether ``ColdPacing/limit`` values wait for the consumer: read without the lock by every paced send.
  @usableFromInline let full = Atomic<Bool>(false)

  @inlinable package init() {}

  @inlinable package func send(_ element: Element) {
    let waiter = state.withLock { state -> Waiter? in
      guard state.queue != nil else { return nil }
      if let waiter = state.queue!.enqueue(element) { return waiter }
      // Handed to a parked consumer, a value does not wait; queued, it does.
      state.waiting += 1
      if state.waiting == ColdPacing.limit { full.store(true, ordering: .relaxed) }
      return nil
    }
    waiter?.resume(returning: .element(element))
  }

  @inlinable package func terminate(_ termination: Termination<Failure>) {
    let (waiter, stop, producers) = state.withLock {
      state -> (Waiter?, (@Sendable () -> Void)?, [UnsafeContinuation<Void, Never>]) in
      let waiter = state.queue?.terminate(termination)
      return (waiter, state.end(), state.releaseProducers())
    }
    waiter?.resume(returning: .recheck)
    for producer in producers { producer.resume() }
    stop?()
  }

  /// Whether the consumer still listens and the run has not ended.
  @inlinable package var isActive: Bool { state.withLock { !$0.ended } }

  /// Installs what stops the producer; runs it at once if the run already ended.
  @inlinable package func onStop(_ stop: @escaping @Sendable () -> Void) {
    let runNow = state.withLock { state -> Bool in
      guard !state.ended else { return true }
      state.stop = stop
      return false
    }
    if runNow { stop() }
  }

  @inlinable package var isFull: Bool { full.load(ordering: .relaxed) }

  @inlinable package func waitForRoom() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let parked = state.withLock { state -> Bool in
        guard state.waiting >= ColdPacing.limit, !state.ended else { return false }
        state.producers.append(continuation)
        return true
      }
      if !parked { continuation.resume() }
    }
  }

  @inlinable package func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R {
    state.withLock { body(&$0.queue) }
  }

  @inlinable package func take(_ id: Int, into batch: inout [Element]) -> ConsumerTake<Failure> {
    let (look, producers) = state.withLock { state -> (ConsumerTake<Failure>, [UnsafeContinuation<Void, Never>]) in
      guard state.queue != nil else { return (ConsumerTake(.terminal(.finished)), []) }
      let look = state.queue!.look(into: &batch)
      guard case .elements = look.taken else { return (look, []) }
      // The consumer takes everything that waits.
      state.waiting = 0
      full.store(false, ordering: .relaxed)
      return (look, state.releaseProducers())
    }
    for producer in producers { producer.resume() }
    return look
  }

  @inlinable package func removeConsumer(_ id: Int) {
    let (waiter, stop, producers) = state.withLock {
      state -> (Waiter?, (@Sendable () -> Void)?, [UnsafeContinuation<Void, Never>]) in
      let waiter = state.queue?.cancel()
      state.queue = nil
      return (waiter, state.end(), state.releaseProducers())
    }
    waiter?.resume(returning: .recheck)
    for producer in producers { producer.resume() }
    stop?()
  }
}

/// What a cold producer's `await send` waits for: the consumer that started its run has room again.
@usableFromInline package protocol ColdPacer: AnyObject, Sendable {
  /// Whether the consumer is ``ColdPacing/limit`` values behind (a relaxed read: no lock).
  var isFull: Bool { get }
  /// Returns once the consumer has taken what waits (at once if it has, or if the run ended).
  func waitForRoom() async
}

/// How far a cold producer may run ahead of its consumer.
@usableFromInline package enum ColdPacing {
  /// The most values waiting for a consumer before a producer's `await emitter.send(_:)` waits: a batch that the
  /// consumer takes at once (a take of this many is never "small", see ``ConsumerCursorTuning/gatherBelow``).
  @inlinable package static var limit: Int { 128 }
}

/// What a look that never waits found.
@usableFromInline package enum ConsumerPoll<Element> {
  case element(Element)
  /// Nothing yet.
  case empty
  /// The queue ended normally (a failure is thrown).
  case ended
}

extension ConsumerCursor {
  /// The next element if one is already here, or the end (a failure is thrown), or `.empty`; never suspends. A
  /// consumer that drives its own source looks with this before it pulls.
  @inlinable mutating func poll() throws(Failure) -> ConsumerPoll<Element> {
    if index < batch.count {
      defer { index += 1 }
      return .element(batch[index])
    }
    if ended { return .ended }
    if let end = endAfterBatch {
      _ = try finish(end)
      return .ended
    }
    switch look() {
    case .elements(let start):
      index = start + 1
      return .element(batch[start])
    case .terminal(let termination):
      _ = try finish(termination)
      return .ended
    case .empty:
      return .empty
    }
  }
}
