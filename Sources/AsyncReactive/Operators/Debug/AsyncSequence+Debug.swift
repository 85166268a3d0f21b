extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Prints each event of every run with `name` and the time since that run started: where a value comes from and
  /// why a sequence ended (RxSwift `debug()`, ReactiveCocoa `logAll` with `setNameWithFormat:`).
  ///
  /// Each run of a cold sequence writes one line per event to `sink` (standard error by default); on a hot one, the
  /// node reports once for all its consumers, from its first consumer's arrival (`start`) to its end, or `cancel`
  /// when its last consumer leaves:
  ///
  /// ```
  /// [search] +0ms start
  /// [search] +300ms value: swift
  /// [search] +1200ms finish
  /// ```
  ///
  /// - `start` when the run starts;
  /// - `value: …` for each value, as `String(describing:)` prints it;
  /// - then exactly one of `finish`, `failure: …` (the upstream's error) or `cancel` (the consumer stopped before
  ///   the end: its task was cancelled, it broke out of the loop or dropped its iterator).
  ///
  /// The time is `clock`'s, measured from the run's `start`, in milliseconds (`+0.25ms` below one).
  /// Pass the `TestClock` of a test to get exact, reproducible times.
  ///
  /// Costs nothing where it is not used: it is an ordinary operator, with no global switch that other operators
  /// consult.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure, unchanged.
  ///
  /// **Cancellation:** passes through to the upstream; a consumer that stops early is reported once, as `cancel`.
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
  /// - Returns: a ``Signal`` with the same values, failure and end as `self`; hot when this sequence is.
  @inlinable public func debug<C: Clock>(
    _ name: String,
    clock: C = ContinuousClock(),
    sink: DebugSink = .standardError,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> where C.Duration == Duration {
    Signal(self).lift(synchronous: true) { $0.hotDebug(name, clock: clock, sink: sink, fileID: fileID, line: line) }
  }
}
