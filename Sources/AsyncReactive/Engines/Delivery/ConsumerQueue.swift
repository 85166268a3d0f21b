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
  @usableFromInline package typealias Taken = ConsumerQueueTaken<Failure>

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

  /// ``take(into:)``, reporting the end when it came before the elements taken.
  @inlinable package mutating func look(into batch: inout [Element]) -> ConsumerTake<Failure> {
    switch take(into: &batch) {
    case .elements(let start): return ConsumerTake(.elements(start: start), endAfterBatch: terminal)
    case .terminal(let termination): return ConsumerTake(.terminal(termination))
    case .empty: return ConsumerTake(.empty)
    }
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
  /// with a burst may suspend while a batch gathers (see ``ConsumerCursor/pauseWhilePacing(isolation:)``).
  static var producersNeverWait: Bool { get }
  /// Whether a new consumer's queue starts empty (nothing replayed or prepended), so that its first look may be
  /// its park.
  var consumersStartEmpty: Bool { get }
  /// Moves consumer `id`'s pending elements into `batch` (see ``ConsumerQueue/take(into:)``) under the host's lock.
  /// A host may remove the consumer in that same critical section once nothing more can come (the take found the
  /// end, or the end was recorded before the elements it took); the consumer then does not call
  /// ``removeConsumer(_:)``. A fan-out's consumer thus takes the host's lock once less.
  @inlinable func take(_ id: Int, into batch: inout [Element]) -> ConsumerTake<Failure>
}

/// What a consumer's look at its queue found (see ``ConsumerQueueHost/take(_:into:)``).
@usableFromInline package struct ConsumerTake<Failure: Error> {
  @usableFromInline package var taken: ConsumerQueueTaken<Failure>
  /// How the queue ended, when it had ended before the elements taken: they are its last.
  @usableFromInline package var endAfterBatch: Termination<Failure>?
  /// Whether the host removed the consumer (or it was gone already).
  @usableFromInline package var removed: Bool

  @inlinable package init(
    _ taken: ConsumerQueueTaken<Failure>, endAfterBatch: Termination<Failure>? = nil, removed: Bool = false
  ) {
    self.taken = taken
    self.endAfterBatch = endAfterBatch
    self.removed = removed
  }

  /// Whether nothing can follow what was taken: the consumer is done with its host.
  @inlinable package var isLast: Bool {
    if case .terminal = taken { return true }
    return endAfterBatch != nil
  }
}

/// What a consumer found when it looked at its queue (``ConsumerQueue/Taken``): the elements now in its batch from
/// `start` on, the end, or nothing.
@usableFromInline package enum ConsumerQueueTaken<Failure: Error> {
  case elements(start: Int)
  case terminal(Termination<Failure>)
  case empty
}

extension ConsumerQueueHost {
  /// No counter: a waiting consumer looks under the lock.
  @inlinable package var activity: Int? { nil }
  /// Not known: a consumer that keeps pace gathers without suspending.
  @inlinable package static var producersNeverWait: Bool { false }
  /// Not known: a new consumer looks before it parks.
  @inlinable package var consumersStartEmpty: Bool { false }

