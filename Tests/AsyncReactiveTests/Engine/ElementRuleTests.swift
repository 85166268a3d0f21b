import AsyncReactive
import AsyncReactiveTesting
import Synchronization
import Testing

/// One single-input operator, as a test applies it, with what it gives for ``ElementRuleTests/input``.
private struct RuleCase: Sendable, CustomTestStringConvertible {
  let name: String
  let apply: @Sendable (Signal<Int, Never>) -> Signal<String, Never>
  let expected: [String]
  var testDescription: String { name }
}

private let ruleCases: [RuleCase] = [
  RuleCase(name: "map", apply: { $0.map { "\($0 * 10)" } }, expected: ["10", "10", "20", "30", "30", "40", "50"]),
  RuleCase(
    name: "compactMap", apply: { $0.compactMap { $0 % 2 == 0 ? nil : "\($0)" } },
    expected: ["1", "1", "3", "3", "5"]),
  RuleCase(name: "filter", apply: { $0.filter { $0 % 2 == 0 }.map { "\($0)" } }, expected: ["2", "4"]),
  RuleCase(
    name: "scan", apply: { $0.scan(0) { $0 + $1 }.map { "\($0)" } },
    expected: ["1", "2", "4", "7", "10", "14", "19"]),
  RuleCase(
    name: "removeDuplicates", apply: { $0.removeDuplicates().map { "\($0)" } },
    expected: ["1", "2", "3", "4", "5"]),
  RuleCase(name: "prefix(3)", apply: { $0.prefix(3).map { "\($0)" } }, expected: ["1", "1", "2"]),
  RuleCase(name: "prefix(0)", apply: { $0.prefix(0).map { "\($0)" } }, expected: []),
  RuleCase(name: "dropFirst(2)", apply: { $0.dropFirst(2).map { "\($0)" } }, expected: ["2", "3", "3", "4", "5"]),
  RuleCase(
    name: "drop(while:)", apply: { $0.drop(while: { $0 < 3 }).map { "\($0)" } }, expected: ["3", "3", "4", "5"]),
  RuleCase(name: "prefix(while:)", apply: { $0.prefix(while: { $0 < 3 }).map { "\($0)" } }, expected: ["1", "1", "2"]),
  RuleCase(
    name: "prefix(while:inclusive:)", apply: { $0.prefix(while: { $0 < 3 }, inclusive: true).map { "\($0)" } },
    expected: ["1", "1", "2", "3"]),
  RuleCase(name: "first()", apply: { $0.first().map { "\($0)" } }, expected: ["1"]),
  RuleCase(name: "element(at: 3)", apply: { $0.element(at: 3).map { "\($0)" } }, expected: ["3"]),
  RuleCase(name: "element(at: 9)", apply: { $0.element(at: 9).map { "\($0)" } }, expected: []),
  RuleCase(
    name: "enumerated", apply: { $0.enumerated().filter { $0.offset >= 5 }.map { "\($0.offset):\($0.element)" } },
    expected: ["5:4", "6:5"]),
  RuleCase(
    name: "combinePrevious()", apply: { $0.combinePrevious().map { "\($0.0)\($0.1)" } },
    expected: ["11", "12", "23", "33", "34", "45"]),
  RuleCase(name: "reduce", apply: { $0.reduce(0) { $0 + $1 }.map { "\($0)" } }, expected: ["19"]),
  RuleCase(
    name: "toArray", apply: { $0.toArray().map { $0.map(String.init).joined(separator: ",") } },
    expected: ["1,1,2,3,3,4,5"]),
  RuleCase(name: "takeLast(2)", apply: { $0.takeLast(2).map { "\($0)" } }, expected: ["4", "5"]),
  RuleCase(name: "takeLast(0)", apply: { $0.takeLast(0).map { "\($0)" } }, expected: []),
  RuleCase(name: "last()", apply: { $0.last().map { "\($0)" } }, expected: ["5"]),
  RuleCase(name: "ignoreElements()", apply: { $0.ignoreElements().map(String.init(describing:)) }, expected: []),
  RuleCase(
    name: "ifEmpty(default:)", apply: { $0.ifEmpty(default: 9).prefix(2).map { "\($0)" } }, expected: ["1", "1"]),
  RuleCase(
    name: "ifEmpty(default:) of nothing", apply: { $0.filter { $0 > 5 }.ifEmpty(default: 9).map { "\($0)" } },
    expected: ["9"]),
  RuleCase(
    name: "combinePrevious(0)", apply: { $0.combinePrevious(0).prefix(2).map { "\($0.0)\($0.1)" } },
    expected: ["01", "11"]),
]

