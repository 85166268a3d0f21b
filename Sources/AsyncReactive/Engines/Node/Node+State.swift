// What a node keeps behind its lock: the sinks and their outbox, the replayed values, the end, the link to its inputs,
// and, once a consumer iterates it, the consumers' queues, the shared log its unbounded consumers read, and where each
// consumer is (`ConsumerSlots`).

extension Node {
  @usableFromInline struct State {
    /// What a node with iterating consumers keeps for them (their queues, the shared log, where each is), made when
    /// the first one registers: a node that only sinks observe (a hot graph's nodes) pays a pointer for it. Kept once
    /// made, so that a consumer id is never given twice (see ``ConsumerSlots``), and released by the node's `deinit`.
    /// Unmanaged, and reached through ``withConsumers(_:)``: a send or a look then reaches it without a retain and a
    /// release (measured: 15 → 21 ns per element for one consumer with them).
    @usableFromInline var consumers: Unmanaged<ConsumerBox>?
    @usableFromInline var terminal: Termination<Failure>?
    #if DEBUG
      /// The subject whose release ended this storage (its type, for the report), until an observer that registers
      /// after that end is reported (see ``Node/endReleased(_:)``). Debug builds only: a release build's
      /// nodes do not carry it.
      @usableFromInline var releasedSubject: String?
    #endif
    @usableFromInline var replay: RingBuffer<Element>
    /// A ``Replay/eachInput(_:)`` node's latest value from each input (`nil` for an input that has none); empty for
    /// every other node.
    @usableFromInline var inputValues: [Element?] = []
    /// The synchronous observers (`sink`), in registration order. A queued event holds a copy of this array
    /// (copy-on-write), so it goes to the sinks registered when it was sent, not to later ones.
    @usableFromInline var sinks: [Sink] = []
    /// Events for the sinks, in send order, each with the sinks it is for; delivered by the thread that has the
    /// storage's ``Node/sinkTurn``.
    @usableFromInline var sinkOutbox: [(event: SinkEvent, sinks: [Sink])] = []
    /// Sinks removed while a thread had the sinks' turn: that thread may be calling one of them through a borrowed
    /// reference (see ``Node/admit(_:in:)``), so they are kept alive until the turn has been left.
    @usableFromInline var retiredSinks: [Sink] = []
    /// A hot operator's link to its inputs (unused by subjects): see ``Node/reconcileInputs(registering:)``.
    @usableFromInline var link = InputLink()

    /// Adds `sink` after every sink of an earlier or equal rank: observers are called in the order their nodes
    /// were created (usually the end of the list: a consumer attached now is the latest).
    @inlinable mutating func insertSink(_ sink: Sink) {
      var index = sinks.endIndex
      while index > sinks.startIndex, sinks[index - 1].rank > sink.rank { index -= 1 }
      if index == sinks.endIndex { sinks.append(sink) } else { sinks.insert(sink, at: index) }
    }

    @inlinable init(replay: RingBuffer<Element>) {
      self.replay = replay
    }

    /// Runs `body` on the consumers' side, borrowed (see ``consumers``); `nil` when no consumer ever registered.
    @inline(__always)
    @inlinable func withConsumers<R>(_ body: (ConsumerBox) -> R) -> R? {
      consumers?._withUnsafeGuaranteedRef(body)
    }

    @inlinable var consumerCount: Int { withConsumers { $0.side.consumerCount } ?? 0 }

    /// Whether any consumer iterates the node now.
    @inlinable var hasConsumers: Bool {
      withConsumers { !$0.side.queues.isEmpty || !$0.side.readers.isEmpty } ?? false
    }

    /// Adds a consumer with `queue` (making the consumers' side on the first one); returns its id.
    @inlinable mutating func addConsumer(_ queue: ConsumerQueue<Element, Failure>) -> Int {
      if consumers == nil { consumers = Unmanaged.passRetained(ConsumerBox()) }
      return withConsumers { box in
        let id = box.side.slots.allocate()
        box.side.add(queue, id: id)
        return id
      }!
    }

