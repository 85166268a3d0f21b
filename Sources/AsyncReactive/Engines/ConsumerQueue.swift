/// How a stream that ended, ended.
@usableFromInline package enum Termination<Failure: Error>: Sendable {
  case finished
  case failed(Failure)
}

/// One consumer's pending elements, its parked continuation and its terminal event.
///
/// A pure value: its owner keeps it behind a lock, calls one mutating method per event and acts on the
/// returned continuation (if any) after releasing the lock. The consumer drains the whole buffer in one
/// swap, so a fast producer costs the consumer one lock per batch, not per element.
@usableFromInline package struct ConsumerQueue<Element: Sendable, Failure: Error>: Sendable {
  /// What wakes a parked consumer.
  @usableFromInline package enum Wake {
    /// The buffer was empty, so the element is handed over directly.
    case element(Element)
    /// Something changed between the consumer's check and its parking: look again.
    case recheck
  }

  @usableFromInline package typealias Waiter = UnsafeContinuation<Wake, Never>

  /// What the consumer found when it looked.
  @usableFromInline package enum Taken {
    case elements(start: Int)
    case terminal(Termination<Failure>)
    case empty
  }

  @usableFromInline var pending: [Element] = []
  /// Index of the first live element in `pending`; `bufferingNewest` drops from the front by moving it.
  @usableFromInline var head = 0
  @usableFromInline var waiter: Waiter?
  @usableFromInline var terminal: Termination<Failure>?
  @usableFromInline let policy: BufferingPolicy

  @inlinable package init(policy: BufferingPolicy) {
    self.policy = policy
  }

  @inlinable package var isTerminated: Bool { terminal != nil }

  /// Whether `take` would return something.
  @inlinable package var isReady: Bool { pending.count > head || terminal != nil }

  /// Adds `element` (or hands it to the parked consumer). Returns the continuation to resume with it.
  @inlinable package mutating func enqueue(_ element: Element) -> Waiter? {
    guard terminal == nil else { return nil }
    if let waiter {
      self.waiter = nil
      return waiter
    }
    switch policy.storage {
    case .unbounded:
      pending.append(element)
    case .newest(let limit):
      if pending.count - head == limit {
        head += 1
        if head >= 32 && head * 2 >= pending.count {
          pending.removeFirst(head)
          head = 0
        }
      }
      pending.append(element)
    case .oldest(let limit):
      if pending.count - head < limit { pending.append(element) }
    }
    return nil
  }

  /// Whether the consumer is parked, waiting for an element.
  @inlinable package var isParked: Bool { waiter != nil }

  /// Takes the parked consumer's continuation, to hand it an element that its owner recorded elsewhere (a
  /// subject's shared log).
  @inlinable package mutating func takeWaiter() -> Waiter? {
    defer { waiter = nil }
    return waiter
  }

  /// Appends elements that its owner recorded elsewhere (a subject's shared log) for an unbounded queue that is
  /// not parked. Elements sent before the end still come before it, so this ignores `terminal`.
  @inlinable package mutating func append(contentsOf elements: ArraySlice<Element>) {
    pending.append(contentsOf: elements)
  }

  /// Records the terminal event; returns the parked consumer to wake (its buffer is empty).
  @inlinable package mutating func terminate(_ termination: Termination<Failure>) -> Waiter? {
    guard terminal == nil else { return nil }
    terminal = termination
    defer { waiter = nil }
    return waiter
  }

  /// Ends the queue because its consumer stopped: drops what is pending and returns the parked consumer.
  @inlinable package mutating func cancel() -> Waiter? {
    if terminal == nil { terminal = .finished }
    pending = []
    head = 0
    defer { waiter = nil }
    return waiter
  }

  /// Moves every pending element into `batch` (whose old contents must be consumed), or reports the
  /// terminal event once the buffer is empty.
  @inlinable package mutating func take(into batch: inout [Element]) -> Taken {
    if pending.count > head {
      batch.removeAll(keepingCapacity: true)
      swap(&batch, &pending)
      defer { head = 0 }
      return .elements(start: head)
    }
    if let terminal { return .terminal(terminal) }
    return .empty
  }

  /// Parks the consumer unless something arrived since it looked; returns `false` if it must look again.
  @inlinable package mutating func park(_ continuation: Waiter) -> Bool {
    precondition(waiter == nil, "Internal inconsistency: a consumer awaited next() from two tasks at once")
    if pending.count > head || terminal != nil { return false }
    waiter = continuation
    return true
  }
}