  /// Takes through ``withQueue(_:_:)``; the consumer removes itself afterwards (``removeConsumer(_:)`` also stops
  /// what such a host runs for it, even once its queue is gone).
  @inlinable package func take(_ id: Int, into batch: inout [Element]) -> ConsumerTake<Failure> {
    withQueue(id) { queue in
      guard queue != nil else { return ConsumerTake(.terminal(.finished)) }
      return queue!.look(into: &batch)
    }
  }
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
  /// When the last small batch (fewer than ``ConsumerCursorTuning/gatherBelow`` elements) was taken; `nil`
  /// after a large one, or when the consumer was woken.
  @usableFromInline var lastSmallTake: Int64?
  /// Whether the next take waits until ``ConsumerCursorTuning/gatherWindow`` after `lastSmallTake` first.
  @usableFromInline var gathering = false
  /// Whether this consumer keeps pace with a burst and may suspend while a batch gathers (see
  /// ``pauseWhilePacing(isolation:)``): from its first gather, for as long as its takes find elements.
  @usableFromInline var pacing = false
  /// Whether the consumer's buffer drops nothing and its host's producers never wait for it: only then may it
  /// pace (a bounded buffer would drop what gathers beyond its limit; a waiting producer would wait longer).
  @usableFromInline let mayPace: Bool
  /// The host's activity when this consumer last looked at its queue; `nil` before its first look.
  @usableFromInline var lastLook: Int?
  /// How the queue ended, when the batch being consumed is its last: it ended before that batch was taken, so
  /// nothing can follow, and the end is reported without another look.
  @usableFromInline var endAfterBatch: Termination<Failure>?
  /// Whether the host removed this consumer already (in its last take).
  @usableFromInline var removed = false

