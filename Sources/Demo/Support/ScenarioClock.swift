/// The clock a scenario runs on: a base clock (real or virtual) whose time reads as the deadline of the
/// latest timer that fired.
///
/// Every sleep in a scenario (API latencies, the user's pauses, `debounce`, the leave timer) goes through this
/// clock. `now` does not move with the wall clock between timers: it jumps to a sleep's deadline when that
/// sleep ends. So a line printed in reaction to a timer carries that timer's exact time, a sleep started in
/// reaction to it is measured from that time, and a real-time run prints the same timeline as a virtual-time
/// run (`--fast`), to the millisecond, whatever the machine's scheduling jitter.
///
/// ```swift
/// let clock = ScenarioClock(ContinuousClock())
/// try await clock.sleep(for: .milliseconds(120))
/// print(clock.elapsed)   // 120 ms, exactly
/// ```
final class ScenarioClock: Clock, Sendable {
  typealias Duration = Swift.Duration

  /// A point on the scenario's timeline: the time since the scenario started.
  struct Instant: InstantProtocol, Hashable {
    typealias Duration = Swift.Duration

    /// Time since the scenario started.
    var offset: Duration

    func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct State {
    var now: Duration = .zero
    /// Deadlines of the sleeps in progress, by sleep.
    var pending: [Int: Duration] = [:]
    var nextID = 0
    var onAdvance: (@Sendable (Duration) -> Void)?
  }

  private let state = Lock(State())
  private let activity: Activity
  private let sleepOnBase: @Sendable (Duration) async throws -> Void

  /// Creates a scenario clock over `base`; the scenario's time zero is `base.now` at this call. Each sleep that
  /// starts or ends bumps `activity`.
  init<Base: Clock<Swift.Duration>>(_ base: Base, activity: Activity = Activity()) {
    let start = base.now
    self.activity = activity
    sleepOnBase = { offset in try await base.sleep(until: start.advanced(by: offset), tolerance: nil) }
  }

  var now: Instant { Instant(offset: state.withLock { $0.now }) }

  /// Time since the scenario started, as of the latest timer.
  var elapsed: Duration { state.withLock { $0.now } }

  var minimumResolution: Duration { .zero }

  /// The earliest deadline a sleep is waiting for that is later than `time`, if any. (Sleeps due by `time` may
  /// still be in the list until their tasks run.)
  func nextDeadline(after time: Duration) -> Duration? {
    state.withLock { $0.pending.values.filter { $0 > time }.min() }
  }

  /// Calls `action` with the new time each time `now` moves forward.
  func onAdvance(_ action: @escaping @Sendable (Duration) -> Void) {
    state.withLock { $0.onAdvance = action }
  }

  func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state -> Int? in
      guard state.now < deadline.offset else { return nil }
      defer { state.nextID += 1 }
      state.pending[state.nextID] = deadline.offset
      return state.nextID
    }
    guard let id else { return }
    activity.bump()
    do {
      // Forget a cancelled sleep at once, so that `nextDeadline` never names a sleep that is over.
      try await withTaskCancellationHandler {
        try await sleepOnBase(deadline.offset)
      } onCancel: {
        forget(id)
      }
    } catch {
      forget(id)
      throw error
    }
    let advanced = state.withLock { state -> (@Sendable (Duration) -> Void)? in
      state.pending[id] = nil
      guard deadline.offset > state.now else { return nil }
      state.now = deadline.offset
      return state.onAdvance
    }
    advanced?(deadline.offset)
    activity.bump()
  }

  private func forget(_ id: Int) {
    if state.withLock({ $0.pending.removeValue(forKey: id) }) != nil { activity.bump() }
  }
}
