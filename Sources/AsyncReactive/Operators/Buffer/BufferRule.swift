/// The rule of `buffer(every:)` on the time engine: windows of one interval, back to back from the
/// start of the work (its node's connection), each emitting the values collected during it when it ends, empty or not.
///
/// With a count limit, a window that collects that many values ends at once and the next window starts then. A
/// value arriving exactly at a window's end belongs to the next window. The upstream's finish ends the window in
/// progress early: its values are emitted if there are any. A failure drops them (the engine's default), even those
/// of a window that ended at the failure's instant when the timer has not closed it yet: unlike a value or the finish,
/// a failure does not close the windows that are over.
@usableFromInline package struct BufferRule<Element: Sendable, Failure: Error, Instant: InstantProtocol>: TimeRule {
  @usableFromInline package static var operatorName: String { "buffer(every:)" }

  @usableFromInline let interval: Instant.Duration
  @usableFromInline let limit: Int
  /// When the current window ends; `nil` until the work starts (no event arrives before).
  @usableFromInline var windowEnd: Instant?
  @usableFromInline var collected: [Element] = []

  /// A rule whose first window starts with ``started(at:)``.
  /// - Parameters:
  ///   - interval: the length of a window.
  ///   - count: the most values a window collects (`nil`: no limit).
  @inlinable package init(interval: Instant.Duration, count: Int?) {
    self.interval = interval
    limit = count ?? .max
  }

  /// A rule whose first window started at `start` (a hot node's connection).
  @inlinable package init(interval: Instant.Duration, count: Int?, start: Instant) {
    self.init(interval: interval, count: count)
    started(at: start)
  }

  @inlinable package var deadline: Instant? { windowEnd }

  @inlinable package mutating func started(at now: Instant) {
    windowEnd = now.advanced(by: interval)
  }

  @inlinable package mutating func received(
    _ element: Element,
    at now: Instant,
    into outbox: inout TimeOutbox<[Element], Failure>
  ) {
    closeWindows(endingBy: now, into: &outbox)
    collected.append(element)
    if collected.count >= limit {
      outbox.emit(collected)
      collected = []
      windowEnd = now.advanced(by: interval)
      // A new timer, scheduled now, after what this value delivered (RxSwift schedules the new window's timer when
      // the count closes the old one): the old timer would only wake at the old window's end and sleep again then,
      // which puts this window's end after work scheduled meanwhile for the same instant (a timeout re-armed by the
      // same value).
      outbox.restartTimer()
    }
  }

  @inlinable package mutating func upstreamFinished(at now: Instant, into outbox: inout TimeOutbox<[Element], Failure>)
  {
    closeWindows(endingBy: now, into: &outbox)
    if !collected.isEmpty { outbox.emit(collected) }
    outbox.finish()
  }

  @inlinable package mutating func timerFired(at now: Instant, into outbox: inout TimeOutbox<[Element], Failure>) {
    closeWindows(endingBy: now, into: &outbox)
  }

  /// Emits each window that is over by `now` (the timer may be late, or not have run yet).
  @inlinable mutating func closeWindows(endingBy now: Instant, into outbox: inout TimeOutbox<[Element], Failure>) {
    while let end = windowEnd, end <= now {
      outbox.emit(collected)
      collected = []
      windowEnd = end.advanced(by: interval)
    }
  }
}
