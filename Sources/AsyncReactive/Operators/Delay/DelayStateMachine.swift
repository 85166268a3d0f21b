/// The transitions of ``AsyncDelaySequence``: the events waiting for their due time, the timer that releases
/// them, and how the operator ends.
///
/// Values and the finish are scheduled `delay` after they arrive and released in arrival order; a failure skips
/// the schedule.
///
/// A pure value kept behind the storage's lock: each method handles one event and returns what the caller must
/// do once the lock is released (``Effects``). Time comes in as instants read by the caller.
package struct DelayStateMachine<Element: Sendable, Failure: Error, Instant: InstantProtocol>: Sendable {
  package typealias Consumer = ConsumerQueue<Element, Failure>.Waiter
  /// The timer task, parked while nothing is scheduled.
  package typealias Timer = UnsafeContinuation<TimerAction, Never>

  /// What the timer task does next.
  package enum TimerAction: Sendable {
    /// Sleep until this due time, then call ``timerFired(at:)``.
    case sleep(until: Instant)
    /// The operator ended: return.
    case stop
  }

  /// What to do after releasing the lock, in this order: cancel the tasks, resume the timer, wake the consumer,
  /// then record ``terminal`` with ``terminate(_:)`` (so that no timer is left sleeping once the consumer sees
  /// the end).
  package struct Effects {
    package var cancelUpstream: Task<Void, Never>?
    package var cancelTimer: Task<Void, Never>?
    package var timer: (continuation: Timer, action: TimerAction)?
    /// The parked consumer, with the element handed to it (`nil`: it only has to look again).
    package var consumer: (waiter: Consumer, element: Element?)?
    package var terminal: Termination<Failure>?

    init() {}
  }

  fileprivate enum Event {
    case element(Element)
    case finish
  }

  fileprivate struct Scheduled {
    var event: Event
    var due: Instant
  }

  fileprivate struct Running {
    var upstream: Task<Void, Never>?
    var timer: Task<Void, Never>?
    var parkedTimer: Timer?
    /// In due order (arrival order: the clock does not go back); entries before `head` were released.
    var scheduled: [Scheduled] = []
    var head = 0

    var next: Scheduled? { head < scheduled.count ? scheduled[head] : nil }
  }

  private enum State {
    case running(Running)
    /// Only during a mutation, so that the payload of `running` is uniquely referenced (no copy of the
    /// schedule).
    case modifying
    /// Ended: the finish was released, the upstream failed, or the consumer stopped.
    case finished
  }

  private var state: State = .running(Running())
  /// The consumer's buffer; `nil` once the consumer stopped. The consumer's cursor drains it directly.
  package var queue: ConsumerQueue<Element, Failure>? = ConsumerQueue(policy: .unbounded)
  private let delay: Instant.Duration

  /// - Parameter delay: how long each value and the finish are held back.
  package init(delay: Instant.Duration) {
    self.delay = delay
  }

  /// The pump and timer tasks exist; returns `false` if the operator already ended, so that the caller cancels
  /// them.
  package mutating func started(upstream: Task<Void, Never>, timer: Task<Void, Never>) -> Bool {
    switch state {
    case .running(var running):
      precondition(running.upstream == nil, "Internal inconsistency: delay started twice")
      state = .modifying
      running.upstream = upstream
      running.timer = timer
      state = .running(running)
      return true
    case .finished:
      return false
    case .modifying:
      preconditionFailure("Internal inconsistency: delay started while modifying")
    }
  }

  /// `element` arrived from upstream at `now`: it is due `delay` later.
  /// - Returns: what to do, or `nil` when the operator ended and the pump must stop.
  package mutating func received(_ element: Element, at now: Instant) -> Effects? {
    schedule(.element(element), at: now)
  }

  /// The upstream finished at `now`: the end is due `delay` later.
  package mutating func upstreamFinished(at now: Instant) -> Effects {
    schedule(.finish, at: now) ?? Effects()
  }

  /// The upstream failed: the failure is delivered at once and the values still scheduled are dropped (as in
  /// RxSwift and ReactiveSwift).
  package mutating func upstreamFailed(_ failure: Failure) -> Effects {
    guard case .running(let running) = state else { return Effects() }
    state = .finished
    var effects = Effects()
    effects.cancelTimer = running.timer
    if let parked = running.parkedTimer { effects.timer = (parked, .stop) }
    effects.terminal = .failed(failure)
    return effects
  }

  /// The timer looks for the next due time; it is parked while nothing is scheduled.
  /// - Returns: what the timer does now, or `nil` if it was parked.
  package mutating func timerWaits(_ timer: Timer) -> TimerAction? {
    switch state {
    case .running(var running):
      if let next = running.next { return .sleep(until: next.due) }
      precondition(running.parkedTimer == nil, "Internal inconsistency: the delay timer parked twice")
      state = .modifying
      running.parkedTimer = timer
      state = .running(running)
      return nil
    case .finished:
      return .stop
    case .modifying:
      preconditionFailure("Internal inconsistency: delay timer waited while modifying")
    }
  }

  /// The timer slept until `deadline`: every event due by then is released, in order.
  /// - Returns: what to do, and what the timer does next (`nil`: wait with ``timerWaits(_:)``).
  package mutating func timerFired(at deadline: Instant) -> (effects: Effects, next: TimerAction?) {
    switch state {
    case .running(var running):
      state = .modifying
      var effects = Effects()
      while let next = running.next, next.due <= deadline {
        running.head += 1
        switch next.event {
        case .element(let element):
          if let waiter = queue?.enqueue(element) { effects.consumer = (waiter, element) }
        case .finish:
          // The upstream's task has ended and this is the timer's own task: nothing to cancel.
          state = .finished
          effects.terminal = .finished
          return (effects, .stop)
        }
      }
      if running.head >= 32 && running.head * 2 >= running.scheduled.count {
        running.scheduled.removeFirst(running.head)
        running.head = 0
      }
      let next = running.next.map { TimerAction.sleep(until: $0.due) }
      state = .running(running)
      return (effects, next)
    case .finished:
      return (Effects(), .stop)
    case .modifying:
      preconditionFailure("Internal inconsistency: delay timer fired while modifying")
    }
  }

  /// The consumer stopped (cancelled, or dropped its iterator): everything stops.
  package mutating func consumerStopped() -> Effects {
    var effects = Effects()
    if case .running(let running) = state {
      state = .finished
      effects.cancelUpstream = running.upstream
      effects.cancelTimer = running.timer
      if let parked = running.parkedTimer { effects.timer = (parked, .stop) }
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

  private mutating func schedule(_ event: Event, at now: Instant) -> Effects? {
    switch state {
    case .running(var running):
      state = .modifying
      let due = now.advanced(by: delay)
      running.scheduled.append(Scheduled(event: event, due: due))
      var effects = Effects()
      if let parked = running.parkedTimer {
        running.parkedTimer = nil
        effects.timer = (parked, .sleep(until: due))
      }
      state = .running(running)
      return effects
    case .finished:
      return nil
    case .modifying:
      preconditionFailure("Internal inconsistency: delay scheduled an event while modifying")
    }
  }
}
