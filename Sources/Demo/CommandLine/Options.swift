/// The demo's command line, parsed: which scenarios, which seed, real or virtual time, whether to trace signals.
///
/// ```swift
/// let parsed = Options.parse(["--scenario", "4", "--fast"])
/// // .run(Options(scenarios: [4], seed: 42, fast: true))
/// ```
struct Options: Sendable, Equatable {
  static let defaultSeed: UInt64 = 42

  var scenarios: [Int] = Scenario.all.map(\.number)
  var seed: UInt64 = Options.defaultSeed
  var fast = false
  /// Print the screen's signals through `debug()`, on the timeline.
  var debug = false
  /// Print what each screen observes after its run (its view's `lifetime.debugGraph()`), as text and as DOT.
  var graph = false
  /// Print each screen's graph after its run as an SVG image instead (what the documentation shows).
  var graphSVG = false

  /// What the command line asks for.
  enum Parsed: Sendable, Equatable {
    case run(Options)
    case help
    /// A mistake, with the message to print before the usage.
    case usageError(String)
  }

  static let usage = """
    usage: swift run Demo [--scenario N] [--seed N] [--fast] [--debug] [--graph | --graph-svg] [--help]

    Plays the source documents' screens with AsyncReactive: actor view models, a fake API with latency and
    failures, views that only bind. Prints one line per event: time since the scenario started, screen,
    who (user, api, dbg, view), what happened.

      --scenario N   play only scenario N (1-6); default: all six
                       1 profile    profile + wallet + orders at once, one UI update (combineLatest)
                       2 wallet     the user, then the wallet from the user (flatMap)
                       3 orders     the order list under retry(3): 2 failures, then a dead backend
                       4 search     bound text, debounce, a command's executing and started, .cancelPrevious
                       5 login      the button enabled by validation (enabledIf + combineLatest)
                       6 lifecycle  refresh check on appear, leave timer on disappear
      --seed N       seed of the fake API's latencies (a non-negative integer); default \(defaultSeed)
      --fast         virtual time: same output, no waiting
      --debug        also print the signals each view binds, through debug(): `dbg` lines on the
                     timeline with the signal's name, the time since it was subscribed and the event
                     (start, value, finish, failure, cancel), just before the view lines they cause
      --graph        after each screen, print the live graph of what it observes (its view's
                     lifetime.debugGraph()), as text and as Graphviz DOT
      --graph-svg    the same graphs as SVG images, drawn by debugGraph().svg
      --help         print this help
    """

  /// Parses the arguments (without the program name).
  static func parse(_ arguments: [String]) -> Parsed {
    var options = Options()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      var name = argument
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      switch name {
      case "--help", "-h":
        return .help
      case "--fast", "--debug", "--graph", "--graph-svg":
        guard inlineValue == nil else { return .usageError("\(name) takes no value") }
        switch name {
        case "--fast": options.fast = true
        case "--debug": options.debug = true
        case "--graph": options.graph = true
        default: options.graphSVG = true
        }
      case "--scenario", "--seed":
        guard let value = inlineValue ?? remaining.popFirst() else { return .usageError("\(name) needs a value") }
        if name == "--seed" {
          guard let seed = UInt64(value) else { return .usageError("--seed: not a non-negative integer: \(value)") }
          options.seed = seed
        } else {
          guard let number = Int(value), (1...Scenario.all.count).contains(number) else {
            return .usageError("--scenario: expected 1-\(Scenario.all.count), got \(value)")
          }
          options.scenarios = [number]
        }
      default:
        return .usageError("unknown option: \(argument)")
      }
    }
    return .run(options)
  }
}
