/// A value together with the ``TestClock`` instant at which it was observed.
///
/// ``Recorder`` produces them; tests compare whole timelines with `==`.
///
/// ```swift
/// #expect(await recorder.waitForValues(count: 2) == [
///   Timed("s", at: .milliseconds(300)),
///   Timed("sw", at: .milliseconds(700)),
/// ])
/// ```
public struct Timed<Value> {
  /// When the value was observed.
  ///
  /// ```swift
  /// #expect(recorder.values.map(\.instant.offset) == [.zero, .seconds(1)])
  /// ```
  public var instant: TestClock.Instant

  /// The observed value.
  ///
  /// ```swift
  /// #expect(recorder.values.map(\.value) == ["a", "b"])
  /// ```
  public var value: Value

  /// Pairs `value` with `instant`.
  ///
  /// ```swift
  /// let event = Timed(42, at: clock.now)
  /// ```
  public init(_ value: Value, at instant: TestClock.Instant) {
    self.instant = instant
    self.value = value
  }

  /// Pairs `value` with the instant `offset` after time zero; the short form for expected timelines.
  ///
  /// ```swift
  /// let expected = [Timed(1, at: .zero), Timed(2, at: .milliseconds(250))]
  /// ```
  public init(_ value: Value, at offset: Duration) {
    self.init(value, at: TestClock.Instant(offset: offset))
  }
}

extension Timed: Sendable where Value: Sendable {}

extension Timed: Equatable where Value: Equatable {}

extension Timed: Hashable where Value: Hashable {}

extension Timed: CustomStringConvertible {
  /// The instant then the value, such as `t=0.25s: 42`, so that failed expectations read as timelines.
  ///
  /// ```swift
  /// print(Timed(42, at: .milliseconds(250)))  // t=0.25s: 42
  /// ```
  public var description: String { "\(instant): \(value)" }
}
