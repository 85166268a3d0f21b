/// The rule of `debounce` on the time engine: the latest value waits out a quiet period, and each
/// new value replaces it and starts the period again.
///
/// A value that arrives after the pending value's quiet period ended (a late timer has not run yet) emits the pending
/// value first; one that arrives exactly at its deadline replaces it (RxSwift's order under a test scheduler). The upstream's finish emits the pending value at once; a failure drops it.
@usableFromInline package struct DebounceRule<Element: Sendable, Failure: Error, Instant: InstantProtocol>: TimeRule {
  @usableFromInline package static var operatorName: String { "debounce" }

  @usableFromInline let dueTime: Instant.Duration
  /// The latest value and the instant its quiet period ends.
  @usableFromInline var pending: (element: Element, deadline: Instant)?

  /// - Parameter dueTime: how long a value must go without a successor before it is emitted.
  @inlinable package init(dueTime: Instant.Duration) {
    self.dueTime = dueTime
  }

  @inlinable package var deadline: Instant? { pending?.deadline }

  @inlinable package mutating func received(
    _ element: Element,
    at now: Instant,
    into outbox: inout TimeOutbox<Element, Failure>
  ) {
    // A value that arrives at the pending one's deadline, before the timer ran, replaces it (RxSwift's tie: work
    // due at one instant runs in the order it was scheduled, and this value's delivery was scheduled first). Only a
    // timer that is late (a real clock's) leaves a deadline already past.
    if let pending, pending.deadline < now { outbox.emit(pending.element) }
    pending = (element, now.advanced(by: dueTime))
    outbox.restartTimer()
  }

  @inlinable package mutating func upstreamFinished(at now: Instant, into outbox: inout TimeOutbox<Element, Failure>) {
    if let pending { outbox.emit(pending.element) }
    outbox.finish()
  }

  @inlinable package mutating func timerFired(at now: Instant, into outbox: inout TimeOutbox<Element, Failure>) {
    if let pending { outbox.emit(pending.element) }
    pending = nil
  }
}
