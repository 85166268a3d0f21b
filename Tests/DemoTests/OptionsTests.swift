import Testing

@testable import Demo

@Suite("Demo command line")
struct OptionsTests {
  @Test("no arguments: every scenario, the default seed, real time")
  func defaults() {
    #expect(Options.parse([]) == .run(Options(scenarios: [1, 2, 3, 4, 5, 6], seed: 42, fast: false, debug: false)))
  }

  @Test("--scenario, --seed, --fast and --debug, separated or with =")
  func options() {
    #expect(
      Options.parse(["--debug", "--scenario", "5"]) == .run(Options(scenarios: [5], seed: 42, fast: false, debug: true))
    )
    #expect(
      Options.parse(["--scenario", "4", "--seed", "7", "--fast"]) == .run(Options(scenarios: [4], seed: 7, fast: true)))
    #expect(
      Options.parse(["--fast", "--scenario=6", "--seed=0"]) == .run(Options(scenarios: [6], seed: 0, fast: true)))
    #expect(Options.parse(["--seed", "18446744073709551615"]) == .run(Options(seed: .max)))
  }

  @Test("--graph and --graph-svg ask for each screen's graph")
  func graphs() {
    var graph = Options(scenarios: [5], seed: 42, fast: true)
    graph.graph = true
    #expect(Options.parse(["--graph", "--scenario", "5", "--fast"]) == .run(graph))
    var svg = Options()
    svg.graphSVG = true
    #expect(Options.parse(["--graph-svg"]) == .run(svg))
    #expect(Options.parse(["--graph=svg"]) == .usageError("--graph takes no value"))
  }

  @Test("--help and -h ask for the usage, whatever follows")
  func help() {
    #expect(Options.parse(["--help"]) == .help)
    #expect(Options.parse(["-h"]) == .help)
    #expect(Options.parse(["--fast", "--help", "--bogus"]) == .help)
  }

  @Test(
    "mistakes are usage errors",
    arguments: [
      (["--bogus"], "unknown option: --bogus"),
      (["fast"], "unknown option: fast"),
      (["--scenario"], "--scenario needs a value"),
      (["--scenario", "0"], "--scenario: expected 1-6, got 0"),
      (["--scenario", "7"], "--scenario: expected 1-6, got 7"),
      (["--scenario", "two"], "--scenario: expected 1-6, got two"),
      (["--scenario="], "--scenario: expected 1-6, got "),
      (["--seed", "-1"], "--seed: not a non-negative integer: -1"),
      (["--seed", "x"], "--seed: not a non-negative integer: x"),
      (["--seed"], "--seed needs a value"),
      (["--fast=yes"], "--fast takes no value"),
      (["--debug=1"], "--debug takes no value"),
    ]
  )
  func usageErrors(arguments: [String], message: String) {
    #expect(Options.parse(arguments) == .usageError(message))
  }

  @Test("--help prints the usage on standard output and exits 0")
  func helpCommand() async {
    let (output, errors) = (Lines(), Lines())
    let status = await DemoCommand.run(
      arguments: ["--help"],
      output: output.append,
      errors: errors.append
    )
    #expect(status == 0)
    #expect(output.all == [Options.usage])
    #expect(errors.all.isEmpty)
  }

  @Test("a mistake prints the message and the usage on standard error and exits 2")
  func usageErrorCommand() async {
    let (output, errors) = (Lines(), Lines())
    let status = await DemoCommand.run(
      arguments: ["--scenario", "9"],
      output: output.append,
      errors: errors.append
    )
    #expect(status == 2)
    #expect(output.all.isEmpty)
    #expect(errors.all == ["Demo: --scenario: expected 1-6, got 9", Options.usage])
  }

  @Test("--fast plays the chosen scenario on virtual time and exits 0")
  func fastCommand() async {
    let (output, errors) = (Lines(), Lines())
    let status = await DemoCommand.run(
      arguments: ["--fast", "--scenario", "2"],
      output: output.append,
      errors: errors.append
    )
    #expect(status == 0)
    #expect(
      output.all
        == ["AsyncReactive demo, seed 42", "", "── 2. the user, then the wallet from the user (flatMap)"]
        + ScenarioTests.walletTimeline)
    #expect(errors.all.isEmpty)
  }
}