/// Where a consumer's queue lives: a subject keeps all of its consumers' queues behind one lock, a
/// signal's channel keeps its only one.
@usableFromInline package protocol ConsumerQueueHost<Element, Failure>: Sendable {
  associatedtype Element: Sendable
  associatedtype Failure: Error
  /// Runs `body` on consumer `id`'s queue under the host's lock; `nil` when that consumer was removed.
  @inlinable func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R
  /// Removes consumer `id` (it stopped early) and wakes it if it is parked.
  @inlinable func removeConsumer(_ id: Int)
  /// A counter that changes whenever any of the host's queues may have become ready (an element or the end
  /// arrived), read without the lock; `nil` when the host keeps none. A consumer about to park watches it
  /// instead of taking the lock again and again, which would slow down the very producer it waits for.
  @inlinable var activity: Int? { get }
  /// Whether the host's producers never wait for its consumers (a subject), so that a consumer that keeps pace
  /// with a burst may suspend while a batch gathers (see ``ConsumerCursorTuning/pause(since:paused:isolation:)``):
  /// a producer held back by a full buffer would wait for it instead.
  static var producersNeverWait: Bool { get }
}

extension ConsumerQueueHost {
  /// No counter: a waiting consumer looks under the lock.
  @inlinable package var activity: Int? { nil }
  /// Not known: a consumer that keeps pace gathers without suspending.
  @inlinable package static var producersNeverWait: Bool { false }
}

