import AsyncReactive

/// One event of a timeline (a value, the finish or the failure) with the ``TestClock`` instant at which it
/// happens: RxTest's `Recorded<Event<Element>>`.
///
/// A ``Recorder``'s ``Recorder/events`` are a timeline of them, and `TestClock.hotTimeline(_:)` and
/// `TestClock.coldTimeline(_:)` take one, so a test's input and its expected output read alike. A whole
/// timeline compares with one `==` when `Element` is `Equatable` (a tuple is not: map it to a struct or a string
/// first), whatever the failure type, `any Error` included (see ``==(_:_:)`` for how failures compare), and prints
/// compactly, as `[4@210s, 6@220s, finished@300s]`.
///
/// ```swift
/// let clock = TestClock()
/// await clock.withVirtualTime {
///   let xs = clock.hotTimeline([.value(2, at: .seconds(210)), .value(3, at: .seconds(220)), .finished(at: .seconds(300))])
///   let recorder = Recorder(xs.map { $0 * 2 }, clock: clock)
///   await clock.run()
///   #expect(recorder.events == [.value(4, at: .seconds(210)), .value(6, at: .seconds(220)), .finished(at: .seconds(300))])
/// }
/// ```
public struct Recorded<Element, Failure: Error> {
  /// When the event happens: for a ``Recorder``'s events and a hot timeline, an instant of the clock; for a cold
  /// timeline, the offset from the start of each run.
  ///
  /// ```swift
  /// #expect(recorder.events.map(\.instant.offset) == [.seconds(210), .seconds(300)])
  /// ```
  public var instant: TestClock.Instant

  /// What happens: `.value(element)`, `.finished` or `.failed(error)`, AsyncReactive's `Event` (what
  /// `materialize()` gives).
  ///
  /// ```swift
  /// #expect(recorder.events.map(\.event) == [.value(4), .finished])
  /// ```
  public var event: Event<Element, Failure>

  /// Pairs `event` with `instant`.
  ///
  /// ```swift
  /// let event = Recorded<Int, Never>(.value(4), at: clock.now)
  /// ```
  public init(_ event: Event<Element, Failure>, at instant: TestClock.Instant) {
    self.instant = instant
    self.event = event
  }

  /// Pairs `event` with the instant `offset` after time zero.
  ///
  /// ```swift
  /// let event = Recorded<Int, Never>(.value(4), at: .seconds(210))
  /// ```
  public init(_ event: Event<Element, Failure>, at offset: Duration) {
    self.init(event, at: TestClock.Instant(offset: offset))
  }

  /// The value `value` at the instant `offset` after time zero: RxTest's `.next(210, 4)`.
  ///
  /// ```swift
  /// #expect(recorder.events == [.value(4, at: .seconds(210))])
  /// ```
  public static func value(_ value: Element, at offset: Duration) -> Recorded {
    Recorded(.value(value), at: offset)
  }

  /// The value `value` at `instant`.
  ///
  /// ```swift
  /// #expect(recorder.events == [.value(4, at: clock.now)])
  /// ```
  public static func value(_ value: Element, at instant: TestClock.Instant) -> Recorded {
    Recorded(.value(value), at: instant)
  }

  /// The finish at the instant `offset` after time zero: RxTest's `.completed(300)`.
  ///
  /// ```swift
  /// #expect(recorder.events.last == .finished(at: .seconds(300)))
  /// ```
  public static func finished(at offset: Duration) -> Recorded {
    Recorded(.finished, at: offset)
  }

  /// The finish at `instant`.
  ///
  /// ```swift
  /// #expect(recorder.events.last == .finished(at: clock.now))
  /// ```
  public static func finished(at instant: TestClock.Instant) -> Recorded {
    Recorded(.finished, at: instant)
  }

  /// The failure `error` at the instant `offset` after time zero: RxTest's `.error(300, error)`.
  ///
  /// ```swift
  /// #expect(recorder.events.last == .failed(.offline, at: .seconds(300)))
  /// ```
  public static func failed(_ error: Failure, at offset: Duration) -> Recorded {
    Recorded(.failed(error), at: offset)
  }

  /// The failure `error` at `instant`.
  ///
  /// ```swift
  /// #expect(recorder.events.last == .failed(.offline, at: clock.now))
  /// ```
  public static func failed(_ error: Failure, at instant: TestClock.Instant) -> Recorded {
    Recorded(.failed(error), at: instant)
  }
}

extension Recorded: Sendable where Element: Sendable {}

extension Recorded: Equatable where Element: Equatable {
  /// Whether two events are the same: the same instant, and the same value, both finishes, or matching failures.
  ///
  /// Failures match when they are of the same type and, if that type is `Equatable`, equal, otherwise when they
  /// print the same (`String(describing:)`). So a timeline compares with one `==` whatever its failure type, `any
  /// Error` too (a throwing closure's): RxTest's rule for `Error`s (same domain, code and description), in Swift's
  /// terms. With an `Equatable` failure type it is that type's `==`.
  ///
  /// ```swift
  /// let recorder = await clock.start { xs.map { x throws in if x < 2 { x * 2 } else { throw TestError.overflow } } }
  /// #expect(recorder.events == [.value(0, at: .seconds(210)), .failed(TestError.overflow, at: .seconds(230))])
  /// ```
  public static func == (lhs: Recorded, rhs: Recorded) -> Bool {
    guard lhs.instant == rhs.instant else { return false }
    switch (lhs.event, rhs.event) {
    case (.value(let lhs), .value(let rhs)): return lhs == rhs
    case (.finished, .finished): return true
    case (.failed(let lhs), .failed(let rhs)): return failuresMatch(lhs, rhs)
    default: return false
    }
  }
}

extension Recorded: Hashable where Element: Hashable, Failure: Hashable {
  /// Hashes the instant and the event.
  ///
  /// ```swift
  /// let distinct = Set(recorder.events)
  /// ```
  public func hash(into hasher: inout Hasher) {
    hasher.combine(instant)
    hasher.combine(event)
  }
}

/// Whether two failures are the same for a test: of the same type, and equal when that type is `Equatable`, or
/// printed the same otherwise (RxTest compares `Error`s by domain, code and description).
func failuresMatch<Failure: Error>(_ lhs: Failure, _ rhs: Failure) -> Bool {
  let (lhs, rhs): (any Error, any Error) = (lhs, rhs)
  guard type(of: lhs) == type(of: rhs) else { return false }
  if let lhs = lhs as? any Equatable { return lhs.isEqual(to: rhs) }
  return String(describing: lhs) == String(describing: rhs)
}

extension Equatable {
  /// Whether `other` is a value of this type equal to this one.
  fileprivate func isEqual(to other: Any) -> Bool {
    (other as? Self).map { $0 == self } ?? false
  }
}

extension Recorded: CustomStringConvertible {
  /// The event, `@`, then the instant in seconds: `4@210s`, `finished@0.3s`, `failed(offline)@1.5s`; a failed
  /// `#expect` on whole timelines reads as one.
  ///
  /// ```swift
  /// #expect("\(Recorded<Int, Never>.value(4, at: .seconds(210)))" == "4@210s")
  /// ```
  public var description: String {
    // The instant prints as `t=210s`: the offset without its `t=`.
    let at = String(instant.description.dropFirst(2))
    switch event {
    case .value(let value): return "\(value)@\(at)"
    case .finished: return "finished@\(at)"
    case .failed(let error): return "failed(\(error))@\(at)"
    }
  }
}
