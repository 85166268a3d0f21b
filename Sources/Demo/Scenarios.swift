import AsyncReactive
import AsyncReactiveTesting

/// One of the demo's screens: how to play it, and its choreography in virtual time.
///
/// ```swift
/// for scenario in Scenario.all { print(scenario.number, scenario.title) }
/// ```
struct Scenario: Sendable {
  /// A point where the scenario has settled after a jump in virtual time: how many tasks sleep on the clock
  /// and how many lines have been reported by then.
  struct Step: Sendable, Equatable {
    var sleepers: Int
    var lines: Int

    init(_ sleepers: Int, _ lines: Int) {
      self.sleepers = sleepers
      self.lines = lines
    }
  }

  let number: Int
  /// The label on each timeline line, such as `1 profile`.
  let screen: String
  let title: String
  /// Virtual time jumps to the next deadline only once the scenario has settled, and Swift cannot tell when
  /// tasks are idle. So each scenario states, for each jump, the sleepers and lines it has settled at. The
  /// numbers do not depend on the seed (latencies change, what happens does not), and the exact-timeline tests
  /// check them: a wrong plan prints a wrong timeline.
  let plan: [Step]
  let play: @Sendable (Stage) async -> Void

  static let all: [Scenario] = [
    Scenario(
      number: 1, screen: "1 profile", title: "profile + wallet + orders at once, one UI update (combineLatest)",
      plan: [(3, 1), (2, 2), (1, 3), (1, 5), (0, 6)].map(Step.init), play: playProfileScreen),
    Scenario(
      number: 2, screen: "2 wallet", title: "the user, then the wallet from the user (flatMap)",
      plan: [(1, 1), (1, 2), (1, 4), (0, 5)].map(Step.init), play: playWalletScreen),
    Scenario(
      number: 3, screen: "3 orders", title: "the order list under retry(3): 2 failures, then a dead backend",
      plan: [(1, 1), (1, 2), (1, 3), (1, 5), (1, 6), (1, 7), (1, 8), (1, 9), (1, 11), (0, 12)].map(Step.init),
      play: playOrderListScreen),
    Scenario(
      number: 4, screen: "4 search", title: "search: bound text, a command's executing, policy .cancelPrevious",
      plan: [(2, 1), (2, 2), (2, 2), (2, 3), (2, 4), (1, 6), (1, 9), (0, 10)].map(Step.init), play: playSearchScreen),
    Scenario(
      number: 5, screen: "5 login", title: "login form: the button enabled by validation",
      plan: [(1, 2), (1, 3), (1, 4), (1, 6), (1, 8), (1, 10), (1, 13), (0, 14)].map(Step.init), play: playLoginScreen),
    Scenario(
      number: 6, screen: "6 lifecycle", title: "lifecycle: refresh check on appear, leave timer on disappear",
      plan: [(1, 1), (1, 4), (2, 6), (1, 9), (2, 11), (1, 13), (1, 14), (1, 17), (0, 18)].map(Step.init),
      play: playLifecycleScreen),
  ]
}

/// Plays scenario `number` (1–6) on `clock` and sends its timeline lines to `output`, in order.
///
/// The scenario's time zero is the clock's time at this call.
///
/// ```swift
/// await runScenario(4, seed: 42, clock: ScenarioClock(ContinuousClock())) { print($0) }
/// ```
func runScenario(
  _ number: Int,
  seed: UInt64,
  clock: ScenarioClock,
  output: @escaping @Sendable (String) -> Void
) async {
  let scenario = Scenario.all[number - 1]
  let stage = Stage(seed: seed, clock: clock, screen: scenario.screen, output: output)
  await scenario.play(stage)
  stage.timeline.finish()
}

/// Plays scenario `number` in virtual time, following its ``Scenario/plan``: prints in milliseconds what
/// ``runScenario(_:seed:clock:output:)`` prints in real time.
///
/// ```swift
/// await runScenarioInVirtualTime(4, seed: 42) { print($0) }
/// ```
/// - Parameter patience: how long (real time) one handshake may take before the plan counts as broken and
///   time moves on anyway. Two seconds for the command line; tests give it minutes, because a loaded machine
///   (the thread sanitizer, a parallel test run) can take longer than that to settle, and a test must not
///   depend on the machine's speed.
/// - Returns: whether the plan held: each jump had its step, and each handshake completed.
@discardableResult
func runScenarioInVirtualTime(
  _ number: Int,
  seed: UInt64,
  patience: Duration = .seconds(2),
  output: @escaping @Sendable (String) -> Void
) async -> Bool {
  let scenario = Scenario.all[number - 1]
  let base = TestClock()
  let clock = ScenarioClock(base)
  let stage = Stage(seed: seed, clock: clock, screen: scenario.screen, output: output)
  let planHeld = Locked(true)
  await runInVirtualTime(clock: clock, base: base) { step in
    let held =
      step < scenario.plan.count
      ? await handshake(scenario.plan[step], base: base, timeline: stage.timeline, patience: patience) : false
    if !held { planHeld.withLock { $0 = false } }
  } _: {
    await scenario.play(stage)
    stage.timeline.finish()
  }
  return planHeld.withLock { $0 }
}

/// Waits until `step`'s sleepers sleep on `base` and its lines were reported; gives up after `patience` of
/// real time (a plan that no longer matches its scenario must not hang the demo).
/// - Returns: whether the handshake completed.
private func handshake(_ step: Scenario.Step, base: TestClock, timeline: Timeline, patience: Duration) async -> Bool {
  await withTaskGroup(of: Bool.self) { group in
    group.addTask {
      // Both counts must hold at the same moment: a sleeper counted while waiting for the lines may have been
      // cancelled since (a search replaced by the next one, say).
      repeat {
        await base.waitForSleepers(step.sleepers)
        await timeline.waitForLines(step.lines)
      } while base.sleeperCount < step.sleepers && !Task.isCancelled
      return !Task.isCancelled
    }
    group.addTask {
      try? await Task.sleep(for: patience)
      return false
    }
    let held = await group.next() ?? false
    group.cancelAll()
    return held
  }
}
