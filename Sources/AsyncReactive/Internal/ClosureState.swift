/// State that one closure owns and mutates, such as a run's iterator or its reusable buffer.
///
/// A `var` captured by an escaping closure is checked for exclusive access at run time on every access (a
/// thread-local access set: measured at a third of a synchronous chain's cost per element). This box is not: it is
/// safe because only the closure that captured it touches the value, and that closure is called by one caller at a
/// time (a consumer's iterator, which is not `Sendable`, or the driver of the consumer's graph).
@usableFromInline package final class ClosureState<Value> {
  @exclusivity(unchecked) @usableFromInline package var value: Value

  @inlinable package init(_ value: Value) {
    self.value = value
  }
}