    /// A restarting node that ended and stopped observing its inputs starts a new run for a new observer: nothing
    /// of the old one is kept (see ``Node/restarts``). A consumer of the ended run still holds what it was
    /// given and that run's end, and reads nothing more from the log: the new run's values are not for it.
    @inlinable mutating func restartIfEnded() {
      guard terminal != nil, link.disconnect == nil, !link.busy else { return }
      _ = withConsumers { $0.side.detachReaders() }
      terminal = nil
      forgetReplay()
    }

    /// Forgets every replayed value: the ring and, for a node that replays each input's value, those values.
    @inlinable mutating func forgetReplay() {
      replay.removeAll()
      if !inputValues.isEmpty { inputValues = Array(repeating: nil, count: inputValues.count) }
    }

    /// Mutates every consumer's queue in place.
    @inlinable mutating func forEachConsumer(_ body: (inout ConsumerQueue<Element, Failure>) -> Void) {
      _ = withConsumers { $0.side.forEachConsumer(body) }
    }

    /// Takes consumer `id`'s queue out; `nil` if it is gone already.
    @inlinable mutating func remove(_ id: Int) -> ConsumerQueue<Element, Failure>? {
      withConsumers { $0.side.remove(id) } ?? nil
    }

    /// Runs `body` on consumer `id`'s queue (`nil` when that consumer was removed); see
    /// ``Node/withQueue(_:_:)``.
    @inlinable mutating func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R {
      if let result = withConsumers({ $0.side.withQueue(id, body) }) { return result }
      var removed: ConsumerQueue<Element, Failure>? = nil
      return body(&removed)
    }
  }

  /// The box of a node's ``ConsumerSide``, made on its first consumer (see ``State/consumers``).
  ///
  /// Its value is reached only through the node's state, under the node's lock, so accesses never overlap: the
  /// run-time exclusivity check (a thread-local access set on every access) would guard nothing.
  @usableFromInline final class ConsumerBox {
    @exclusivity(unchecked) @usableFromInline var side = ConsumerSide()

    @inlinable init() {}
  }

  /// What a node keeps for the consumers that iterate it: their queues, the shared log the unbounded ones read,
  /// and where each consumer is.
  @usableFromInline struct ConsumerSide {
    /// The queues of the consumers with a bounded buffer (each drops by its own policy, so each keeps its own
    /// copy), contiguous, so that a send walks an array rather than a hash table. Optional only so that
    /// ``Node/withQueue(_:_:)`` can lend an element in place; never `nil` here.
    @usableFromInline var queues: [ConsumerQueue<Element, Failure>?] = []
    /// `ids[i]` is the id of `queues[i]`.
    @usableFromInline var ids: [Int] = []
    /// The consumers with an unbounded buffer (the default): they read the shared ``log``, each at its own
    /// position (``Reader/cursor``), so that a send stores an element once, not once per consumer. Their queue holds
    /// what they were given at registration (prefix, replay) and, while they look, what they read from the log.
    @usableFromInline var readers: [Reader] = []
    /// The ids of the readers parked for the next element: a send resumes them with it directly.
    @usableFromInline var parked: [Int] = []
    /// What was sent since the slowest reader last read: `log[0]` is the element at position ``logStart``.
    @usableFromInline var log: [Element] = []
    @usableFromInline var logStart = 0
    /// The log's length at which the next read by one of several readers drops what all of them have read (a
    /// walk over every cursor, so it is done once per this many elements).
    @usableFromInline var trimAt = SubjectLogTuning.minimumTrim
    /// Where each consumer is, by id: see ``ConsumerSlots``.
    @usableFromInline var slots = ConsumerSlots()

    @inlinable init() {}

    @inlinable var consumerCount: Int { queues.count + readers.count }

    /// The readers of an ended run get what they have not read of it, and nothing of the next run (see
    /// ``State/restartIfEnded()``).
    @inlinable mutating func detachReaders() {
      for reader in readers.indices {
        catchUp(reader)
        readers[reader].cursor = .max
      }
    }
    /// The position just after the last element sent.
    @inlinable var logEnd: Int { logStart + log.count }

