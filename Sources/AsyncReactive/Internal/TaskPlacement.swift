import Synchronization

/// Where a task the library starts with no executor preference of its own should run, asked of the testing module
/// (AsyncReactiveTesting installs it when a test makes its first `TestClock`): a task started by a test's code
/// outside the virtual time (a view model built in a suite's `init()`) then prefers the executor of that test's
/// clock, and one that cannot is remembered while it lives, so that `settle()` can name it.
///
/// Outside tests nothing is installed: a task pays one relaxed atomic load at its creation.
package protocol TaskPlacement: Sendable {
  /// The executor for a library task named `name` being created now, or `nil` with an object to keep while the
  /// task lives (it marks the task as running where the test cannot wait for it), or neither.
  func place(taskNamed name: String) -> (executor: (any TaskExecutor)?, escape: AnyObject?)
}

/// The installed ``TaskPlacement``, if any.
package enum TaskPlacementHook {
  /// Whether one is installed: read before the lock, so that a process without tests never takes it.
  @usableFromInline static let installed = Atomic<Bool>(false)
  private static let placement = Mutex<(any TaskPlacement)?>(nil)

  /// Installs `placement` (once per process; later calls keep the first).
  package static func install(_ placement: any TaskPlacement) {
    let installedNow = self.placement.withLock { current -> Bool in
      guard current == nil else { return false }
      current = placement
      return true
    }
    if installedNow { installed.store(true, ordering: .releasing) }
  }

  /// Where a library task named `name`, whose creator gave `executor` (possibly `nil`), runs: `executor` if any,
  /// else what the installed placement says.
  @inlinable static func place(
    taskNamed name: @autoclosure () -> String, executor: (any TaskExecutor)?
  ) -> (executor: (any TaskExecutor)?, escape: AnyObject?) {
    if executor != nil || !installed.load(ordering: .acquiring) { return (executor, nil) }
    return placeInstalled(name())
  }

  @usableFromInline static func placeInstalled(_ name: String) -> (executor: (any TaskExecutor)?, escape: AnyObject?) {
    guard let placement = placement.withLock({ $0 }) else { return (nil, nil) }
    return placement.place(taskNamed: name)
  }
}
