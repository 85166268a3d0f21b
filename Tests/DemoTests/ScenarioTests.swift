import AsyncReactive
import AsyncReactiveTesting
import Testing

@testable import Demo

/// Each scenario played in-process in virtual time (a `TestClock` moved whenever the scenario lets time pass, see
/// `runInVirtualTime`), checked line by line.
@Suite("Demo scenarios on the test clock")
struct ScenarioTests {
  /// The seed the exact timelines below were recorded with (the command line's default).
  static let seed = Options.defaultSeed

  static let profileTimeline = [
    #"    +0ms  [1 profile]  user  opens the account screen: profile, wallet and orders are requested at once"#,
    #"   +51ms  [1 profile]  api   ← GET /profile 200 {"name":"Tom"}"#,
    #"   +57ms  [1 profile]  api   ← GET /orders 200 [3 orders]"#,
    #"   +64ms  [1 profile]  api   ← GET /wallet?user=Tom 200 {"money":"100"}"#,
    #"   +64ms  [1 profile]  view  UI updated once, with all three: Tom · 100 · 3 orders"#,
    #"  +164ms  [1 profile]  user  closes the screen"#,
  ]

  static let walletTimeline = [
    #"    +0ms  [2 wallet]  user  opens the wallet screen: the user is requested, then the wallet from the user (flatMap)"#,
    #"  +122ms  [2 wallet]  api   ← GET /user 200 {"name":"Tom"}"#,
    #"  +186ms  [2 wallet]  api   ← GET /wallet?user=Tom 200 {"money":"100"}"#,
    #"  +186ms  [2 wallet]  view  money label: 100"#,
    #"  +286ms  [2 wallet]  user  closes the screen"#,
  ]

  static let orderListTimeline = [
    #"    +0ms  [3 orders]  user  opens the order list (the backend will fail twice; retry(3))"#,
    #"   +57ms  [3 orders]  api   ← GET /orders 502"#,
    #"  +194ms  [3 orders]  api   ← GET /orders 502"#,
    #"  +331ms  [3 orders]  api   ← GET /orders 200 [3 orders]"#,
    #"  +331ms  [3 orders]  view  shows 3 orders (after 3 attempts)"#,
    #"  +431ms  [3 orders]  user  pulls to refresh (the backend is down now)"#,
    #"  +578ms  [3 orders]  api   ← GET /orders 502"#,
    #"  +695ms  [3 orders]  api   ← GET /orders 502"#,
    #"  +822ms  [3 orders]  api   ← GET /orders 502"#,
    #"  +869ms  [3 orders]  api   ← GET /orders 502"#,
    #"  +869ms  [3 orders]  view  shows the error: domain "network error", code 502 (after 4 attempts)"#,
    #"  +969ms  [3 orders]  user  closes the screen"#,
  ]

  static let searchTimeline = [
    #"    +0ms  [4 search]  user  types "s""#,
    #"   +40ms  [4 search]  user  types "sw" (the field is debounced by 100 ms)"#,
    #"  +140ms  [4 search]  view  loading… (spinner on)"#,
    #"  +140ms  [4 search]  view  searching "sw"…"#,
    #"  +200ms  [4 search]  user  types "swift" while "sw" is loading"#,
    #"  +300ms  [4 search]  api   ✗ GET /search?q=sw cancelled"#,
    #"  +300ms  [4 search]  view  search "sw" replaced by "swift" (policy .cancelPrevious)"#,
    #"  +300ms  [4 search]  view  searching "swift"…"#,
    #"  +515ms  [4 search]  api   ← GET /search?q=swift 200 ["swift", "swiftui", "swift-format"]"#,
    #"  +515ms  [4 search]  view  results: swift, swiftui, swift-format"#,
    #"  +515ms  [4 search]  view  spinner off"#,
    #"  +615ms  [4 search]  user  closes the screen"#,
  ]