/// The error the throwing cases throw, at the input 3.
private struct Three: Error, Equatable {}

@Sendable private func failAtThree(_ value: Int) throws -> Int {
  if value == 3 { throw Three() }
  return value
}

/// One operator whose closure throws at the input 3, with the values it gives before.
private struct ThrowingCase: Sendable, CustomTestStringConvertible {
  let name: String
  let apply: @Sendable (Signal<Int, Never>) -> Signal<String, any Error>
  let expected: [String]
  var testDescription: String { name }
}

private let throwingCases: [ThrowingCase] = [
  ThrowingCase(name: "map", apply: { $0.map { "\(try failAtThree($0))" } }, expected: ["1", "1", "2"]),
  ThrowingCase(
    name: "compactMap", apply: { $0.compactMap { try failAtThree($0) == 2 ? nil : "\($0)" } }, expected: ["1", "1"]),
  ThrowingCase(
    name: "filter", apply: { $0.filter { try failAtThree($0) % 2 == 1 }.map { "\($0)" } }, expected: ["1", "1"]),
  ThrowingCase(
    name: "scan", apply: { $0.scan(0) { try $0 + failAtThree($1) }.map { "\($0)" } }, expected: ["1", "2", "4"]),
  ThrowingCase(
    name: "removeDuplicates(by:)", apply: { $0.removeDuplicates { try $0 == failAtThree($1) }.map { "\($0)" } },
    expected: ["1", "2"]),
  ThrowingCase(
    name: "drop(while:)", apply: { $0.drop(while: { try failAtThree($0) < 5 }).map { "\($0)" } }, expected: []),
  ThrowingCase(
    name: "prefix(while:)", apply: { $0.prefix(while: { try failAtThree($0) < 9 }).map { "\($0)" } },
    expected: ["1", "1", "2"]),
  ThrowingCase(
    name: "reduce", apply: { $0.reduce(0) { try $0 + failAtThree($1) }.map { "\($0)" } }, expected: []),
]

/// Counts the elements a source gave, from any thread.
private final class Reads: Sendable {
  let count = Atomic<Int>(0)
  func add() { count.add(1, ordering: .relaxed) }
  var value: Int { count.load(ordering: .relaxed) }
}

@Suite("Element rules: each single-input operator gives the same values on every path")
struct ElementRuleTests {
  static let input = [1, 1, 2, 3, 3, 4, 5]

  private static func collect(_ signal: Signal<String, Never>) async -> [String] {
    var values: [String] = []
    for await value in signal { values.append(value) }
    return values
  }

  @Test("a consumer that reads a synchronous cold source", arguments: ruleCases)
  fileprivate func coldSynchronous(_ rule: RuleCase) async {
    #expect(await Self.collect(rule.apply(Signal<Int, Never>(Self.input))) == rule.expected)
  }

  @Test("a consumer that reads a foreign asynchronous source", arguments: ruleCases)
  fileprivate func coldAsynchronous(_ rule: RuleCase) async {
    let stream = AsyncStream<Int> { continuation in
      for value in Self.input { continuation.yield(value) }
      continuation.finish()
    }
    #expect(await Self.collect(rule.apply(Signal(stream))) == rule.expected)
  }

  @Test("a cold run inside a graph (an operator's input)", arguments: ruleCases)
  fileprivate func coldInGraph(_ rule: RuleCase) async {
    let graph = merge(rule.apply(Signal<Int, Never>(Self.input)), Signal<String, Never>.empty)
    #expect(await Self.collect(graph) == rule.expected)
  }

  @Test("a consumer that reads a graph's output in batches", arguments: ruleCases)
  fileprivate func coldBatches(_ rule: RuleCase) async {
    let batches = merge(Signal<Int, Never>(Self.input), Signal<Int, Never>.empty)
    #expect(await Self.collect(rule.apply(batches)) == rule.expected)
  }

