import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("retry")
struct RetryTests {
  // MARK: Scenario 3: the order list

  @Test(
    "retry(n): an order list failing k ≤ n times succeeds after k + 1 attempts",
    arguments: [(failures: 0, retries: 0), (failures: 1, retries: 3), (failures: 3, retries: 3)]
  )
  func succeedsWithinRetries(failures: Int, retries: Int) async throws {
    let api = OrderAPI(failures: failures)
    let orders = try await api.orderList.retry(retries).collect()
    #expect(orders == [["order 1", "order 2"]])
    #expect(api.attempts == failures + 1)
  }

  @Test("retry(n): an order list failing more than n times throws 502 \"network error\" after n + 1 attempts")
  func failsAfterRetries() async {
    let api = OrderAPI(failures: 5)
    let (orders, failure) = await api.orderList.retry(3).collectResult()
    #expect(orders == [])
    #expect(failure == NetworkError(domain: "network error", code: 502))
    #expect(api.attempts == 4)
  }

  @Test("retry(0) makes exactly one attempt")
  func zeroRetriesIsOneAttempt() async {
    let api = OrderAPI(failures: 1)
    let (_, failure) = await api.orderList.retry(0).collectResult()
    #expect(failure?.code == 502)
    #expect(api.attempts == 1)
  }

  @Test("values delivered before a failure stay delivered")
  func valuesBeforeFailureStay() async throws {
    #expect(try await succeedingOnThirdAttempt().retry(5).collect() == [10, 20, 30, 31])
    let (values, failure) = await succeedingOnThirdAttempt().retry(1).collectResult()
    #expect(values == [10, 20])
    #expect(failure == TestError(code: 2))
  }

  @Test("a negative retry count traps with a clear message")
  func negativeCountTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = Signal<Int, TestError>.fail(TestError()).retry(-1)
    }
  }

  // MARK: Re-iterable upstreams only

  @Test("Signal.deferred makes an AsyncStream-based request retryable")
  func deferredStreamIsRetryable() async throws {
    let api = OrderAPI(failures: 2)
    let orders = Signal.deferred {
      AsyncThrowingStream<[String], any Error> { continuation in
        api.requestOrders { result in
          continuation.yield(with: result.mapError { $0 as any Error })
          continuation.finish()
        }
      }
    }
    #expect(try await orders.retry(2).collect() == [["order 1", "order 2"]])
    #expect(api.attempts == 3)
    // An AsyncStream itself offers no `retry`: it cannot be iterated again.
    #expect(!(AsyncThrowingStream<[String], any Error>.self is any ReiterableAsyncSequence.Type))
  }

  @Test("operators over a Signal stay retryable: map, the error operators, flatMap")
  func operatorsStayRetryable() async throws {
    let api = OrderAPI(failures: 1)
    let counts = try await api.orderList.map(\.count).retry(1).collect()
    #expect(counts == [2])
    let wrapped = try await OrderAPI(failures: 1).orderList
      .mapError { TestError(code: $0.code) }
      .flatMap { orders in Signal<Int, TestError>.just(orders.count) }
      .retry(1)
      .collect()
    #expect(wrapped == [2])
  }

  // MARK: retry(while:)

  @Test("retry(while:) decides per failure and attempt number")
  func retryWhile() async {
    let api = OrderAPI(failures: 10)
    let decisions = Log<Int>()
    let (_, failure) = await api.orderList.retry { error, attempt in
      decisions.append(attempt)
      return error.code == 502 && attempt < 3
    }.collectResult()
    #expect(decisions.all == [1, 2, 3])
    #expect(api.attempts == 3)
    #expect(failure?.code == 502)
  }

  @Test("retry(while:) may be async")
  func retryWhileAsync() async throws {
    let api = OrderAPI(failures: 2)
    let approvals = [Gate(), Gate()]
    let asked = Counter()
    let orders = api.orderList.retry { _, attempt in
      asked.increment()
      await approvals[attempt - 1].wait()
      return true
    }
    let consumer = Task { try await orders.collect() }
    for approval in approvals { approval.open() }
    #expect(try await consumer.value == [["order 1", "order 2"]])
    #expect(asked.value == 2)
    #expect(api.attempts == 3)
  }

  // MARK: Backoff

  @Test("constant backoff waits exactly the delay before each retry, and not after the last failure")
  func constantBackoff() async {
    let (attempts, failure, clock) = await retryAlwaysFailing(3, delay: .constant(.seconds(2)))
    #expect(failure == TestError(code: 4))
    #expect(attempts == [.zero, .seconds(2), .seconds(4), .seconds(6)])
    #expect(clock.sleeperCount == 0)
    #expect(clock.now.offset == .seconds(6))
  }

  @Test("exponential backoff multiplies each delay, capped at the maximum")
  func exponentialBackoff() async {
    let delay = RetryDelay.exponential(initial: .milliseconds(100), multiplier: 2, maximum: .milliseconds(500))
    let (attempts, _, clock) = await retryAlwaysFailing(5, delay: delay)
    // Waits of 100, 200, 400, then 500 (capped) twice.
    #expect(offsets(attempts) == [0, 100, 300, 700, 1_200, 1_700])
    #expect(clock.sleeperCount == 0)
  }

  @Test("exponential backoff with a fractional multiplier")
  func fractionalMultiplier() async {
    let delay = RetryDelay.exponential(initial: .milliseconds(200), multiplier: 1.5, maximum: .seconds(10))
    // Waits of 200, 300, 450.
    #expect(offsets(await retryAlwaysFailing(3, delay: delay).attempts) == [0, 200, 500, 950])
  }

  @Test("jitter draws from the injected generator: full and proportional")
  func jitterWithScriptedGenerator() async {
    let half: UInt64 = 1 << 63
    let quarter: UInt64 = 1 << 62

    let full = RetryDelay.constant(.seconds(1), jitter: .full(using: ScriptedGenerator([half, quarter, 3 * quarter])))
    // Waits of 1 s × 0.5, × 0.25, × 0.75.
    #expect(offsets(await retryAlwaysFailing(3, delay: full).attempts) == [0, 500, 750, 1_500])

    let proportional = RetryDelay.exponential(
      initial: .milliseconds(400),
      maximum: .seconds(10),
      jitter: .proportional(0.5, using: ScriptedGenerator([half, 0]))
    )
    // Waits of 400 ms − 400 ms × 0.5 × 0.5, then 800 ms − 0.
    #expect(offsets(await retryAlwaysFailing(2, delay: proportional).attempts) == [0, 300, 1_100])
  }

  @Test("a seeded generator gives the same jittered waits on every iteration, never above the plan")
  func seededJitterIsReproducible() async {
    let delay = RetryDelay.exponential(
      initial: .milliseconds(100),
      maximum: .seconds(1),
      jitter: .full(using: SplitMix64(seed: 42))
    )
    var runs: [[Int]] = []
    for _ in 0..<2 {
      runs.append(offsets(await retryAlwaysFailing(4, delay: delay).attempts, unit: .microseconds(1)))
    }
    #expect(runs[0] == runs[1])
    let waits = zip(runs[0].dropFirst(), runs[0]).map { $0 - $1 }
    #expect(zip(waits, [100_000, 200_000, 400_000, 800_000]).allSatisfy { $0 <= $1 && $0 >= 0 })
    #expect(Set(waits).count > 1)
  }

  @Test("cancelling the consumer during a backoff ends the wait and throws the failure at once")
  func cancellationDuringBackoff() async {
    let clock = TestClock()
    let attempts = Log<Duration>()
    let failing = failingSignal(clock: clock, attempts: attempts)
    let consumer = Task { await failing.retry(3, delay: .constant(.seconds(1)), clock: clock).collectResult() }
    await clock.waitForSleepers(1)
    consumer.cancel()
    let (_, failure) = await consumer.value
    #expect(failure == TestError(code: 1))
    #expect(attempts.all == [.zero])
    #expect(clock.sleeperCount == 0)
  }
}

