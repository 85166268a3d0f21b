import AsyncReactive
import Testing

/// An input whose run the test can watch: a `Signal.create` that sends nothing by itself, with gates that open
/// when an iteration starts and when that iteration is cancelled.
struct WatchedInput<Element: Sendable, Failure: Error>: Sendable {
  let started = Gate()
  let cancelled = Gate()

  var signal: Signal<Element, Failure> {
    Signal.create { [started, cancelled] _ in
      started.open()
      return { cancelled.open() }
    }
  }
}

/// Collects what `collect` returns in a task and cancels that task once both inputs have started: both inputs must
/// then be cancelled, and nothing collected.
func expectCancellingTheConsumerCancelsBoth<A, AFailure, B, BFailure, Element: Equatable & Sendable>(
  _ a: WatchedInput<A, AFailure>, _ b: WatchedInput<B, BFailure>,
  consumer collect: @escaping @Sendable () async -> [Element],
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  let consumer = Task { await collect() }
  await a.started.wait()
  await b.started.wait()
  consumer.cancel()
  await a.cancelled.wait()
  await b.cancelled.wait()
  #expect(await consumer.value == [], sourceLocation: sourceLocation)
}

/// An `AsyncStream` input the test feeds, with a gate that opens when the stream terminates (its consumer
/// stopped, or the test finished it).
struct StreamInput<Element: Sendable>: Sendable {
  let stream: AsyncStream<Element>
  let continuation: AsyncStream<Element>.Continuation
  let terminated = Gate()

  init() {
    (stream, continuation) = AsyncStream.makeStream(of: Element.self)
    continuation.onTermination = { [terminated] _ in terminated.open() }
  }
}

/// A callback API in the style of the source scenarios: the completion handler runs later, on another thread.
func request<Value: Sendable>(_ value: Value, completion: @escaping @Sendable (Value) -> Void) {
  Task.detached { completion(value) }
}

/// Tuples are not `Equatable`: this lets `#expect(await iterator.next() == (1, "a"))` compare an optional tuple
/// element by element (and show both sides when it fails).
func == <each Value: Equatable>(lhs: (repeat each Value)?, rhs: (repeat each Value)) -> Bool {
  guard let lhs else { return false }
  for (left, right) in repeat (each lhs, each rhs) {
    if left != right { return false }
  }
  return true
}

/// An `AsyncStream` that yields `values`, then finishes.
func finiteStream<Element: Sendable>(_ values: Element...) -> AsyncStream<Element> {
  AsyncStream { continuation in
    for value in values { continuation.yield(value) }
    continuation.finish()
  }
}

/// A finite input that opens `drained` when its consumer asks for the element after the last one: a pumping
/// task asks only after it handed over the previous element, so by then every element has been stored.
struct DrainingSequence<Element: Sendable>: AsyncSequence, Sendable {
  let values: [Element]
  let drained = Gate()

  init(_ values: Element...) {
    self.values = values
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(values: values, drained: drained)
  }

  struct Iterator: AsyncIteratorProtocol {
    let values: [Element]
    let drained: Gate
    var index = 0

    mutating func next() async -> Element? {
      guard index < values.count else {
        drained.open()
        return nil
      }
      defer { index += 1 }
      return values[index]
    }
  }
}

/// Re-iterable inputs for retry tests: `count` signals that count their runs.
///
/// On the first attempt, every input but the last starts and then sends nothing until it is cancelled; the last
/// one fails with `TestError(code: count - 1)` once all the others have started, so every input ran once and
/// nothing was produced. On later attempts input `index` sends ``value(_:attempt:)`` and finishes.
final class RerunInputs: Sendable {
  let count: Int
  private let runs: [Counter]
  private let started = Counter()
  private let othersStarted = Gate()

  init(count: Int) {
    self.count = count
    runs = (0..<count).map { _ in Counter() }
  }

  /// How many times each input ran.
  var runCounts: [Int] { runs.map(\.value) }

  /// What input `index` sends on attempt `attempt` (from 2 on).
  func value(_ index: Int, attempt: Int) -> Int { 10 * (index + 1) + attempt }

  /// What every input sends on the second attempt, in input order.
  var secondAttempt: [Int] { (0..<count).map { value($0, attempt: 2) } }