    /// Mutates every consumer's queue in place.
    @inlinable mutating func forEachConsumer(_ body: (inout ConsumerQueue<Element, Failure>) -> Void) {
      for index in 0..<queues.count { body(&queues[index]!) }
      for index in 0..<readers.count { body(&readers[index].queue!) }
    }

    @inlinable mutating func add(_ queue: ConsumerQueue<Element, Failure>, id: Int) {
      if queue.policy.isUnbounded {
        slots.setPosition(~readers.count, of: id)
        readers.append(Reader(queue: queue, id: id, cursor: logEnd))
      } else {
        slots.setPosition(queues.count, of: id)
        queues.append(queue)
        ids.append(id)
      }
    }

    /// Takes consumer `id`'s queue out (the last queue of its kind moves into its place); `nil` if it is gone
    /// already.
    @inlinable mutating func remove(_ id: Int) -> ConsumerQueue<Element, Failure>? {
      guard let position = slots.free(id) else { return nil }
      if position >= 0 {
        let last = queues.count - 1
        if position != last {
          queues.swapAt(position, last)
          ids.swapAt(position, last)
          slots.setPosition(position, of: ids[position])
        }
        ids.removeLast()
        return queues.removeLast()
      }
      let reader = ~position
      let last = readers.count - 1
      if reader != last {
        readers.swapAt(reader, last)
        slots.setPosition(~reader, of: readers[reader].id)
      }
      let removed = readers.removeLast().queue
      if readers.isEmpty {
        // Nobody reads the log any more: drop it (and what its elements hold) now.
        logStart = logEnd
        log = []
        parked = []
        trimAt = SubjectLogTuning.minimumTrim
      }
      return removed
    }

    /// Appends what reader `reader` has not read yet from the log to its queue, then drops from the log what
    /// every reader has read (at once when it is the only reader, otherwise once per ``trimAt`` elements).
    @inlinable mutating func catchUp(_ reader: Int) {
      let cursor = readers[reader].cursor
      let end = logEnd
      guard cursor < end else { return }
      readers[reader].queue!.append(contentsOf: log[(cursor - logStart)...])
      readers[reader].cursor = end
      if readers.count == 1 {
        log.removeAll(keepingCapacity: true)
        logStart = end
      } else if log.count >= trimAt {
        trimLog()
      }
    }

    /// Drops from the log what every reader has read.
    @inlinable mutating func trimLog() {
      var slowest = logEnd
      for reader in readers where reader.cursor < slowest { slowest = reader.cursor }
      let read = slowest - logStart
      if read == log.count {
        log.removeAll(keepingCapacity: true)
      } else if read > 0 {
        log.removeFirst(read)
      }
      logStart = slowest
      trimAt = Swift.max(SubjectLogTuning.minimumTrim, readers.count, 2 * log.count)
    }

    /// Runs `body` on consumer `id`'s queue (`nil` when that consumer was removed); see
    /// ``Node/withQueue(_:_:)``.
    @inlinable mutating func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R {
      guard let position = slots.position(of: id) else {
        var removed: ConsumerQueue<Element, Failure>? = nil
        return body(&removed)
      }
      if position >= 0 { return body(&queues[position]) }
      let reader = ~position
      catchUp(reader)
      let wasParked = readers[reader].queue!.isParked
      let result = body(&readers[reader].queue)
      if !wasParked && readers[reader].queue!.isParked { parked.append(id) }
      return result
    }

