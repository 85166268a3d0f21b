/// One connection of a hot time node (`debounce`, `throttle`, `delay`, `timeout` and `buffer(every:)` on a hot
/// sequence): each upstream event is handed to the operator's ``TimeRule`` inside the upstream's `send`, at the
/// clock's `now`, through the ``TimeStateMachine``; the node gets what the rule emits when the
/// rule emits it, and the timer task lives only while the rule has a deadline.
///
/// The rule runs under this connection's lock (it is the library's own code, never a user closure); what it emits
/// is queued under the lock and delivered after it, in order, by one thread at a time: an upstream send and the
/// timer may produce at once, and a value must not overtake the one the other thread produced before it. A send
/// made from inside a delivery is queued behind it, never delivered recursively.
@usableFromInline final class TimeConnection<Rule: TimeRule, C: Clock, Failure: Error>: Sendable
where C.Instant == Rule.Instant {
  @usableFromInline typealias Machine = TimeStateMachine<Rule>

  @usableFromInline enum Delivery: Sendable {
    case value(Rule.Output)
    case end(Termination<Rule.Failure>)
  }

  @usableFromInline let state: Locked<Machine>
  @usableFromInline let outbox = PublicationQueue<Delivery>()
  @usableFromInline let clock: C
  @usableFromInline let node: Node<Rule.Output, Failure>
  /// What the rule's end does to the node (`timeout(_:clock:fallback:)` switches to its fallback instead of
  /// failing); called by the delivering thread, in order after the values.
  @usableFromInline let end: @Sendable (Termination<Rule.Failure>) -> Void

  @inlinable init(
    rule: Rule, clock: C, node: Node<Rule.Output, Failure>,
    end: @escaping @Sendable (Termination<Rule.Failure>) -> Void
  ) {
    state = Locked(Machine(rule: rule))
    self.clock = clock
    self.node = node
    self.end = end
  }

  /// The node connected: starts the timer if the rule has a deadline already.
  /// What its timer waits for, for a graph dump: `timer due t=1.3s`, or `no timer`.
  @usableFromInline func describe() -> String {
    state.withLock { machine in machine.rule.deadline.map { "timer due \($0)" } ?? "no timer" }
  }

  @inlinable func start() {
    perform(state.withLock { $0.connected() })
  }

  /// An upstream value, at the clock's `now`.
  @inlinable func received(_ input: Rule.Input) {
    let now = clock.now  // read before the lock: a clock of the user's is user code
    perform(
      state.withLock { machine in
        guard let effects = machine.received(input, at: now) else { return Machine.Effects() }
        if node.trace != nil && effects.emitted.isEmpty {
          if let deadline = machine.rule.deadline {
            node.trace?.record(.held(input, by: Rule.operatorName, until: deadline))
          } else {
            node.trace?.record(.dropped(input, "dropped by \(Rule.operatorName)"))
          }
        }
        return queue(effects)
      })
  }

  /// The upstream finished, at the clock's `now`.
  @inlinable func upstreamFinished() {
    let now = clock.now
    perform(state.withLock { queue($0.upstreamFinished(at: now)) })
  }

  /// The upstream failed (`failure` already mapped to the rule's failure), at the clock's `now`.
  @inlinable func upstreamFailed(_ failure: Rule.Failure) {
    let now = clock.now
    perform(state.withLock { queue($0.upstreamFailed(failure, at: now)) })
  }

  /// The node disconnected (its last consumer left): the timer stops; later events are ignored.
  @inlinable func stop() {
    perform(state.withLock { $0.consumerStopped() })
  }

  /// Queues what the rule emitted, and its end, for delivery; called under the lock, so that deliveries keep the
  /// order in which the rule produced them.
  @inlinable func queue(_ effects: Machine.Effects) -> Machine.Effects {
    for output in effects.emitted { outbox.enqueue(.value(output)) }
    if let terminal = effects.terminal { outbox.enqueue(.end(terminal)) }
    return effects
  }

  /// Acts on `effects` once the lock is released: stops the timer, delivers, then starts the timer.
  @inlinable func perform(_ effects: Machine.Effects) {
    effects.cancelTimer?.cancel()
    if !effects.emitted.isEmpty || effects.terminal != nil { deliver() }
    if let number = effects.startTimer {
      // An immediate task: its sleep is registered now, inside the event that gave the rule its deadline and after
      // what that event delivered (a timeout's timer after the value it forwarded, as RxSwift schedules it), so work
      // due at one instant runs in the order it was scheduled (RxTest's rule).
      // It prefers a test clock's executor even when the event came from a task outside the test's virtual time.
      let timer = Task(
        immediateNamed: "\(Rule.operatorName) timer", executor: TaskExecutorContext.preferred(for: clock)
      ) { [self] in await runTimer(number: number) }
      if !state.withLock({ $0.timerStarted(timer, number: number) }) { timer.cancel() }
    }
  }

  /// Sleeps until each deadline of the rule in turn and returns once the rule has none, the node stopped, or
  /// another timer replaced this one (`number` tells them apart).
  @inlinable func runTimer(number: Int) async {
    var action = state.withLock { $0.timerLooks(number: number) }
    while case .sleep(let deadline) = action {
      guard let next = await fire(at: deadline, number: number) else {
        return  // cancelled: the node disconnected or the operator ended
      }
      action = next
    }
  }

  /// Sleeps until `deadline`, then lets the rule handle it; returns what the timer does next, `nil` if cancelled.
  @inlinable func fire(at deadline: C.Instant, number: Int) async -> Machine.TimerAction? {
    do {
      try await clock.sleep(until: deadline, tolerance: nil)
    } catch {
      return nil
    }
    let (effects, next) = state.withLock { machine in
      let (effects, next) = machine.timerFired(at: deadline, number: number)
      return (queue(effects), next)
    }
    perform(effects)
    return next
  }

  /// Delivers what was queued, one thread at a time, outside the lock.
  @inlinable func deliver() {
    outbox.flush { delivery in
      switch delivery {
      case .value(let output): node.send(output)
      case .end(let termination): end(termination)
      }
    }
  }
}

