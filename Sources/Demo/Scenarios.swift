import AsyncReactive
import AsyncReactiveTesting

/// One of the demo's screens and how to play it.
///
/// ```swift
/// for scenario in Scenario.all { print(scenario.number, scenario.title) }
/// ```
struct Scenario: Sendable {
  let number: Int
  /// The label on each timeline line, such as `1 profile`.
  let screen: String
  let title: String
  /// The user's script: builds the screen on the stage and uses it.
  let play: @MainActor @Sendable (Stage) async -> Void

  static let all: [Scenario] = [
    Scenario(
      number: 1, screen: "1 profile", title: "profile + wallet + orders at once, one UI update (combineLatest)",
      play: playProfileScreen),
    Scenario(
      number: 2, screen: "2 wallet", title: "the user, then the wallet from the user (flatMap)", play: playWalletScreen),
    Scenario(
      number: 3, screen: "3 orders", title: "the order list under retry(3): 2 failures, then a dead backend",
      play: playOrderListScreen),
    Scenario(
      number: 4, screen: "4 search", title: "search: bound text, a command's executing, policy .cancelPrevious",
      play: playSearchScreen),
    Scenario(
      number: 5, screen: "5 login", title: "login form: the button enabled by validation", play: playLoginScreen),
    Scenario(
      number: 6, screen: "6 lifecycle", title: "lifecycle: refresh check on appear, leave timer on disappear",
      play: playLifecycleScreen),
  ]
}

/// How a scenario is played: its seed, whether its signals are traced, and where its lines go.
///
/// ```swift
/// let setup = ScenarioSetup(seed: 42, tracing: false) { print($0) }
/// ```
struct ScenarioSetup: Sendable {
  var seed: UInt64
  /// Whether the screen's signals print their events (`--debug`).
  var tracing = false
  /// How each screen prints its view model's graph after its run (`--graph`, `--graph-svg`); `nil`: it does not.
  var graphs: GraphFormat? = nil
  /// How long (real time) the scenario may stand still before it counts as stuck: the virtual-time driver's
  /// watchdog and the handshakes with the fake UI. Generous in tests, where a loaded machine (the thread sanitizer,
  /// a parallel test run) can take long to run a step; a scenario that works never waits that long.
  var patience: Duration = .seconds(10)
  var output: @Sendable (String) -> Void
}

/// Plays scenario `number` (1–6) in real time and sends its timeline lines to `setup.output`, in order.
///
/// ```swift
/// await runScenario(4, ScenarioSetup(seed: 42) { print($0) })
/// ```
func runScenario(_ number: Int, _ setup: ScenarioSetup) async {
  let scenario = Scenario.all[number - 1]
  let stage = Stage(
    seed: setup.seed, base: ContinuousClock(), screen: scenario.screen, patience: setup.patience,
    tracing: setup.tracing, graphs: setup.graphs, output: setup.output)
  await scenario.play(stage)
  stage.timeline.finish()
}

/// Plays scenario `number` in virtual time (see ``runInVirtualTime(_:base:patience:_:)``): prints at once what
/// ``runScenario(_:_:)`` prints in real time.
///
/// ```swift
/// await runScenarioInVirtualTime(4, ScenarioSetup(seed: 42) { print($0) })
/// ```
/// - Returns: `nil` when the scenario played to its end; otherwise why it got stuck (its timeline is cut short).
@discardableResult
func runScenarioInVirtualTime(_ number: Int, _ setup: ScenarioSetup) async -> String? {
  let scenario = Scenario.all[number - 1]
  let base = TestClock()
  let stage = Stage(
    seed: setup.seed, base: base, screen: scenario.screen, patience: setup.patience, tracing: setup.tracing,
    graphs: setup.graphs, output: setup.output)
  let stall = await runInVirtualTime(stage, base: base, patience: setup.patience) { await scenario.play(stage) }
  stage.timeline.finish()
  return stall
}