  static let loginTimeline = [
    #"    +0ms  [5 login]  user  opens the login form (username ≥ 3 characters, password ≥ 6)"#,
    #"    +0ms  [5 login]  view  button disabled"#,
    #"  +100ms  [5 login]  user  types username "tom""#,
    #"  +200ms  [5 login]  user  types password "1234""#,
    #"  +300ms  [5 login]  user  taps Log in"#,
    #"  +300ms  [5 login]  view  tap ignored: the button is disabled"#,
    #"  +400ms  [5 login]  user  types password "secret1""#,
    #"  +400ms  [5 login]  view  button enabled"#,
    #"  +500ms  [5 login]  user  taps Log in"#,
    #"  +500ms  [5 login]  view  button disabled"#,
    #"  +608ms  [5 login]  api   ← POST /login 200 {"token":"token-tom"}"#,
    #"  +608ms  [5 login]  view  signed in: token-tom"#,
    #"  +608ms  [5 login]  view  button enabled"#,
    #"  +708ms  [5 login]  user  closes the screen"#,
  ]

  static let lifecycleTimeline = [
    #"    +0ms  [6 lifecycle]  user  view appears"#,
    #"   +57ms  [6 lifecycle]  api   ← GET /orders 200 [3 orders]"#,
    #"   +57ms  [6 lifecycle]  view  order list shows 3 orders"#,
    #"   +57ms  [6 lifecycle]  view  refresh check: nothing held yet, loaded 3 orders"#,
    #"  +257ms  [6 lifecycle]  user  view disappears (switches tab)"#,
    #"  +257ms  [6 lifecycle]  view  leave timer started"#,
    #"  +457ms  [6 lifecycle]  user  view appears again"#,
    #"  +457ms  [6 lifecycle]  view  leave timer stopped"#,
    #"  +457ms  [6 lifecycle]  view  refresh check: orders are fresh, no request"#,
    #"  +657ms  [6 lifecycle]  user  view disappears, for longer this time"#,
    #"  +657ms  [6 lifecycle]  view  leave timer started"#,
    #" +1157ms  [6 lifecycle]  view  leave timer fired: orders marked stale"#,
    #" +1157ms  [6 lifecycle]  view  leave timer stopped"#,
    #" +1357ms  [6 lifecycle]  user  view appears again"#,
    #" +1494ms  [6 lifecycle]  api   ← GET /orders 200 [3 orders]"#,
    #" +1494ms  [6 lifecycle]  view  order list shows 3 orders"#,
    #" +1494ms  [6 lifecycle]  view  refresh check: orders were stale, reloaded 3 orders"#,
    #" +1594ms  [6 lifecycle]  user  closes the screen"#,
  ]

  static let timelines = [
    profileTimeline, walletTimeline, orderListTimeline, searchTimeline, loginTimeline, lifecycleTimeline,
  ]

  @Test("each scenario prints exactly its timeline for the default seed", arguments: 1...6)
  func exactTimeline(number: Int) async {
    #expect(await play(number, seed: Self.seed) == Self.timelines[number - 1])
  }

  @Test("another seed changes the latencies, not what happens", arguments: 1...6)
  func otherSeed(number: Int) async {
    let timeline = Self.timelines[number - 1]
    let lines = await play(number, seed: 7)
    #expect(lines != timeline)
    // The same events (in an order the latencies may change where requests run concurrently)…
    #expect(lines.map(event).sorted() == timeline.map(event).sorted())
    // …ending the same way.
    #expect(lines.last.map(event) == timeline.last.map(event))
    #expect(lines.suffix(2).first.map(event) == timeline.suffix(2).first.map(event))
  }

  @Test(
    "screen 1 updates the UI once, after all three answers, whatever the seed", arguments: [1, 7, 2026] as [UInt64])
  func oneUpdate(seed: UInt64) async {
    let lines = await play(1, seed: seed).map(event)
    let updates = lines.indices.filter { lines[$0].hasPrefix("view  UI updated") }
    let answers = lines.indices.filter { lines[$0].hasPrefix("api ") }
    #expect(updates.count == 1)
    #expect(answers.count == 3)
    #expect(updates.first.map { $0 > answers.max()! } == true)
  }

