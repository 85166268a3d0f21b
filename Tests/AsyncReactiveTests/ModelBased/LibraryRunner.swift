import AsyncReactive
import AsyncReactiveTesting

/// Builds a ``ModelProgram`` with the real library inside `TestClock().withVirtualTime`, drives it tick by tick
/// (advance to the tick, which fires the timers due by then, then the tick's sends) and returns what its
/// `Recorder`s recorded, in the model's terms.
enum LibraryRunner {
  static func run(_ program: ModelProgram) async -> ReferenceModel.Output {
    let clock = TestClock()
    return await clock.withVirtualTime {
      var sends: [(ModelAction) -> Void] = []
      var signals: [ModelRef: Signal<Int, TestError>] = [:]
      for (index, source) in program.sources.enumerated() {
        switch source {
        case .passthrough:
          let subject = AsyncPassthroughSubject<Int, TestError>()
          sends.append { Self.apply($0, send: subject.send, finish: subject.finish, fail: subject.fail) }
          signals[.source(index)] = Signal(subject)
        case .currentValue(let value):
          let subject = AsyncCurrentValueSubject<Int, TestError>(value)
          sends.append { Self.apply($0, send: subject.send, finish: subject.finish, fail: subject.fail) }
          signals[.source(index)] = Signal(subject)
        }
      }
      // Made in program order: the creation order that decides the order of siblings.
      for (index, node) in program.nodes.enumerated() {
        signals[.node(index)] = build(node, signals: signals, clock: clock)
      }
      let recorder = Recorder(signals[program.recorded]!, clock: clock)
      var late: Recorder<Int, TestError>?
      var ticks = Set(program.sends.map(\.tick))
      if let tick = program.late?.tick { ticks.insert(tick) }
      for tick in ticks.sorted() {
        await clock.advance(to: TestClock.Instant(offset: .seconds(tick)))
        if let plan = program.late, plan.tick == tick {
          late = Recorder(signals[plan.ref]!, clock: clock)
        }
        for send in program.sends where send.tick == tick {
          sends[send.source](send.action)
        }
      }
      await clock.advance(to: TestClock.Instant(offset: .seconds(ModelProgram.finalTick)))
      return ReferenceModel.Output(
        main: ticked(recorder.events), late: late.map { ticked($0.events) } ?? [], unmodelled: false)
    }
  }

  private static func apply(
    _ action: ModelAction, send: (Int) -> Void, finish: () -> Void, fail: (TestError) -> Void
  ) {
    switch action {
    case .send(let value): send(value)
    case .finish: finish()
    case .fail(let code): fail(TestError(code: code))
    }
  }

  private static func ticked(_ events: [Recorded<Int, TestError>]) -> [TickedEvent] {
    events.map { recorded in
      let tick = Int(recorded.instant.offset.components.seconds)
      switch recorded.event {
      case .value(let value): return TickedEvent(tick: tick, event: .value(value))
      case .finished: return TickedEvent(tick: tick, event: .finished)
      case .failed(let error): return TickedEvent(tick: tick, event: .failed(error.code))
      }
    }
  }

  private static func build(
    _ node: ModelNode, signals: [ModelRef: Signal<Int, TestError>], clock: TestClock
  ) -> Signal<Int, TestError> {
    let input = signals[node.input]!
    switch node.op {
    case .map(let add):
      return input.map { $0 + add }
    case .filter(let modulus):
      return input.filter { ModelClosures.keeps($0, modulus: modulus) }
    case .compactMap(let divisor):
      return input.compactMap { ModelClosures.compact($0, divisor: divisor) }
    case .scan(let seed):
      return input.scan(seed, +)
    case .removeDuplicates:
      return input.removeDuplicates()
    case .dropFirst(let count):
      return input.dropFirst(count)
    case .prefix(let count):
      return input.prefix(count)
    case .merge(let other):
      return merge(input, signals[other]!)
    case .combineLatest(let other):
      return combineLatest(input, signals[other]!).map { ModelClosures.pair($0.0, $0.1) }
    case .zip(let other):
      return zip(input, signals[other]!).map { ModelClosures.pair($0.0, $0.1) }
    case .withLatestFrom(let other):
      return input.withLatestFrom(signals[other]!) { ModelClosures.pair($0, $1) }
    case .delay(let ticks):
      return input.delay(for: .seconds(ticks), clock: clock)
    case .debounce(let ticks):
      return input.debounce(for: .seconds(ticks), clock: clock)
    case .throttle(let ticks):
      return input.throttle(for: .seconds(ticks), clock: clock, latest: false)
    case .timeout(let ticks):
      return input.timeout(.seconds(ticks), clock: clock).mapError { failure in
        switch failure {
        case .timedOut: TestError(code: ModelClosures.timeoutCode)
        case .upstream(let error): error
        }
      }
    case .flatMapLatest(let ticks):
      return input.flatMapLatest { value in
        Signal.timer(after: .seconds(ModelClosures.innerTicks(ticks, value: value)), clock: clock).map { _ in value }
      }
    case .flatMapMerge(let ticks):
      return input.flatMap(.merge) { value in
        Signal.timer(after: .seconds(ModelClosures.innerTicks(ticks, value: value)), clock: clock).map { _ in value }
      }
    case .catchJust(let value):
      return input.catch { _ in Signal<Int, TestError>.just(value) }
    }
  }
}
