import Synchronization

/// Whose turn it is to deliver an owner's outbox (a subject's sink events, a multi-input node's outputs): one
/// thread at a time delivers, in order, with no lock held; an event queued meanwhile (by another thread, or
/// reentrantly by an observer) is delivered by that same thread after the current one.
///
/// The outbox itself stays behind the owner's lock; the turn is an atomic beside it, so that the thread that
/// delivered leaves with one compare-and-swap instead of taking the lock again to find the outbox empty (the
/// common case: one event, delivered directly). States:
/// - ``idle``: nobody delivers, the outbox is empty;
/// - ``delivering``: a thread delivers and the outbox is empty;
/// - ``pending``: a thread delivers and the outbox holds events for it.
///
/// Invariant: the outbox is non-empty only in ``pending``. Under the owner's lock a thread moves idle → delivering
/// (it delivers) or delivering → pending (it queued); only the delivering thread moves delivering → idle (without
/// the lock, when it is done) or pending → delivering (under the lock, when it takes the outbox). So under the
/// lock, the only change another thread can make is delivering → idle, which ``claim(_:)`` handles.
@usableFromInline package enum DeliveryTurn {
  @usableFromInline package static let idle = 0
  @usableFromInline package static let delivering = 1
  @usableFromInline package static let pending = 2

  /// Under the owner's lock, for an event that must be delivered: `true` when the caller now has the turn and
  /// delivers the event itself (nobody was delivering, so nothing waits before it); `false` when another thread
  /// has the turn, after marking it ``pending``: the caller then appends the event to the outbox, still under
  /// the lock, and that thread will deliver it.
  @inlinable package static func claim(_ turn: borrowing Atomic<Int>) -> Bool {
    var current = turn.load(ordering: .acquiring)
    while true {
      switch current {
      case idle:
        // Nobody else changes an idle turn without the lock, which the caller holds.
        turn.store(delivering, ordering: .relaxed)
        return true
      case delivering:
        let (exchanged, original) = turn.compareExchange(
          expected: delivering, desired: pending, ordering: .acquiringAndReleasing)
        if exchanged { return false }
        current = original  // the deliverer left meanwhile: the turn is idle now
      default:
        return false
      }
    }
  }

  /// Without a lock, by the thread that has the turn, when it delivered everything it took: `true` when it has
  /// left the turn (nothing was queued); `false` when events wait: it takes the outbox under the lock with
  /// ``resume(_:)`` and delivers them, then calls this again.
  @inlinable package static func leave(_ turn: borrowing Atomic<Int>) -> Bool {
    // Sequentially consistent (the same instruction as acquire-release on x86 and arm64): a subject's delivering
    // thread then reads `retiredPending` after this, and a thread that retires a sink writes it before it reads
    // the turn, so one of the two always sees the other (see `Node.retire(_:in:)`).
    turn.compareExchange(expected: delivering, desired: idle, ordering: .sequentiallyConsistent).exchanged
  }

  /// Under the owner's lock, by the thread that has the turn, as it takes the whole outbox.
  @inlinable package static func resume(_ turn: borrowing Atomic<Int>) {
    turn.store(delivering, ordering: .relaxed)
  }
}
