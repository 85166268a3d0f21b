import AsyncReactive

/// What a scenario runs on: its clock, its timeline and its fake backend.
///
/// ```swift
/// let stage = Stage(seed: 42, clock: ScenarioClock(ContinuousClock()), screen: "2 wallet") { print($0) }
/// stage.user("opens the wallet screen")
/// await stage.pause(100)
/// ```
struct Stage: Sendable {
  let clock: ScenarioClock
  let timeline: Timeline
  let api: FakeAPI
  /// When the user's latest pause ended: the user's actions happen then.
  private let userTime = Locked(Duration.zero)

  init(seed: UInt64, clock: ScenarioClock, screen: String, output: @escaping @Sendable (String) -> Void) {
    self.clock = clock
    timeline = Timeline(screen: screen, clock: clock, output: output)
    api = FakeAPI(seed: seed, clock: clock, timeline: timeline)
  }

  /// Reports what the user does, at the end of the user's latest pause.
  func user(_ text: String) {
    timeline.log(.user, at: userTime.withLock { $0 }, text)
  }

  /// The user waits `milliseconds` on the scenario's clock.
  func pause(_ milliseconds: Int) async {
    let deadline = clock.now.advanced(by: .milliseconds(milliseconds))
    try? await clock.sleep(until: deadline)
    userTime.withLock { $0 = deadline.offset }
  }
}

/// Waits until `widget` shows a value that satisfies `predicate`: the user looking at the screen.
///
/// ```swift
/// await waitUntil(view.spinner) { $0 }
/// ```
func waitUntil<Value: Sendable>(
  _ widget: CurrentValueSubject<Value, Never>,
  _ predicate: (Value) -> Bool
) async {
  for await value in widget where predicate(value) { return }
}

/// Shows `value` in `widget` and reports it on the timeline, unless the widget already shows it.
func render<Value: Sendable & Equatable>(
  _ value: Value,
  in widget: CurrentValueSubject<Value, Never>,
  on timeline: Timeline,
  order: Int = 0,
  _ text: (Value) -> String
) {
  guard widget.value != value else { return }
  timeline.log(.view, order: order, text(value))
  widget.value = value
}

/// The user typing into a text field: a sequence of texts, each at its time on the scenario's clock, reported
/// on the timeline as it is typed.
///
/// It is pulled by whoever reads the field (with `debounce`, the operator's own task): the next keystroke's
/// sleep starts only once the previous text was taken, which is what lets virtual time see that it was. Like a
/// real field, it does not finish after the last keystroke; it ends when its reader is cancelled.
///
/// ```swift
/// let field = Typing(stage, [(.zero, "s", "types \"s\""), (.milliseconds(40), "sw", "types \"sw\"")])
/// field.debounce(for: .milliseconds(100), clock: stage.clock)
/// ```
struct Typing: AsyncSequence, Sendable {
  typealias Element = String
  typealias Failure = Never

  /// One keystroke: when, the field's text after it, and what the timeline says.
  typealias Keystroke = (at: Duration, text: String, report: String)

  private let stage: Stage
  private let keystrokes: [Keystroke]

  init(_ stage: Stage, _ keystrokes: [Keystroke]) {
    self.stage = stage
    self.keystrokes = keystrokes
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(stage: stage, keystrokes: keystrokes)
  }

  struct Iterator: AsyncIteratorProtocol {
    let stage: Stage
    let keystrokes: [Keystroke]
    var index = 0

    mutating func next() async -> String? {
      guard index < keystrokes.count else {
        // The field stays open until the reader is cancelled (without a timer, so no deadline to jump to).
        for await _ in Signal<Never, Never>.never {}
        return nil
      }
      let keystroke = keystrokes[index]
      index += 1
      do {
        try await stage.clock.sleep(until: ScenarioClock.Instant(offset: keystroke.at))
      } catch {
        return nil
      }
      stage.timeline.log(.user, at: keystroke.at, keystroke.report)
      return keystroke.text
    }
  }
}
