/// The transitions every time operator shares: the consumer's queue, the upstream's pumping task, the one timer
/// task and how the operator ends. The operator's ``TimeRule`` decides what each event emits and when the timer
/// wakes.
///
/// A pure value kept behind the storage's lock: each method handles one event and returns what the caller must
/// do once the lock is released (``Effects``). An end stops the timer and cancels the upstream (harmless when the
/// upstream's own task reports the end: it returns right after), and the terminal event is recorded in the
/// consumer's queue only after that, with ``terminate(_:)``, so that no task is left working once the consumer
/// sees the end. (Its members are `@usableFromInline` so that the whole path specialises in the client's
/// module.)
///
/// It serves two engines (``Host``): one iteration (``TimeStorage``: a consumer's queue, a pump task, a timer
/// task parked while idle) and one connection of a hot node (``HotTime``: what the rule emits is handed back in
/// ``Effects/emitted`` for the node, the upstream is a sink, and the timer task lives only while the rule has a
/// deadline).
@usableFromInline package struct TimeStateMachine<Rule: TimeRule>: Sendable {
  @usableFromInline package typealias Waiter = ConsumerQueue<Rule.Output, Rule.Failure>.Waiter
  /// The timer task, parked while the rule has no deadline.
  @usableFromInline package typealias Timer = UnsafeContinuation<TimerAction, Never>

  /// What the timer task does next.
  @usableFromInline package enum TimerAction: Sendable {
    /// Sleep until this instant, then call ``timerFired(at:)``.
    case sleep(until: Rule.Instant)
    /// The operator ended: return.
    case stop
  }

  /// Whom the machine serves, which decides where emitted values go and how the timer task lives.
  @usableFromInline package enum Host: Sendable {
    /// One iteration (the pull engine): values go into the consumer's queue (``TimeOutbox/queue``), and one
    /// timer task serves the whole iteration, parked while the rule has no deadline (the consumer's loop is a
    /// task anyway).
    case iteration
    /// One connection of a hot node: values are handed back in ``Effects/emitted`` for the node, and a timer
    /// task is started when the rule gets a deadline and ends when it has none, so an idle node keeps no task.
    case hotNode
  }

  /// What to do after releasing the lock, in this order: cancel the tasks, resume the timer, wake the consumer,
  /// then record ``terminal`` with ``terminate(_:)``.
  @usableFromInline package struct Effects {
    @usableFromInline package var cancelUpstream: Task<Void, Never>?
    @usableFromInline package var cancelTimer: Task<Void, Never>?
    @usableFromInline package var timer: (continuation: Timer, action: TimerAction)?
    /// The parked consumer, with the value handed to it (`nil`: it only has to look again).
    @usableFromInline package var consumer: (waiter: Waiter, output: Rule.Output?)?
    @usableFromInline package var terminal: Termination<Rule.Failure>?
    /// What the rule emitted for this event, in order (``Host/hotNode`` only: an iteration's values are in its
    /// consumer's queue already).
    @usableFromInline package var emitted: [Rule.Output] = []
    /// Start a timer task with this number and register it with ``timerStarted(_:number:)``
    /// (``Host/hotNode`` only).
    @usableFromInline package var startTimer: Int?

    @inlinable package init() {}
  }

  @usableFromInline package var rule: Rule
  /// The consumer's queue and what the rule emitted for the current event.
  @usableFromInline package var outbox = TimeOutbox<Rule.Output, Rule.Failure>()
  /// `false` once ended: the upstream ended the result, or the consumer stopped.
  @usableFromInline package var isRunning = true
  @usableFromInline package var upstream: Task<Void, Never>?
  @usableFromInline package var timer: Task<Void, Never>?
  @usableFromInline package var parkedTimer: Timer?
  @usableFromInline package let host: Host
  /// The number of the hot node's timer task while one exists (started and not yet ended); numbers are never
  /// reused, so a task that registers after it already ended is told apart from its successor.
  @usableFromInline package var runningTimer: Int?
  @usableFromInline var timersStarted = 0

  @inlinable package init(rule: Rule, host: Host = .iteration) {
    self.rule = rule
    self.host = host
  }

  /// The work starts at `now` (a pull iteration's first `next()`), before the pump and the timer exist: the
  /// rule's first deadline counts from here.
  @inlinable package mutating func started(at now: Rule.Instant) {
    rule.started(at: now)
  }

  /// The pump and timer tasks exist; returns `false` if the operator already ended, so that the caller cancels
  /// them.
  @inlinable package mutating func started(upstream: Task<Void, Never>, timer: Task<Void, Never>) -> Bool {
    guard isRunning else { return false }
    precondition(self.upstream == nil, "Internal inconsistency: a time operator started twice")
    self.upstream = upstream
    self.timer = timer
    return true
  }

  /// An upstream value arrived at `now`.
  /// - Returns: what to do, or `nil` when the operator ended and the pump must stop.
  @inlinable package mutating func received(_ input: Rule.Input, at now: Rule.Instant) -> Effects? {
    guard isRunning else { return nil }
    rule.received(input, at: now, into: &outbox)
    return settle()
  }

  /// The upstream finished at `now`.
  @inlinable package mutating func upstreamFinished(at now: Rule.Instant) -> Effects {
    guard isRunning else { return Effects() }
    rule.upstreamFinished(at: now, into: &outbox)
    return settle()
  }

  /// The upstream failed at `now` with `failure` (already mapped to the operator's failure type).
  @inlinable package mutating func upstreamFailed(_ failure: Rule.Failure, at now: Rule.Instant) -> Effects {
    guard isRunning else { return Effects() }
    rule.upstreamFailed(failure, at: now, into: &outbox)
    return settle()
  }

  /// The timer looks for a deadline; it is parked while the rule has none.
  /// - Returns: what the timer does now, or `nil` if it was parked.
  @inlinable package mutating func timerWaits(_ timer: Timer) -> TimerAction? {
    guard isRunning else { return .stop }
    if let deadline = rule.deadline { return .sleep(until: deadline) }
    precondition(parkedTimer == nil, "Internal inconsistency: a time operator's timer parked twice")
    parkedTimer = timer
    return nil
  }

  /// A hot node connected: a rule that has a deadline from the start (a timeout's first deadline, a buffer's
  /// first window) gets its timer now.
  @inlinable package mutating func connected() -> Effects {
    settle()
  }

  /// A hot node's timer task registered; returns `false` if the operator already ended, so that the caller
  /// cancels it.
  @inlinable package mutating func timerStarted(_ task: Task<Void, Never>, number: Int) -> Bool {
    guard isRunning else { return false }
    // A timer that found no deadline and ended before it was registered is not kept.
    if runningTimer == number { timer = task }
    return true
  }

  /// A hot node's timer looks for a deadline: it sleeps until the rule's, or ends while the rule has none (an
  /// event that brings a deadline later starts another).
  @inlinable package mutating func timerLooks() -> TimerAction {
    guard isRunning else { return .stop }
    if let deadline = rule.deadline { return .sleep(until: deadline) }
    return timerIdles() ?? .stop  // an iteration's timer parks with timerWaits(_:) instead
  }

  /// The timer slept until `now`. The rule handles it if its deadline has come; if the deadline moved later
  /// meanwhile, the timer sleeps again.
  /// - Returns: what to do, and what the timer does next (`nil`: wait for a deadline with ``timerWaits(_:)``).
  @inlinable package mutating func timerFired(at now: Rule.Instant) -> (effects: Effects, next: TimerAction?) {
    guard isRunning else { return (Effects(), .stop) }
    guard let deadline = rule.deadline else { return (Effects(), timerIdles()) }
    guard deadline <= now else { return (Effects(), .sleep(until: deadline)) }
    rule.timerFired(at: now, into: &outbox)
    let effects = settle()
    guard isRunning else { return (effects, .stop) }
    if let deadline = rule.deadline { return (effects, .sleep(until: deadline)) }
    return (effects, timerIdles())
  }

  /// The rule has no deadline: an iteration's timer parks (`nil`, see ``timerWaits(_:)``); a hot node's ends.
  @inlinable mutating func timerIdles() -> TimerAction? {
    guard case .hotNode = host else { return nil }
    runningTimer = nil
    timer = nil
    return .stop
  }

  /// The consumer stopped (cancelled, dropped its iterator, or read the end): everything stops.
  @inlinable package mutating func consumerStopped() -> Effects {
    var effects = Effects()
    if isRunning { stop(into: &effects) }
    if let waiter = outbox.queue?.cancel() { effects.consumer = (waiter, nil) }
    outbox.queue = nil
    return effects
  }

  /// Records the end in the consumer's queue (the second step of an ending, after the tasks were cancelled).
  /// - Returns: the parked consumer to wake.
  @inlinable package mutating func terminate(_ termination: Termination<Rule.Failure>) -> Waiter? {
    outbox.queue?.terminate(termination)
  }

  /// Turns what the rule did with the event into effects: the consumer to wake or the values for the node, the
  /// end, or a deadline for the parked timer (or for a new one).
  @inlinable mutating func settle() -> Effects {
    var effects = Effects()
    if let woken = outbox.woken {
      outbox.woken = nil
      effects.consumer = (woken.waiter, woken.output)
    }
    if case .hotNode = host, case .elements(let start) = outbox.queue?.take(into: &effects.emitted), start > 0 {
      effects.emitted.removeFirst(start)
    }
    if let end = outbox.end {
      outbox.end = nil
      stop(into: &effects)
      effects.terminal = end
    } else if let deadline = rule.deadline {
      if let parked = parkedTimer {
        parkedTimer = nil
        effects.timer = (parked, .sleep(until: deadline))
      } else if case .hotNode = host, runningTimer == nil {
        timersStarted += 1
        runningTimer = timersStarted
        effects.startTimer = timersStarted
      }
    }
    return effects
  }

  @inlinable mutating func stop(into effects: inout Effects) {
    isRunning = false
    effects.cancelUpstream = upstream.take()
    effects.cancelTimer = timer.take()
    if let parked = parkedTimer.take() { effects.timer = (parked, .stop) }
  }
}
