/// A change counter that the virtual-time driver waits on instead of polling.
///
/// Everything the driver's decision depends on (what the user does, the clock's sleeps, the fake API's requests,
/// the debug traces) calls ``bump()`` when it changes; the driver reads ``version``, looks at the scenario, and if
/// time cannot move yet waits for the version to change.
///
/// ```swift
/// let activity = Activity()
/// let version = activity.version
/// // … look at the scenario …
/// await activity.waitForChange(from: version)
/// ```
final class Activity: Sendable {
  private struct State {
    var version = 0
    var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    var nextID = 0
  }

  private let state = Lock(State())

  /// The number of changes so far.
  var version: Int { state.withLock { $0.version } }

  /// Records a change and wakes everyone waiting for one.
  func bump() {
    let waiters = state.withLock { state in
      state.version += 1
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once ``version`` differs from `version`.
  ///
  /// **Cancellation:** returns at once when the waiting task is cancelled.
  func waitForChange(from version: Int) async {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let waiting = state.withLock { state in
          guard state.version == version, !Task.isCancelled else { return false }
          state.waiters[id] = continuation
          return true
        }
        if !waiting { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
  }

  /// Returns once `condition` holds, checking it again after each change.
  ///
  /// **Cancellation:** returns at once when the waiting task is cancelled, whether or not `condition` holds.
  func wait(until condition: () -> Bool) async {
    while !Task.isCancelled {
      let version = self.version
      if condition() { return }
      await waitForChange(from: version)
    }
  }

  /// Waits for a change like ``waitForChange(from:)``, for at most `timeout` of real time.
  /// - Returns: `false` if the time ran out first.
  func waitForChange(from version: Int, timeout: Duration) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        await self.waitForChange(from: version)
        return !Task.isCancelled
      }
      group.addTask {
        // A watchdog, not a way to let work finish: a scenario that settles never waits this long.
        try? await Task.sleep(for: timeout)
        return false
      }
      let changed = await group.next() ?? false
      group.cancelAll()
      return changed
    }
  }
}
