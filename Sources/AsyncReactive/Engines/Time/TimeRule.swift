/// The part that tells the time operators apart (debounce, throttle, delay, timeout, buffer by time): what an
/// upstream value, the upstream's end and the timer produce, and when the timer must wake next.
///
/// A rule is a pure value kept behind the engine's lock (``TimeStateMachine``), which handles everything the
/// operators share: the timer task, disconnection and the order of the end. Time comes in as instants read by the engine, so a rule can be driven synchronously in tests.
/// A rule emits values and decides the end through the ``TimeOutbox`` it is handed; it never sees a task or a
/// continuation.
@usableFromInline package protocol TimeRule: Sendable {
  /// The operator's name, for its timer task's name ("debounce timer").
  static var operatorName: String { get }
  /// The upstream's elements.
  associatedtype Input: Sendable
  /// The result's elements.
  associatedtype Output: Sendable
  /// The result's failure (the upstream's, already mapped by the engine).
  associatedtype Failure: Error
  associatedtype Instant: InstantProtocol

  /// When the timer must wake next; `nil` while the rule needs no timer.
  ///
  /// While set, a deadline may only move later: the timer, asleep until the deadline it last read, finds a
  /// later one when it wakes and sleeps again, but would not notice an earlier one in time.
  var deadline: Instant? { get }

  /// An upstream value arrived at `now`.
  mutating func received(_ input: Input, at now: Instant, into outbox: inout TimeOutbox<Output, Failure>)

  /// The upstream finished at `now`. The rule ends the result (``TimeOutbox/finish()``) now or schedules it.
  mutating func upstreamFinished(at now: Instant, into outbox: inout TimeOutbox<Output, Failure>)

  /// The upstream failed at `now`. By default the result fails at once and whatever the rule held is dropped
  /// (RxSwift's rule for every time operator).
  mutating func upstreamFailed(_ failure: Failure, at now: Instant, into outbox: inout TimeOutbox<Output, Failure>)

  /// The timer slept until `now`, which is at or after ``deadline`` (the engine checks; a deadline that moved
  /// later sends the timer back to sleep without calling this).
  mutating func timerFired(at now: Instant, into outbox: inout TimeOutbox<Output, Failure>)
}

extension TimeRule {
  @inlinable package mutating func upstreamFailed(
    _ failure: Failure,
    at now: Instant,
    into outbox: inout TimeOutbox<Output, Failure>
  ) {
    outbox.fail(failure)
  }
}

/// What a ``TimeRule`` produces for one event: the values it emits, in order, and the end it decides on, which the
/// engine carries out once the lock is released.
@usableFromInline package struct TimeOutbox<Output: Sendable, Failure: Error>: Sendable {
  /// What the rule emitted for the current event.
  @usableFromInline package var emitted: [Output] = []
  /// How the result ends, once the rule decided.
  @usableFromInline package var end: Termination<Failure>?
  /// Set by ``restartTimer()``; read and cleared by the state machine.
  @usableFromInline package var restartsTimer = false

  @inlinable package init() {}

  /// Emits `output`, after what this event emitted before.
  @inlinable package mutating func emit(_ output: Output) { emitted.append(output) }

  /// Ends the result normally, after the values emitted so far.
  @inlinable package mutating func finish() { end = .finished }

  /// Ends the result with `failure`, after the values emitted so far.
  @inlinable package mutating func fail(_ failure: Failure) { end = .failed(failure) }

  /// The rule set its deadline anew for this event (a timeout after each value, a debounce's new quiet period):
  /// the timer is rescheduled now, even if the instant is the same, so that work due at one instant runs in the
  /// order it was scheduled, as RxSwift reschedules its timer.
  @inlinable package mutating func restartTimer() { restartsTimer = true }
}