  static let tracedSearchTimeline = [
    #"    +0ms  [4 search]  user  types "s""#,
    #"    +0ms  [4 search]  dbg   [results] +0ms start"#,
    #"    +0ms  [4 search]  dbg   [results] +0ms value: []"#,
    #"    +0ms  [4 search]  dbg   [search.executing] +0ms start"#,
    #"    +0ms  [4 search]  dbg   [search.executing] +0ms value: false"#,
    #"    +0ms  [4 search]  dbg   [status] +0ms start"#,
    #"    +0ms  [4 search]  dbg   [status] +0ms value: "#,
    #"    +0ms  [4 search]  dbg   [search.started] +0ms start"#,
    #"    +0ms  [4 search]  dbg   [searchField] +0ms start"#,
    #"    +0ms  [4 search]  dbg   [searchField] +0ms value: s"#,
    #"   +40ms  [4 search]  user  types "sw" (the field is debounced by 100 ms)"#,
    #"   +40ms  [4 search]  dbg   [searchField] +40ms value: sw"#,
    #"  +140ms  [4 search]  dbg   [search.executing] +140ms value: true"#,
    #"  +140ms  [4 search]  dbg   [search.started] +140ms value: sw"#,
    #"  +140ms  [4 search]  view  loading… (spinner on)"#,
    #"  +140ms  [4 search]  view  searching "sw"…"#,
    #"  +200ms  [4 search]  user  types "swift" while "sw" is loading"#,
    #"  +200ms  [4 search]  dbg   [searchField] +200ms value: swift"#,
    #"  +300ms  [4 search]  api   ✗ GET /search?q=sw cancelled"#,
    #"  +300ms  [4 search]  dbg   [status] +300ms value: search "sw" replaced by "swift" (policy .cancelPrevious)"#,
    #"  +300ms  [4 search]  dbg   [search.started] +300ms value: swift"#,
    #"  +300ms  [4 search]  view  search "sw" replaced by "swift" (policy .cancelPrevious)"#,
    #"  +300ms  [4 search]  view  searching "swift"…"#,
    #"  +515ms  [4 search]  api   ← GET /search?q=swift 200 ["swift", "swiftui", "swift-format"]"#,
    #"  +515ms  [4 search]  dbg   [results] +515ms value: ["swift", "swiftui", "swift-format"]"#,
    #"  +515ms  [4 search]  dbg   [search.executing] +515ms value: false"#,
    #"  +515ms  [4 search]  view  results: swift, swiftui, swift-format"#,
    #"  +515ms  [4 search]  view  spinner off"#,
    #"  +615ms  [4 search]  user  closes the screen"#,
    #"  +615ms  [4 search]  dbg   [results] +615ms cancel"#,
    #"  +615ms  [4 search]  dbg   [search.executing] +615ms cancel"#,
    #"  +615ms  [4 search]  dbg   [status] +615ms cancel"#,
    #"  +615ms  [4 search]  dbg   [search.started] +615ms cancel"#,
    #"  +615ms  [4 search]  dbg   [searchField] +615ms cancel"#,
  ]

  @Test("--debug puts each traced signal's events on the timeline, before the view lines they cause")
  func tracedTimeline() async {
    #expect(await play(4, seed: Self.seed, tracing: true) == Self.tracedSearchTimeline)
  }

  @Test("tracing adds dbg lines and changes nothing else", arguments: 1...6)
  func tracingOnlyAdds(number: Int) async {
    let traced = await play(number, seed: 7, tracing: true)
    #expect(traced.filter { !event($0).hasPrefix("dbg ") } == (await play(number, seed: 7)))
  }

