/// How a ``RetryDelay`` randomises its waits, so that many clients that failed together do not all retry at
/// the same instant.
///
/// Jitter only ever shortens a wait, so a capped exponential backoff stays under its maximum. Inject a seeded
/// generator to make the waits reproducible (in tests, say): each iteration of the retrying sequence starts
/// from the generator as you passed it, so the same seed gives the same waits on every run.
///
/// ```swift
/// let backoff = RetryDelay.exponential(initial: .milliseconds(200), jitter: .proportional(0.25))
/// // each wait is between 75 % and 100 % of 200 ms, 400 ms, 800 ms, …
/// ```
public struct RetryJitter: Sendable {
  private enum Kind: Sendable {
    case none
    case full
    case proportional(Double)
  }

  private let kind: Kind
  /// `nil`: the system's generator.
  private var generator: (any RandomNumberGenerator & Sendable)?

  /// Waits exactly as planned.
  ///
  /// ```swift
  /// let backoff = RetryDelay.constant(.seconds(1), jitter: .none)
  /// ```
  public static var none: RetryJitter { RetryJitter(kind: .none, generator: nil) }

  /// Waits a uniformly random duration between zero and the planned wait ("full jitter"), drawn from the
  /// system's random number generator.
  ///
  /// ```swift
  /// let backoff = RetryDelay.exponential(initial: .milliseconds(100), jitter: .full)
  /// ```
  public static var full: RetryJitter { RetryJitter(kind: .full, generator: nil) }

  /// Waits a uniformly random duration between zero and the planned wait, drawn from `generator`.
  ///
  /// ```swift
  /// let generator = MySeededGenerator(seed: 42)  // any RandomNumberGenerator & Sendable
  /// let backoff = RetryDelay.constant(.seconds(1), jitter: .full(using: generator))
  /// ```
  /// - Parameter generator: the source of randomness; each iteration starts from a copy of it.
  /// - Returns: the jitter.
  public static func full(using generator: some RandomNumberGenerator & Sendable) -> RetryJitter {
    RetryJitter(kind: .full, generator: generator)
  }

  /// Shortens each wait by a uniformly random part of up to `fraction` of it, drawn from the system's random
  /// number generator: `.proportional(0.25)` waits between 75 % and 100 % of the plan.
  ///
  /// ```swift
  /// let backoff = RetryDelay.constant(.seconds(2), jitter: .proportional(0.5))  // 1 s to 2 s
  /// ```
  /// - Parameter fraction: the largest part of the wait that may be cut, from 0 to 1.
  /// - Returns: the jitter.
  public static func proportional(_ fraction: Double) -> RetryJitter {
    checked(fraction, generator: nil)
  }

  /// Shortens each wait by a uniformly random part of up to `fraction` of it, drawn from `generator`.
  ///
  /// ```swift
  /// let jitter = RetryJitter.proportional(0.1, using: MySeededGenerator(seed: 7))
  /// ```
  /// - Parameters:
  ///   - fraction: the largest part of the wait that may be cut, from 0 to 1.
  ///   - generator: the source of randomness; each iteration starts from a copy of it.
  /// - Returns: the jitter.
  public static func proportional(
    _ fraction: Double,
    using generator: some RandomNumberGenerator & Sendable
  ) -> RetryJitter {
    checked(fraction, generator: generator)
  }

  private static func checked(
    _ fraction: Double,
    generator: (any RandomNumberGenerator & Sendable)?
  ) -> RetryJitter {
    precondition(
      (0...1).contains(fraction),
      "RetryJitter.proportional(\(fraction)): the fraction must be between 0 and 1"
    )
    return RetryJitter(kind: .proportional(fraction), generator: generator)
  }

  /// `delay` with the jitter applied; draws one random number unless the jitter is ``none``.
  mutating func apply(to delay: Duration) -> Duration {
    switch kind {
    case .none:
      return delay
    case .full:
      return Self.scale(delay, by: nextRandom())
    case .proportional(let fraction):
      return delay - Self.scale(delay * fraction, by: nextRandom())
    }
  }

  private mutating func nextRandom() -> UInt64 {
    guard var source = generator else {
      var system = SystemRandomNumberGenerator()
      return system.next()
    }
    defer { generator = source }
    return source.next()
  }

  /// `duration × random / 2⁶⁴` (a uniformly random part of `duration`), in integer arithmetic so that a given
  /// random number always gives the same attoseconds.
  private static func scale(_ duration: Duration, by random: UInt64) -> Duration {
    let attoseconds = duration.attoseconds
    let high = attoseconds * Int128(random >> 32)
    let low = attoseconds * Int128(random & 0xFFFF_FFFF)
    return Duration(attoseconds: (high >> 32) + (low >> 64))
  }
}
