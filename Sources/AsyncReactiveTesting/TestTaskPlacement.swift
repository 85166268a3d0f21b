import AsyncReactive
import Testing

/// Places the library's tasks that a test's code starts outside its virtual time (a view model built in a suite's
/// `init()`, before `withVirtualTime`): such a task prefers the executor of the test's `TestClock`, so what it
/// does runs where `advance` and `settle` wait for it. A test is told apart by Swift Testing's current test (and
/// its case, for a parameterized test), which a suite's `init()` and every task made from it see.
///
/// A test with several clocks places its tasks on the latest one made. A task that cannot be placed (its test made
/// no clock yet) is remembered while it lives, and
/// ``TestClock/settle()`` reports it by name: it runs where the test cannot wait for it.
final class TestTaskPlacement: TaskPlacement {
  static let shared = TestTaskPlacement()

  /// A clock's executor, held weakly: a clock that is gone places nothing.
  private struct ClockEntry {
    let test: String
    weak var executor: TestClockExecutor?
  }

  private struct State {
    var clocks: [ClockEntry] = []
    /// The tasks that could not be placed and still live, by test: task id → name.
    var escaped: [String: [Int: String]] = [:]
    var nextID = 0
  }

  private let state = Locked(State())

  /// Remembers that the current test made a clock with `executor` (called by `TestClock.init`); installs the
  /// placement in the library the first time.
  static func register(_ executor: TestClockExecutor) {
    TaskPlacementHook.install(shared)
    guard let test = currentTest() else { return }
    shared.state.withLock { state in
      state.clocks.removeAll { $0.executor == nil }
      state.clocks.append(ClockEntry(test: test, executor: executor))
    }
  }

  /// Who the current test is, or `nil` outside one: its id, and its case's arguments for a parameterized test
  /// (whose cases may run in parallel, each with its own suite instance and clock).
  static func currentTest() -> String? {
    guard let test = Test.current else { return nil }
    var key = String(describing: test.id)
    if let testCase = Test.Case.current, testCase.isParameterized {
      key += " " + String(describing: testCase)
    }
    return key
  }

  func place(taskNamed name: String) -> (executor: (any TaskExecutor)?, escape: AnyObject?) {
    guard let test = Self.currentTest() else { return (nil, nil) }
    return state.withLock { state -> (executor: (any TaskExecutor)?, escape: AnyObject?) in
      // The latest clock: a test that makes a clock per round of a loop places the round's tasks on its clock.
      if let executor = state.clocks.last(where: { $0.test == test && $0.executor != nil })?.executor {
        return (executor, nil)
      }
      let id = state.nextID
      state.nextID += 1
      state.escaped[test, default: [:]][id] = name
      return (nil, Escape(test: test, id: id, placement: self))
    }
  }

  /// The names of the current test's library tasks that live and run outside any test executor.
  func escapedTasks(of test: String) -> [String] {
    state.withLock { state in (state.escaped[test] ?? [:]).sorted { $0.key < $1.key }.map(\.value) }
  }

  fileprivate func end(_ test: String, _ id: Int) {
    state.withLock { state in
      state.escaped[test]?[id] = nil
      if state.escaped[test]?.isEmpty == true { state.escaped[test] = nil }
    }
  }

  /// Kept by a task that could not be placed, until it ends.
  private final class Escape: Sendable {
    let test: String
    let id: Int
    let placement: TestTaskPlacement

    init(test: String, id: Int, placement: TestTaskPlacement) {
      self.test = test
      self.id = id
      self.placement = placement
    }

    deinit { placement.end(test, id) }
  }
}
