import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("flatMap, flatMapLatest, concatMap")
struct FlatMapTests {
  // MARK: Overload resolution

  @Test("`.flatMap { }` on a Signal and on a AsyncPassthroughSubject picks the merging flatMap, and inners overlap")
  func plainFlatMapMerges() async {
    // No type context: the overload is chosen by the call alone, as in user code.
    let onSignal = Signal<Int, Never>([1, 2]).flatMap { value in Signal<Int, Never>.just(value * 10) }
    expectMerging(onSignal)
    #expect(Set(await onSignal.collect()) == [10, 20])

    let outer = AsyncPassthroughSubject<Int, Never>()
    let inners = [AsyncPassthroughSubject<String, Never>(), AsyncPassthroughSubject<String, Never>()]
    let subscribed = [Gate(), Gate()]
    let merged = outer.flatMap { index in
      let inner = inners[index].subscribe()
      subscribed[index].open()
      return inner
    }
    expectMerging(merged)

    var iterator = merged.makeAsyncIterator()  // subscribes to `outer` now; the first next() starts the pump
    outer.send(0)
    async let first: Void = {
      await subscribed[0].wait()
      inners[0].send("a1")
    }()
    #expect(await iterator.next() == "a1")
    await first
    outer.send(1)
    await subscribed[1].wait()
    inners[1].send("b1")  // inner 0 has not finished: a sequential flatMap could not deliver this
    #expect(await iterator.next() == "b1")
    inners[0].send("a2")
    #expect(await iterator.next() == "a2")
    inners[0].finish()
    inners[1].send("b2")
    #expect(await iterator.next() == "b2")
    outer.finish()
    inners[1].finish()
    #expect(await iterator.next() == nil)
  }

  @Test("the result's failure type: Never with Never, shared, or the one side that can fail; any Error otherwise")
  func failureTypes() async throws {
    let never = Signal<Int, Never>.just(1)
    let typed = Signal<Int, TestError>.just(1)
    let other = Signal<Int, OtherError>.just(1)
    #expect(hasFailure(never.flatMap { _ in never }, Never.self))
    #expect(hasFailure(typed.flatMap { _ in typed }, TestError.self))
    #expect(hasFailure(never.flatMap { _ in typed }, TestError.self))
    #expect(hasFailure(typed.flatMap { _ in never }, TestError.self))
    #expect(hasFailure(typed.flatMap { _ in other }, (any Error).self))
    #expect(hasFailure(never.flatMap { value in try throwingInner(value) }, (any Error).self))
    #expect(hasFailure(never.flatMapLatest { _ in typed }, TestError.self))
    #expect(hasFailure(typed.concatMap { _ in never }, TestError.self))
    #expect(hasFailure(never.flatMap(maxConcurrent: 2) { _ in never }, Never.self))
    #expect(hasFailure(never.flatMap(.merge) { _ in never }, Never.self))
    // A non-failing result is iterated with plain `for await`.
    for await value in never.flatMap({ value in Signal<Int, Never>.just(value + 1) }) {
      #expect(value == 2)
    }
  }

  // MARK: Merge

  @Test("merge delivers every element of every inner, each inner in its own order")
  func mergeManyInners() async {
    let merged = Signal<Int, Never>(0..<50).flatMap { outer in
      Signal<Int, Never>((0..<400).map { outer * 1_000 + $0 })
    }
    let values = await merged.collect()
    #expect(values.count == 50 * 400)
    for outer in 0..<50 {
      #expect(values.filter { $0 / 1_000 == outer } == (0..<400).map { outer * 1_000 + $0 })
    }
  }

  @Test("maxConcurrent: never more inners in flight than the limit, and the next starts when a slot frees")
  func maxConcurrentLimit() async {
    let inFlight = InFlight()
    let started = AsyncPassthroughSubject<Int, Never>()
    var starts = started.subscribe().makeAsyncIterator()
    let gates = (0..<5).map { _ in Gate() }
    let limited = Signal<Int, Never>(0..<5).flatMap(maxConcurrent: 2) { index in
      Signal<Int, Never> { emitter in
        inFlight.enter()
        started.send(index)
        await gates[index].wait()
        inFlight.leave()
        await emitter.send(index)
      }
    }
    let consumer = Task { await limited.collect() }  // its first next() starts the work
    // The first two start together, in either order; each later one only when a slot frees.
    #expect(Set([await starts.next(), await starts.next()]) == [0, 1])
    gates[1].open()
    #expect(await starts.next() == 2)
    gates[0].open()
    #expect(await starts.next() == 3)
    gates[3].open()
    #expect(await starts.next() == 4)
    gates[2].open()
    gates[4].open()
    // Each inner emits when its gate opens, and a slot frees only after that: the order is the gates', except
    // for the last two, whose gates open together.
    let values = await consumer.value
    #expect(Array(values.prefix(3)) == [1, 0, 3])
    #expect(Set(values.dropFirst(3)) == [2, 4])
    #expect(inFlight.maximum == 2)
  }

