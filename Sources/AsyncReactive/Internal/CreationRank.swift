import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The order in which nodes and direct observers were created, so that the observers of one source are called in
/// that order (ReactiveSwift's rule), whatever order their consumers attached in: a view model's behaviour then does
/// not depend on whether the view or the test subscribes to `clears` or to `isTitleVisible` first.
///
/// Every node (a subject, an operator's node) takes a rank when it is made. A node connects to its inputs lazily,
/// when its first consumer comes; the sinks it registers then carry its own rank and take that place among the
/// input's observers. A consumer attached directly (`sink`, `observe`, `bind`) takes a new rank when it attaches.
///
/// The node connecting now is a thread-specific value set around the (synchronous) connection.
@usableFromInline package enum CreationRank {
  /// The last rank given; ranks start at 1.
  static let counter = Atomic<Int>(0)

  /// Holds the rank of the node whose inputs are being connected on this thread (as a pointer's bits; no value
  /// when none is).
  static let connectingKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "AsyncReactive: no thread-specific key left for the creation order of nodes")
    return key
  }()

  /// A new rank, later than every rank given so far.
  @usableFromInline package static func next() -> Int {
    counter.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// Holds the node whose inputs are being connected on this thread (unretained; no value when none is), beside its
  /// rank: the sinks it registers name it as what they feed, for a graph dump.
  static let connectingNodeKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "AsyncReactive: no thread-specific key left for the nodes being connected")
    return key
  }()

  /// The rank of a sink being registered: the connecting node's, or a new one for a consumer attached directly.
  @usableFromInline package static func forNewSink() -> Int {
    if let connecting = pthread_getspecific(connectingKey) { return Int(bitPattern: connecting) }
    return next()
  }

  /// The node connecting its inputs on this thread, which a sink registered now feeds; `nil` for a consumer attached
  /// directly.
  @usableFromInline package static func connectingNode() -> (any AnyObject & Sendable)? {
    guard let connecting = pthread_getspecific(connectingNodeKey) else { return nil }
    // Only ``beginConnecting(_:as:)`` stores here, and only a `Sendable` object; `Sendable` is a marker (no witness
    // table), so an object reference and a Sendable one have the same layout.
    return unsafeBitCast(
      Unmanaged<AnyObject>.fromOpaque(connecting).takeUnretainedValue(), to: (any AnyObject & Sendable).self)
  }

  /// Marks this thread as connecting the inputs of `node`, of `rank` (the sinks it registers meanwhile carry that
  /// rank and name the node); returns what to give ``endConnecting(_:)`` when the connection is made. The node
  /// outlives the connection (its caller holds it). No closure is involved: a closure around the connection, generic
  /// over its result, made the connection's `disconnect` closure go through a reabstraction thunk kept for the
  /// node's whole life (+90 bytes per hot operator).
  @usableFromInline package static func beginConnecting(
    _ node: some AnyObject & Sendable, as rank: Int
  ) -> (rank: UnsafeMutableRawPointer?, node: UnsafeMutableRawPointer?) {
    let previous = (pthread_getspecific(connectingKey), pthread_getspecific(connectingNodeKey))
    pthread_setspecific(connectingKey, UnsafeRawPointer(bitPattern: rank))
    pthread_setspecific(connectingNodeKey, Unmanaged.passUnretained(node).toOpaque())
    return previous
  }

  /// Restores what ``beginConnecting(as:)`` replaced (connections nest: an input that connects its own inputs).
  @usableFromInline package static func endConnecting(
    _ previous: (rank: UnsafeMutableRawPointer?, node: UnsafeMutableRawPointer?)
  ) {
    pthread_setspecific(connectingKey, previous.rank)
    pthread_setspecific(connectingNodeKey, previous.node)
  }
}

extension CreationRank {
  /// Runs `body` as if no node were connecting on this thread: a sink it registers takes a new rank, later than
  /// every node made so far. For an inner (`flatMap`) or a fallback (`catch`) that a connection attaches: it is
  /// created when it attaches, as a consumer attached directly is, whether or not that happens while the node that
  /// runs it is connecting (an outer with a current value gives its first inner during the connection).
  @usableFromInline package static func attachingLater<Result>(_ body: () -> Result) -> Result {
    guard let connecting = pthread_getspecific(connectingKey) else { return body() }
    pthread_setspecific(connectingKey, nil)
    defer { pthread_setspecific(connectingKey, connecting) }
    return body()
  }
}
