/// The transitions every time operator shares: one connection of a hot time node (``TimeConnection``), its timer task and
/// how the operator ends. The operator's ``TimeRule`` decides what each event emits and when the timer wakes.
///
/// A pure value kept behind the connection's lock: each method handles one event and returns what the caller must
/// do once the lock is released (``Effects``): what the rule emitted, in order, for the node; the end; and the timer
/// task to start or stop. A timer task runs only while the rule has a deadline, so an idle node keeps no task. (Its
/// members are `@usableFromInline` so that the whole path specialises in the client's module.)
@usableFromInline package struct TimeStateMachine<Rule: TimeRule>: Sendable {
  /// What the timer task does next.
  @usableFromInline package enum TimerAction: Sendable {
    /// Sleep until this instant, then call ``timerFired(at:)``.
    case sleep(until: Rule.Instant)
    /// The rule has no deadline, or the operator ended: return.
    case stop
  }

  /// What to do after releasing the lock: stop the timer, start one, deliver.
  @usableFromInline package struct Effects {
    @usableFromInline package var cancelTimer: Task<Void, Never>?
    /// What the rule emitted for this event, in order.
    @usableFromInline package var emitted: [Rule.Output] = []
    @usableFromInline package var terminal: Termination<Rule.Failure>?
    /// Start a timer task with this number and register it with ``timerStarted(_:number:)``.
    @usableFromInline package var startTimer: Int?

    @inlinable package init() {}
  }

  @usableFromInline package var rule: Rule
  /// What the rule emitted for the current event, and the end it decided on.
  @usableFromInline package var outbox = TimeOutbox<Rule.Output, Rule.Failure>()
  /// `false` once ended: the upstream ended the result, or the node disconnected.
  @usableFromInline package var isRunning = true
  @usableFromInline package var timer: Task<Void, Never>?
  /// The number of the timer task while one exists (started and not yet ended); numbers are never reused, so a task
  /// that registers after it already ended is told apart from its successor.
  @usableFromInline package var runningTimer: Int?
  @usableFromInline var timersStarted = 0

  @inlinable package init(rule: Rule) {
    self.rule = rule
  }

  /// An upstream value arrived at `now`.
  /// - Returns: what to do, or `nil` when the operator ended.
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

  /// The node connected: a rule that has a deadline from the start (a timeout's first deadline, a buffer's first
  /// window) gets its timer now.
  @inlinable package mutating func connected() -> Effects {
    settle()
  }

  /// The timer task registered; returns `false` if it is no longer the timer (the operator ended, another timer
  /// replaced it, or it found no deadline and ended before it was registered), so that the caller cancels it.
  @inlinable package mutating func timerStarted(_ task: Task<Void, Never>, number: Int) -> Bool {
    guard isRunning, runningTimer == number else { return false }
    timer = task
    return true
  }

  /// The timer looks for a deadline: it sleeps until the rule's, or ends while the rule has none (an event that
  /// brings a deadline later starts another).
  @inlinable package mutating func timerLooks(number: Int) -> TimerAction {
    guard isRunning, runningTimer == number else { return .stop }
    if let deadline = rule.deadline { return .sleep(until: deadline) }
    return timerIdles()
  }

  /// The timer slept until `now`. The rule handles it if its deadline has come; if the deadline moved later
  /// meanwhile, the timer sleeps again.
  /// - Returns: what to do, and what the timer does next.
  /// A timer that another replaced (the rule restarted it) does nothing and ends.
  @inlinable package mutating func timerFired(
    at now: Rule.Instant, number: Int
  ) -> (effects: Effects, next: TimerAction) {
    guard isRunning, runningTimer == number else { return (Effects(), .stop) }
    guard let deadline = rule.deadline else { return (Effects(), timerIdles()) }
    guard deadline <= now else { return (Effects(), .sleep(until: deadline)) }
    rule.timerFired(at: now, into: &outbox)
    let effects = settle()
    guard isRunning else { return (effects, .stop) }
    if let deadline = rule.deadline { return (effects, .sleep(until: deadline)) }
    return (effects, timerIdles())
  }

  /// The rule has no deadline: the timer task ends.
  @inlinable mutating func timerIdles() -> TimerAction {
    runningTimer = nil
    timer = nil
    return .stop
  }

  /// The node disconnected: everything stops.
  @inlinable package mutating func consumerStopped() -> Effects {
    var effects = Effects()
    if isRunning { stop(into: &effects) }
    return effects
  }

  /// Turns what the rule did with the event into effects: the values for the node, the end, or a new timer for a
  /// deadline. A rule that restarted its timer (``TimeOutbox/restartTimer()``) gets a new one in place of the
  /// running one, registered after what this event delivers; otherwise a running timer follows the deadline.
  @inlinable mutating func settle() -> Effects {
    var effects = Effects()
    swap(&effects.emitted, &outbox.emitted)
    let restart = outbox.restartsTimer
    outbox.restartsTimer = false
    if let end = outbox.end {
      outbox.end = nil
      stop(into: &effects)
      effects.terminal = end
    } else if rule.deadline != nil, runningTimer == nil || restart {
      if runningTimer != nil { effects.cancelTimer = timer.take() }
      timersStarted += 1
      runningTimer = timersStarted
      effects.startTimer = timersStarted
    }
    return effects
  }

  @inlinable mutating func stop(into effects: inout Effects) {
    isRunning = false
    effects.cancelTimer = timer.take()
  }
}
