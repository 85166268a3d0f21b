/// The user, as the backend sends it (`{"name":"Tom"}`).
struct User: Sendable, Equatable, CustomStringConvertible {
  var name: String

  var description: String { "user \(name)" }
}

/// The user's wallet (`{"money":"100"}`).
struct Wallet: Sendable, Equatable, CustomStringConvertible {
  var money: String

  var description: String { "wallet \(money)" }
}

/// One order of the order list.
struct Order: Sendable, Equatable, CustomStringConvertible {
  var id: Int

  var description: String { "order \(id)" }
}

/// What the backend answers when it fails: the source documents' `NSError` with domain "network error" and
/// code 502.
struct NetworkError: Error, Equatable, CustomStringConvertible {
  var domain: String
  var code: Int

  /// The 502 the fake backend fails with.
  static let badGateway = NetworkError(domain: "network error", code: 502)

  var description: String { "domain \"\(domain)\", code \(code)" }
}

/// A fake backend: every request takes a latency on the scenario's clock, then answers, fails with a 502, or
/// is cancelled; each outcome is reported on the timeline.
///
/// Latencies come from a ``SplitMix64`` seeded with the demo's seed, the endpoint and the call's number, so a
/// seed gives the same latency to the same call however the concurrent calls interleave. Each endpoint adds
/// its own few milliseconds (`/profile` +1 ms, `/wallet` +4 ms, …) so that two endpoints never answer at the
/// same instant. Failures are planned by the scenario (``failNext(_:of:)``), so a scenario's outcome does
/// not depend on the seed.
///
/// ```swift
/// let api = FakeAPI(seed: 42, clock: clock, timeline: timeline, activity: activity)
/// api.failNext(2, of: .orders)
/// let orders = try await api.orders()   // throws NetworkError.badGateway twice, then succeeds
/// ```
final class FakeAPI: Sendable {
  /// The fake backend's endpoints, with their latency ranges.
  enum Endpoint: String, Sendable {
    case profile = "/profile"
    case wallet = "/wallet"
    case orders = "/orders"
    case user = "/user"
    case search = "/search"
    case login = "/login"

    /// Shortest latency, in milliseconds.
    var minimum: Int { self == .search ? 200 : 40 }
    /// Added to every latency, so that two endpoints never answer at the same instant.
    var offset: Int {
      switch self {
      case .profile: return 1
      case .wallet: return 4
      case .orders: return 7
      case .user: return 2
      case .search: return 5
      case .login: return 8
      }
    }
  }

  /// A request that was sent and has not reported its outcome yet.
  private struct Request {
    var description: String
    var deadline: Duration
    var cancelled = false
  }

  private struct State {
    var calls: [Endpoint: Int] = [:]
    var failuresLeft: [Endpoint: Int] = [:]
    var inFlight: [Int: Request] = [:]
    var nextID = 0
    /// Every request sent so far, as the timeline prints it.
    var sent: [String] = []
  }

  private let seed: UInt64
  private let clock: ScenarioClock
  private let timeline: Timeline
  private let activity: Activity
  private let state = Lock(State())

  init(seed: UInt64, clock: ScenarioClock, timeline: Timeline, activity: Activity) {
    self.seed = seed
    self.clock = clock
    self.timeline = timeline
    self.activity = activity
  }

  /// Makes the next `count` calls to `endpoint` fail with a 502 (`Int.max`: every call).
  func failNext(_ count: Int, of endpoint: Endpoint) {
    state.withLock { $0.failuresLeft[endpoint] = count }
  }

  /// The latency of call number `call` to `endpoint` for this seed, in milliseconds: the minimum plus 0 to
  /// 110 ms in steps of 10, plus the endpoint's offset.
  static func latency(seed: UInt64, endpoint: Endpoint, call: Int) -> Int {
    var random = SplitMix64(seed: seed ^ SplitMix64.hash(endpoint.rawValue) ^ (UInt64(call) &* 0x2545_F491_4F6C_DD1D))
    return endpoint.minimum + 10 * Int(random.next() % 12) + endpoint.offset
  }

