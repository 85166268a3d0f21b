/// The text "screen": collects what the user, the fake API, the signals (with `--debug`) and the view report,
/// and prints it as timeline lines, `   +300ms  [1 profile]  view  UI updated: Tom · 100 · 3 orders`.
///
/// Each line is stamped with the ``ScenarioClock``'s time. Lines of one instant are printed together once
/// time moves on (or the scenario ends), ordered by who reported them (user, API, signals, view) and, for one
/// reporter, by the order of its widgets or signals and then in the order it reported them. The library
/// delivers each sequence's values serially and in order, but two observers of two sequences run concurrently;
/// sorting the lines of one instant this way makes the printed timeline the same on every run.
///
/// ```swift
/// let timeline = Timeline(screen: "4 search", clock: clock) { print($0) }
/// timeline.log(.user, "types \"sw\"")
/// timeline.finish()
/// ```
final class Timeline: Sendable {
  /// Who reports a line; lines of one instant are printed in this order.
  enum Role: Int, Sendable, Comparable {
    case user
    case api
    /// A signal's event, printed by `debug()` with `--debug`.
    case signal
    case view

    var label: String {
      switch self {
      case .user: return "user"
      case .api: return "api "
      case .signal: return "dbg "
      case .view: return "view"
      }
    }

    static func < (lhs: Role, rhs: Role) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  private struct Entry {
    var stamp: Duration
    var role: Role
    var order: Int
    var sequence: Int
    var text: String
  }

  private struct State {
    var pending: [Entry] = []
    var count = 0
  }

  /// The screen's label, such as `1 profile`.
  let screen: String
  private let clock: ScenarioClock
  private let output: @Sendable (String) -> Void
  private let state = Lock(State())

  /// Creates a timeline for `screen` whose lines go to `output`.
  init(screen: String, clock: ScenarioClock, output: @escaping @Sendable (String) -> Void) {
    self.screen = screen
    self.clock = clock
    self.output = output
    clock.onAdvance { [weak self] now in self?.flush(before: now) }
  }

  /// Reports `text` at `time` (by default the clock's current time). `order` ranks the lines of one reporter
  /// (the view's widgets, the traced signals) among themselves.
  ///
  /// A reporter that knows when its event happened (a request's or a pause's deadline) passes it: on a real
  /// clock under load, another timer may fire between the event and the report, and move the clock on.
  func log(_ role: Role, order: Int = 0, at time: Duration? = nil, _ text: String) {
    let stamp = time ?? clock.elapsed
    state.withLock { state in
      state.pending.append(Entry(stamp: stamp, role: role, order: order, sequence: state.count, text: text))
      state.count += 1
    }
  }

  /// Prints every line not printed yet.
  func finish() {
    flush(before: nil)
  }

  /// Prints the lines stamped before `time` (all if `nil`), sorted. Output happens under the lock so that
  /// two flushes never interleave their lines.
  private func flush(before time: Duration?) {
    state.withLock { state in
      let isDue = { (entry: Entry) in time.map { entry.stamp < $0 } ?? true }
      let due = state.pending.filter(isDue)
      guard !due.isEmpty else { return }
      state.pending.removeAll(where: isDue)
      let sorted = due.sorted {
        ($0.stamp, $0.role, $0.order, $0.sequence) < ($1.stamp, $1.role, $1.order, $1.sequence)
      }
      for entry in sorted { output(format(entry)) }
    }
  }

  private func format(_ entry: Entry) -> String {
    let stamp = "+\(entry.stamp.wholeMilliseconds)ms"
    let padded = String(repeating: " ", count: max(0, 8 - stamp.count)) + stamp
    return "\(padded)  [\(screen)]  \(entry.role.label)  \(entry.text)"
  }
}

extension Duration {
  /// The duration in whole milliseconds, rounded toward zero.
  var wholeMilliseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1000 + attoseconds / 1_000_000_000_000_000
  }
}