/// The consuming side of a ``ConsumerQueue``: a local batch that is refilled with one lock per batch.
@usableFromInline package struct ConsumerCursor<Host: ConsumerQueueHost> {
  @usableFromInline package typealias Element = Host.Element
  @usableFromInline package typealias Failure = Host.Failure

  @usableFromInline let host: Host
  @usableFromInline let id: Int
  @usableFromInline var batch: [Element] = []
  @usableFromInline var index = 0
  @usableFromInline var ended = false
  /// When the last take that counts for pacing happened: a small one (fewer than
  /// ``ConsumerCursorTuning/gatherBelow`` elements) while not pacing, any while pacing; `nil` after a large take
  /// or a wake-up.
  @usableFromInline var lastTake: ContinuousClock.Instant?
  /// Whether this consumer keeps pace with a producer in a burst: it then lets a batch gather before each take
  /// (see ``gatherIfKeepingPace(isolation:)``), until a take finds nothing.
  @usableFromInline var pacing = false
  /// Whether its queue drops nothing (an unbounded buffer), noted at each take: only then may a pacing consumer
  /// suspend while a batch gathers, since a bounded one would drop what gathers beyond its limit.
  @usableFromInline var unbounded = false
  /// The host's activity when this consumer last looked at its queue; `nil` before its first look.
  @usableFromInline var lastLook: Int?
  /// How the queue ended, when the batch being consumed is its last: it ended before that batch was taken, so
  /// nothing can follow, and the end is reported without another look.
  @usableFromInline var endAfterBatch: Termination<Failure>?

  @inlinable package init(host: Host, id: Int) {
    self.host = host
    self.id = id
  }

  @inlinable package mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    if index < batch.count {
      defer { index += 1 }
      return batch[index]
    }
    if ended { return nil }
    return try await refill(isolation: actor)
  }

  /// Looks for a short, bounded while whether something arrived since `stamp` (the host's activity before
  /// the queue was found empty); `true` means look again before parking.
  @inlinable func spinUntilReady(since stamp: Int?) -> Bool {
    if let stamp {
      // Once something arrived, wait a moment for more: a producer in a burst sends again within
      // nanoseconds, and taking one element per lock acquisition makes the two meet on the lock for every
      // element. Go as soon as a batch has gathered or the counter rests for a few reads.
      var seen = stamp
      var resting = 0
      for _ in 0..<ConsumerCursorTuning.watches {
        let now = host.activity ?? stamp
        if now != seen {
          if now &- stamp >= ConsumerCursorTuning.batch { return true }
          seen = now
          resting = 0
        } else if seen != stamp {
          resting += 1
          if resting >= ConsumerCursorTuning.rest { return true }
        }
      }
      return seen != stamp
    }
    for _ in 0..<ConsumerCursorTuning.spins {
      if host.withQueue(id, { $0?.isReady ?? true }) { return true }
    }
    return false
  }

  /// Notes a batch of `count` elements just taken: two small batches in a row, taken less than a gather window
  /// apart, mean this consumer keeps pace with a producer in a burst, one lock per handful of elements. It then
  /// stays pacing for as long as its takes find elements.
  @inlinable mutating func noteTaken(_ count: Int) {
    let now = ContinuousClock.now
    if pacing {
      lastTake = now
    } else if count < ConsumerCursorTuning.gatherBelow {
      if let last = lastTake, now - last < ConsumerCursorTuning.gatherWindow { pacing = true }
      lastTake = now
    } else {
      lastTake = nil
    }
  }

  /// Lets a batch gather before the next take, while the consumer keeps pace with a burst (see `noteTaken`).
  ///
  /// A consumer that takes a handful of elements at a time from a producer in the middle of a burst meets it on
  /// the queue's lock and cache lines for every handful, and is busy all the time doing so: measured on 10^6
  /// sends to one consumer, 12 elements per take and 60–95 ns per send, where the producer alone sends in 30 ns.
  /// Pausing here instead lets the producer run at its own speed and the next take carry a large batch. See
  /// ``ConsumerCursorTuning/pause(since:paused:isolation:)`` for how long the pause lasts and what it costs.
  @inlinable mutating func gatherIfKeepingPace(isolation actor: isolated (any Actor)?) async {
    guard pacing, let last = lastTake else { return }
    await ConsumerCursorTuning.pause(since: last, paused: Host.producersNeverWait && unbounded, isolation: actor)
  }

  @inlinable mutating func refill(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    if let end = endAfterBatch { return try finish(end) }
    await gatherIfKeepingPace(isolation: actor)
    while true {
      let stamp = host.activity  // before the look, so that whatever arrives after it moves the counter
      let taken = host.withQueue(id) { queue -> ConsumerQueue<Element, Failure>.Taken in
        guard queue != nil else { return .terminal(.finished) }
        let taken = queue!.take(into: &batch)
        if case .elements = taken {
          endAfterBatch = queue!.terminal
          unbounded = queue!.policy.isUnbounded
        }
        return taken
      }
      let previousLook = lastLook
      lastLook = stamp
      switch taken {
      case .elements(let start):
        noteTaken(batch.count - start)
        index = start + 1
        return batch[start]
      case .terminal(let termination):
        return try finish(termination)
      case .empty:
        // The producer paused for a whole gather window: back to looking, then parking.
        pacing = false
        if Task.isCancelled {
          ended = true
          host.removeConsumer(id)
          return nil
        }
        // A producer in the middle of a burst sends again within nanoseconds, while parking and being woken
        // costs microseconds (a thread wake-up per element). Look again for a short, bounded while first,
        // unless nothing arrived since this consumer last looked (or it never looked): then the producer is not
        // in a burst, and the spin would only cost (10,000 fresh consumers of one subject each spun ~1 µs).
        if stamp == nil || (previousLook != nil && previousLook != stamp), spinUntilReady(since: stamp) { continue }
        let host = self.host
        let id = self.id
        let wake = await withTaskCancellationHandler {
          await withUnsafeContinuation(isolation: actor) { (continuation: ConsumerQueue<Element, Failure>.Waiter) in
            let parked = host.withQueue(id) { queue in queue?.park(continuation) ?? false }
            if !parked { continuation.resume(returning: .recheck) }
          }
        } onCancel: {
          host.removeConsumer(id)
        }
        if case .element(let element) = wake {
          lastTake = nil
          pacing = false
          batch.removeAll(keepingCapacity: true)
          index = 0
          return element
        }
      }
    }
  }
}

