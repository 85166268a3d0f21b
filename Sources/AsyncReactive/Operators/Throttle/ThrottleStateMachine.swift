/// The transitions of ``AsyncThrottleSequence``: the current window, the value kept for its end, the timer that
/// closes it, and how the operator ends.
///
/// A value that arrives while no window is open is emitted at once and opens a window of one interval. Values
/// arriving during a window are kept (the latest, or the first); when the window ends, the kept value is emitted
/// and opens the next window; a window that ends with nothing kept leaves the operator idle.
///
/// A pure value kept behind the storage's lock: each method handles one event and returns what the caller must
/// do once the lock is released (``Effects``). Time comes in as instants read by the caller.
package struct ThrottleStateMachine<Element: Sendable, Failure: Error, Instant: InstantProtocol>: Sendable {
  package typealias Consumer = ConsumerQueue<Element, Failure>.Waiter
  /// The timer task, parked while no window is open.
  package typealias Timer = UnsafeContinuation<TimerAction, Never>

  /// What the timer task does next.
  package enum TimerAction: Sendable {
    /// Sleep until this window end, then call ``timerFired(at:)``.
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

    /// Stops the timer of `running`; the upstream task is left alone (it is the caller, or already stopped).
    fileprivate init(stoppingTimerOf running: Running) {
      cancelTimer = running.timer
      if let parked = running.parkedTimer { timer = (parked, .stop) }
    }
  }

  fileprivate struct Window {
    var end: Instant
    /// The value to emit when the window ends.
    var kept: Element?
  }

  fileprivate struct Running {
    var upstream: Task<Void, Never>?
    var timer: Task<Void, Never>?
    var parkedTimer: Timer?
    /// `nil` while idle: the next value is emitted at once.
    var window: Window?
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
  private let interval: Instant.Duration
  private let keepsLatest: Bool

  /// - Parameters:
  ///   - interval: the length of a window.
  ///   - latest: whether a window keeps its latest value (`true`) or its first.
  package init(interval: Instant.Duration, latest: Bool) {
    self.interval = interval
    self.keepsLatest = latest
  }

  /// The pump and timer tasks exist; returns `false` if the operator already ended, so that the caller cancels
  /// them.
  package mutating func started(upstream: Task<Void, Never>, timer: Task<Void, Never>) -> Bool {
    switch state {
    case .running(var running):
      precondition(running.upstream == nil, "Internal inconsistency: throttle started twice")
      state = .modifying
      running.upstream = upstream
      running.timer = timer
      state = .running(running)
      return true
    case .finished:
      return false
    case .modifying:
      preconditionFailure("Internal inconsistency: throttle started while modifying")
    }
  }

  /// `element` arrived from upstream at `now`: emitted at once if no window is open, else kept for the
  /// window's end.
  ///
  /// Windows that ended by `now` are closed first, as the timer would have (it may just not have run yet): a
  /// value arriving exactly at a window's end belongs to the next window.
  /// - Returns: what to do, or `nil` when the operator ended and the pump must stop.
  package mutating func received(_ element: Element, at now: Instant) -> Effects? {
    switch state {
    case .running(var running):
      state = .modifying
      var effects = Effects()
      while let window = running.window, window.end <= now {
        running.window = close(window, into: &effects)
      }
      if var window = running.window {
        if keepsLatest || window.kept == nil { window.kept = element }
        running.window = window
      } else {
        emit(element, into: &effects)
        let end = now.advanced(by: interval)
        running.window = Window(end: end)
        if let parked = running.parkedTimer {
          running.parkedTimer = nil
          effects.timer = (parked, .sleep(until: end))
        }
      }
      state = .running(running)
      return effects
    case .finished:
      return nil
    case .modifying:
      preconditionFailure("Internal inconsistency: throttle received a value while modifying")
    }
  }

  /// The timer looks for a window end to sleep until; it is parked while no window is open.
  /// - Returns: what the timer does now, or `nil` if it was parked.
  package mutating func timerWaits(_ timer: Timer) -> TimerAction? {
    switch state {
    case .running(var running):
      if let window = running.window { return .sleep(until: window.end) }
      precondition(running.parkedTimer == nil, "Internal inconsistency: the throttle timer parked twice")
      state = .modifying
      running.parkedTimer = timer
      state = .running(running)
      return nil
    case .finished:
      return .stop
    case .modifying:
      preconditionFailure("Internal inconsistency: throttle timer waited while modifying")
    }
  }

  /// The timer slept until `deadline`: the window ending then is closed (its kept value emitted, opening the
  /// next window). If the pump already closed it, the timer sleeps until the current window's end.
  /// - Returns: what to do, and what the timer does next (`nil`: wait for a window with ``timerWaits(_:)``).
  package mutating func timerFired(at deadline: Instant) -> (effects: Effects, next: TimerAction?) {
    switch state {
    case .running(var running):
      guard let window = running.window else { return (Effects(), nil) }
      guard window.end <= deadline else { return (Effects(), .sleep(until: window.end)) }
      state = .modifying
      var effects = Effects()
      running.window = close(window, into: &effects)
      let next = running.window.map { TimerAction.sleep(until: $0.end) }
      state = .running(running)
      return (effects, next)
    case .finished:
      return (Effects(), .stop)
    case .modifying:
      preconditionFailure("Internal inconsistency: throttle timer fired while modifying")
    }
  }

  /// The upstream finished: the value kept for the current window is emitted at once, then the end.
  package mutating func upstreamFinished() -> Effects {
    guard case .running(let running) = state else { return Effects() }
    state = .finished
    var effects = Effects(stoppingTimerOf: running)
    if let kept = running.window?.kept { emit(kept, into: &effects) }
    effects.terminal = .finished
    return effects
  }

  /// The upstream failed: the kept value is dropped and the failure delivered at once.
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

  /// Ends `window`: emits its kept value and returns the window that this opens, or `nil` (idle).
  private mutating func close(_ window: Window, into effects: inout Effects) -> Window? {
    guard let kept = window.kept else { return nil }
    emit(kept, into: &effects)
    return Window(end: window.end.advanced(by: interval))
  }

  private mutating func emit(_ element: Element, into effects: inout Effects) {
    // Two values may be emitted under one lock (a window closed late, then a new value): the parked consumer
    // takes the first, the queue keeps the second.
    if let waiter = queue?.enqueue(element) { effects.consumer = (waiter, element) }
  }
}
