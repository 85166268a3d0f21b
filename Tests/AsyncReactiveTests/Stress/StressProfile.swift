#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How hard the stress suites push: a default profile small enough for a debug run and a ThreadSanitizer run
/// (the whole Stress folder in well under 30 s), and a heavy one, 10^6 events per load test and 1,000 seeds,
/// when the environment has `ASYNCREACTIVE_STRESS=1`.
///
/// ```swift
/// let profile = StressProfile.current
/// for seed in profile.seeds { … }
/// ```
struct StressProfile: Sendable {
  /// Whether `ASYNCREACTIVE_STRESS=1` asked for the heavy profile.
  let isHeavy: Bool
  /// Events the producers of one load test push in all (summed over the producers).
  let loadEvents: Int
  /// Concurrent producers per load test.
  let producers = 8
  /// Concurrent consumers per load test.
  let consumers = 8
  /// Seeds per fault-injection test.
  let faultSeeds: Int
  /// Seeds per cancellation test (each seed picks a stop mode and a stop point).
  let cancellationSeeds: Int
  /// Rounds of each whole-screen loop (the feedback loop of a ported search screen, built inside and outside the
  /// virtual time): a race between what a screen starts and what the test clock waits for shows up in a loop.
  let screenRounds: Int

  /// The profile chosen by the environment.
  static let current = StressProfile(isHeavy: environment("ASYNCREACTIVE_STRESS") == "1")

  init(isHeavy: Bool) {
    self.isHeavy = isHeavy
    loadEvents = isHeavy ? 1_000_000 : 16_384
    faultSeeds = isHeavy ? 1_000 : 50
    cancellationSeeds = isHeavy ? 400 : 24
    screenRounds = isHeavy ? 2_000 : 200
  }

  /// The seeds of a fault or cancellation test: `count` consecutive ones from `ASYNCREACTIVE_STRESS_SEED` (0 by
  /// default), so that a failing seed printed by a test can be replayed alone with a count of 1.
  static func seeds(_ count: Int) -> [UInt64] {
    let first = environment("ASYNCREACTIVE_STRESS_SEED").flatMap { UInt64($0) } ?? 0
    let count = environment("ASYNCREACTIVE_STRESS_SEED") == nil ? count : 1
    return (0..<UInt64(count)).map { first &+ $0 }
  }

  private static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
