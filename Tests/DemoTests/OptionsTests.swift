import AsyncReactive
import Testing

@testable import Demo

@Suite("Demo command line")
struct OptionsTests {
  @Test("no arguments: every scenario, the default seed, real time")
  func defaults() {
    #expect(Options.parse([]) == .run(Options(scenarios: [1, 2, 3, 4, 5, 6], seed: 42, fast: false)))
  }

  @Test("--scenario, --seed and --fast, separated or with =")
  func options() {
    #expect(
      Options.parse(["--scenario", "4", "--seed", "7", "--fast"]) == .run(Options(scenarios: [4], seed: 7, fast: true)))
    #expect(
      Options.parse(["--fast", "--scenario=6", "--seed=0"]) == .run(Options(scenarios: [6], seed: 0, fast: true)))
    #expect(Options.parse(["--seed", "18446744073709551615"]) == .run(Options(seed: .max)))
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
    ]
  )
  func usageErrors(arguments: [String], message: String) {
    #expect(Options.parse(arguments) == .usageError(message))
  }

  @Test("--help prints the usage on standard output and exits 0")
  func helpCommand() async {
    let (output, errors) = (Locked<[String]>([]), Locked<[String]>([]))
    let status = await DemoCommand.run(
      arguments: ["--help"],
      output: { line in output.withLock { $0.append(line) } },
      errors: { line in errors.withLock { $0.append(line) } }
    )
    #expect(status == 0)
    #expect(output.withLock { $0 } == [Options.usage])
    #expect(errors.withLock { $0 }.isEmpty)
  }

  @Test("a mistake prints the message and the usage on standard error and exits 2")
  func usageErrorCommand() async {
    let (output, errors) = (Locked<[String]>([]), Locked<[String]>([]))
    let status = await DemoCommand.run(
      arguments: ["--scenario", "9"],
      output: { line in output.withLock { $0.append(line) } },
      errors: { line in errors.withLock { $0.append(line) } }
    )
    #expect(status == 2)
    #expect(output.withLock { $0 }.isEmpty)
    #expect(errors.withLock { $0 } == ["Demo: --scenario: expected 1-6, got 9", Options.usage])
  }
}
