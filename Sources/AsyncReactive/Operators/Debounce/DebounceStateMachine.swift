/// The transitions of ``AsyncDebounceSequence``: the value waiting out its quiet period, the timer that emits
/// it, and how the operator ends.
///
/// A pure value kept behind the storage's lock: each method handles one event and returns what the caller must
/// do once the lock is released (``Effects``). Time comes in as instants read by the caller, so the machine can
/// be driven synchronously in tests.
package struct DebounceStateMachine<Element: Sendable, Failure: Error, Instant: InstantProtocol>: Sendable {
  package typealias Consumer = ConsumerQueue<Element, Failure>.Waiter
  /// The timer task, parked until there is a deadline to sleep until.
  package typealias Timer = UnsafeContinuation<TimerAction, Never>

  /// What the timer task does next.
  package enum TimerAction: Sendable {
    /// Sleep until this deadline, then call ``timerFired(at:)``.
    case sleep(until: Instant)
    /// The operator ended: return.
    case stop
  }

  /// What to do after releasing the lock, in this order: cancel the tasks (so that no timer is left sleeping
  /// once the consumer sees the end), resume the timer, wake the consumer, then record ``terminal`` in the
  /// consumer's queue with ``terminate(_:)``.
  package struct Effects {
    package var cancelUpstream: Task<Void, Never>?
    package var cancelTimer: Task<Void, Never>?
    package var timer: (continuation: Timer, action: TimerAction)?
    /// The parked consumer, with the element handed to it (`nil`: it only has to look again).
    package var consumer: (waiter: Consumer, element: Element?)?
    package var terminal: Termination<Failure>?

    init() {}

    /// Stops the timer of `running`; the upstream task is left alone (it is the caller, or already stopped).
    fileprivate init(stoppingTimerOf running: Running) {
      cancelTimer = running.timer
      if let parked = running.parkedTimer { timer = (parked, .stop) }
    }
  }

  fileprivate struct Running {
    var upstream: Task<Void, Never>?
    var timer: Task<Void, Never>?
    var parkedTimer: Timer?
    /// The latest value and the instant its quiet period ends.
    var pending: (element: Element, deadline: Instant)?
  }

  private enum State {
    case running(Running)
    /// Only during a mutation, so that the payload of `running` is uniquely referenced (no copy).
    case modifying
    /// Ended: the upstream finished or failed, or the consumer stopped; the tasks were told to stop.
    case finished
  }

  private var state: State = .running(Running())
  /// The consumer's buffer; `nil` once the consumer stopped. The consumer's cursor drains it directly.
  package var queue: ConsumerQueue<Element, Failure>? = ConsumerQueue(policy: .unbounded)
  private let dueTime: Instant.Duration

  /// - Parameter dueTime: how long a value must go without a successor before it is emitted.
  package init(dueTime: Instant.Duration) {
    self.dueTime = dueTime
  }

  /// The pump and timer tasks exist; returns `false` if the operator already ended, so that the caller cancels
  /// them.
  package mutating func started(upstream: Task<Void, Never>, timer: Task<Void, Never>) -> Bool {
    switch state {
    case .running(var running):
      precondition(running.upstream == nil, "Internal inconsistency: debounce started twice")
      state = .modifying
      running.upstream = upstream
      running.timer = timer
      state = .running(running)
      return true
    case .finished:
      return false
    case .modifying:
      preconditionFailure("Internal inconsistency: debounce started while modifying")
    }
  }

  /// `element` arrived from upstream at `now`: it replaces the pending value and starts a new quiet period.
  ///
  /// A pending value whose deadline has already passed is emitted first: its quiet period was over, the timer
  /// just has not run yet.
  /// - Returns: what to do, or `nil` when the operator ended and the pump must stop.
  package mutating func received(_ element: Element, at now: Instant) -> Effects? {
    switch state {
    case .running(var running):
      state = .modifying
      var effects = Effects()
      if let pending = running.pending, pending.deadline <= now {
        emit(pending.element, into: &effects)
      }
      let deadline = now.advanced(by: dueTime)
      running.pending = (element, deadline)
      if let parked = running.parkedTimer {
        running.parkedTimer = nil
        effects.timer = (parked, .sleep(until: deadline))
      }
      state = .running(running)
      return effects
    case .finished:
      return nil
    case .modifying:
      preconditionFailure("Internal inconsistency: debounce received a value while modifying")
    }
  }

  /// The timer looks for a deadline: the pending value's, or none, in which case it is parked until a value
  /// arrives or the operator ends.
  /// - Returns: what the timer does now, or `nil` if it was parked.
  package mutating func timerWaits(_ timer: Timer) -> TimerAction? {
    switch state {
    case .running(var running):
      if let pending = running.pending { return .sleep(until: pending.deadline) }
      precondition(running.parkedTimer == nil, "Internal inconsistency: the debounce timer parked twice")
      state = .modifying
      running.parkedTimer = timer
      state = .running(running)
      return nil
    case .finished:
      return .stop
    case .modifying:
      preconditionFailure("Internal inconsistency: debounce timer waited while modifying")
    }
  }

  /// The timer slept until `deadline`. It emits the pending value if its quiet period is over; if a newer
  /// value moved the deadline, it sleeps again.
  /// - Returns: what to do, and what the timer does next (`nil`: wait for a value with ``timerWaits(_:)``).
  package mutating func timerFired(at deadline: Instant) -> (effects: Effects, next: TimerAction?) {
    switch state {
    case .running(var running):
      guard let pending = running.pending else { return (Effects(), nil) }
      guard pending.deadline <= deadline else { return (Effects(), .sleep(until: pending.deadline)) }
      state = .modifying
      running.pending = nil
      state = .running(running)
      var effects = Effects()
      emit(pending.element, into: &effects)
      return (effects, nil)
    case .finished:
      return (Effects(), .stop)
    case .modifying:
      preconditionFailure("Internal inconsistency: debounce timer fired while modifying")
    }
  }

  /// The upstream finished: the pending value is emitted at once, then the end.
  package mutating func upstreamFinished() -> Effects {
    guard case .running(let running) = state else { return Effects() }
    state = .finished
    var effects = Effects(stoppingTimerOf: running)
    if let pending = running.pending { emit(pending.element, into: &effects) }
    effects.terminal = .finished
    return effects
  }

  /// The upstream failed: the pending value is dropped and the failure delivered at once.
  package mutating func upstreamFailed(_ failure: Failure) -> Effects {
    guard case .running(let running) = state else { return Effects() }
    state = .finished
    var effects = Effects(stoppingTimerOf: running)
    effects.terminal = .failed(failure)
    return effects
  }

  /// The consumer stopped (cancelled, or dropped its iterator): everything stops.
  package mutating func consumerStopped() -> Effects {
    var effects = Effects()
    if case .running(let running) = state {
      state = .finished
      effects = Effects(stoppingTimerOf: running)
      effects.cancelUpstream = running.upstream
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

  private mutating func emit(_ element: Element, into effects: inout Effects) {
    if let waiter = queue?.enqueue(element) { effects.consumer = (waiter, element) }
  }
}
