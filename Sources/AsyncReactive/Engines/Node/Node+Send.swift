import Synchronization

// The producer's side of a node: a send is admitted under the lock, then delivered after it to the consumers that
// wait and to the sinks; the end likewise.

extension Node {
  @inlinable package func send(_ element: Element) {
    if _slowPath(extras != nil) { traceSent(element) }
    // Relaxed is enough: a registration that happened before this send (in its task, or through whatever
    // ordered the two) is seen; one racing with it may or may not get the value, as under the lock.
    if !remembers && registered.load(ordering: .relaxed) == 0 { return }
    let admitted = state.withLock { state -> Admitted in
      guard state.terminal == nil else { return .nothing }
      return admit(element, in: &state)
    }
    deliver(element, admitted)
  }

  /// Records `element` as sent, when this node traces (see `AsyncReactiveDebug`). Out of line, so that the send
  /// of a node that does not trace carries only the check of ``extras``.
  @inline(never) @usableFromInline func traceSent(_ element: Element) {
    if let trace { trace.noteSent(element, consumers: registered.load(ordering: .relaxed)) }
  }

  /// Ends the storage because the last handle that could send to it (`subject`, a description of its type) was
  /// released: its consumers end, as with `finish()`. In debug builds an observer that registers afterwards, which
  /// gets only the end, is reported once, naming the subject (see ``DebugReport``): a subject kept nowhere but in a
  /// `hotSignal` (a default argument, say) has finished before anything observes it.
  @usableFromInline package func endReleased(_ subject: @autoclosure () -> String) {
    #if DEBUG
      let name = subject()
      state.withLock { state in
        if state.terminal == nil { state.releasedSubject = name }
      }
    #endif
    terminate(.finished)
    // Nobody can read the released subject's value any more, and an ended current value replays nothing: let go of
    // it, so that what it holds (an inner property of a flattened one) is released with the subject.
    // Released after the lock: the value's own release may end other nodes, which call back into this one.
    if case .current = replay {
      let dropped = state.withLock { state -> RingBuffer<Element> in
        var dropped = RingBuffer<Element>(capacity: 1)
        swap(&dropped, &state.replay)
        return dropped
      }
      withExtendedLifetime(dropped) {}
    }
  }

  /// Reports an observer that registered after the subject was released (see ``endReleased(_:)``).
  @usableFromInline func reportRegistration(afterReleaseOf subject: String) {
    DebugReport.emit(
      "AsyncReactive: an observer registered with \(subject) after it was released: nothing can send to it any more, "
        + "so the observer gets only its end. Keep the subject while it is observed, or give a constant "
        + "(Signal.just(value), Signal.never, HotSignal(Signal.just(value))).")
  }

  /// Sends `element` if connection `epoch` is still the node's current one: a restarting node's old run may still
  /// be delivering on another thread when a new run has connected, and must not reach the new run's consumers.
  @inlinable package func send(_ element: Element, epoch: Int) {
    if _slowPath(extras != nil) { traceSent(element) }
    let admitted = state.withLock { state -> Admitted in
      guard state.terminal == nil, state.link.epoch == epoch else { return .nothing }
      return admit(element, in: &state)
    }
    deliver(element, admitted)
  }

  /// Who must be given a value that was just admitted, once the lock is released.
  ///
  /// A single sink (a hot operator's node usually has one observer: the next node) is lent as a borrowed reference,
  /// not retained: the thread that has the sinks' turn is the only one that calls it, and a sink removed while the turn
  /// is held goes to ``State/retiredSinks`` instead of being released (see ``retire(_:in:)``), so it outlives the
  /// call. Several sinks are lent as a retained copy of the array.
  ///
  /// An enum whose common cases hold no reference: a send through a hot graph (sinks only, no consumer) ends with
  /// nothing to release, where a tuple of arrays made two calls to the runtime per send to release them, empty or
  /// not (six sends per tap of the signup form: half of its fifteen releases per tap).
  @usableFromInline enum Admitted {
    /// No consumer: only the sinks to call, if this thread took their turn.
    case sinks(SinkCall)
    /// The waiting consumers to resume, then the sinks to call.
    case consumers(first: Waiter?, others: [Waiter], sinks: SinkCall)

    /// Nothing to do after the lock.
    @inlinable static var nothing: Admitted { .sinks(.none) }
  }

  /// Which sinks the thread that admitted a value calls after the lock.
  @usableFromInline enum SinkCall {
    /// None: no sink, or another thread has the sinks' turn and delivers the value from the outbox.
    case none
    /// The one sink, lent unretained (see ``Admitted``).
    case sole(Unmanaged<Sink>)
    /// Several sinks, lent as a retained copy of the array.
    case several([Sink])
  }

