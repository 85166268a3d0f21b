extension AsyncSequence {
  /// Prints each event of every iteration with `name` and the time since that iteration started: where a value
  /// comes from and why a sequence ended (RxSwift `debug()`, ReactiveCocoa `logAll` with `setNameWithFormat:`).
  ///
  /// Each iteration writes one line per event to `sink` (standard error by default):
  ///
  /// ```
  /// [search] +0ms start
  /// [search] +300ms value: swift
  /// [search] +1200ms finish
  /// ```
  ///
  /// - `start` when the iteration starts (`makeAsyncIterator()`, before the upstream's iterator is made);
  /// - `value: …` for each value, as `String(describing:)` prints it;
  /// - then exactly one of `finish`, `failure: …` (the upstream's error), `cancel` (the consumer's task was
  ///   cancelled) or `cancel (iterator released)` (the consumer stopped iterating before the end: a `break`, a
  ///   dropped iterator).
  ///
  /// The time is `clock`'s, measured from the iteration's `start`, in milliseconds (`+0.25ms` below one).
  /// Pass the `TestClock` of a test to get exact, reproducible times.
  ///
  /// Costs nothing where it is not used: it is an ordinary operator, with no global switch that other operators
  /// consult.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure, unchanged.
  ///
  /// **Cancellation:** runs in the consumer's task and passes cancellation through to the upstream; a consumer
  /// that stops early is reported once, as `cancel` or `cancel (iterator released)`.
  ///
  /// ```swift
  /// let results = query.debug("query")
  ///   .debounce(for: .milliseconds(300))
  ///   .debug("debounced")
  /// // In tests: query.debug("query", clock: testClock, sink: DebugSink { lines.append($0) })
  /// ```
  /// - Parameters:
  ///   - name: what the lines start with, in brackets; name the stage you are looking at.
  ///   - clock: the clock that times the events; a `TestClock` in tests.
  ///   - sink: where the lines go; ``DebugSink/standardError`` by default.
  /// - Returns: the same values, failure and end as `self`.
  @inlinable
  public func debug<C: Clock>(
    _ name: String,
    clock: C = ContinuousClock(),
    sink: DebugSink = .standardError
  ) -> AsyncDebugSequence<Self, C> where C.Duration == Duration {
    AsyncDebugSequence(self, name: name, clock: clock, sink: sink)
  }
}

/// The sequence returned by ``_Concurrency/AsyncSequence/debug(_:clock:sink:)->AsyncDebugSequence<Self,C>``: the upstream, unchanged, with
/// each event of each iteration written to a ``DebugSink``.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
///
/// **Cancellation:** passes through to the upstream; a consumer that stops early is reported once.
///
/// ```swift
/// let logged: AsyncDebugSequence<Signal<User, any Error>, ContinuousClock> = api.user.debug("user")
/// ```
public struct AsyncDebugSequence<Base: AsyncSequence, C: Clock>: AsyncSequence where C.Duration == Duration {
  /// The upstream's elements.
  public typealias Element = Base.Element
  /// The upstream's failure.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let name: String
  @usableFromInline let clock: C
  @usableFromInline let sink: DebugSink

  @inlinable
  init(_ base: Base, name: String, clock: C, sink: DebugSink) {
    self.base = base
    self.name = name
    self.clock = clock
    self.sink = sink
  }

  /// Reports `start`, then makes the upstream's iterator.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let reporter = Reporter(name: name, clock: clock, sink: sink)
    reporter.report("start")
    return Iterator(base: base.makeAsyncIterator(), reporter: reporter)
  }

  /// The iterator of an ``AsyncDebugSequence``; releasing it before the end is reported.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let reporter: Reporter

    @inlinable
    init(base: Base.AsyncIterator, reporter: Reporter) {
      self.base = base
      self.reporter = reporter
    }

    /// The next upstream value, after reporting it (or the end).
    ///
    /// **Throws:** the upstream's failure, after reporting it.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      // After the end, a well-behaved upstream keeps returning `nil`; nothing more is reported.
      guard !reporter.ended else { return try await base.next(isolation: actor) }
      do throws(Failure) {
        if let element = try await base.next(isolation: actor) {
          reporter.report("value: \(element)")
          return element
        }
        reporter.end(Task.isCancelled ? "cancel" : "finish")
        return nil
      } catch {
        reporter.end(error is CancellationError ? "cancel" : "failure: \(error)")
        throw error
      }
    }

    /// The next upstream value, after reporting it (or the end).
    ///
    /// **Throws:** the upstream's failure, after reporting it.
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }
  }

  /// One iteration's reporting: its start instant, and whether its end was reported; reports a release before
  /// the end from `deinit`.
  @usableFromInline
  final class Reporter {
    @usableFromInline let name: String
    @usableFromInline let clock: C
    @usableFromInline let start: C.Instant
    @usableFromInline let sink: DebugSink
    @usableFromInline var ended = false

    @inlinable
    init(name: String, clock: C, sink: DebugSink) {
      self.name = name
      self.clock = clock
      self.start = clock.now
      self.sink = sink
    }

    /// Writes `[name] +elapsed event`.
    @inlinable
    func report(_ event: String) {
      sink.handleLine("[\(name)] +\(debugMilliseconds(start.duration(to: clock.now))) \(event)")
    }

    /// Reports the end of the iteration; nothing is reported after it.
    @inlinable
    func end(_ event: String) {
      ended = true
      report(event)
    }

    deinit {
      if !ended { report("cancel (iterator released)") }
    }
  }
}

/// `duration` in milliseconds with up to three decimals and no trailing zeros: `0`, `300`, `1.5`, `0.25`.
@usableFromInline
func debugMilliseconds(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  // Both components carry the duration's sign; whole microseconds are enough for a debugging trace.
  let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
  let sign = microseconds < 0 ? "-" : ""
  let magnitude = microseconds.magnitude
  var text = "\(sign)\(magnitude / 1000)"
  let fraction = magnitude % 1000
  if fraction != 0 {
    var digits = String(fraction)
    digits = String(repeating: "0", count: 3 - digits.count) + digits
    while digits.last == "0" { digits.removeLast() }
    text += ".\(digits)"
  }
  return text + "ms"
}

extension AsyncDebugSequence: Sendable where Base: Sendable {}

extension AsyncDebugSequence: ReactiveSequence {}

extension AsyncDebugSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
