/// What a ``Command`` does with an `execute` call that arrives while other runs are in flight.
///
/// RACCommand and ReactiveSwift's `Action` offer only the first two behaviours (`allowsConcurrentExecution`
/// `NO` / `YES`); the queueing and "latest wins" policies are what search fields and save buttons usually want.
///
/// ```swift
/// let save = Command(policy: .enqueue) { (draft: Draft) in try await api.save(draft) }
/// let search = Command(policy: .cancelPrevious) { (query: String) in try await api.search(query) }
/// ```
public struct CommandPolicy: Sendable, Hashable, CustomStringConvertible {
  enum Kind: Hashable, Sendable {
    case limit(Int)
    case enqueue
    case cancelPrevious
  }

  let kind: Kind

  private init(_ kind: Kind) {
    self.kind = kind
  }

  /// One run at a time; while it runs, the command is disabled and other calls throw
  /// ``CommandError/disabled`` (RACCommand with `allowsConcurrentExecution = NO`, the default).
  ///
  /// ```swift
  /// let login = Command(policy: .reject) { try await api.logIn() }
  /// ```
  public static let reject = CommandPolicy(.limit(1))

  /// Up to `limit` runs at a time; a call beyond the limit throws ``CommandError/disabled``, and the command
  /// is disabled while the limit is reached.
  ///
  /// ```swift
  /// let download = Command(policy: .concurrent(limit: 3)) { (url: URL) in try await fetch(url) }
  /// ```
  /// - Parameter limit: how many runs may be in flight at once; must be at least 1.
  public static func concurrent(limit: Int) -> CommandPolicy {
    precondition(limit >= 1, "CommandPolicy.concurrent(limit: \(limit)): limit must be at least 1")
    return CommandPolicy(.limit(limit))
  }

  /// One run at a time, the others wait and run one after another in call order; the command stays
  /// enabled while it runs.
  ///
  /// **Cancellation:** a waiting caller that is cancelled leaves the queue (its work never starts) and gets
  /// ``CommandError/cancelled``.
  ///
  /// ```swift
  /// let save = Command(policy: .enqueue) { (draft: Draft) in try await api.save(draft) }
  /// ```
  public static let enqueue = CommandPolicy(.enqueue)

  /// The latest call wins: a new call cancels the runs in flight (their callers get
  /// ``CommandError/cancelled``, their results are dropped) and starts at once. The command stays enabled while it runs.
  ///
  /// ```swift
  /// let search = Command(policy: .cancelPrevious) { (query: String) in try await api.search(query) }
  /// ```
  public static let cancelPrevious = CommandPolicy(.cancelPrevious)

  /// The policy as it is written in code, e.g. `.concurrent(limit: 3)`.
  public var description: String {
    switch kind {
    case .limit(1): return ".reject"
    case .limit(let limit): return ".concurrent(limit: \(limit))"
    case .enqueue: return ".enqueue"
    case .cancelPrevious: return ".cancelPrevious"
    }
  }
}