  @Test("one spelling per strategy: concatMap, flatMap(maxConcurrent: 1), flatMap(.merge), flatMapLatest")
  func oneSpellingPerStrategy() async {
    let source = Signal<Int, Never>([1, 2, 3])
    let inner: @Sendable (Int) -> Signal<Int, Never> = { value in Signal([value, value * 10]) }
    #expect(await source.concatMap(inner).collect() == [1, 10, 2, 20, 3, 30])
    #expect(await source.flatMap(maxConcurrent: 1, inner).collect() == [1, 10, 2, 20, 3, 30])
    #expect(await source.flatMap(.merge, inner).collect().sorted() == [1, 2, 3, 10, 20, 30])
    #expect(await source.flatMap(inner).collect().sorted() == [1, 2, 3, 10, 20, 30])
    // `flatMapLatest` keeps at least the last inner whole.
    #expect(await source.flatMapLatest(inner).collect().suffix(2) == [3, 30])
    #expect("\(FlattenStrategy.merge)" == ".merge")
  }

  @Test("maxConcurrent below 1 traps with a clear message")
  func maxConcurrentZeroTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = Signal<Int, Never>.just(1).flatMap(maxConcurrent: 0) { Signal<Int, Never>.just($0) }
    }
  }

  // MARK: Concat

  @Test("concatMap runs one inner at a time, in order, even when a later inner is ready first")
  func concatMapOrder() async {
    let inFlight = InFlight()
    let firstGate = Gate()
    let concatenated = Signal<Int, Never>([1, 2, 3]).concatMap { index in
      Signal<Int, Never> { emitter in
        inFlight.enter()
        await emitter.send(index * 10)
        if index == 1 { await firstGate.wait() }
        inFlight.leave()
        await emitter.send(index * 10 + 1)
      }
    }
    var iterator = concatenated.makeAsyncIterator()
    #expect(await iterator.next() == 10)
    firstGate.open()  // inners 2 and 3 were ready all along, but waited for inner 1
    var rest: [Int] = []
    while let value = await iterator.next() { rest.append(value) }
    #expect(rest == [11, 20, 21, 30, 31])
    #expect(inFlight.maximum == 1)
  }

  @Test("concatMap: an inner failure fails the result; dropping the iterator cancels the running inner and the outer")
  func concatMapFailureAndCancellation() async throws {
    let failing = Signal<Int, TestError>([1, 2]).concatMap { index in
      index == 1 ? Signal<Int, TestError>.just(10) : Signal<Int, TestError>.fail(TestError(code: index))
    }
    let (values, failure) = await failing.collectResult()
    #expect(values == [10])
    #expect(failure == TestError(code: 2))

    let outerCancelled = Gate()
    let innerCancelled = Gate()
    let outer = Signal<Int, Never>.create { emitter in
      emitter.send(1)
      emitter.send(2)
      return { outerCancelled.open() }
    }
    let concatenated = outer.concatMap { index in
      Signal<Int, Never>.create { emitter in
        emitter.send(index)
        return { innerCancelled.open() }
      }
    }
    do {
      var iterator = concatenated.makeAsyncIterator()
      #expect(await iterator.next() == 1)
    }
    await outerCancelled.wait()
    await innerCancelled.wait()
  }

  // MARK: Backpressure

  @Test("a fast inner pauses while the consumer is behind, and stops when the consumer drops the iterator")
  func fastInnerPauses() async {
    let pulled = Counter()
    let ended = Gate()
    let merged = Signal<Int, Never>.just(0).flatMap { _ in Endless(pulled: pulled, ended: ended) }
    var consumed = 0
    do {
      var iterator = merged.makeAsyncIterator()
      while consumed < 1_000, await iterator.next() != nil { consumed += 1 }
    }
    await ended.wait()
    #expect(consumed == 1_000)
    // At most what the consumer held, what waited in the buffer (256), and one element in flight.
    #expect(pulled.value <= 1_000 + 2 * 256 + 1)
  }

  // MARK: Latest

  @Test("flatMapLatest cancels the previous inner, delivers no stale value, and lets the last inner finish")
  func flatMapLatestSwitches() async {
    let outer = AsyncPassthroughSubject<Int, Never>()
    let emitters = Emitters<String, Never>()
    let cancelled = [Gate(), Gate()]
    let latest = outer.flatMapLatest { emitters.run($0, onCancel: cancelled[$0]) }
    var iterator = latest.makeAsyncIterator()
    outer.send(0)
    let first = await emitters.wait(for: 0)
    await first.send("a")
    #expect(await iterator.next() == "a")
    outer.send(1)
    await cancelled[0].wait()
    let second = await emitters.wait(for: 1)
    await first.send("stale")
    await second.send("b")
    #expect(await iterator.next() == "b")
    outer.finish()
    await second.send("c")  // the outer finished; the last inner keeps running
    #expect(await iterator.next() == "c")
    second.finish()
    #expect(await iterator.next() == nil)
  }

  @Test("flatMapLatest drops what a replaced inner produces after the switch, even if it ignores cancellation")
  func flatMapLatestDropsStaleValues() async {
    let outer = AsyncPassthroughSubject<Int, Never>()
    let release = Gate()
    let stubbornEnded = Gate()
    let emitters = Emitters<String, Never>()
    let latest = outer.flatMapLatest { index in
      if index == 0 { return StubbornSequence(value: "stale", release: release, ended: stubbornEnded).eraseToSignal() }
      return emitters.run(index)
    }
    var iterator = latest.makeAsyncIterator()
    outer.send(0)
    outer.send(1)
    let second = await emitters.wait(for: 1)  // runs in the new inner's task: the switch has happened
    release.open()  // the replaced inner now produces "stale"
    await stubbornEnded.wait()  // its pump was told to stop, and dropped the value
    await second.send("fresh")
    #expect(await iterator.next() == "fresh")
    outer.finish()
    second.finish()
    #expect(await iterator.next() == nil)
  }

  // MARK: Failure and cancellation

  @Test("an outer failure fails the result at once and cancels every inner")
  func outerFailureCancelsInners() async {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let outer = subject.subscribe()  // registered now: the sends below cannot be missed
    let emitters = Emitters<Int, TestError>()
    let cancelled = [Gate(), Gate()]
    let merged = outer.flatMap { emitters.run($0, onCancel: cancelled[$0]) }
    let consumer = Task { await merged.collectResult() }
    subject.send(0)
    subject.send(1)
    _ = await emitters.wait(for: 0)
    _ = await emitters.wait(for: 1)
    subject.fail(TestError(code: 1))
    let (values, failure) = await consumer.value
    #expect(values == [])
    #expect(failure == TestError(code: 1))
    await cancelled[0].wait()
    await cancelled[1].wait()
  }

  @Test("an inner failure fails the result and cancels the outer and the other inners")
  func innerFailureCancelsEverything() async throws {
    let outerCancelled = Gate()
    let outerEmitter = Emitters<Int, TestError>()
    let outer = outerEmitter.run(0, onCancel: outerCancelled)
    let emitters = Emitters<Int, TestError>()
    let cancelled = [Gate(), Gate()]
    let merged = outer.flatMap { emitters.run($0, onCancel: cancelled[$0]) }
    var iterator = merged.makeAsyncIterator()
    async let running: Signal<Int, TestError>.Emitter = {
      let source = await outerEmitter.wait(for: 0)
      await source.send(0)
      await source.send(1)
      let first = await emitters.wait(for: 0)
      let second = await emitters.wait(for: 1)
      await first.send(7)
      return second
    }()
    #expect(try await iterator.next() == 7)  // the first next() starts the outer
    let second = await running
    second.fail(TestError(code: 2))
    await #expect(throws: TestError(code: 2)) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
    await outerCancelled.wait()
    await cancelled[0].wait()
  }

  @Test("a throwing transform fails the result")
  func transformFailure() async {
    let merged = Signal<Int, Never>([1, 2]).flatMap { value in try throwingInner(value) }
    let (_, failure) = await merged.collectResult()
    #expect(failure as? TestError == TestError(code: 2))
  }

  @Test("cancelling the consumer cancels the outer and every inner")
  func consumerCancellation() async {
    let harness = CancellationHarness()
    let consumer = Task { await harness.merged.collect() }
    await harness.waitUntilRunning()
    consumer.cancel()
    await harness.waitUntilAllCancelled()
    _ = await consumer.value
  }

  @Test("dropping the iterator cancels the outer and every inner")
  func iteratorDropCancels() async {
    let harness = CancellationHarness()
    do {
      var iterator = harness.merged.makeAsyncIterator()
      #expect(await iterator.next() == 1)  // the first next() starts the work; inner 1 sends 1 at once
      await harness.waitUntilRunning()
    }
    await harness.waitUntilAllCancelled()
  }

  @Test(
    "an iterator dropped before its first next() starts no task and runs none of the outer's work",
    arguments: [.merge, .concat, .latest, .first, FlattenStrategy.concurrent(limit: 2)])
  func iteratorDroppedBeforeNextStartsNothing(_ strategy: FlattenStrategy) async {
    let runs = Counter()
    let transformed = Counter()
    let outer = Signal<Int, Never> { emitter in
      runs.increment()
      await emitter.send(1)
      await waitForCancellation()
    }
    let flattened = outer.flattened(strategy) { value in
      transformed.increment()
      return Signal<Int, Never>.just(value * 10)
    }
    await withTaskScope { scope in
      do {
        let iterator = flattened.makeAsyncIterator()
        await Task.yield()
        #expect(scope.total == 0)
        withExtendedLifetime(iterator) {}
      }
      #expect(scope.total == 0)
      #expect(runs.value == 0)
      #expect(transformed.value == 0)
      // The first `next()` starts the run: the outer's body (in its task), and the transform inside its sends.
      var iterator = flattened.makeAsyncIterator()
      #expect(await iterator.next() == 10)
      #expect(runs.value == 1)
      #expect(transformed.value == 1)
      #expect(tasks(scope)["task 'Signal body'"] == 1)
    }
  }

  // MARK: Scenario 2

  @Test("scenario 2: get the user, then from it the wallet; the wallet goes to moneySubject")
  func dependentRequests() async throws {
    let api = UserAPI()
    let moneySubject = AsyncPassthroughSubject<[String: String], any Error>()
    let money = moneySubject.subscribe()
    let lifetime = Lifetime()

    let user = Signal<[String: String], any Error>.create { emitter in
      api.requestUser { user in
        emitter.send(user)
        emitter.finish()
      }
      return {}
    }
    let wallet = user.flatMap { user in
      Signal<[String: String], any Error>.create { emitter in
        api.requestUserWallet(for: user) { wallet in
          emitter.send(wallet)
          emitter.finish()
        }
        return {}
      }
    }
    wallet.observe(in: lifetime) { wallet in
      moneySubject.send(wallet)
    } onFailure: { error in
      moneySubject.fail(error)
    } onFinish: {
      moneySubject.finish()
    }

    #expect(try await money.collect() == [["money": "100"]])
    #expect(api.walletRequests.all == ["Tom"])
  }
}

