/// A clock measured in `Duration` whose type is known only at run time: what an app injects as
/// `any Clock<Duration>` (a `ContinuousClock` in the app, a test clock in its tests), made concrete so that the time
/// operators, whose result types name their clock, accept it.
///
/// Its instants are offsets from the moment it was made, read on the wrapped clock: a sleep until one of them is a
/// sleep on the wrapped clock until the same instant, so a test clock still wakes it exactly when it moves there.
/// The time operators take an `any Clock<Duration>` directly and wrap it themselves; name this type only to store
/// or pass on an erased clock.
///
/// ```swift
/// struct Environment { var clock: any Clock<Duration> = ContinuousClock() }
/// let quiet = searchField.texts.debounce(for: .milliseconds(300), clock: env.clock)   // wraps it
/// let clock = AnyDurationClock(env.clock)
/// try await clock.sleep(for: .seconds(1))
/// ```
public struct AnyDurationClock: Clock {
  /// A point on the wrapped clock's timeline: the time since this clock was made.
  ///
  /// ```swift
  /// let deadline = clock.now.advanced(by: .seconds(1))
  /// ```
  public struct Instant: InstantProtocol {
    /// The time since the clock was made (negative before it).
    ///
    /// ```swift
    /// #expect(clock.now.offset >= .zero)
    /// ```
    public var offset: Duration

    /// The instant `duration` later.
    ///
    /// ```swift
    /// let later = clock.now.advanced(by: .milliseconds(300))
    /// ```
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The duration from this instant to `other`.
    ///
    /// ```swift
    /// let elapsed = start.duration(to: clock.now)
    /// ```
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` is earlier than `rhs`.
    ///
    /// ```swift
    /// #expect(start < clock.now || start == clock.now)
    /// ```
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private let read: @Sendable () -> Duration
  private let wait: @Sendable (Duration, Duration?) async throws -> Void
  private let resolution: Duration

  /// Wraps `clock`; its instants count from now.
  ///
  /// ```swift
  /// let clock = AnyDurationClock(environment.clock)   // environment.clock: any Clock<Duration>
  /// ```
  public init(_ clock: any Clock<Duration>) {
    (read, wait, resolution) = Self.open(clock)
  }

  /// The closures over the wrapped clock's own type, with its instant at this moment as the origin.
  private static func open<C: Clock<Duration>>(
    _ clock: C
  ) -> (@Sendable () -> Duration, @Sendable (Duration, Duration?) async throws -> Void, Duration) {
    let origin = clock.now
    return (
      { origin.duration(to: clock.now) },
      { offset, tolerance in try await clock.sleep(until: origin.advanced(by: offset), tolerance: tolerance) },
      clock.minimumResolution
    )
  }

  /// The current instant of the wrapped clock.
  ///
  /// ```swift
  /// let start = clock.now
  /// ```
  public var now: Instant { Instant(offset: read()) }

  /// The wrapped clock's resolution.
  ///
  /// ```swift
  /// print(clock.minimumResolution)
  /// ```
  public var minimumResolution: Duration { resolution }

  /// Sleeps on the wrapped clock until `deadline`.
  ///
  /// **Throws:** `CancellationError` if the task is cancelled, as the wrapped clock does.
  ///
  /// ```swift
  /// try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
  /// ```
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await wait(deadline.offset, tolerance)
  }
}
