import AsyncReactive
import Synchronization

/// Cases for the seed scenarios (combineLatest, flatMap, retry) and the command round trip.
func extraCases(scale: Int) -> [BenchmarkCase] {
  let combined = 100_000 / scale
  let outer = 100_000 / scale
  let requests = 20_000 / scale
  let executions = 100_000 / scale
  return [
    BenchmarkCase(
      name: "combineLatest of 3 (scenario 1)", unit: "emitted value", events: combined + 1, target: 1.0,
      cpuRatioTarget: 1.2
    ) {
      await combineLatestOfThree($0, values: combined)
    },
    BenchmarkCase(
      name: "flatMap, one-value inner (scenario 2)", unit: "outer value", events: outer, target: 2.0,
      cpuRatioTarget: 2.0
    ) {
      await flatMapOneValueInner($0, values: outer)
    },
    BenchmarkCase(name: "flatMap, async inner (Signal.future)", unit: "outer value", events: outer, target: nil) {
      await flatMapOneValueInner($0, values: outer, asynchronousInner: true)
    },
    BenchmarkCase(
      name: "flatMap(maxConcurrent: 4), one-value inner", unit: "outer value", events: outer, target: nil
    ) {
      await flatMapOneValueInner($0, values: outer, maxConcurrent: 4)
    },
    BenchmarkCase(
      name: "flatMap(maxConcurrent: 4), async inner", unit: "outer value", events: outer, target: nil
    ) {
      await flatMapOneValueInner($0, values: outer, asynchronousInner: true, maxConcurrent: 4)
    },
    BenchmarkCase(name: "concatMap, async inner", unit: "outer value", events: outer, target: nil) {
      await flatMapOneValueInner($0, values: outer, asynchronousInner: true, maxConcurrent: 1)
    },
    BenchmarkCase(
      name: "retry after 3 failures (scenario 3)", unit: "re-subscription", events: requests * 3, target: 3.0
    ) {
      await retryAfterFailures($0, requests: requests, failures: 3)
    },
    BenchmarkCase(name: "command execute round trip", unit: "execute", events: executions, target: 20.0) {
      await commandRoundTrip($0, executions: executions)
    },
  ]
}

/// Three sources, combined; each value after the first full set produces one output. Returns the number of
/// outputs (the tuples themselves depend on how concurrent inputs interleave).
func combineLatestOfThree(_ version: Version, values: Int) async -> Int {
  switch version {
  case .callback:
    let (a, b, c) = (CallbackSubject<Int>(), CallbackSubject<Int>(), CallbackSubject<Int>())
    let count = Atomic<Int>(0)
    let disposable = callbackCombineLatest(a.signal, b.signal, c.signal).observe { event in
      if case .next = event { count.wrappingAdd(1, ordering: .relaxed) }
    }
    a.send(.next(0))
    b.send(.next(0))
    c.send(.next(0))
    for value in 0..<values { [a, b, c][value % 3].send(.next(value)) }
    disposable.dispose()
    return count.load(ordering: .relaxed)

  case .naive:
    // What one writes by hand: a task per input feeding one actor-free locked state, and an output stream.
    let inputs = (0..<3).map { _ in AsyncStream.makeStream(of: Int.self) }
    let (output, outputContinuation) = AsyncStream.makeStream(of: [Int].self)
    let latest = BaselineLocked<[Int?]>([nil, nil, nil])
    let pumps = (0..<3).map { index in
      Task {
        for await value in inputs[index].stream {
          let tuple = latest.withLock { latest -> [Int]? in
            latest[index] = value
            return latest.contains { $0 == nil } ? nil : latest.map { $0! }
          }
          if let tuple { outputContinuation.yield(tuple) }
        }
      }
    }
    var iterator = output.makeAsyncIterator()
    for input in inputs { input.continuation.yield(0) }
    var count = await iterator.next() == nil ? 0 : 1  // the first full set, before the rest is sent
    for value in 0..<values { inputs[value % 3].continuation.yield(value) }
    for input in inputs { input.continuation.finish() }
    for pump in pumps { await pump.value }
    outputContinuation.finish()
    while await iterator.next() != nil { count += 1 }
    return count

  case .reactive:
    let (a, b, c) = (
      AsyncPassthroughSubject<Int, Never>(), AsyncPassthroughSubject<Int, Never>(),
      AsyncPassthroughSubject<Int, Never>()
    )
    var iterator = combineLatest(a.subscribe(), b.subscribe(), c.subscribe()).makeAsyncIterator()
    a.send(0)
    b.send(0)
    c.send(0)
    var count = await iterator.next() == nil ? 0 : 1
    for value in 0..<values { [a, b, c][value % 3].send(value) }
    a.finish()
    b.finish()
    c.finish()
    while await iterator.next() != nil { count += 1 }
    return count
  }
}

