extension Command {
  /// Writes every run of this command to `sink`, named and timed: each admitted run's input as it starts,
  /// its output, failure or cancellation as it ends, and each refused call (RxSwift `debug()`, RAC
  /// `logAll`, for an action).
  ///
  /// The time is `clock`'s, in milliseconds since this call. Lines are written synchronously, in the order
  /// the command's state changed. Returns the command, so it can be set up where it is made; calling it
  /// again replaces the previous name, clock and sink.
  ///
  /// ```
  /// [logIn] +0ms start: ()
  /// [logIn] +120ms value: token-tom
  /// [logIn] +130ms refused: disabled
  /// ```
  ///
  /// ```swift
  /// logIn = Command(enabledIf: isValid) { try await api.logIn() }.debug("logIn")
  /// ```
  /// - Parameters:
  ///   - name: what the lines start with, in brackets.
  ///   - clock: the clock that times the events; a `TestClock` in tests.
  ///   - sink: where the lines go; ``DebugSink/standardError`` by default.
  /// - Returns: this command.
  @discardableResult
  public nonisolated func debug<C: Clock>(
    _ name: String,
    clock: C = ContinuousClock(),
    sink: DebugSink = .standardError
  ) -> Self where C.Duration == Duration {
    let start = clock.now
    storage.setDebugger(
      CommandDebugger(name: name, sink: sink) { start.duration(to: clock.now) }
    )
    return self
  }
}

/// Where a debugged command writes its events.
struct CommandDebugger: Sendable {
  let name: String
  let sink: DebugSink
  let elapsed: @Sendable () -> Duration

  func report(_ event: String) {
    sink.handleLine("[\(name)] +\(debugMilliseconds(elapsed())) \(event)")
  }
}
