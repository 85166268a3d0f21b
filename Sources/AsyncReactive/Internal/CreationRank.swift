import Synchronization

/// The order in which nodes and direct observers were created, so that the observers of one source are called in
/// that order (ReactiveSwift's rule), whatever order their consumers attached in: a view model's behaviour then does
/// not depend on whether the view or the test subscribes to `clears` or to `isTitleVisible` first.
///
/// Every node (a subject, an operator's node) takes a rank when it is made. A node connects to its inputs lazily,
/// when its first consumer comes; the sinks it registers then carry its own rank and take that place among the
/// input's observers. A consumer attached directly (`sink`, `observe`, `bind`) takes a new rank when it attaches.
@usableFromInline package enum CreationRank {
  /// The last rank given.
  static let counter = Atomic<Int>(0)

  /// The rank of the node whose inputs are being connected now, on this task or thread.
  @TaskLocal static var connecting: Int?

  /// A new rank, later than every rank given so far.
  @usableFromInline package static func next() -> Int {
    counter.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// The rank of a sink being registered: the connecting node's, or a new one for a consumer attached directly.
  @usableFromInline package static func forNewSink() -> Int {
    connecting ?? next()
  }

  /// Runs `connect` (a node connecting to its inputs) so that the sinks it registers carry `rank`.
  @usableFromInline package static func connecting<Result>(as rank: Int, _ connect: () -> Result) -> Result {
    $connecting.withValue(rank, operation: connect)
  }
}
