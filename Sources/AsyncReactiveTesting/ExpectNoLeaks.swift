import AsyncReactive
import Testing

/// Runs `body` and fails the test if anything the library started inside it (a task: an operator's pump, a
/// timer, an observation, a binding, a command run; or a subject consumer) is still alive after the block,
/// naming what is (RxSwift's `Resources.total` check, scoped to the block): each task by its name, and each consumer
/// with the node it observes, as `debugGraph()` prints it (`a sink of map → Int (Search.swift:12) · connected`).
///
/// Only what `body` started counts, including what those tasks started in turn, so tests running in parallel
/// do not disturb it. Ending a lifetime or releasing a view model cancels tasks that wind down a moment later:
/// this waits for them, up to `timeout` of real time, and then fails with the list of what is still alive.
///
/// Pattern for view-model tests: create the view model, its view and their lifetimes inside the block, drive
/// the scenario, and let them go (or end the lifetimes) before the block returns.
///
/// ```swift
/// @Test func searchScreenLeavesNothingBehind() async {
///   await expectNoLeaks {
///     let lifetime = Lifetime()
///     let viewModel = SearchViewModel(api: FakeAPI())
///     viewModel.results.observe(in: lifetime) { print($0) }
///     viewModel.query.send("swift")
///     lifetime.cancel()
///   }
/// }
/// ```
/// - Parameters:
///   - timeout: how long (real time) to wait for what the block started to end; positive.
///   - fileID: the file of the location where a failure is reported; the caller's by default.
///   - filePath: the path of that file; the caller's by default.
///   - line: the line of that location; the caller's by default.
///   - column: the column of that location; the caller's by default.
///   - body: the code under test.
/// - Returns: what `body` returned.
@discardableResult
public func expectNoLeaks<Result>(
  timeout: Duration = .seconds(60),
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column,
  _ body: () async throws -> Result
) async rethrows -> Result {
  checkTimeout(timeout, of: "expectNoLeaks")
  let scope = ResourceScope()
  let result = try await ResourceScope.$current.withValue(scope) { try await body() }
  let watched = await watch(timeout: timeout) {
    await scope.waitUntilEmpty()
    return scope.total
  }
  if watched.expired && scope.total > 0 {
    recordTimeout(
      "expectNoLeaks: still alive \(timeout.secondsDescription) after the block: \(describeLeaks(in: scope))",
      sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
  return result
}

/// What is alive in `scope`, for a leak report: `1 × task 'HotTimeline', 1 × subject consumer`, then each leaked
/// consumer with the node it keeps observing, as the graph dump prints it.
func describeLeaks(in scope: ResourceScope) -> String {
  let alive = scope.live.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", ")
  let consumers = scope.liveConsumers.map { "\n  \($0.kind) of \(DebugGraph.line(describing: $0.node))" }.sorted()
  return alive + consumers.joined()
}
