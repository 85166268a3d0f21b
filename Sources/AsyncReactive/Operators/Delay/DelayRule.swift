/// The rule of `delay` on the time engine: values and the finish are scheduled `delay` after they
/// arrive and released in arrival order; a failure skips the schedule (the engine's default).
@usableFromInline package struct DelayRule<Element: Sendable, Failure: Error, Instant: InstantProtocol>: TimeRule {
  @usableFromInline package static var operatorName: String { "delay" }

  @usableFromInline let delay: Instant.Duration
  /// In due order (arrival order: the clock does not go back); entries before `head` were released. `nil` is
  /// the finish.
  @usableFromInline package var scheduled: [(event: Element?, due: Instant)] = []
  @usableFromInline var head = 0

  /// - Parameter delay: how long each value and the finish are held back.
  @inlinable package init(delay: Instant.Duration) {
    self.delay = delay
  }

  @inlinable package var deadline: Instant? { head < scheduled.count ? scheduled[head].due : nil }

  @inlinable package mutating func received(
    _ element: Element,
    at now: Instant,
    into outbox: inout TimeOutbox<Element, Failure>
  ) {
    scheduled.append((element, now.advanced(by: delay)))
  }

  @inlinable package mutating func upstreamFinished(at now: Instant, into outbox: inout TimeOutbox<Element, Failure>) {
    scheduled.append((nil, now.advanced(by: delay)))
  }

  /// Releases every event due by `now`, in order.
  @inlinable package mutating func timerFired(at now: Instant, into outbox: inout TimeOutbox<Element, Failure>) {
    while head < scheduled.count, scheduled[head].due <= now {
      let event = scheduled[head].event
      head += 1
      guard let element = event else {
        outbox.finish()
        return
      }
      outbox.emit(element)
    }
    if head >= 32 && head * 2 >= scheduled.count {
      scheduled.removeFirst(head)
      head = 0
    }
  }
}
