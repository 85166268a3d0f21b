/// How long ``ReiterableAsyncSequence/retry(_:delay:clock:)`` waits before each retry: a constant or
/// exponentially growing backoff, optionally with ``RetryJitter``.
///
/// Retry number *n* (1 for the first retry) waits:
/// - ``constant(_:jitter:)``: `delay`;
/// - ``exponential(initial:multiplier:maximum:jitter:)``: `min(initial × multiplier^(n−1), maximum)`;
///
/// then the jitter, if any, shortens that wait by a random amount. Nothing waits after the last allowed attempt
/// failed: its error is thrown at once.
///
/// ```swift
/// let backoff = RetryDelay.exponential(initial: .milliseconds(100), maximum: .seconds(5), jitter: .full)
/// for try await orders in api.orders.retry(4, delay: backoff) { show(orders) }
/// // waits ≤ 100 ms, ≤ 200 ms, ≤ 400 ms, ≤ 800 ms between the five attempts
/// ```
public struct RetryDelay: Sendable {
  private enum Schedule: Sendable {
    case constant(Duration)
    case exponential(initial: Duration, multiplier: Double, maximum: Duration)
  }

  private let schedule: Schedule
  /// Each iteration of a retrying sequence works on its own copy, and so draws the same random numbers from an
  /// injected generator: same seed, same delays.
  private var jitter: RetryJitter

  /// The same wait before every retry.
  ///
  /// ```swift
  /// for try await user in api.user.retry(3, delay: .constant(.seconds(1))) { show(user) }
  /// ```
  /// - Parameters:
  ///   - delay: the wait before each retry; not negative.
  ///   - jitter: how to randomise the wait; none by default.
  /// - Returns: the backoff.
  public static func constant(_ delay: Duration, jitter: RetryJitter = .none) -> RetryDelay {
    precondition(delay >= .zero, "RetryDelay.constant(\(delay)): the delay must not be negative")
    return RetryDelay(schedule: .constant(delay), jitter: jitter)
  }

  /// A wait that starts at `initial` and is multiplied by `multiplier` before each further retry, up to
  /// `maximum`.
  ///
  /// ```swift
  /// let backoff = RetryDelay.exponential(initial: .milliseconds(100), multiplier: 2, maximum: .seconds(1))
  /// // 100 ms, 200 ms, 400 ms, 800 ms, 1 s, 1 s, …
  /// ```
  /// - Parameters:
  ///   - initial: the wait before the first retry; not negative.
  ///   - multiplier: the growth factor from one retry to the next; at least 1.
  ///   - maximum: the longest wait; at least `initial`.
  ///   - jitter: how to randomise each wait; none by default.
  /// - Returns: the backoff.
  public static func exponential(
    initial: Duration,
    multiplier: Double = 2,
    maximum: Duration = .seconds(60),
    jitter: RetryJitter = .none
  ) -> RetryDelay {
    precondition(initial >= .zero, "RetryDelay.exponential(initial: \(initial)): the delay must not be negative")
    precondition(
      multiplier >= 1 && multiplier.isFinite,
      "RetryDelay.exponential(multiplier: \(multiplier)): the multiplier must be finite and at least 1"
    )
    precondition(
      maximum >= initial,
      "RetryDelay.exponential(initial: \(initial), maximum: \(maximum)): the maximum must be at least the initial delay"
    )
    return RetryDelay(
      schedule: .exponential(initial: initial, multiplier: multiplier, maximum: maximum), jitter: jitter)
  }

  /// The wait before retry number `retry` (1 for the first), jitter included.
  mutating func next(beforeRetry retry: Int) -> Duration {
    jitter.apply(to: planned(beforeRetry: retry))
  }

  /// The wait before retry number `retry` without jitter.
  private func planned(beforeRetry retry: Int) -> Duration {
    switch schedule {
    case .constant(let delay):
      return delay
    case .exponential(let initial, let multiplier, let maximum):
      var delay = initial
      for _ in 1..<max(retry, 1) {
        guard delay < maximum else { break }
        delay = Self.multiply(delay, by: multiplier, capped: maximum)
      }
      return min(delay, maximum)
    }
  }

  /// `delay × multiplier`, exact for whole multipliers, never above `maximum` (so it cannot overflow).
  private static func multiply(_ delay: Duration, by multiplier: Double, capped maximum: Duration) -> Duration {
    if seconds(delay) * multiplier >= seconds(maximum) { return maximum }
    if multiplier.rounded() == multiplier && multiplier <= Double(Int32.max) {
      return min(delay * Int(multiplier), maximum)
    }
    return min(delay * multiplier, maximum)
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
  }
}
