import AsyncReactive

/// The screen a scenario's widgets live on: they print their changes on its timeline through ``show(_:order:)``,
/// and the user's script waits on it for what it expects to see.
///
/// With `--debug`, it also puts the events of the signals a view traces (``traced(_:on:)``) on the timeline.
///
/// ```swift
/// let label = Label(on: stage.screen) { "money label: \($0)" }
/// label.text = "100"                       // prints `view  money label: 100`
/// await stage.sees { label.text == "100" }
/// ```
@MainActor final class Screen {
  private struct Waiter {
    var condition: @MainActor @Sendable () -> Bool
    var continuation: CheckedContinuation<Void, Never>
    var lettingTimePass: Bool
  }

  /// The traced signals, by name, in the order they were first traced.
  private struct Traces {
    var names: [String] = []
    /// Iterations that have subscribed and not ended.
    var live = 0
    /// Iterations of properties that have not delivered their current value yet.
    var awaitingCurrentValue = 0
  }

  nonisolated let timeline: Timeline
  nonisolated let clock: ScenarioClock
  /// How long (real time) a handshake with a control may take before the scenario counts as stuck.
  nonisolated let patience: Duration
  /// Whether traced signals print their events (`--debug`).
  nonisolated let tracing: Bool
  private nonisolated let person: Person
  private nonisolated let activity: Activity
  private nonisolated let waiters = Lock<(next: Int, all: [Int: Waiter])>((0, [:]))
  private nonisolated let traces = Lock(Traces())

  nonisolated init(
    timeline: Timeline, clock: ScenarioClock, person: Person, activity: Activity, patience: Duration, tracing: Bool
  ) {
    self.timeline = timeline
    self.clock = clock
    self.person = person
    self.activity = activity
    self.patience = patience
    self.tracing = tracing
  }

  /// Prints `text` as a view line (`order` ranks the widgets of one instant) and wakes the user's script if it
  /// was waiting for this.
  func show(_ text: String, order: Int) {
    timeline.log(.view, order: order, text)
    let candidates = waiters.withLock { $0.all }
    for (id, waiter) in candidates.sorted(by: { $0.key < $1.key }) where waiter.condition() {
      guard let waiter = waiters.withLock({ $0.all.removeValue(forKey: id) }) else { continue }
      // At once, not when the script's task runs: time must not move while the user is about to act.
      if waiter.lettingTimePass { person.act() }
      waiter.continuation.resume()
    }
  }

  /// Returns once `condition` holds, checking it after each change on the screen. With `lettingTimePass`, the
  /// user counts as waiting meanwhile, so time may move.
  ///
  /// **Cancellation:** returns at once.
  func wait(until condition: @escaping @MainActor @Sendable () -> Bool, lettingTimePass: Bool) async {
    guard !condition() else { return }
    let id = waiters.withLock { waiters in
      defer { waiters.next += 1 }
      return waiters.next
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        guard !Task.isCancelled else { return continuation.resume() }
        waiters.withLock {
          $0.all[id] = Waiter(condition: condition, continuation: continuation, lettingTimePass: lettingTimePass)
        }
        if lettingTimePass { person.wait() }
      }
    } onCancel: {
      waiters.withLock { $0.all.removeValue(forKey: id) }?.continuation.resume()
    }
  }

  /// The number of traced iterations that have not ended.
  nonisolated var liveTraces: Int { traces.withLock { $0.live } }

  /// Whether every traced property has delivered its current value: until then its `value:` line may still
  /// come, and time must not move.
  nonisolated var tracesSettled: Bool { traces.withLock { $0.awaitingCurrentValue == 0 } }

  /// The sink of the traced signal `name`: its lines go on the timeline, ranked by the order the signals were
  /// first traced, and its iterations are counted.
  nonisolated func traceSink(_ name: String, deliversCurrentValue: Bool) -> DebugSink {
    guard tracing else { return DebugSink { _ in } }
    let order = traces.withLock { traces in
      if let index = traces.names.firstIndex(of: name) { return index }
      traces.names.append(name)
      return traces.names.count - 1
    }
    // Iterations of this signal that subscribed and have not delivered a value yet.
    let waitingForValue = Lock(0)
    return DebugSink { [self] line in
      timeline.log(.signal, order: order, line)
      let event = Self.event(of: line)
      let isValue = event.hasPrefix("value: ")
      let delivered = waitingForValue.withLock { waiting in
        if event == "start" {
          waiting += 1
          return 0
        }
        // The first value, or an end that came before any value.
        guard waiting > 0 else { return 0 }
        waiting -= 1
        return 1
      }
      traces.withLock { traces in
        if event == "start" {
          traces.live += 1
          if deliversCurrentValue { traces.awaitingCurrentValue += 1 }
        } else if !isValue {
          traces.live -= 1
        }
        if deliversCurrentValue { traces.awaitingCurrentValue -= delivered }
      }
      activity.bump()
    }
  }

  /// The event of a `debug()` line, `[name] +12ms value: 3` → `value: 3`.
  private nonisolated static func event(of line: String) -> Substring {
    guard let close = line.firstIndex(of: "]") else { return line[...] }
    let stampAndEvent = line[line.index(after: close)...].drop { $0 == " " }
    guard let space = stampAndEvent.firstIndex(of: " ") else { return stampAndEvent }
    return stampAndEvent[stampAndEvent.index(after: space)...]
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// This sequence, with its events printed on `screen`'s timeline when the demo runs with `--debug`: the
  /// library's `debug(_:clock:sink:)` on the scenario's clock.
  ///
  /// ```swift
  /// viewModel.money.traced("money", on: screen).bind(to: moneyLabel, \.text, in: lifetime)
  /// ```
  nonisolated func traced(_ name: String, on screen: Screen) -> Signal<Element, Failure> {
    debug(name, clock: screen.clock, sink: screen.traceSink(name, deliversCurrentValue: false))
  }
}

extension PropertyProtocol {
  /// This property, with its events printed on `screen`'s timeline when the demo runs with `--debug`; its
  /// current value, delivered first, counts as an event that time waits for.
  nonisolated func traced(_ name: String, on screen: Screen) -> Signal<Value, Never> {
    Signal(debug(name, clock: screen.clock, sink: screen.traceSink(name, deliversCurrentValue: true)))
  }
}
