/// The state of one connection of a hot node that has a single input: a `scan`'s accumulator, the previous
/// element of `removeDuplicates`. Made when the node connects, so a node that reconnects starts afresh.
///
/// No lock, and none is needed: only the input's deliveries touch it, and a node delivers to one observer one
/// event at a time. Two deliveries on different threads are ordered by the upstream's lock, which the thread
/// that hands over the delivery (the sink outbox) takes after the first and the next thread takes before the
/// second; that is the happens-before edge between two accesses. So the user's closure runs with no lock held.
// Safe (`@unchecked Sendable`): as argued above, accesses never overlap and are ordered by the upstream's lock.
@usableFromInline package final class ConnectionState<Value>: @unchecked Sendable {
  @usableFromInline package var value: Value

  @inlinable package init(_ value: Value) {
    self.value = value
  }
}
