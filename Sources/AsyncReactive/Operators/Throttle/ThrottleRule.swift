/// The rule of `throttle` on the time engine: windows of one interval, each opened by the value
/// it lets through.
///
/// A value that arrives while no window is open is emitted at once and opens a window `[now, now + interval)`.
/// A value arriving inside a window is dropped (`latest: false`, RxSwift), or kept as the window's latest
/// (`latest: true`): when that window ends, the kept value is emitted and opens the next window; a window that
/// ends with nothing kept leaves the operator idle. A value arriving exactly at a window's end is outside it.
/// The finish emits the kept value at once; a failure drops it.
///
/// Only `latest: true` needs the timer (to emit the kept value at the window's end); with `latest: false` a
/// window's end is noticed when the next value arrives.
@usableFromInline package struct ThrottleRule<Element: Sendable, Failure: Error, Instant: InstantProtocol>: TimeRule {
  @usableFromInline package static var operatorName: String { "throttle" }

  @usableFromInline let interval: Instant.Duration
  @usableFromInline let keepsLatest: Bool
  /// The end of the open window; `nil` while idle.
  @usableFromInline var windowEnd: Instant?
  /// The value to emit when the window ends (`latest: true` only).
  @usableFromInline var kept: Element?

  /// - Parameters:
  ///   - interval: the length of a window.
  ///   - latest: whether a window keeps its latest value for its end (`true`) or drops what arrives in it.
  @inlinable package init(interval: Instant.Duration, latest: Bool) {
    self.interval = interval
    self.keepsLatest = latest
  }

  @inlinable package var deadline: Instant? { keepsLatest ? windowEnd : nil }

  @inlinable package mutating func received(
    _ element: Element,
    at now: Instant,
    into outbox: inout TimeOutbox<Element, Failure>
  ) {
    // Windows that ended by now are closed first, as the timer would have (it may just not have run yet).
    closeWindows(endingBy: now, into: &outbox)
    if windowEnd != nil {
      if keepsLatest { kept = element }
    } else {
      outbox.emit(element)
      windowEnd = now.advanced(by: interval)
    }
  }

  @inlinable package mutating func upstreamFinished(at now: Instant, into outbox: inout TimeOutbox<Element, Failure>) {
    if let kept { outbox.emit(kept) }
    outbox.finish()
  }

  @inlinable package mutating func timerFired(at now: Instant, into outbox: inout TimeOutbox<Element, Failure>) {
    closeWindows(endingBy: now, into: &outbox)
  }

  /// Ends each window that is over by `now`: its kept value is emitted and opens the next window; without one,
  /// the operator is idle.
  @inlinable mutating func closeWindows(endingBy now: Instant, into outbox: inout TimeOutbox<Element, Failure>) {
    while let end = windowEnd, end <= now {
      guard let value = kept else {
        windowEnd = nil
        return
      }
      kept = nil
      outbox.emit(value)
      windowEnd = end.advanced(by: interval)
    }
  }
}