extension ConsumerCursor {
  /// The queue ended: removes this consumer from its host and reports the end.
  @inlinable mutating func finish(_ termination: Termination<Failure>) throws(Failure) -> Element? {
    ended = true
    endAfterBatch = nil
    batch = []
    host.removeConsumer(id)
    if case .failed(let failure) = termination { throw failure }
    return nil
  }
}

@usableFromInline package enum ConsumerCursorTuning {
  /// How many times a consumer looks at an empty queue (under the host's lock) before it parks.
  @usableFromInline package static let spins = 100
  /// How many times a consumer reads its host's activity counter (no lock; about a microsecond in all)
  /// before it parks.
  @usableFromInline package static let watches = 1_000
  /// How many new events make a batch worth taking at once.
  @usableFromInline package static let batch = 32
  /// How many unchanged reads of the counter mean the producer paused.
  @usableFromInline package static let rest = 16
  /// A take of fewer elements than this is small: two in a row, less than ``gatherWindow`` apart, make the
  /// consumer wait for a batch to gather before its next take.
  @usableFromInline package static let gatherBelow = 128
  /// How long after its last small take a consumer that keeps pace with a burst takes again. Measured on
  /// 10^6 sends to one consumer: 2 µs gave 40 ns per send, 3 µs 33 ns, 5 µs 32 ns (60–95 ns without).
  @usableFromInline package static let gatherWindow = Duration.microseconds(3)

  /// How long a pacing consumer lets a batch gather before each take.
  @usableFromInline package static let pacingPause = Duration.microseconds(200)

  /// A pacing consumer's pause before its next take.
  ///
  /// When `paused` (the host's producers never wait for it and its buffer drops nothing), until ``pacingPause``
  /// after its last take, in a sleep on the continuous clock: the consumer's task is suspended, so its thread
  /// serves other tasks and the consumer costs no CPU while the producer runs at its own speed. Measured on this
  /// project's 2-core Linux machine, a sleep costs 50–60 µs of CPU whatever its length (a wake-up through the
  /// timer), so it pays only when long: 200 µs took the signup form's consumer from 2.5× to 1.3–1.6× the
  /// callback's CPU, where 50 µs gave 1.6–2.0× and a 3 µs pause nothing. The price is latency in a burst: an
  /// element waits up to ~250 µs longer than it would have (never outside a burst: a consumer that was woken,
  /// or whose takes are far apart, does not pace). Ended early by the task's cancellation (the consumer then
  /// sees it at its next empty look).
  ///
  /// Otherwise, and under a test's virtual time (a task executor preference in ``TaskExecutorContext``), until
  /// ``gatherWindow`` after its last take, reading only the clock. Under virtual time a sleeping consumer would
  /// look idle to the test's executor while elements wait for it, and yielding would let other jobs in for as
  /// long as real time allows, so the interleaving of tasks would depend on the machine's speed.
  @usableFromInline static func pause(
    since last: ContinuousClock.Instant, paused: Bool, isolation actor: isolated (any Actor)?
  ) async {
    if !paused || TaskExecutorContext.preferred != nil {
      let deadline = last + gatherWindow
      while ContinuousClock.now < deadline {}
      return
    }
    let remaining = last + pacingPause - ContinuousClock.now
    if remaining > .zero { try? await Task.sleep(for: remaining) }
  }
}