  /// A cursor over consumer `id` of `host`; `unbounded` when its buffer drops nothing.
  @inlinable package init(host: Host, id: Int, unbounded: Bool = false) {
    self.host = host
    self.id = id
    self.mayPace = unbounded && Host.producersNeverWait
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
  /// apart, mean this consumer keeps pace with a producer in a burst, one lock per handful of elements.
  @inlinable mutating func noteTaken(_ count: Int) {
    guard count < ConsumerCursorTuning.gatherBelow else {
      lastSmallTake = nil
      gathering = false
      return
    }
    let now = MonotonicTime.now
    if let last = lastSmallTake {
      gathering = now - last < ConsumerCursorTuning.gatherWindow
      if gathering && mayPace { pacing = true }
    }
    lastSmallTake = now
  }

  /// Suspends a pacing consumer for ``ConsumerCursorTuning/pacingPause`` before its next take, so that the
  /// producer runs at its own speed and the next take carries a large batch; see
  /// ``ConsumerCursorTuning/pacingPause`` for what it costs and saves. Not inlined: the pause's own state stays
  /// out of the frame that a parked consumer keeps.
  @inline(never) @usableFromInline mutating func pauseWhilePacing(isolation actor: isolated (any Actor)?) async {
    // Under a test's virtual time a sleeping consumer would look idle to the test's executor while elements wait
    // for it: there it gathers as before, reading the clock (`gatherIfKeepingPace()`, next).
    guard TaskExecutorContext.preferred == nil else {
      pacing = false
      return
    }
    gathering = false  // this pause is the gather
    try? await Task.sleep(for: ConsumerCursorTuning.pacingPause)
  }

  /// Lets a batch gather before the next take, when the consumer keeps pace with a burst (see `noteTaken`).
  ///
  /// A consumer that takes a handful of elements at a time from a producer in the middle of a burst meets it on
  /// the queue's lock and cache lines for every handful: measured on 10^6 sends to one consumer, 12 elements per
  /// take and 60–95 ns per send, where the producer alone sends in 30 ns. Waiting here, away from the shared
  /// lines, until a gather window has passed since the last take lets the producer run at its own speed and
  /// the next take carry 50–100 elements (33–45 ns per send). The wait is bounded (an element waits at most
  /// one gather window longer than it would have) and reads only the clock. It does not yield: on a serial
  /// executor (a test's virtual time) yielding would let other jobs in for as long as real time allows, so the
  /// interleaving of tasks would depend on the machine's speed; spinning only delays this consumer, as
  /// ``spinUntilReady(since:)`` does. A consumer that was woken, or that takes large batches, or whose takes
  /// are far apart (a fan-out's consumers share the executor's threads) never waits here.
  @inlinable mutating func gatherIfKeepingPace() {
    guard gathering, let last = lastSmallTake else { return }
    gathering = false
    let deadline = last + ConsumerCursorTuning.gatherWindow
    while MonotonicTime.now < deadline {}
  }

  /// One look at the queue (``ConsumerQueueHost/take(_:into:)``). Not inlined: what a look holds stays out of the
  /// frame that a parked consumer keeps (see ``pauseWhilePacing(isolation:)``).
  @inline(never) @usableFromInline mutating func look() -> ConsumerQueueTaken<Failure> {
    let look = host.take(id, into: &batch)
    removed = look.removed
    endAfterBatch = look.endAfterBatch
    return look.taken
  }

  @inlinable mutating func refill(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    if let end = endAfterBatch { return try finish(end) }
    if pacing { await pauseWhilePacing(isolation: actor) }
    gatherIfKeepingPace()
    // A fresh consumer of a host whose consumers start with nothing (a subject that keeps no values) parks at once,
    // without looking first: the park looks in the same critical section and fails if something arrived. A fan-out
    // of fresh consumers then takes the host's lock once per consumer instead of twice. (A cancelled one looks
    // first, so that what is already buffered is still delivered, as before.)
    var parkFirst = lastLook == nil && host.consumersStartEmpty && !Task.isCancelled
    while true {
      let stamp = host.activity  // before the look, so that whatever arrives after it moves the counter
      let taken: ConsumerQueueTaken<Failure> = parkFirst ? .empty : look()
      parkFirst = false
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
        // The producer paused for a whole pause: back to looking, then parking.
        pacing = false
        if Task.isCancelled { return try finish(.finished) }
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
          lastSmallTake = nil
          gathering = false
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
  /// Appends what this cursor took from its queue already and has not returned yet, and returns none of it again.
  @inlinable package mutating func takeBuffered(into elements: inout [Element]) {
    guard index < batch.count else { return }
    elements.append(contentsOf: batch[index...])
    index = batch.count
  }

  /// The queue ended: removes this consumer from its host and reports the end.
  @inlinable mutating func finish(_ termination: Termination<Failure>) throws(Failure) -> Element? {
    ended = true
    endAfterBatch = nil
    batch = []
    if !removed { host.removeConsumer(id) }
    if case .failed(let failure) = termination { throw failure }
    return nil
  }
}

@usableFromInline package enum ConsumerCursorTuning {
  /// How many times a consumer looks at an empty queue (under the host's lock) before it parks.
  @inlinable package static var spins: Int { 100 }
  /// How many times a consumer reads its host's activity counter (no lock; about a microsecond in all)
  /// before it parks.
  @inlinable package static var watches: Int { 1_000 }
  /// How many new events make a batch worth taking at once.
  @inlinable package static var batch: Int { 32 }
  /// How many unchanged reads of the counter mean the producer paused.
  @inlinable package static var rest: Int { 16 }
  /// A take of fewer elements than this is small: two in a row, less than ``gatherWindow`` apart, make the
  /// consumer wait for a batch to gather before its next take.
  @inlinable package static var gatherBelow: Int { 128 }
  /// How long after its last small take a consumer that keeps pace with a burst takes again. Measured on
  /// 10^6 sends to one consumer: 2 µs gave 40 ns per send, 3 µs 33 ns, 5 µs 32 ns (60–95 ns without). In
  /// nanoseconds (``MonotonicTime``).
  @inlinable package static var gatherWindow: Int64 { 3_000 }

  /// How long a consumer that keeps pace with a burst of a subject sleeps before each take (Task.sleep: its thread
  /// serves other tasks, and it costs no CPU meanwhile). It paces only while its buffer drops nothing, from its
  /// first gather for as long as its takes find elements; never under a test's virtual time.
  ///
  /// Measured on this project's 2-core Linux machine: a sleep costs 50–60 µs of CPU whatever its length (its
  /// wake-up through the timer), so only a long one pays: 200 µs took the signup form's consumer from 2.5× to
  /// 1.4–1.6× the callback's CPU, where 50 µs gave 1.6–2.0× and 3 µs nothing. The price is latency inside a
  /// burst: an element waits up to ~250 µs longer than it would have (a consumer that was woken, or whose takes
  /// are far apart, does not pace).
  @inlinable package static var pacingPause: Duration { Duration.microseconds(200) }
}
