import AsyncReactive

/// The `Demo` executable: parses the arguments, plays the scenarios, returns the exit status.
///
/// ```swift
/// let status = await DemoCommand.run(arguments: ["--fast"], output: { print($0) }, errors: { print($0) })
/// ```
enum DemoCommand {
  /// Runs the demo; returns 0, 1 if a virtual-time scenario got stuck, or 2 for a usage error.
  static func run(
    arguments: [String],
    output: @escaping @Sendable (String) -> Void,
    errors: @escaping @Sendable (String) -> Void
  ) async -> Int32 {
    switch Options.parse(arguments) {
    case .help:
      output(Options.usage)
      return 0
    case .usageError(let message):
      errors("Demo: \(message)")
      errors(Options.usage)
      return 2
    case .run(let options):
      output("AsyncReactive demo, seed \(options.seed)")
      for number in options.scenarios {
        let scenario = Scenario.all[number - 1]
        output("")
        output("── \(scenario.number). \(scenario.title)")
        let setup = ScenarioSetup(
          seed: options.seed, tracing: options.debug,
          graphs: options.graphSVG ? .svg : options.graph ? .textAndDOT : nil, output: output)
        if options.fast {
          if let stall = await runScenarioInVirtualTime(number, setup) {
            errors("Demo: scenario \(number) \(stall); its timeline is cut short")
            return 1
          }
        } else {
          await runScenario(number, setup)
        }
      }
      return 0
    }
  }
}
