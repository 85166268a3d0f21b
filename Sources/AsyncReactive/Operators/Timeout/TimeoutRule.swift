/// The rule of `timeout` on the time engine: every event must arrive strictly before the deadline,
/// and each value moves the deadline one interval past its arrival.
///
/// An event that arrives at or after the deadline, before the timer has run, times out just as the timer would
/// have, so that the outcome does not depend on which task runs first. Timing out ends the result with the
/// `timedOut` failure; the engine cancels the upstream.
@usableFromInline package struct TimeoutRule<Element: Sendable, Failure: Error, Instant: InstantProtocol>: TimeRule {
  @usableFromInline package static var operatorName: String { "timeout" }

  @usableFromInline let interval: Instant.Duration
  @usableFromInline let timedOut: Failure
  /// The instant by which the next event must have arrived; `nil` until the work starts (no event arrives
  /// before).
  @usableFromInline var due: Instant?

  /// A rule whose clock starts with ``started(at:)``.
  /// - Parameters:
  ///   - interval: how long the upstream may go without an event.
  ///   - timedOut: the failure to end with when the deadline passes.
  @inlinable package init(interval: Instant.Duration, timedOut: Failure) {
    self.interval = interval
    self.timedOut = timedOut
  }

  /// A rule whose clock started at `start` (a hot node's connection): the first event is due one interval later.
  @inlinable package init(interval: Instant.Duration, start: Instant, timedOut: Failure) {
    self.init(interval: interval, timedOut: timedOut)
    started(at: start)
  }

  @inlinable package var deadline: Instant? { due }

  @inlinable package mutating func started(at now: Instant) {
    due = now.advanced(by: interval)
  }

  /// Whether an event at `now` is in time.
  @inlinable func isInTime(_ now: Instant) -> Bool {
    guard let due else { return true }
    return now < due
  }

  @inlinable package mutating func received(
    _ element: Element,
    at now: Instant,
    into outbox: inout TimeOutbox<Element, Failure>
  ) {
    guard isInTime(now) else { return outbox.fail(timedOut) }
    due = now.advanced(by: interval)
    outbox.emit(element)
    outbox.restartTimer()
  }

  @inlinable package mutating func upstreamFinished(at now: Instant, into outbox: inout TimeOutbox<Element, Failure>) {
    if isInTime(now) { outbox.finish() } else { outbox.fail(timedOut) }
  }

  @inlinable package mutating func upstreamFailed(
    _ failure: Failure,
    at now: Instant,
    into outbox: inout TimeOutbox<Element, Failure>
  ) {
    outbox.fail(isInTime(now) ? failure : timedOut)
  }

  @inlinable package mutating func timerFired(at now: Instant, into outbox: inout TimeOutbox<Element, Failure>) {
    outbox.fail(timedOut)
  }
}
