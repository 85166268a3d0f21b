/// Publications made under a lock (a command's `executing` changes and results, an activity count), delivered
/// after it in the order they were made, by one thread at a time.
///
/// Publishing a subject runs its hot graph and its observers, user code that may call back into the publisher
/// (an Observation `onChange` that triggers the command again). So the publisher queues under its own lock,
/// which keeps the order of its transitions, and delivers with no lock held: a publication made while another
/// thread (or this one, reentrantly) delivers is handed to that delivery and goes out right after the current
/// one, never recursively.
@usableFromInline final class PublicationQueue<Publication: Sendable>: Sendable {
  @usableFromInline struct State: Sendable {
    @usableFromInline var pending: [Publication] = []
    @usableFromInline var delivering = false

    @inlinable init() {}
  }

  @usableFromInline let state = Locked(State())

  @inlinable init() {}

  /// Queues `publication`; may be called under the publisher's lock (it takes only this queue's own).
  @inlinable func enqueue(_ publication: Publication) {
    state.withLock { $0.pending.append(publication) }
  }

  /// Queues what `body` appends, in one critical section: for a transition that publishes several things (a
  /// command run's result, `executing` and `open`). `body` is the library's own code, never a user closure.
  @inlinable func enqueue(_ body: (inout [Publication]) -> Void) {
    state.withLock { body(&$0.pending) }
  }

  /// Delivers what is queued through `deliver` unless another delivery is under way (which then delivers it).
  /// Call it with no lock held, after the critical section that queued; every caller passes the same delivery.
  ///
  /// Two critical sections for the common single batch: one that claims the delivery and takes the batch, one
  /// that finds nothing more and hands the delivered batch's buffer back (so the next publication appends in
  /// place instead of allocating a new array and growing it again).
  @inlinable func flush(_ deliver: (Publication) -> Void) {
    var batch: [Publication] = []
    let mine = state.withLock { state -> Bool in
      if state.delivering || state.pending.isEmpty { return false }
      state.delivering = true
      swap(&batch, &state.pending)
      return true
    }
    guard mine else { return }
    while true {
      for publication in batch { deliver(publication) }
      batch.removeAll(keepingCapacity: true)
      let more = state.withLock { state -> Bool in
        swap(&batch, &state.pending)
        if batch.isEmpty {
          state.delivering = false
          return false
        }
        return true
      }
      guard more else { return }
    }
  }
}
