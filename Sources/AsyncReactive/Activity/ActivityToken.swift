import Synchronization

/// One running activity of an ``ActivityTracker``, counted from ``ActivityTracker/begin()`` until ``end()`` or
/// the token's release, whichever comes first, so an activity whose owner goes away (a dropped iterator, a
/// cancelled command run) can never leave the tracker `true`.
@usableFromInline package final class ActivityToken: Sendable {
  @usableFromInline let tracker: ActivityTracker
  private let ended = Atomic<Bool>(false)

  init(_ tracker: ActivityTracker) {
    self.tracker = tracker
  }

  /// Ends this activity; later calls do nothing.
  @usableFromInline package func end() {
    guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
    tracker.change(by: -1)
  }

  deinit { end() }
}
