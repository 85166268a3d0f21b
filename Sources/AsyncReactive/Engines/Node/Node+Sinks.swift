import Synchronization

// A node's synchronous observers (`sink`, the next node of a hot graph): called on the sending thread, one event
// at a time, by the thread that has the sinks' turn (see `DeliveryTurn`).

extension Node {
  /// What a synchronous observer receives.
  @usableFromInline package enum SinkEvent: Sendable {
    case value(Element)
    case end(Termination<Failure>)
  }

  /// A synchronous observer: its closure and whether it still wants events.
  @usableFromInline package final class Sink: Sendable {
    /// The observer's own closure, called directly: the per-value path stays specialised.
    @usableFromInline let onValue: @Sendable (Element) -> Void
    @usableFromInline let onEnd: @Sendable (Termination<Failure>) -> Void
    /// Cleared when its lifetime ends: an event already queued for it is then skipped.
    @usableFromInline let active = Atomic<Bool>(true)
    /// Where it stands among the source's sinks (see ``CreationRank``): the observing node's creation rank.
    @usableFromInline let rank: Int
    /// The node it feeds, or the observation it serves (`observe`, `bind`), or `nil` for a plain `sink` (what a
    /// graph dump shows).
    @usableFromInline let owner: (any AnyObject & Sendable)?

    @inlinable init(
      onValue: @escaping @Sendable (Element) -> Void,
      onEnd: @escaping @Sendable (Termination<Failure>) -> Void,
      owner: (any AnyObject & Sendable)? = nil
    ) {
      self.onValue = onValue
      self.onEnd = onEnd
      self.owner = owner ?? CreationRank.connectingNode()
      self.rank = CreationRank.forNewSink()
    }

    @inlinable func receive(_ event: SinkEvent) {
      switch event {
      case .value(let element): onValue(element)
      case .end(let termination): onEnd(termination)
      }
    }
  }

  /// By the thread that delivered directly to the sinks: leaves the turn, or delivers what was queued meanwhile;
  /// then releases the sinks removed while it had the turn.
  @inlinable func leaveSinkTurn() {
    if !DeliveryTurn.leave(sinkTurn) {
      deliverSinkEvents()
    } else if retiredPending.load(ordering: .sequentiallyConsistent) {
      releaseRetiredSinks()
    }
  }

  /// Under the lock, for sinks just taken out of ``State/sinks``: while a thread has the turn it may be calling one
  /// of them through a borrowed reference, so they are kept in ``State/retiredSinks`` until the turn is left.
  /// Returns whether the caller must call ``releaseRetiredSinks()`` after the lock (the turn may have been left
  /// meanwhile, by a thread that did not see them yet).
  @inlinable func retire(_ removed: some Sequence<Sink>, in state: inout State) -> Bool {
    guard sinkTurn.load(ordering: .sequentiallyConsistent) != DeliveryTurn.idle else { return false }
    state.retiredSinks.append(contentsOf: removed)
    retiredPending.store(true, ordering: .sequentiallyConsistent)
    return true
  }

  /// Releases the retired sinks if nobody has the turn (the thread that takes it next lends only current sinks);
  /// otherwise the thread that has it does, when it leaves. Their closures are released after the lock.
  @inlinable func releaseRetiredSinks() {
    let released = state.withLock { state -> [Sink] in
      guard sinkTurn.load(ordering: .sequentiallyConsistent) == DeliveryTurn.idle else { return [] }
      retiredPending.store(false, ordering: .relaxed)
      defer { state.retiredSinks = [] }
      return state.retiredSinks
    }
    withExtendedLifetime(released) {}
  }

  /// Under the lock: queues `event` for `sinks`; returns whether the caller must deliver the outbox (it took the
  /// turn: nobody else was delivering).
  @inlinable func queue(_ event: SinkEvent, for sinks: [Sink], in state: inout State) -> Bool {
    state.sinkOutbox.append((event, sinks))
    guard DeliveryTurn.claim(sinkTurn) else { return false }
    sinkOwner.store(ThreadIdentity.current, ordering: .relaxed)
    return true
  }