  @Test("--graph prints the login screen's graph after its run: text, then DOT, before the screen closes")
  func loginGraph() async throws {
    let lines = await play(5, seed: Self.seed, graphs: .textAndDOT)
    let start = try #require(lines.firstIndex(of: "graph of what the screen observes (view.lifetime):"))
    let text = lines[start + 1].split(separator: "\n").map(String.init)
    // The button's enabled state, the signed-in label's values and the refused taps' banner: what the view binds.
    #expect(text.count == 15)
    #expect(
      text.suffix(4) == [
        "#12 debug \"logIn.values\" → String (Demo/Screen.swift:149) · connected · observers: bind(to:_:in:) (Demo/LoginScreen.swift:59)",
        "└─ #13 AsyncPassthroughSubject → String · observers: #12",
        "#14 debug \"logIn.disabledErrors\" → () (Demo/Screen.swift:149) · connected · observers: observe(in:) (Demo/LoginScreen.swift:60)",
        "└─ #15 AsyncPassthroughSubject → () · observers: #14",
      ])
    #expect(
      text.first
        == "#1 removeDuplicates → Bool · connected · current: true · observers: bind(to:_:in:) (Demo/LoginScreen.swift:58)"
    )
    #expect(
      text.contains(
        "         │  └─ #6 combineLatest → (Bool, Bool) (Demo/LoginScreen.swift:23) · connected · current: (true, true) · observers: #5"
      ))
    #expect(lines[start + 2] == "as DOT (dot -Tsvg):")
    #expect(lines[start + 3].hasPrefix("digraph AsyncReactive {"))
    #expect(event(lines[start + 4]) == "user  closes the screen")
    // Without --graph, the same timeline and no graph.
    #expect(
      lines.filter {
        !$0.hasPrefix("graph of") && !$0.hasPrefix("#") && !$0.hasPrefix("as DOT") && !$0.hasPrefix("digraph")
      } == (await play(5, seed: Self.seed)))
  }

  @Test("--graph-svg prints each screen's graph as an SVG image", arguments: 1...6)
  func graphSVG(number: Int) async {
    let svgs = await play(number, seed: Self.seed, graphs: .svg).filter { $0.hasPrefix("<svg") }
    #expect(!svgs.isEmpty)
    #expect(svgs.allSatisfy { $0.hasSuffix("</svg>") && $0.contains("<rect x=") })
  }

  @Test("a script that waits for what never comes is stopped after its patience, with the reason")
  func stuckScript() async {
    let base = TestClock()
    let lines = Lines()
    let stage = Stage(seed: 1, base: base, screen: "stuck", output: lines.append)
    let stall = await runInVirtualTime(stage, base: base, patience: .milliseconds(200)) { @MainActor in
      let label = Label(on: stage.screen)
      stage.user("waits for a label that nothing fills")
      await stage.waitsUntil { !label.text.isEmpty }
    }
    stage.timeline.finish()
    #expect(stall == "stuck at +0ms waiting for a timer, while the user waits for the screen")
    #expect(lines.all == [#"    +0ms  [stuck]  user  waits for a label that nothing fills"#])
  }

  @Test("the latencies follow the seed and stay in range")
  func latencies() {
    for endpoint in [FakeAPI.Endpoint.profile, .wallet, .orders, .user, .search, .login] {
      let values = (0..<50).map { FakeAPI.latency(seed: Self.seed, endpoint: endpoint, call: $0) }
      #expect(values == (0..<50).map { FakeAPI.latency(seed: Self.seed, endpoint: endpoint, call: $0) })
      #expect(values.allSatisfy { (endpoint.minimum...endpoint.minimum + 110 + 9).contains($0) })
      #expect(values.allSatisfy { $0 % 10 == endpoint.offset })
      #expect(Set(values).count > 1)
      #expect(values != (0..<50).map { FakeAPI.latency(seed: 7, endpoint: endpoint, call: $0) })
    }
  }
}

/// Plays scenario `number` in virtual time and returns its lines; records an issue if it got stuck.
func play(_ number: Int, seed: UInt64, tracing: Bool = false, graphs: GraphFormat? = nil) async -> [String] {
  let lines = Lines()
  // Minutes of patience: the driver waits for the scenario's tasks, which may be slow under the sanitizer.
  let setup = ScenarioSetup(
    seed: seed, tracing: tracing, graphs: graphs, patience: .seconds(300), output: lines.append)
  let stall = await runScenarioInVirtualTime(number, setup)
  #expect(stall == nil, "scenario \(number) got stuck")
  return lines.all
}

/// Lines collected from any task.
final class Lines: Sendable {
  private let lines = Lock<[String]>([])

  @Sendable func append(_ line: String) {
    lines.withLock { $0.append(line) }
  }

  var all: [String] { lines.withLock { $0 } }
}

/// A timeline line without its time: `api   ← GET /user 200 {"name":"Tom"}`.
func event(_ line: String) -> String {
  let afterScreen = line.split(separator: "]  ", maxSplits: 1)
  return afterScreen.count == 2 ? String(afterScreen[1]) : line
}
