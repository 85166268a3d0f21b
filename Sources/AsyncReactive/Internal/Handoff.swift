import Synchronization

/// Hands a value that is not `Sendable` from the code that makes it to the code that uses it, once: an upstream's
/// iterator to the task that pumps it, a source's puller to the consumer that drives it.
///
/// A `Mutex` rather than ``Locked``: only `Mutex` moves a non-`Sendable` value in and out (`sending`), and this lock
/// is taken once, by one thread, so it is never contended (the case ThreadSanitizer cannot follow).
@usableFromInline package final class Handoff<Value>: Sendable {
  @usableFromInline let value: Mutex<Value?>

  @inlinable package init(_ value: sending Value) {
    self.value = Mutex(value)
  }

  /// The value, once; `nil` afterwards.
  @inlinable package func take() -> sending Value? {
    value.withLock { $0.take() }
  }
}
