import AsyncReactive

/// How `--graph` and `--graph-svg` print a screen's graph.
enum GraphFormat: Sendable {
  /// The indented text picture, then Graphviz DOT.
  case textAndDOT
  /// An SVG image (what the documentation shows).
  case svg
}

/// What a scenario runs on: its clock, its timeline, its fake backend, its screen, and the user.
///
/// The user's script reads like what a person does: acts (``user(_:)`` says what, the screen's widgets do it),
/// looks at the screen (``sees(_:)``), and waits (``pause(_:)``, ``waitsUntil(_:)``). Time passes only while
/// the user waits, which is what lets the virtual-time driver move time by itself (see
/// ``runInVirtualTime(_:base:patience:_:)``).
///
/// ```swift
/// let stage = Stage(seed: 42, base: ContinuousClock(), screen: "2 wallet") { print($0) }
/// stage.user("opens the wallet screen")
/// await stage.pause(100)
/// ```
struct Stage: Sendable {
  let clock: ScenarioClock
  let timeline: Timeline
  let api: FakeAPI
  let screen: Screen
  /// Bumped by everything the virtual-time driver watches.
  let activity: Activity
  let person: Person
  /// Where a screen's graph goes after its run (`--graph`), and how; `nil` when the graphs are not printed.
  let graphs: (format: GraphFormat, output: @Sendable (String) -> Void)?

  /// Creates the stage of screen `screen` over `base`; lines go to `output`. `patience` bounds (in real time) the
  /// handshakes with the fake UI's controls; `tracing` puts the signals' `debug()` lines on the timeline.
  init(
    seed: UInt64,
    base: some Clock<Duration>,
    screen: String,
    patience: Duration = .seconds(10),
    tracing: Bool = false,
    graphs: GraphFormat? = nil,
    output: @escaping @Sendable (String) -> Void
  ) {
    self.graphs = graphs.map { ($0, output) }
    activity = Activity()
    clock = ScenarioClock(base, activity: activity)
    timeline = Timeline(screen: screen, clock: clock, output: output)
    api = FakeAPI(seed: seed, clock: clock, timeline: timeline, activity: activity)
    person = Person(activity: activity)
    self.screen = Screen(
      timeline: timeline, clock: clock, person: person, activity: activity, patience: patience, tracing: tracing)
  }

  /// Prints the live graph around `node` of the screen's view model (`--graph`): as text, then as Graphviz DOT.
  func showGraph(_ name: String, _ graph: @autoclosure () -> DebugGraph) {
    guard let graphs else { return }
    let graph = graph()
    switch graphs.format {
    case .textAndDOT:
      graphs.output("graph of \(name):")
      graphs.output(graph.description)
      graphs.output("as DOT (dot -Tsvg):")
      graphs.output(graph.dot)
    case .svg:
      graphs.output(graph.svg)
    }
  }

  /// Reports what the user does, at the time the user last waited until.
  func user(_ text: String) {
    timeline.log(.user, at: person.time, text)
  }

  /// The user waits `milliseconds` on the scenario's clock.
  func pause(_ milliseconds: Int) async {
    let deadline = clock.now.advanced(by: .milliseconds(milliseconds))
    person.pause(until: deadline.offset)
    try? await clock.sleep(until: deadline)
    person.act(at: deadline.offset)
  }

  /// The user looks at the screen until `condition` holds: something that shows up now, in reaction to what
  /// just happened, without time passing (a spinner that turns on after a tap).
  @MainActor func sees(_ condition: @escaping @MainActor @Sendable () -> Bool) async {
    await screen.wait(until: condition, lettingTimePass: false)
    person.act(at: clock.elapsed)
  }

  /// The user waits until `condition` holds, letting time pass: something a timer brings (a response, a
  /// debounced search). The timer that brings it must be the last one running, so that time stops there; when
  /// other timers run too, ``pause(_:)`` until the instant instead and then ``sees(_:)``.
  @MainActor func waitsUntil(_ condition: @escaping @MainActor @Sendable () -> Bool) async {
    await screen.wait(until: condition, lettingTimePass: true)
    person.act(at: clock.elapsed)
  }

  /// Ends `lifetime` (the user closes the screen) and waits until the traced signals have reported their end.
  func close(_ lifetime: Lifetime) async {
    lifetime.cancel()
    await activity.wait { screen.liveTraces == 0 }
  }
}

/// The user of a scenario, as far as time is concerned: acting (time stands still), pausing until an instant,
/// or waiting for the screen to show something (time may pass).
///
/// ```swift
/// let person = Person(activity: Activity())
/// person.pause(until: .milliseconds(100))
/// ```
final class Person: Sendable {
  /// What the user is doing.
  enum Phase: Sendable, Equatable {
    /// Doing things or looking at the screen: time stands still.
    case acting
    /// Waiting until an instant.
    case pausing(until: Duration)
    /// Waiting for the screen to show something.
    case waiting
    /// The script has ended.
    case done
  }

  private struct State {
    var phase = Phase.acting
    /// The instant the user acts at: when the latest wait ended.
    var time = Duration.zero
  }

  private let state = Lock(State())
  private let activity: Activity

  init(activity: Activity) {
    self.activity = activity
  }

  var phase: Phase { state.withLock { $0.phase } }

  /// When the user's latest wait ended: the user's actions happen then.
  var time: Duration { state.withLock { $0.time } }

  func pause(until deadline: Duration) { set(.pausing(until: deadline)) }

  func wait() { set(.waiting) }

  func finish() { set(.done) }

  /// The user acts again (a wait ended), at `time` if given.
  func act(at time: Duration? = nil) {
    state.withLock { state in
      if let time { state.time = max(state.time, time) }
      if state.phase != .done { state.phase = .acting }
    }
    activity.bump()
  }

  /// Moves from `phase` to acting, if the user is still in `phase`: the driver does it as it wakes the user.
  func wake(from phase: Phase) -> Bool {
    let woken = state.withLock { state in
      guard state.phase == phase else { return false }
      state.phase = .acting
      return true
    }
    if woken { activity.bump() }
    return woken
  }

  private func set(_ phase: Phase) {
    state.withLock { $0.phase = phase }
    activity.bump()
  }
}
