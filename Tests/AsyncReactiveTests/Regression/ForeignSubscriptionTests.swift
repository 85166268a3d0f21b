import AsyncReactive
import AsyncReactiveTesting
import Testing

/// A foreign sequence that registers its consumer when it is iterated (a wrapper around a subject that is not one of
/// the library's types, an RxTest-style source, `NotificationCenter.notifications`): every operator subscribes to it
/// inside `makeAsyncIterator()`, as `Signal(foreign)` does, so that a value sent on the next line is not lost.
@Suite("foreign inputs are subscribed inside makeAsyncIterator()")
struct ForeignSubscriptionTests {
  /// One operator over two foreign inputs `a` and `b` (an operator with one input ignores `b`).
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let usesSecond: Bool
    let make:
      @Sendable (Foreign<AsyncPassthroughSubject<Int, Never>>, Foreign<AsyncPassthroughSubject<Int, Never>>) ->
        Signal<Int, Never>
    var testDescription: String { name }
  }

  static let clock = ContinuousClock()

  static let cases: [Case] = [
    Case(name: "flatMap(.merge)", usesSecond: false) { a, _ in a.flatMap(.merge) { Signal.just($0) }.eraseToSignal() },
    Case(name: "flatMap(maxConcurrent:)", usesSecond: false) { a, _ in
      a.flatMap(maxConcurrent: 1) { Signal<Int, Never>.just($0) }.eraseToSignal()
    },
    Case(name: "concatMap", usesSecond: false) { a, _ in a.concatMap { Signal<Int, Never>.just($0) }.eraseToSignal() },
    Case(name: "flatMapLatest", usesSecond: false) { a, _ in
      a.flatMapLatest { Signal<Int, Never>.just($0) }.eraseToSignal()
    },
    Case(name: "flatMapFirst", usesSecond: false) { a, _ in
      a.flatMapFirst { Signal<Int, Never>.just($0) }.eraseToSignal()
    },
    Case(name: "debounce", usesSecond: false) { a, _ in
      a.debounce(for: .seconds(1), clock: clock).eraseToSignal()
    },
    Case(name: "throttle", usesSecond: false) { a, _ in
      a.throttle(for: .seconds(1), clock: clock).eraseToSignal()
    },
    Case(name: "delay", usesSecond: false) { a, _ in a.delay(for: .seconds(1), clock: clock).eraseToSignal() },
    Case(name: "timeout", usesSecond: false) { a, _ in
      a.timeout(.seconds(100), clock: clock).replaceError(with: 0).eraseToSignal()
    },
    Case(name: "buffer(every:)", usesSecond: false) { a, _ in
      a.buffer(every: .seconds(1), clock: clock).map { $0.count }.eraseToSignal()
    },
    Case(name: "withLatestFrom", usesSecond: true) { a, b in a.withLatestFrom(b) { $0 + $1 }.eraseToSignal() },
    Case(name: "sample", usesSecond: true) { a, b in a.sample(on: b).eraseToSignal() },
    Case(name: "take(until:)", usesSecond: true) { a, b in a.take(until: b).eraseToSignal() },
    Case(name: "combineLatest", usesSecond: true) { a, b in combineLatest(a, b).map { $0 + $1 }.eraseToSignal() },
    Case(name: "merge", usesSecond: true) { a, b in merge(a, b).eraseToSignal() },
    Case(name: "zip", usesSecond: true) { a, b in zip(a, b).map { $0 + $1 }.eraseToSignal() },
    Case(name: "combineLatest([])", usesSecond: true) { a, b in
      combineLatest([a, b]).map { $0.reduce(0, +) }.eraseToSignal()
    },
    Case(name: "merge([])", usesSecond: true) { a, b in merge([a, b]).eraseToSignal() },
    Case(name: "zip([])", usesSecond: true) { a, b in zip([a, b]).map { $0.reduce(0, +) }.eraseToSignal() },
    Case(name: "map + filter", usesSecond: false) { a, _ in a.map { $0 + 1 }.filter { $0 > 0 }.eraseToSignal() },
    Case(name: "concat (the second input waits for the first)", usesSecond: false) { a, b in
      concat(a, b).eraseToSignal()
    },
    Case(name: "nested: flatMap over combineLatest of a map", usesSecond: true) { a, b in
      combineLatest(a.map { $0 * 2 }, b).flatMap { x, y in Signal<Int, Never>.just(x + y) }.eraseToSignal()
    },
    Case(name: "nested: merge of a withLatestFrom", usesSecond: true) { a, b in
      merge(a.withLatestFrom(b) { $0 + $1 }, Signal<Int, Never>.never).eraseToSignal()
    },
  ]

  @Test("after makeAsyncIterator(), each foreign input has exactly one subscription", arguments: cases)
  func iterator(_ operatorCase: Case) {
    let a = AsyncPassthroughSubject<Int, Never>()
    let b = AsyncPassthroughSubject<Int, Never>()
    let signal = operatorCase.make(Foreign(a), Foreign(b))
    #expect(a.consumerCount == 0)
    let iterator = signal.makeAsyncIterator()
    #expect(a.consumerCount == 1)
    #expect(b.consumerCount == (operatorCase.usesSecond ? 1 : 0))
    withExtendedLifetime(iterator) {}
  }

  @Test("after Recorder(…), each foreign input has exactly one subscription", arguments: cases)
  func recorder(_ operatorCase: Case) async {
    let a = AsyncPassthroughSubject<Int, Never>()
    let b = AsyncPassthroughSubject<Int, Never>()
    let recorder = Recorder(operatorCase.make(Foreign(a), Foreign(b)), clock: TestClock())
    #expect(a.consumerCount == 1)
    #expect(b.consumerCount == (operatorCase.usesSecond ? 1 : 0))
    recorder.cancel()
  }

  @Test("the run reads the inputs it registered: values sent before the first next() arrive, nothing registers twice")
  func sentBeforeFirstNext() async {
    let a = AsyncPassthroughSubject<Int, Never>()
    let b = AsyncPassthroughSubject<Int, Never>()
    var iterator = combineLatest(Foreign(a), Foreign(b)).map { $0 * 10 + $1 }.makeAsyncIterator()
    a.send(1)
    b.send(2)
    a.finish()
    b.finish()
    #expect(await iterator.next() == 12)
    #expect(await iterator.next() == nil)
    #expect(a.consumerCount == 0)
    #expect(b.consumerCount == 0)
  }

  @Test("an iterator dropped before its first next() lets go of the inputs it registered")
  func droppedIterator() {
    let a = AsyncPassthroughSubject<Int, Never>()
    let b = AsyncPassthroughSubject<Int, Never>()
    do {
      let iterator = merge(Foreign(a), Foreign(b)).flatMap { Signal<Int, Never>.just($0) }.makeAsyncIterator()
      #expect(a.consumerCount == 1)
      withExtendedLifetime(iterator) {}
    }
    #expect(a.consumerCount == 0)
    #expect(b.consumerCount == 0)
  }

  @Test("a value sent on the next line reaches the first next()", arguments: ["merge", "concat", "latest", "first"])
  func nextLine(_ strategy: String) async {
    let outer = AsyncPassthroughSubject<Int, Never>()
    let foreign = Foreign(outer)
    let transform: @Sendable (Int) -> Signal<Int, Never> = { Signal.just($0 * 10) }
    let signal: Signal<Int, Never> =
      switch strategy {
      case "merge": foreign.flatMap(.merge, transform).eraseToSignal()
      case "concat": foreign.concatMap(transform).eraseToSignal()
      case "latest": foreign.flatMapLatest(transform).eraseToSignal()
      default: foreign.flatMapFirst(transform).eraseToSignal()
      }
    var iterator = signal.makeAsyncIterator()
    outer.send(1)
    outer.finish()
    #expect(await iterator.next() == 10)
    #expect(await iterator.next() == nil)
  }
}