/// Each outer value (a user) starts a one-value inner request (its wallet); returns the sum of the inner
/// values.
///
/// With `asynchronousInner`, the AsyncReactive inner is a `Signal.future` (a request that may suspend, so it
/// runs in a task of its own) instead of `Signal.just` (pumped in place); the other versions do not change.
/// With `maxConcurrent`, at most that many inners run at once (`1` is `concatMap`); the others wait in
/// order.
func flatMapOneValueInner(
  _ version: Version, values: Int, asynchronousInner: Bool = false, maxConcurrent: Int? = nil
) async -> Int {
  switch version {
  case .callback:
    let users = CallbackSubject<Int>()
    let sum = Atomic<Int>(0)
    let inner: @Sendable (Int) -> CallbackSignal<Int> = { CallbackSignal.just($0 &* 2) }
    let flattened = maxConcurrent.map { users.signal.flatMap(maxConcurrent: $0, inner) } ?? users.signal.flatMap(inner)
    let disposable = flattened.observe { event in
      if case .next(let wallet) = event { sum.wrappingAdd(wallet, ordering: .relaxed) }
    }
    for user in 0..<values { users.send(.next(user)) }
    users.send(.completed)
    disposable.dispose()
    return sum.load(ordering: .relaxed)

  case .naive:
    let (users, continuation) = AsyncStream.makeStream(of: Int.self)
    let consumer = Task {
      await withTaskGroup(of: Int.self) { group in
        var sum = 0
        var running = 0
        for await user in users {
          // By hand, a limit means waiting for a running child before reading the next value.
          if let maxConcurrent, running == maxConcurrent, let wallet = await group.next() {
            sum &+= wallet
            running -= 1
          }
          group.addTask { user &* 2 }
          running += 1
        }
        for await wallet in group { sum &+= wallet }
        return sum
      }
    }
    for user in 0..<values { continuation.yield(user) }
    continuation.finish()
    return await consumer.value

  case .reactive:
    let users = AsyncPassthroughSubject<Int, Never>()
    let inner: @Sendable (Int) -> Signal<Int, Never> = { user in
      asynchronousInner ? Signal<Int, Never>.future { user &* 2 } : Signal<Int, Never>.just(user &* 2)
    }
    let subscription = users.subscribe()
    let wallets = maxConcurrent.map { subscription.flatMap(maxConcurrent: $0, inner) } ?? subscription.flatMap(inner)
    let consumer = Task {
      var sum = 0
      for await wallet in wallets { sum &+= wallet }
      return sum
    }
    for user in 0..<values { users.send(user) }
    users.finish()
    return await consumer.value
  }
}

struct RequestFailed: Error {}

/// `requests` requests that each fail `failures` times before succeeding, retried; returns the number of
/// attempts made.
func retryAfterFailures(_ version: Version, requests: Int, failures: Int) async -> Int {
  let attempts = Atomic<Int>(0)
  switch version {
  case .callback:
    for _ in 0..<requests {
      let failed = Atomic<Int>(0)
      let request = CallbackSignal<Int> { observer in
        attempts.wrappingAdd(1, ordering: .relaxed)
        if failed.wrappingAdd(1, ordering: .relaxed).newValue <= failures {
          observer(.failed(RequestFailed()))
        } else {
          observer(.next(1))
          observer(.completed)
        }
        return CallbackDisposable()
      }
      request.retry(failures).observe { _ in }
    }

  case .naive:
    // By hand: a fresh AsyncThrowingStream per attempt (a stream cannot be iterated twice), in a loop.
    for _ in 0..<requests {
      let failed = Atomic<Int>(0)
      var succeeded = false
      for _ in 0...failures where !succeeded {
        let request = AsyncThrowingStream<Int, any Error> { continuation in
          attempts.wrappingAdd(1, ordering: .relaxed)
          if failed.wrappingAdd(1, ordering: .relaxed).newValue <= failures {
            continuation.finish(throwing: RequestFailed())
          } else {
            continuation.yield(1)
            continuation.finish()
          }
        }
        do {
          for try await _ in request {}
          succeeded = true
        } catch {
          continue
        }
      }
      precondition(succeeded, "the request should succeed after \(failures) retries")
    }

  case .reactive:
    for _ in 0..<requests {
      let failed = Atomic<Int>(0)
      let request = Signal<Int, any Error>.future {
        attempts.wrappingAdd(1, ordering: .relaxed)
        if failed.wrappingAdd(1, ordering: .relaxed).newValue <= failures { throw RequestFailed() }
        return 1
      }
      do {
        for try await _ in request.retry(failures) {}
      } catch {
        preconditionFailure("the request should succeed after \(failures) retries")
      }
    }
  }
  return attempts.load(ordering: .relaxed)
}

/// `executions` sequential runs of trivial work while a consumer observes `executing`; returns the sum of
/// the outputs.
func commandRoundTrip(_ version: Version, executions: Int) async -> Int {
  var sum = 0
  switch version {
  case .callback:
    let command = CallbackCommand<Int, Int> { $0 &+ 1 }
    let changes = Atomic<Int>(0)
    command.executing.observe { _ in changes.wrappingAdd(1, ordering: .relaxed) }
    for input in 0..<executions { sum &+= command.execute(input) ?? 0 }

  case .naive:
    let command = NaiveCommand { $0 &+ 1 }
    let observer = Task { for await _ in command.executing {} }
    for input in 0..<executions { sum &+= await command.execute(input) }
    command.finish()
    await observer.value

  case .reactive:
    let command = Command<Int, Int, Never> { $0 &+ 1 }
    let executing = command.executing.subscribe()
    let observer = Task { for await _ in executing {} }
    for input in 0..<executions { sum &+= (try? await command.execute(input)) ?? 0 }
    observer.cancel()
    await observer.value
  }
  return sum
}

/// A command as one writes it by hand: an actor with an AsyncStream for `executing`.
actor NaiveCommand {
  nonisolated let executing: AsyncStream<Bool>
  private let continuation: AsyncStream<Bool>.Continuation
  private let work: @Sendable (Int) -> Int
  private var running = false

  init(work: @escaping @Sendable (Int) -> Int) {
    (executing, continuation) = AsyncStream.makeStream(of: Bool.self)
    self.work = work
  }

  func execute(_ input: Int) -> Int {
    running = true
    continuation.yield(true)
    let output = work(input)
    running = false
    continuation.yield(false)
    return output
  }

  nonisolated func finish() { continuation.finish() }
}