// MARK: Test doubles

private struct OtherError: Error {}

private func throwingInner(_ value: Int) throws -> Signal<Int, Never> {
  if value == 2 { throw TestError(code: 2) }
  return .just(value)
}

/// Compiles only for the merging operator's sequence type.
private func expectMerging<Element, Failure>(_ sequence: Signal<Element, Failure>) {}
/// A hot outer (a subject) gets the hot merge: a `HotSignal` evaluated inside the outer `send`.
private func expectMerging<Element, Failure>(_ sequence: HotSignal<Element, Failure>) {}

private func hasFailure<S: AsyncSequence, Failure>(_ sequence: S, _ failure: Failure.Type) -> Bool {
  S.Failure.self == Failure.self
}

/// Counts how many inners run at once, and the most there ever were.
private final class InFlight: Sendable {
  private let counts = Locked((current: 0, maximum: 0))

  func enter() {
    counts.withLock { counts in
      counts.current += 1
      counts.maximum = max(counts.maximum, counts.current)
    }
  }

  func leave() { counts.withLock { $0.current -= 1 } }

  var maximum: Int { counts.withLock { $0.maximum } }
}

/// The emitters of `Signal.create` runs, by index, for tests that drive the runs by hand.
private final class Emitters<Element: Sendable, Failure: Error>: Sendable {
  typealias Emitter = Signal<Element, Failure>.Emitter

