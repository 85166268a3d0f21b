/// The rule of ``AsyncTimeoutSequence`` on the time engine: every event must arrive strictly before the deadline,
/// and each value moves the deadline one interval past its arrival.
///
/// An event that arrives at or after the deadline, before the timer has run, times out just as the timer would
/// have, so that the outcome does not depend on which task runs first. Timing out ends the result with the
/// `timedOut` failure; the engine cancels the upstream.
@usableFromInline package struct TimeoutRule<Element: Sendable, Failure: Error, Instant: InstantProtocol>: TimeRule {
  @usableFromInline package static var operatorName: String { "timeout" }

  @usableFromInline let interval: Instant.Duration
  @usableFromInline let timedOut: Failure
  /// The instant by which the next event must have arrived.
  @usableFromInline var due: Instant

  /// - Parameters:
  ///   - interval: how long the upstream may go without an event.
  ///   - start: when the iteration started: the first event is due one interval later.
  ///   - timedOut: the failure to end with when the deadline passes.
  @inlinable package init(interval: Instant.Duration, start: Instant, timedOut: Failure) {
    self.interval = interval
    self.timedOut = timedOut
    due = start.advanced(by: interval)
  }

  @inlinable package var deadline: Instant? { due }

  @inlinable package mutating func received(
    _ element: Element,
    at now: Instant,
    into outbox: inout TimeOutbox<Element, Failure>
  ) {
    guard now < due else { return outbox.fail(timedOut) }
    due = now.advanced(by: interval)
    outbox.emit(element)
  }

  @inlinable package mutating func upstreamFinished(at now: Instant, into outbox: inout TimeOutbox<Element, Failure>) {
    if now < due { outbox.finish() } else { outbox.fail(timedOut) }
  }

  @inlinable package mutating func upstreamFailed(
    _ failure: Failure,
    at now: Instant,
    into outbox: inout TimeOutbox<Element, Failure>
  ) {
    outbox.fail(now < due ? failure : timedOut)
  }

  @inlinable package mutating func timerFired(at now: Instant, into outbox: inout TimeOutbox<Element, Failure>) {
    outbox.fail(timedOut)
  }
}