  /// Registers a synchronous observer: it gets the prefix and the replayed values (and the end, if the subject
  /// ended) first, then every later event, each once, in send order, never two at a time. Returns the sink, for
  /// removal.
  @inlinable package func addSink(
    owner: (any AnyObject & Sendable)? = nil,
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Termination<Failure>) -> Void
  ) -> Sink {
    let sink = Sink(onValue: onValue, onEnd: onEnd, owner: owner)
    var released: String?
    // What the sink gets at once, when the registration comes from inside this source's own delivery.
    var inPlace: [SinkEvent] = []
    let deliver = state.withLock { state -> Bool in
      if restarts { state.restartIfEnded() }
      // A registration made by the thread delivering this source's events (an observer of it registering another:
      // a flatten's inner reading the outer's source, `catch` switching to the source that just failed) gets its
      // prefix, replay and end now, inside the call, as RxSwift's subjects replay inside `subscribe`: before the
      // event in flight reaches the older observers. That thread has the turn, so nothing else reaches the new
      // sink meanwhile, and what is sent later is queued behind, for it to deliver.
      let reentrant =
        sinkTurn.load(ordering: .relaxed) != DeliveryTurn.idle
        && sinkOwner.load(ordering: .relaxed) == ThreadIdentity.current
      var deliver = false
      let only = [sink]
      func add(_ event: SinkEvent, _ state: inout State) {
        if reentrant { inPlace.append(event) } else { deliver = queue(event, for: only, in: &state) || deliver }
      }
      for element in prefix { add(.value(element), &state) }
      if let terminal = state.terminal {
        #if DEBUG
          released = state.releasedSubject.take()
        #endif
        if case .latest = replay {
          for element in state.replay.inOrder { add(.value(element), &state) }
        }
        add(.end(terminal), &state)
        return deliver
      }
      for element in state.replay.inOrder { add(.value(element), &state) }
      for case let element? in state.inputValues { add(.value(element), &state) }
      state.insertSink(sink)
      registered.wrappingAdd(1, ordering: .relaxed)
      return deliver
    }
    if let released { reportRegistration(afterReleaseOf: released) }
    for event in inPlace where sink.active.load(ordering: .acquiring) { sink.receive(event) }
    if deliver { deliverSinkEvents() }
    if connector != nil { reconcileInputs(registering: true) }
    return sink
  }

  /// Turns consumer `id`, which nobody iterates, into a synchronous observer, in one critical section: what its
  /// queue holds (its values, then its end) goes to the sink first, then every later event, as replayed values go
  /// to a sink that ``addSink(onValue:onEnd:)`` registers. A consumer removed already counts as finished.
  @inlinable package func adoptConsumer(
    _ id: Int,
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Termination<Failure>) -> Void
  ) -> Sink {
    let sink = Sink(onValue: onValue, onEnd: onEnd)
    let (deliver, removed) = state.withLock { state -> (Bool, ConsumerQueue<Element, Failure>?) in
      var held: [Element] = []
      var start = 0
      var end: Termination<Failure>? = .finished
      state.withQueue(id) { consumer in
        guard consumer != nil else { return }
        end = consumer!.terminal
        if case .elements(let first) = consumer!.take(into: &held) { start = first }
      }
      let removed = state.remove(id)
      if removed != nil { registered.wrappingSubtract(1, ordering: .relaxed) }
      let only = [sink]
      var deliver = false
      for element in held[start...] { deliver = queue(.value(element), for: only, in: &state) || deliver }
      if let end { return (queue(.end(end), for: only, in: &state) || deliver, removed) }
      state.insertSink(sink)
      registered.wrappingAdd(1, ordering: .relaxed)
      return (deliver, removed)
    }
    // The consumer's buffer is released after the lock.
    withExtendedLifetime(removed) {}
    if deliver { deliverSinkEvents() }
    return sink
  }

  /// Removes `sink`: no event starts for it after this returns (one being delivered on another thread may
  /// finish).
  @inlinable package func removeSink(_ sink: Sink) {
    sink.active.store(false, ordering: .releasing)
    let retired = state.withLock { state -> Bool in
      guard let index = state.sinks.firstIndex(where: { $0 === sink }) else { return false }
      state.sinks.remove(at: index)
      registered.wrappingSubtract(1, ordering: .relaxed)
      return retire(CollectionOfOne(sink), in: &state)
    }
    if retired { releaseRetiredSinks() }
    if connector != nil { reconcileInputs() }
  }

  /// Delivers the sinks' outbox until it is empty, outside the lock; only the thread that has the turn calls it.
  /// Events queued meanwhile (by other threads, or by a sink that sends to this subject again) are delivered by
  /// this same loop, after the current one: no recursion, no reordering.
  @inlinable package func deliverSinkEvents() {
    var batch: [(event: SinkEvent, sinks: [Sink])] = []
    repeat {
      state.withLock { state in
        swap(&batch, &state.sinkOutbox)
        DeliveryTurn.resume(sinkTurn)
      }
      for (event, sinks) in batch {
        // `batch` holds the sinks until the loop is done: guaranteed references, no retain per call (see `deliver`).
        sinks.withUnsafeBufferPointer { sinks in
          for index in sinks.indices where sinks[index].active.load(ordering: .acquiring) {
            Unmanaged.passUnretained(sinks[index])._withUnsafeGuaranteedRef { $0.receive(event) }
          }
        }
      }
      batch.removeAll(keepingCapacity: true)
    } while !DeliveryTurn.leave(sinkTurn)
    if retiredPending.load(ordering: .sequentiallyConsistent) { releaseRetiredSinks() }
  }

  /// Registers a synchronous observer for as long as `lifetime` lasts; see ``SubjectProtocol/sink(in:onValue:onEnd:)``.
  package func sink(
    in lifetime: Lifetime,
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Failure?) -> Void
  ) {
    let slot = lifetime.reserve()
    guard !slot.ended else { return }
    let sink = addSink(onValue: onValue) { termination in
      if case .failed(let failure) = termination { onEnd(failure) } else { onEnd(nil) }
      slot.done()  // the lifetime forgets it: a long-lived lifetime does not collect ended sinks
    }
    lifetime.adopt(LifetimeSink(node: self, sink: sink), in: slot)
  }
}

/// A subject's `sink(in:)` as its lifetime holds it: ending the lifetime removes the sink; the node is held weakly
/// (a sink keeps no source alive).
final class LifetimeSink<Element: Sendable, Failure: Error>: LifetimeMember {
  weak let node: Node<Element, Failure>?
  let sink: Node<Element, Failure>.Sink

  init(node: Node<Element, Failure>, sink: Node<Element, Failure>.Sink) {
    self.node = node
    self.sink = sink
  }

  func lifetimeEnded() { node?.removeSink(sink) }

  var observedNode: (any AnyObject & Sendable)? { node }
}
