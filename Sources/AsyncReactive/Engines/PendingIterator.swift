import Synchronization

/// Hands an upstream iterator, made when the consumer subscribed (`makeAsyncIterator()`, so that a subject
/// registers the consumer then), to the task that pumps it, started when the work starts (the first `next()`).
///
/// Used by every operator that pumps its upstreams in tasks of their own: the n-ary operators, the time operators
/// and the flatten operators. Dropping it before the work started drops the upstream's iterator, which is all a
/// consumer that never asked has to undo.
///
/// A `Mutex` rather than ``Locked``: only `Mutex` moves a non-`Sendable` value in and out (`sending`), and this
/// lock is taken once, by one task, so it is never contended (the case ThreadSanitizer cannot follow).
@usableFromInline final class PendingIterator<Iterator: AsyncIteratorProtocol>: Sendable {
  @usableFromInline let iterator: Mutex<Iterator?>

  @inlinable init(_ iterator: sending Iterator) {
    self.iterator = Mutex(iterator)
  }

  /// The iterator, once; `nil` afterwards.
  @inlinable func take() -> sending Iterator? {
    iterator.withLock { $0.take() }
  }
}
