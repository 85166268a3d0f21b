import Testing

// Every wait of AsyncReactiveTesting takes `timeout: Duration = .seconds(60)` of real time: a watchdog, not a
// delay. A wait returns as soon as what it waits for happens, so a passing test never waits that long. A
// minute leaves room for a loaded machine or a sanitizer build (10 s was seen to expire in a passing test of
// the full suite on two busy cores, where stress tests starve the cooperative pool) while still failing a
// wrong expectation in bounded time instead of hanging the whole test run.

/// How a watched wait ended.
struct Watched<Value: Sendable>: Sendable {
  /// What the wait returned (after being cancelled, if the time ran out).
  var value: Value
  /// Whether the time ran out before the wait returned.
  var expired: Bool
}

/// Runs `wait` in a child task and cancels it after `timeout` of real time (`ContinuousClock`).
///
/// `wait` must return promptly once its task is cancelled, with what it has seen so far. If the calling task is
/// cancelled, both stop and the result is not marked expired: the caller gave up, the code under test did not
/// fail.
/// - Returns: what `wait` returned and whether the time ran out first.
func watch<Value: Sendable>(
  timeout: Duration,
  _ wait: @escaping @Sendable () async -> Value
) async -> Watched<Value> {
  await withTaskGroup(of: WatchOutcome<Value>.self) { group in
    group.addTask { .returned(await wait()) }
    group.addTask {
      do {
        try await Task.sleep(for: timeout)
        return .expired
      } catch {
        return .stopped
      }
    }
    var value: Value?
    var expired = false
    while let outcome = await group.next() {
      switch outcome {
      case .returned(let returned):
        value = returned
        group.cancelAll()
      case .expired:
        expired = true
        group.cancelAll()
      case .stopped:
        break
      }
    }
    guard let value else { preconditionFailure("Internal inconsistency: a watched wait returned nothing") }
    return Watched(value: value, expired: expired && !Task.isCancelled)
  }
}

/// What each child task of ``watch(timeout:_:)`` ends with.
private enum WatchOutcome<Value: Sendable>: Sendable {
  /// The wait returned this.
  case returned(Value)
  /// The time ran out.
  case expired
  /// The timer was cancelled (the wait returned, or the caller was cancelled).
  case stopped
}

/// Checks a wait's timeout argument.
func checkTimeout(_ timeout: Duration, of wait: @autoclosure () -> String) {
  precondition(timeout > .zero, "\(wait()): the timeout must be positive, not \(timeout)")
}

/// Records a test failure for a wait that timed out, at the test's call site.
func recordTimeout(_ message: String, sourceLocation: SourceLocation) {
  Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}

extension Duration {
  /// The duration in seconds with no trailing zeros, for failure messages: `10s`, `0.05s`.
  var secondsDescription: String {
    TestClock.Instant(offset: self).description.dropFirst(2).description
  }
}