  /// Under the lock, for a subject that has not ended: records `element` and queues it for every consumer and
  /// sink. Returns the waiting consumers to resume and, when this thread took the sinks' turn, the sinks to call.
  ///
  /// Inlined into its callers: the sink-only path (a hot graph's nodes) then makes no call here, and the path with
  /// consumers one, to ``admitWithConsumers(_:in:)``.
  @inline(__always) @inlinable func admit(_ element: Element, in state: inout State) -> Admitted {
    state.replay.append(element)
    if state.hasConsumers { return admitWithConsumers(element, in: &state) }
    return .sinks(admitToSinks(element, in: &state))
  }

  /// ``admit(_:in:)`` when the subject has consumers (iterating ones): queues `element` for each, takes the
  /// parked ones' continuations, then admits it to the sinks.
  @inlinable func admitWithConsumers(_ element: Element, in state: inout State) -> Admitted {
    var first: Waiter?
    var others: [Waiter] = []
    // Only consumers read the counter (to know whether to wait): a node that only sinks observe skips it.
    events.wrappingAdd(1, ordering: .relaxed)
    // Checked first: the loop makes `queues` unique before it runs, and the empty array is a shared singleton, so
    // without this a send to only unbounded consumers (the usual case) "copied" an empty array on every send.
    _ = state.withConsumers { consumers in
      if !consumers.side.queues.isEmpty {
        for index in 0..<consumers.side.queues.count {
          guard let waiter = consumers.side.queues[index]!.enqueue(element) else { continue }
          if first == nil { first = waiter } else { others.append(waiter) }
        }
      }
      if !consumers.side.readers.isEmpty {
        // Once for every reader; each copies it when it looks (see `withQueue`).
        consumers.side.log.append(element)
        if !consumers.side.parked.isEmpty { consumers.side.wakeParkedReaders(first: &first, others: &others) }
      }
    }
    return .consumers(first: first, others: others, sinks: admitToSinks(element, in: &state))
  }

  /// Under the lock: the sinks this thread calls with `element` after the lock, when nobody else delivers to
  /// them (it takes their turn); otherwise `element` is queued for the thread that does.
  @inline(__always) @inlinable func admitToSinks(_ element: Element, in state: inout State) -> SinkCall {
    guard !state.sinks.isEmpty else { return .none }
    guard DeliveryTurn.claim(sinkTurn) else {
      state.sinkOutbox.append((.value(element), state.sinks))
      return .none
    }
    sinkOwner.store(ThreadIdentity.current, ordering: .relaxed)
    if state.sinks.count == 1 { return .sole(Unmanaged.passUnretained(state.sinks[0])) }
    return .several(state.sinks)
  }

  /// After the lock: resumes the consumers that waited for `element` and calls the sinks this thread delivers to.
  @inlinable func deliver(_ element: Element, _ admitted: Admitted) {
    switch admitted {
    case .sinks(let sinks):
      call(sinks, element)
    case .consumers(let first, let others, let sinks):
      first?.resume(returning: .element(element))
      for waiter in others { waiter.resume(returning: .element(element)) }
      call(sinks, element)
    }
  }

  /// Calls the sinks this thread took the turn for with `element`, then leaves the turn.
  @inlinable func call(_ sinks: SinkCall, _ element: Element) {
    switch sinks {
    case .none:
      return
    case .sole(let sole):
      // Alive until this thread leaves the turn: see `Admitted`.
      sole._withUnsafeGuaranteedRef { sink in
        if sink.active.load(ordering: .acquiring) { sink.onValue(element) }
      }
    case .several(let direct):
      direct.withUnsafeBufferPointer { sinks in
        for index in sinks.indices where sinks[index].active.load(ordering: .acquiring) {
          // `direct` holds the sinks for the whole loop, so each is alive: a guaranteed reference lets the call
          // use the sink's closure in place instead of retaining and releasing its context around every call.
          Unmanaged.passUnretained(sinks[index])._withUnsafeGuaranteedRef { $0.onValue(element) }
        }
      }
    }
    leaveSinkTurn()
  }

  @inlinable package func terminate(_ termination: Termination<Failure>, epoch: Int? = nil) {
    var deliver = false
    var retired = false
    let waiters = state.withLock { state -> [Waiter] in
      guard state.terminal == nil, epoch == nil || epoch == state.link.epoch else { return [] }
      events.wrappingAdd(1, ordering: .relaxed)
      state.terminal = termination
      var waiters: [Waiter] = []
      state.forEachConsumer { queue in
        if let waiter = queue.terminate(termination) { waiters.append(waiter) }
      }
      _ = state.withConsumers { $0.side.parked = [] }
      if !state.sinks.isEmpty {
        // The end is the sinks' last event: they are dropped now.
        deliver = queue(.end(termination), for: state.sinks, in: &state)
        registered.wrappingSubtract(state.sinks.count, ordering: .relaxed)
        retired = retire(state.sinks, in: &state)
        state.sinks = []
      }
      return waiters
    }
    for waiter in waiters { waiter.resume(returning: .recheck) }
    if deliver { deliverSinkEvents() }
    if retired { releaseRetiredSinks() }
    if connector != nil { reconcileInputs() }
  }
}