    /// Under the lock, after `element` was appended to the log: takes the parked readers' continuations to resume
    /// with it. A parked reader had read everything, so it has now read `element` too.
    @inlinable mutating func wakeParkedReaders(first: inout Waiter?, others: inout [Waiter]) {
      let end = logEnd
      // One allocation for a fan-out's thousands of waiters, not one per doubling.
      if parked.count > 1 { others.reserveCapacity(others.count + parked.count) }
      for id in parked {
        // A reader removed since it parked was woken by its removal.
        guard let position = slots.position(of: id), position < 0 else { continue }
        let reader = ~position
        guard let waiter = readers[reader].queue!.takeWaiter() else { continue }
        readers[reader].cursor = end
        if first == nil { first = waiter } else { others.append(waiter) }
      }
      parked.removeAll(keepingCapacity: true)
      // The only reader was parked, so it has read everything: nothing in the log is needed any more. (Not when
      // it was not parked: a parked reader that was removed since leaves its id here, and the one that remains
      // may still have to read this element.)
      if readers.count == 1 && readers[0].cursor == end {
        log.removeAll(keepingCapacity: true)
        logStart = end
      }
    }
  }

  /// A consumer with an unbounded buffer: it reads the shared log (see ``State/readers``). Its queue, id and log
  /// position sit side by side, so that a look, a wake-up or a removal touches one place in memory, not three.
  @usableFromInline struct Reader: Sendable {
    /// Optional only so that ``Node/withQueue(_:_:)`` can lend it in place; never `nil` here.
    @usableFromInline var queue: ConsumerQueue<Element, Failure>?
    @usableFromInline let id: Int
    /// The position in the log (counted from the first send) up to which this reader has read.
    @usableFromInline var cursor: Int

    @inlinable init(queue: ConsumerQueue<Element, Failure>, id: Int, cursor: Int) {
      self.queue = queue
      self.id = id
      self.cursor = cursor
    }
  }
}

@usableFromInline package enum SubjectLogTuning {
  /// The shortest log that one of several readers trims when it reads (see `Node.State.trimAt`).
  @usableFromInline package static let minimumTrim = 64
}

/// Where each consumer of a subject is, by id, without hashing: an id is a slot (its low 32 bits) and how many
/// consumers used that slot before (its high bits), so a slot is reused but an id never is. A late call with the
/// id of a removed consumer finds nothing instead of the slot's new consumer.
///
/// A slot keeps the id and the position side by side (a lookup reads one place in memory), and the free slots form
/// a list through their positions, so that freeing 10,000 consumers allocates nothing.
@usableFromInline package struct ConsumerSlots: Sendable {
  @usableFromInline struct Slot: Sendable {
    /// The id of the consumer in this slot, or the complement (negative) of the last one while it is free.
    @usableFromInline var id: Int
    /// The consumer's position (`i` for `queues[i]`, `~i` for `readers[i]`); while the slot is free, the next free
    /// slot (`-1`: none).
    @usableFromInline var position: Int

    @inlinable init(id: Int, position: Int) {
      self.id = id
      self.position = position
    }
  }

  @usableFromInline var slots: [Slot] = []
  /// The free slot that ``allocate()`` reuses next (the last one freed); `-1` when none is free.
  @usableFromInline var firstFree = -1

  @inlinable package init() {}

  /// A new id, in a free slot (or a new one).
  @inlinable package mutating func allocate() -> Int {
    if firstFree >= 0 {
      let slot = firstFree
      firstFree = slots[slot].position
      let id = slot | (((~slots[slot].id) >> 32) + 1) << 32
      slots[slot].id = id
      return id
    }
    let slot = slots.count
    precondition(slot <= Int(UInt32.max), "Internal inconsistency: more than 2^32 consumers of one subject")
    slots.append(Slot(id: slot, position: 0))
    return slot
  }

  @inlinable package func position(of id: Int) -> Int? {
    let slot = id & 0xFFFF_FFFF
    guard slot < slots.count, slots[slot].id == id else { return nil }
    return slots[slot].position
  }

  @inlinable package mutating func setPosition(_ position: Int, of id: Int) {
    slots[id & 0xFFFF_FFFF].position = position
  }

  /// Frees `id`'s slot; returns where the consumer was, `nil` if it was freed already.
  @inlinable package mutating func free(_ id: Int) -> Int? {
    guard let position = position(of: id) else { return nil }
    let slot = id & 0xFFFF_FFFF
    slots[slot] = Slot(id: ~id, position: firstFree)
    firstFree = slot
    return position
  }
}