// MARK: Test doubles

/// The error of scenario 3's order-list request (the original's `NSError` with a domain and a code).
private struct NetworkError: Error, Equatable {
  var domain: String
  var code: Int
}

/// A callback API whose order-list request fails its first `failures` calls.
private final class OrderAPI: Sendable {
  private let failures: Int
  private let calls = Counter()

  init(failures: Int) {
    self.failures = failures
  }

  var attempts: Int { calls.value }

  func requestOrders(completion: @escaping @Sendable (Result<[String], NetworkError>) -> Void) {
    let call = calls.increment()
    let failures = failures
    Task {
      if call <= failures {
        completion(.failure(NetworkError(domain: "network error", code: 502)))
      } else {
        completion(.success(["order 1", "order 2"]))
      }
    }
  }

  /// The request as a signal: each iteration sends a new request.
  var orderList: Signal<[String], NetworkError> {
    Signal.create { emitter in
      self.requestOrders { result in
        switch result {
        case .success(let orders):
          emitter.send(orders)
          emitter.finish()
        case .failure(let error):
          emitter.fail(error)
        }
      }
      return {}
    }
  }
}

/// A signal that sends `attempt × 10` on each attempt, fails the first two, and sends `31` on the third.
private func succeedingOnThirdAttempt() -> Signal<Int, TestError> {
  let attempts = Counter()
  return Signal { (emitter) throws(TestError) in
    let attempt = attempts.increment()
    emitter.send(attempt * 10)
    if attempt < 3 { throw TestError(code: attempt) }
    emitter.send(attempt * 10 + 1)
  }
}

/// A signal that records the clock's time at each attempt and always fails with the attempt's number.
private func failingSignal(clock: TestClock, attempts: Log<Duration>) -> Signal<Int, TestError> {
  let count = Counter()
  return Signal { (_) throws(TestError) in
    attempts.append(clock.now.offset)
    throw TestError(code: count.increment())
  }
}

/// Runs a `failingSignal` through `retry(retries, delay:)` on a new test clock under virtual time, letting every
/// backoff wait elapse exactly: one `run()` drives the whole chain (each backoff wakes the next attempt, whose
/// failure starts the next backoff). Returns when each attempt started, the failure that ended the result, and the
/// clock.
private func retryAlwaysFailing(_ retries: Int, delay: RetryDelay) async -> (
  attempts: [Duration], failure: TestError?, clock: TestClock
) {
  let clock = TestClock()
  let attempts = Log<Duration>()
  let failing = failingSignal(clock: clock, attempts: attempts)
  let failure = await clock.withVirtualTime {
    async let result = failing.retry(retries, delay: delay, clock: clock).collectResult()
    await clock.run()
    return await result.1
  }
  return (attempts.all, failure, clock)
}

private func offsets(_ durations: [Duration], unit: Duration = .milliseconds(1)) -> [Int] {
  durations.map { Int($0 / unit) }
}

/// Returns the given numbers in turn, then zeros: jitter that a test can compute by hand.
private struct ScriptedGenerator: RandomNumberGenerator, Sendable {
  private var numbers: [UInt64]

  init(_ numbers: [UInt64]) {
    self.numbers = numbers
  }

  mutating func next() -> UInt64 {
    numbers.isEmpty ? 0 : numbers.removeFirst()
  }
}
