import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("map, compactMap and filter on the library's sequences")
struct MapTests {
  @Test("a synchronous map on a subscription or a signal resolves to the library's map, which returns a Signal")
  func resolvesToOwnMap() {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let doubled = subject.subscribe().map { $0 * 2 }
    #expect(type(of: doubled) == Signal<Int, Never>.self)
    let chain = subject.subscribe().map { $0 * 2 }.filter { $0 > 0 }.map { "\($0)" }
    #expect(type(of: chain) == Signal<String, Never>.self)
    let numbers = Signal<String, Never>(["1"]).compactMap { Int($0) }
    #expect(type(of: numbers) == Signal<Int, Never>.self)
    let evens = Signal<Int, Never>([1]).filter { $0 % 2 == 0 }
    #expect(type(of: evens) == Signal<Int, Never>.self)
  }

  @Test("an async predicate goes to the standard library's filter; a throwing one is the library's, failing with it")
  func asyncPredicateFallsBack() async throws {
    @Sendable func isEven(_ value: Int) async -> Bool { value % 2 == 0 }
    let evens = Signal<Int, Never>([1, 2, 3, 4]).filter { await isEven($0) }
    #expect(type(of: evens) == AsyncFilterSequence<Signal<Int, Never>>.self)
    #expect(await evens.collect() == [2, 4])
    let checked = Signal<Int, Never>([1, 2, 3]).filter { (value: Int) throws -> Bool in
      if value == 3 { throw TestError(code: 3) }
      return true
    }
    #expect(type(of: checked) == Signal<Int, any Error>.self)
    var seen: [Int] = []
    await #expect(throws: TestError(code: 3)) {
      for try await value in checked { seen.append(value) }
    }
    #expect(seen == [1, 2])
  }

  @Test("filter keeps the included values in order and the upstream's finish")
  func filterValues() async {
    #expect(await Signal<Int, Never>([1, 2, 3, 4, 5, 6]).filter { $0 % 3 != 0 }.collect() == [1, 2, 4, 5])
    #expect(await Signal<Int, Never>([1, 3]).filter { $0 % 2 == 0 }.collect() == [])
    #expect(await Signal<Int, Never>.empty.filter { _ in true }.collect() == [])
  }

  @Test("an async transform still compiles, through the standard library's map")
  func asyncTransformFallsBack() async {
    @Sendable func double(_ value: Int) async -> Int { value * 2 }
    let doubled = Signal<Int, Never>([1, 2, 3]).map { await double($0) }
    #expect(type(of: doubled) == AsyncMapSequence<Signal<Int, Never>, Int>.self)
    #expect(await doubled.collect() == [2, 4, 6])
  }

  @Test("map keeps every value in order and the upstream's finish")
  func mapValues() async {
    #expect(await Signal<Int, Never>([1, 2, 3]).map { $0 * 10 }.collect() == [10, 20, 30])
    #expect(await Signal<Int, Never>.empty.map { $0 * 10 }.collect() == [])
  }

  @Test("compactMap drops nil results and keeps the rest in order")
  func compactMapValues() async {
    let numbers = await Signal<String, Never>(["1", "x", "3", "", "5"]).compactMap { Int($0) }.collect()
    #expect(numbers == [1, 3, 5])
  }

  @Test("the upstream's typed failure passes through, after the values before it")
  func failurePassesThrough() async {
    let failing = Signal<Int, TestError> { (emitter) throws(TestError) in
      emitter.send(1)
      emitter.send(2)
      throw TestError(code: 7)
    }
    let mapped = await failing.map { $0 + 1 }.collectResult()
    #expect(mapped.values == [2, 3])
    #expect(mapped.failure == TestError(code: 7))
    let compact = await failing.compactMap { $0 == 1 ? nil : $0 }.collectResult()
    #expect(compact.values == [2])
    #expect(compact.failure == TestError(code: 7))
    let filtered = await failing.filter { $0 != 1 }.collectResult()
    #expect(filtered.values == [2])
    #expect(filtered.failure == TestError(code: 7))
  }

  @Test("retry re-runs a mapped or filtered signal: map and filter keep re-iterability")
  func retryOverMap() async {
    let attempts = Counter()
    let flaky = Signal<Int, TestError> { (emitter) throws(TestError) in
      let attempt = attempts.increment()
      emitter.send(attempt)
      if attempt < 3 { throw TestError(code: attempt) }
    }
    let result = await flaky.map { $0 * 100 }.retry(2).collectResult()
    #expect(result.values == [100, 200, 300])
    #expect(result.failure == nil)
    let filterAttempts = Counter()
    let flakyAgain = Signal<Int, TestError> { (emitter) throws(TestError) in
      let attempt = filterAttempts.increment()
      emitter.send(attempt)
      if attempt < 3 { throw TestError(code: attempt) }
    }
    let filtered = await flakyAgain.filter { $0 != 2 }.retry(2).collectResult()
    #expect(filtered.values == [1, 3])
    #expect(filtered.failure == nil)
  }

  @Test("cancelling the consumer of a mapped subscription unregisters it from the subject")
  func cancellationPassesThrough() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let started = Gate()
    let doubled = subject.subscribe().map { $0 * 2 }  // registered now: no need to wait for the task
    let consumer = Task {
      var seen: [Int] = []
      for await value in doubled {
        seen.append(value)
        started.open()
      }
      return seen
    }
    subject.send(1)
    await started.wait()
    consumer.cancel()
    #expect(await consumer.value == [2])
    #expect(subject.consumerCount == 0)
  }

  @Test("cancelling the consumer of a filtered subscription unregisters it from the subject")
  func filterCancellationPassesThrough() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let started = Gate()
    let odds = subject.subscribe().filter { $0 % 2 == 1 }
    let consumer = Task {
      var seen: [Int] = []
      for await value in odds {
        seen.append(value)
        started.open()
      }
      return seen
    }
    subject.send(2)
    subject.send(3)
    await started.wait()
    consumer.cancel()
    #expect(await consumer.value == [3])
    #expect(subject.consumerCount == 0)
  }
}