  @Test("a hot node inside the subject's sends", arguments: ruleCases)
  fileprivate func hot(_ rule: RuleCase) {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let recorder = Recorder(rule.apply(subject.eraseToSignal()), clock: clock)
    for value in Self.input { subject.send(value) }
    subject.finish()
    #expect(recorder.values.map(\.value) == rule.expected)
    #expect(recorder.end != nil)
  }

  private static func collectFailure(_ signal: Signal<String, any Error>) async -> ([String], (any Error)?) {
    var values: [String] = []
    do {
      for try await value in signal { values.append(value) }
      return (values, nil)
    } catch {
      return (values, error)
    }
  }

  @Test("a closure that throws fails the result after the values before it, on every path", arguments: throwingCases)
  fileprivate func throwingRule(_ rule: ThrowingCase) async {
    let stream = AsyncStream<Int> { continuation in
      for value in Self.input { continuation.yield(value) }
      continuation.finish()
    }
    let sources: [Signal<Int, Never>] = [
      Signal(Self.input), Signal(stream), merge(Signal<Int, Never>(Self.input), Signal<Int, Never>.empty),
    ]
    for source in sources {
      let (values, error) = await Self.collectFailure(rule.apply(source))
      #expect(values == rule.expected)
      #expect(error is Three)
    }
    let inGraph = await Self.collectFailure(
      merge(rule.apply(Signal(Self.input)), Signal<String, any Error>.empty))
    #expect(inGraph.0 == rule.expected)
    #expect(inGraph.1 is Three)

    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let recorder = Recorder(rule.apply(subject.eraseToSignal()), clock: clock)
    for value in Self.input { subject.send(value) }
    #expect(recorder.values.map(\.value) == rule.expected)
    guard case .failed(let error)? = recorder.end?.value else {
      Issue.record("the hot node did not fail: \(String(describing: recorder.end))")
      return
    }
    #expect(error is Three)
  }

  @Test("a cold run's rule starts afresh in each run")
  func stateIsPerRun() async {
    let totals = Signal<Int, Never>([1, 2, 3]).scan(0) { $0 + $1 }.removeDuplicates().enumerated().map {
      "\($0.offset)=\($0.element)"
    }
    #expect(await Self.collect(totals) == ["0=1", "1=3", "2=6"])
    #expect(await Self.collect(totals) == ["0=1", "1=3", "2=6"])
  }

  @Test("a rule that ends the run reads nothing more from its source")
  func endingRulesStopReading() async {
    let cases: [(@Sendable (Signal<Int, Never>) -> Signal<Int, Never>, reads: Int, values: [Int])] = [
      ({ $0.prefix(3) }, 3, [0, 1, 2]),
      ({ $0.prefix(while: { $0 < 4 }) }, 5, [0, 1, 2, 3]),
      ({ $0.prefix(while: { $0 < 4 }, inclusive: true) }, 5, [0, 1, 2, 3, 4]),
      ({ $0.element(at: 2) }, 3, [2]),
      ({ $0.first() }, 1, [0]),
    ]
    for (apply, expectedReads, expectedValues) in cases {
      let reads = Reads()
      let source = Signal<Int, Never>(0..<1_000).map { value -> Int in
        reads.add()
        return value
      }
      var values: [Int] = []
      for await value in apply(source) { values.append(value) }
      #expect(reads.value == expectedReads)
      #expect(values == expectedValues)
    }
  }

  @Test("a synchronous chain runs each element through every operator before the consumer sees the next")
  func synchronousChainInterleaves() async {
    let log = Mutex<[String]>([])
    let chain = Signal<Int, Never>([1, 2, 3])
      .map { value -> Int in
        log.withLock { $0.append("map \(value)") }
        return value
      }
      .scan(0) { $0 + $1 }
      .removeDuplicates()
    for await total in chain { log.withLock { $0.append("got \(total)") } }
    #expect(log.withLock { $0 } == ["map 1", "got 1", "map 2", "got 3", "map 3", "got 6"])
  }
}