  /// Input `index`, failing with `TestError` (the last input is the one that fails).
  func typed(_ index: Int) -> Signal<Int, TestError> {
    Signal { [self] (emitter) throws(TestError) in
      let attempt = runs[index].increment()
      if attempt == 1 {
        guard index == count - 1 else { return await waitAfterStarting() }
        await othersStarted.wait()
        throw TestError(code: index)
      }
      emitter.send(value(index, attempt: attempt))
    }
  }

  /// Input `index`, which cannot fail (so it must not be the last).
  func never(_ index: Int) -> Signal<Int, Never> {
    precondition(index < count - 1, "the last input is the one that fails")
    return Signal { [self] emitter in
      let attempt = runs[index].increment()
      if attempt == 1 { return await waitAfterStarting() }
      await emitter.send(value(index, attempt: attempt))
    }
  }

  private func waitAfterStarting() async {
    if started.increment() == count - 1 { othersStarted.open() }
    await waitForCancellation()
  }
}

/// One way to call an n-ary operator, for the contract tests that every one of them must pass: the operator
/// over three inputs (the arity overloads) or over an array of them.
enum NaryForm: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case combineLatest3, combineLatestArray, zip3, zipArray, merge3, mergeArray

  /// The forms that make one output from an element of every input (all but merge).
  static let combining: [NaryForm] = [.combineLatest3, .combineLatestArray, .zip3, .zipArray]

  var testDescription: String { rawValue }

  /// Whether each output is one input's element (merge) rather than one element per input.
  var isMerge: Bool { self == .merge3 || self == .mergeArray }

  /// The operator over `inputs` (three of them for the arity forms), each output as an array: one element per
  /// input, or the element alone for merge. Subscribes to every input now, as the operator's iterator does.
  func subscribe<Input: AsyncSequence & Sendable>(
    _ inputs: [Input]
  ) -> NaryOutputs<Input.Failure> where Input.Element == Int, Input.AsyncIterator: SendableMetatype {
    precondition(rawValue.hasSuffix("Array") || inputs.count == 3, "the arity forms take three inputs")
    switch self {
    case .combineLatest3:
      return NaryOutputs(combineLatest(inputs[0], inputs[1], inputs[2]).makeAsyncIterator()) { [$0.0, $0.1, $0.2] }
    case .combineLatestArray:
      return NaryOutputs(combineLatest(inputs).makeAsyncIterator()) { $0 }
    case .zip3:
      return NaryOutputs(zip(inputs[0], inputs[1], inputs[2]).makeAsyncIterator()) { [$0.0, $0.1, $0.2] }
    case .zipArray:
      return NaryOutputs(zip(inputs).makeAsyncIterator()) { $0 }
    case .merge3:
      return NaryOutputs(merge(inputs[0], inputs[1], inputs[2]).makeAsyncIterator()) { [$0] }
    case .mergeArray:
      return NaryOutputs(merge(inputs).makeAsyncIterator()) { [$0] }
    }
  }
}

/// An n-ary operator's iterator behind one type, whatever the operator (see ``NaryForm``). It owns the operator's
/// iterator: dropping it drops that iterator, which is what stops the inputs.
final class NaryOutputs<Failure: Error> {
  private let nextOutput: () async throws(Failure) -> [Int]?

  init<Iterator: AsyncIteratorProtocol>(
    _ iterator: Iterator,
    output: @escaping (Iterator.Element) -> [Int]
  ) where Iterator.Failure == Failure {
    var iterator = iterator
    nextOutput = { () async throws(Failure) -> [Int]? in
      try await iterator.next(isolation: nil).map(output)
    }
  }

  /// The next output, `nil` once the result ended.
  func next() async throws(Failure) -> [Int]? {
    try await nextOutput()
  }
}

/// Counts how many times each of a set of cold inputs ran.
final class RunCounts: Sendable {
  private let runs: [Counter]

  init(count: Int) {
    runs = (0..<count).map { _ in Counter() }
  }

  /// How many times each input ran, in input order.
  var all: [Int] { runs.map(\.value) }

  /// `signal`, counted as input `index`: each run counts once, when it starts.
  func counted<Element: Sendable, Failure: Error>(_ index: Int, _ signal: Signal<Element, Failure>) -> Signal<
    Element, Failure
  > {
    let counter = runs[index]
    return signal.handleEvents(onStart: { counter.increment() })
  }
}
