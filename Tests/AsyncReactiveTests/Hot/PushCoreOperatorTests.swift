import AsyncReactive
import AsyncReactiveTesting
import Observation
import Synchronization
import Testing

/// One hot operator kind: how to build it over a subject of `Int`s.
struct HotOperatorCase: Sendable, CustomTestStringConvertible {
  let name: String
  let build: @Sendable (AsyncPassthroughSubject<Int, Never>) -> Signal<Int, Never>
  var testDescription: String { name }

  static let all: [HotOperatorCase] = [
    .init(name: "map") { $0.map { $0 * 10 } },
    .init(name: "filter") { $0.filter { $0 != 2 } },
    .init(name: "compactMap") { $0.compactMap { $0 == 2 ? nil : $0 * 2 } },
    .init(name: "scan") { $0.scan(0, +) },
    .init(name: "removeDuplicates") { $0.removeDuplicates() },
    .init(name: "prefix(while:)") { $0.prefix { $0 < 50 } },
    .init(name: "not") { $0.map { $0.isMultiple(of: 2) }.not().map { $0 ? 1 : 0 } },
    .init(name: "handleEvents") { $0.handleEvents(onValue: { _ in }) },
    .init(name: "materialize") { $0.materialize().compactMap { if case .value(let v) = $0 { v } else { nil } } },
    // The graph holds the other input's storage, not the subject: the closure keeps it alive (a released
    // subject would finish, and end a combineLatest whose input never produced).
    .init(name: "combineLatest") { subject in
      let other = AsyncCurrentValueSubject<Int, Never>(100)
      return combineLatest(subject, other).map { [other] in $0 + $1 + other.value - 100 }
    },
    .init(name: "zip") { subject in zip(subject, subject.map { $0 * 10 }).map { $0 + $1 } },
    .init(name: "merge") { subject in merge(subject, AsyncPassthroughSubject<Int, Never>()) },
    .init(name: "withLatestFrom") { subject in
      let other = AsyncCurrentValueSubject<Int, Never>(5)
      return subject.withLatestFrom(other.hotSignal) { [other] in $0 + $1 + other.value - 5 }
    },
    .init(name: "withLatestFrom(property)") { $0.withLatestFrom(Property(value: 7)) { $0 + $1 } },
    .init(name: "flatMapLatest (immediate inner)") { $0.flatMapLatest { Signal<Int, Never>.just($0 * 3) } },
    .init(name: "flatMap (hot inner)") { subject in
      subject.flatMap { value in AsyncCurrentValueSubject<Int, Never>(value) }
    },
    .init(name: "concatMap (immediate inner)") { $0.concatMap { Signal<Int, Never>.just($0 + 1) } },
    .init(name: "prepend") { $0.prepend(7, 8) },
    .init(name: "prepend(contentsOf:)") { $0.prepend(contentsOf: [9]).map { $0 + 1 } },
    .init(name: "mapError, replaceError") { $0.mapError(failureOfNever).replaceError(with: -1) },
    .init(name: "catch (immediate fallback)") {
      $0.mapError(failureOfNever).catch { _ in Signal<Int, Never>.just(-1) }
    },
    .init(name: "debug") { $0.debug("table", sink: DebugSink { _ in }) },
    .init(name: "buffer(count:)") { $0.buffer(count: 2).map { $0.reduce(0, +) } },
    .init(name: "trackActivity") { $0.trackActivity(ActivityTracker()) },
    .init(name: "sample(on:)") { subject in subject.sample(on: subject.filter { $0 != 2 }) },
    .init(name: "take(until:)") { subject in subject.take(until: subject.filter { $0 > 100 }) },
    .init(name: "dropFirst") { $0.dropFirst() },
    .init(name: "prefix") { $0.prefix(3) },
    .init(name: "drop(while:)") { $0.drop { $0 < 2 } },
    .init(name: "share") { $0.share().map { $0 + 1 } },
    .init(name: "share(replay:)") { $0.share(replay: 2) },
  ]
}

@Suite("Push core: every hot operator kind")
struct PushCoreOperatorTests {
  /// What `kind` produces for `inputs` sent one after the other on a fresh graph, read by a sink.
  static func outputs(_ kind: HotOperatorCase, for inputs: [Int]) -> [Int] {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let lifetime = Lifetime()
    let log = Log<Int>()
    kind.build(subject).sink(in: lifetime) { log.append($0) }
    for input in inputs { subject.send(input) }
    return log.all
  }