  private struct State {
    var emitters: [Int: Emitter] = [:]
    var waiters: [Int: [CheckedContinuation<Emitter, Never>]] = [:]
  }

  private let state = Locked(State())

  func set(_ emitter: Emitter, at index: Int) {
    let waiters = state.withLock { state in
      state.emitters[index] = emitter
      return state.waiters.removeValue(forKey: index) ?? []
    }
    for waiter in waiters { waiter.resume(returning: emitter) }
  }

  /// A `Signal.create` whose every run registers its emitter as run `index`, and opens `cancelled` (if any) when
  /// it is cancelled.
  func run(_ index: Int, onCancel cancelled: Gate? = nil) -> Signal<Element, Failure> {
    Signal<Element, Failure>.create { emitter in
      self.set(emitter, at: index)
      return { cancelled?.open() }
    }
  }

  /// Returns the emitter of run `index` once that run has started.
  func wait(for index: Int) async -> Emitter {
    await withCheckedContinuation { continuation in
      let emitter = state.withLock { state -> Emitter? in
        if let emitter = state.emitters[index] { return emitter }
        state.waiters[index, default: []].append(continuation)
        return nil
      }
      if let emitter { continuation.resume(returning: emitter) }
    }
  }
}

/// An outer `Signal.create` and two inner ones, each with a cancel handler that opens a gate.
private struct CancellationHarness {
  let outerCancelled = Gate()
  let innerCancelled = [Gate(), Gate()]
  let emitters = Emitters<Int, Never>()
  let merged: Signal<Int, Never>

