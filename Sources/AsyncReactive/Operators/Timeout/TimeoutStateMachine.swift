/// The transitions of ``AsyncTimeoutSequence``: the deadline for the next event, the timer that enforces it, and
/// how the operator ends.
///
/// Every event must arrive strictly before the deadline; each value moves the deadline one interval past its
/// arrival. An event that arrives at or after the deadline, before the timer has run, times out just as the timer
/// would have, so that the outcome does not depend on which task runs first.
///
/// A pure value kept behind the storage's lock: each method handles one event and returns what the caller must
/// do once the lock is released (``Effects``). Time comes in as instants read by the caller.
package struct TimeoutStateMachine<Element: Sendable, Failure: Error, Instant: InstantProtocol>: Sendable {
  package typealias Consumer = ConsumerQueue<Element, Failure>.Waiter

  /// What the timer task does next.
  package enum TimerAction: Sendable {
    /// Sleep until this deadline, then call ``timerFired(at:)``.
    case sleep(until: Instant)
    /// The operator ended: return.
    case stop
  }

  /// What to do after releasing the lock, in this order: cancel the tasks, wake the consumer, then record
  /// ``terminal`` with ``terminate(_:)`` (so that the upstream is cancelled and no timer is left sleeping once
  /// the consumer sees the end).
  package struct Effects {
    package var cancelUpstream: Task<Void, Never>?
    package var cancelTimer: Task<Void, Never>?
    /// The parked consumer, with the element handed to it (`nil`: it only has to look again).
    package var consumer: (waiter: Consumer, element: Element?)?
    package var terminal: Termination<Failure>?

    init() {}
  }

  private struct Running {
    var upstream: Task<Void, Never>?
    var timer: Task<Void, Never>?
    var deadline: Instant
  }

  private enum State {
    case running(Running)
    /// Only during a mutation, so that the payload of `running` is uniquely referenced (no copy).
    case modifying
    /// Ended: the upstream finished or failed, the deadline passed, or the consumer stopped.
    case finished
  }

  private var state: State
  /// The consumer's buffer; `nil` once the consumer stopped. The consumer's cursor drains it directly.
  package var queue: ConsumerQueue<Element, Failure>? = ConsumerQueue(policy: .unbounded)
  private let interval: Instant.Duration
  private let timedOut: Failure

  /// - Parameters:
  ///   - interval: how long the upstream may go without an event.
  ///   - start: when the iteration started: the first event is due one interval later.
  ///   - timedOut: the failure to end with when the deadline passes.
  package init(interval: Instant.Duration, start: Instant, timedOut: Failure) {
    self.interval = interval
    self.timedOut = timedOut
    state = .running(Running(deadline: start.advanced(by: interval)))
  }

  /// The pump and timer tasks exist; returns `false` if the operator already ended, so that the caller cancels
  /// them.
  package mutating func started(upstream: Task<Void, Never>, timer: Task<Void, Never>) -> Bool {
    switch state {
    case .running(var running):
      precondition(running.upstream == nil, "Internal inconsistency: timeout started twice")
      state = .modifying
      running.upstream = upstream
      running.timer = timer
      state = .running(running)
      return true
    case .finished:
      return false
    case .modifying:
      preconditionFailure("Internal inconsistency: timeout started while modifying")
    }
  }

  /// Where the timer starts: the first deadline.
  package func timerStarts() -> TimerAction {
    guard case .running(let running) = state else { return .stop }
    return .sleep(until: running.deadline)
  }

  /// `element` arrived from upstream at `now`: delivered, and the deadline moves to `now + interval`; or, if the
  /// deadline has passed, the operator times out.
  /// - Returns: what to do, and whether the pump goes on.
  package mutating func received(_ element: Element, at now: Instant) -> (effects: Effects, goOn: Bool) {
    switch state {
    case .running(var running):
      guard now < running.deadline else { return (timeOut(), false) }
      state = .modifying
      running.deadline = now.advanced(by: interval)
      state = .running(running)
      var effects = Effects()
      if let waiter = queue?.enqueue(element) { effects.consumer = (waiter, element) }
      return (effects, true)
    case .finished:
      return (Effects(), false)
    case .modifying:
      preconditionFailure("Internal inconsistency: timeout received a value while modifying")
    }
  }

  /// The timer slept until `deadline`: the operator times out unless a value moved the deadline meanwhile, in
  /// which case the timer sleeps again until the new one.
  /// - Returns: what to do, and what the timer does next.
  package mutating func timerFired(at deadline: Instant) -> (effects: Effects, next: TimerAction) {
    switch state {
    case .running(let running):
      guard running.deadline <= deadline else { return (Effects(), .sleep(until: running.deadline)) }
      return (timeOut(), .stop)
    case .finished:
      return (Effects(), .stop)
    case .modifying:
      preconditionFailure("Internal inconsistency: timeout timer fired while modifying")
    }
  }

  /// The upstream finished at `now`: the end is delivered, unless it came too late.
  package mutating func upstreamFinished(at now: Instant) -> Effects {
    end(with: .finished, at: now)
  }

  /// The upstream failed at `now` with `failure` (already mapped to the operator's failure type): delivered,
  /// unless it came too late.
  package mutating func upstreamFailed(_ failure: Failure, at now: Instant) -> Effects {
    end(with: .failed(failure), at: now)
  }

  /// The consumer stopped (cancelled, or dropped its iterator): everything stops.
  package mutating func consumerStopped() -> Effects {
    var effects = Effects()
    if case .running(let running) = state {
      state = .finished
      effects.cancelUpstream = running.upstream
      effects.cancelTimer = running.timer
    }
    if let waiter = queue?.cancel() { effects.consumer = (waiter, nil) }
    queue = nil
    return effects
  }

  /// Records the end in the consumer's queue (the second step of an ending, after the tasks were cancelled).
  /// - Returns: the parked consumer to wake.
  package mutating func terminate(_ termination: Termination<Failure>) -> Consumer? {
    queue?.terminate(termination)
  }

  private mutating func end(with termination: Termination<Failure>, at now: Instant) -> Effects {
    guard case .running(let running) = state else { return Effects() }
    guard now < running.deadline else { return timeOut() }
    state = .finished
    var effects = Effects()
    effects.cancelTimer = running.timer
    effects.terminal = termination
    return effects
  }

  /// Ends with the timeout failure and cancels both tasks (cancelling the task that calls this is harmless: it
  /// stops right after).
  private mutating func timeOut() -> Effects {
    guard case .running(let running) = state else {
      preconditionFailure("Internal inconsistency: timing out after the end")
    }
    state = .finished
    var effects = Effects()
    effects.cancelUpstream = running.upstream
    effects.cancelTimer = running.timer
    effects.terminal = .failed(timedOut)
    return effects
  }
}