  func user() async throws -> User {
    try await request(.user, "GET /user") { (User(name: "Tom"), #"{"name":"Tom"}"#) }
  }

  func profile() async throws -> User {
    try await request(.profile, "GET /profile") { (User(name: "Tom"), #"{"name":"Tom"}"#) }
  }

  func wallet(for user: User) async throws -> Wallet {
    try await request(.wallet, "GET /wallet?user=\(user.name)") { (Wallet(money: "100"), #"{"money":"100"}"#) }
  }

  func orders() async throws -> [Order] {
    try await request(.orders, "GET /orders") { ((1...3).map { Order(id: $0) }, "[3 orders]") }
  }

  func search(_ query: String) async throws -> [String] {
    try await request(.search, "GET /search?q=\(query)") {
      let found = ["swift", "swiftui", "swift-format"].filter { $0.hasPrefix(query) }
      return (found, "\(found)")
    }
  }

  func logIn(username: String, password: String) async throws -> String {
    try await request(.login, "POST /login") { ("token-\(username)", #"{"token":"token-\#(username)"}"#) }
  }

  /// Whether every request has reported its outcome by `time`: none was answered (its deadline is `time` or
  /// earlier) or cancelled without its line on the timeline yet. The virtual-time driver moves time only then.
  func isSettled(at time: Duration) -> Bool {
    state.withLock { state in state.inFlight.values.allSatisfy { !$0.cancelled && $0.deadline > time } }
  }

  /// The earliest deadline of a request in flight that is later than `time`. The virtual-time driver counts
  /// these as timers from the moment a request is sent, before its sleep reaches the clock.
  func nextDeadline(after time: Duration) -> Duration? {
    state.withLock { state in state.inFlight.values.filter { !$0.cancelled && $0.deadline > time }.map(\.deadline).min()
    }
  }

  /// Returns once each of `requests` (as the timeline prints them, such as `GET /orders`) has been sent. How the
  /// user's script says which requests an action starts, when other timers run meanwhile and time must not move
  /// before the requests are sent.
  ///
  /// **Cancellation:** returns at once.
  func waitForRequests(_ requests: String...) async {
    await activity.wait {
      let sent = state.withLock { $0.sent }
      return requests.allSatisfy(sent.contains)
    }
  }

  /// Waits the call's latency, then answers with `response` (a value and how it is printed), or fails.
  private func request<Value: Sendable>(
    _ endpoint: Endpoint,
    _ description: String,
    response: () -> (Value, String)
  ) async throws -> Value {
    let (id, deadline, fails) = state.withLock { state -> (Int, Duration, Bool) in
      let call = state.calls[endpoint, default: 0]
      state.calls[endpoint] = call + 1
      let failuresLeft = state.failuresLeft[endpoint, default: 0]
      if failuresLeft > 0, failuresLeft != .max { state.failuresLeft[endpoint] = failuresLeft - 1 }
      let deadline = clock.elapsed + .milliseconds(Self.latency(seed: seed, endpoint: endpoint, call: call))
      defer { state.nextID += 1 }
      state.inFlight[state.nextID] = Request(description: description, deadline: deadline)
      state.sent.append(description)
      return (state.nextID, deadline, failuresLeft > 0)
    }
    activity.bump()
    do {
      try await withTaskCancellationHandler {
        try await clock.sleep(until: ScenarioClock.Instant(offset: deadline))
      } onCancel: {
        // Marked at once, by the task that cancels: time must not move on before the line below is printed.
        state.withLock { $0.inFlight[id]?.cancelled = true }
        activity.bump()
      }
    } catch {
      timeline.log(.api, "✗ \(description) cancelled")
      done(id)
      throw error
    }
    if fails {
      timeline.log(.api, at: deadline, "← \(description) 502")
      done(id)
      throw NetworkError.badGateway
    }
    let (value, body) = response()
    timeline.log(.api, at: deadline, "← \(description) 200 \(body)")
    done(id)
    return value
  }

  /// The request `id` has reported its outcome.
  private func done(_ id: Int) {
    state.withLock { _ = $0.inFlight.removeValue(forKey: id) }
    activity.bump()
  }
}