extension HotSequence {
  /// A time node over this sequence: each connection observes it with a sink and runs a fresh rule, made by
  /// `rule` at the clock's `now` when the node connects (a timeout's first deadline, a buffer's first window).
  ///
  /// The node holds no current value (`.none` replay): a time operator emits at instants, and a consumer that
  /// joins later gets what is emitted from then on.
  @inlinable func hotTime<Rule: TimeRule, C: Clock>(
    fileID: StaticString = "", line: UInt = 0,
    clock: C,
    failure: @escaping @Sendable (Failure) -> Rule.Failure,
    rule: @escaping @Sendable (C.Instant) -> Rule
  ) -> HotSignal<Rule.Output, Rule.Failure>
  where Rule.Input == Element, C.Instant == Rule.Instant {
    let upstream = hotSignal.node
    // Made while a consumer builds a cold run: its task prefers a test clock's executor (see `discovering`).
    TaskExecutorContext.note(clock)
    return HotSignal(
      node: Node(
        replay: .none, restarts: upstream.restarts,
        origin: NodeOrigin(NodeKind(operatorName: Rule.operatorName), fileID: fileID, line: line),
        inputs: .one(upstream), describesConnection: true
      ) { node in
        let connection = TimeConnection<Rule, C, Rule.Failure>(rule: rule(clock.now), clock: clock, node: node) {
          node.terminate($0)
        }
        node.attachConnectionDescription { connection.describe() }
        connection.start()
        let sink = connection.observe(upstream, failure: failure)
        return {
          node.detachConnectionDescription()
          upstream.removeSink(sink)
          connection.stop()
        }
      })
  }
}

extension HotSequence {
  /// A time node whose rule fails as this sequence does.
  @inlinable func hotTime<Rule: TimeRule, C: Clock>(
    fileID: StaticString = "", line: UInt = 0,
    clock: C,
    rule: @escaping @Sendable (C.Instant) -> Rule
  ) -> HotSignal<Rule.Output, Failure>
  where Rule.Input == Element, Rule.Failure == Failure, C.Instant == Rule.Instant {
    hotTime(fileID: fileID, line: line, clock: clock, failure: { $0 }, rule: rule)
  }
}

extension TimeConnection {
  /// Observes `upstream` for the rule; returns the sink, for removal.
  @inlinable func observe<UpstreamFailure: Error>(
    _ upstream: Node<Rule.Input, UpstreamFailure>,
    failure: @escaping @Sendable (UpstreamFailure) -> Rule.Failure
  ) -> Node<Rule.Input, UpstreamFailure>.Sink {
    upstream.addSink { [self] value in
      received(value)
    } onEnd: { [self] termination in
      switch termination {
      case .finished: upstreamFinished()
      case .failed(let error): upstreamFailed(failure(error))
      }
    }
  }
}