  init() {
    let outerCancelled = outerCancelled
    let innerCancelled = innerCancelled
    let emitters = emitters
    let outer = Signal<Int, Never>.create { emitter in
      emitter.send(0)
      emitter.send(1)
      return { outerCancelled.open() }
    }
    merged = outer.flatMap { index in
      Signal<Int, Never>.create { emitter in
        if index == 1 { emitter.send(1) }
        emitters.set(emitter, at: index)
        return { innerCancelled[index].open() }
      }
    }
  }

  func waitUntilRunning() async {
    _ = await emitters.wait(for: 0)
    _ = await emitters.wait(for: 1)
  }

  func waitUntilAllCancelled() async {
    await outerCancelled.wait()
    for gate in innerCancelled { await gate.wait() }
  }
}

/// A sequence that ignores cancellation: its one element comes when `release` opens, whatever happened meanwhile.
private struct StubbornSequence: AsyncSequence, Sendable {
  let value: String
  let release: Gate
  let ended: Gate

  struct Iterator: AsyncIteratorProtocol {
    let value: String
    let release: Gate
    let probe: Probe
    var done = false

    mutating func next() async -> String? {
      guard !done else { return nil }
      done = true
      await release.wait()
      return value
    }
  }

  /// Opens `ended` when the iterator is dropped, that is when the pump stopped.
  final class Probe {
    let ended: Gate
    init(ended: Gate) { self.ended = ended }
    deinit { ended.open() }
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(value: value, release: release, probe: Probe(ended: ended))
  }
}

/// An endless sequence that counts the elements pulled from it; it ends only when its task is cancelled.
private struct Endless: AsyncSequence, Sendable {
  let pulled: Counter
  let ended: Gate

  struct Iterator: AsyncIteratorProtocol {
    let pulled: Counter
    let probe: StubbornSequence.Probe

    mutating func next() async -> Int? {
      if Task.isCancelled { return nil }
      return pulled.increment()
    }
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(pulled: pulled, probe: StubbornSequence.Probe(ended: ended))
  }
}

/// The callback API of scenario 2: the user, then the wallet for that user, answered from another task.
private final class UserAPI: Sendable {
  let walletRequests = Log<String>()

  func requestUser(completion: @escaping @Sendable ([String: String]) -> Void) {
    Task { completion(["name": "Tom"]) }
  }

  func requestUserWallet(for user: [String: String], completion: @escaping @Sendable ([String: String]) -> Void) {
    walletRequests.append(user["name"] ?? "")
    Task { completion(["money": "100"]) }
  }
}