  @Test("send has been fully processed when it returns: a sink downstream saw it", arguments: HotOperatorCase.all)
  func processedInsideSend(_ kind: HotOperatorCase) {
    let inputs = [1, 2, 2, 3]
    let subject = AsyncPassthroughSubject<Int, Never>()
    let lifetime = Lifetime()
    let log = Log<Int>()
    kind.build(subject).sink(in: lifetime) { log.append($0) }
    var counts: [Int] = []
    for input in inputs {
      subject.send(input)
      counts.append(log.all.count)  // read right after send: no await in between
    }
    let expected = Self.outputs(kind, for: inputs)
    #expect(log.all == expected)
    #expect(!expected.isEmpty)
    // Every send added its outputs before it returned: the counts grow as the outputs of each prefix do.
    #expect(counts == (1...inputs.count).map { Self.outputs(kind, for: Array(inputs.prefix($0))).count })
  }

  /// What `kind` produces for `inputs` when an observer sends 40 while it receives the first output of a send: 40
  /// goes in right after the input whose send produced that output.
  static func outputs(_ kind: HotOperatorCase, for inputs: [Int], reentrant value: Int) -> [Int] {
    let atSubscription = outputs(kind, for: []).count  // a prepend's values, before any send
    guard let index = inputs.indices.first(where: { outputs(kind, for: Array(inputs[...$0])).count > atSubscription })
    else { return outputs(kind, for: inputs) }
    var sent = inputs
    sent.insert(value, at: index + 1)
    return outputs(kind, for: sent)
  }

  @Test(
    "a send from inside an observer is queued and delivered after the current event", arguments: HotOperatorCase.all)
  func reentrantSendIsQueued(_ kind: HotOperatorCase) {
    let expected = Self.outputs(kind, for: [1, 3], reentrant: 40)
    for _ in 0..<1_000 {
      let subject = AsyncPassthroughSubject<Int, Never>()
      let lifetime = Lifetime()
      let log = Log<Int>()
      let depth = Depth()
      let sending = Once()
      let sentAgain = Once()
      kind.build(subject).sink(in: lifetime) { value in
        depth.enter()
        log.append(value)
        if sending.claimed && sentAgain.claim() { subject.send(40) }
        depth.leave()
      }
      _ = sending.claim()  // what the node gives at the subscription (a prepend's values) sends nothing
      subject.send(1)
      subject.send(3)
      #expect(log.all == expected)
      #expect(sentAgain.claimed)
      #expect(depth.deepest == 1)  // never delivered recursively
    }
  }

  @Test("consumers of one operator value share one evaluation: the closure runs once per event")
  func sharedEvaluation() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let calls = Counter()
    let doubled = subject.map { value -> Int in
      calls.increment()
      return value * 2
    }
    let consumers = (0..<3).map { _ in doubled.subscribe() }
    let lifetime = Lifetime()
    let log = Log<Int>()
    doubled.sink(in: lifetime) { log.append($0) }
    #expect(subject.consumerCount == 1)  // the node observes the subject once, for all four
    subject.send(1)
    subject.send(2)
    subject.finish()
    #expect(calls.value == 2)
    #expect(log.all == [2, 4])
    for consumer in consumers { #expect(await consumer.collect() == [2, 4]) }
  }

  @Test("a node observes its inputs from its first consumer to its last, and holds no task")
  func referenceCountedConnection() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let other = AsyncCurrentValueSubject<Int, Never>(0)
    let chain = combineLatest(subject.map { $0 + 1 }, other).withLatestFrom(other) { $0.0 + $1 }
    #expect(subject.consumerCount == 0)
    var first: SubjectSubscription<Int, Never>? = chain.subscribe()
    var second: SubjectSubscription<Int, Never>? = chain.subscribe()
    #expect(subject.consumerCount == 1)
    #expect(other.consumerCount == 1)  // combineLatest's input; withLatestFrom reads the property's value
    first = nil
    #expect(subject.consumerCount == 1)
    second = nil
    _ = (first, second)
    #expect(subject.consumerCount == 0)
    #expect(other.consumerCount == 0)
  }

  @Test("an Observation onChange that triggers the command while it publishes executing does not deadlock")
  func observationOnChangeMayTriggerTheCommand() async throws {
    for _ in 0..<200 {
      let runs = Counter()
      let command = Command<Void, Void, Never>(policy: .enqueue) { runs.increment() }
      let triggered = Once()
      withObservationTracking {
        _ = command.executing.value
      } onChange: {
        if triggered.claim() { command.trigger() }
      }
      try await command.execute()
      var executing = command.executing.makeAsyncIterator()
      while await executing.next() == true {}  // the triggered run ends too
      #expect(runs.value >= 1)
      #expect(triggered.claimed)
    }
  }
}

/// The failure of a subject that cannot fail, as a `TestError`: gives the error operators a failing input.
private func failureOfNever(_ never: Never) -> TestError {}

/// `true` for the first claim only.
private final class Once: Sendable {
  private let taken = Atomic<Bool>(false)

  func claim() -> Bool { !taken.exchange(true, ordering: .acquiringAndReleasing) }

  var claimed: Bool { taken.load(ordering: .acquiring) }
}
