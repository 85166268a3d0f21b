import AsyncReactive
import AsyncReactiveTesting
import Testing

// RxSwift 6's reduce tests whose accumulator or result selector throws (Observable+ReduceTests.swift), ported line
// by line: a throwing accumulator is the library's throwing `reduce`, `mapResult:` a `map` after it (throwing
// when the selector throws).

private let testError = TestError(code: 0)

@Suite("RxSwift's reduce tests with throwing closures, ported", .timeLimit(.minutes(1)))
struct RxSwiftPortedReduceTests {
  /// RxSwift's range timeline of these tests.
  static func range(_ clock: TestClock) -> HotTimeline<Int, Never> {
    clock.hotTimeline([
      .value(1, at: .seconds(150)), .value(0, at: .seconds(210)), .value(1, at: .seconds(220)),
      .value(2, at: .seconds(230)), .value(3, at: .seconds(240)), .value(4, at: .seconds(250)),
      .finished(at: .seconds(260)),
    ])
  }

  @Test("test_ReduceWithSeed_AccumulatorThrows")
  func reduceWithSeedAccumulatorThrows() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = Self.range(clock)
      let res = await clock.start {
        xs.reduce(42) { (a: Int, x: Int) throws -> Int in
          if x < 3 { return a + x } else { throw testError }
        }
      }
      let expected: [Recorded<Int, any Error>] = [.failed(testError, at: .seconds(240))]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(240))])
    }
  }

  @Test("test_ReduceWithSeedAndResult_AccumulatorThrows")
  func reduceWithSeedAndResultAccumulatorThrows() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = Self.range(clock)
      let res = await clock.start {
        xs.reduce(42) { (a: Int, x: Int) throws -> Int in
          if x < 3 { return a + x } else { throw testError }
        }.map { $0 * 5 }
      }
      let expected: [Recorded<Int, any Error>] = [.failed(testError, at: .seconds(240))]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(240))])
    }
  }

  @Test("test_ReduceWithSeedAndResult_SelectorThrows")
  func reduceWithSeedAndResultSelectorThrows() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = Self.range(clock)
      let res = await clock.start {
        xs.reduce(42, +).map { (_: Int) throws -> Int in throw testError }
      }
      let expected: [Recorded<Int, any Error>] = [.failed(testError, at: .seconds(260))]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(260))])
    }
  }

  @Test("a throwing accumulator that never throws: the result at the finish; an empty input gives the seed")
  func throwingAccumulatorThatSucceeds() async throws {
    let sum = Signal<Int, Never>([1, 2, 3]).reduce(10) { (a: Int, x: Int) throws -> Int in a + x }
    #expect(try await sum.collect() == [16])
    let empty = Signal<Int, Never>.empty.reduce(10) { (a: Int, x: Int) throws -> Int in a + x }
    #expect(try await empty.collect() == [10])
  }

  @Test("over a cold input, a throw fails the run and stops the upstream; each run starts from the seed")
  func throwingAccumulatorOverColdInput() async {
    let upstreamRuns = Log<String>()
    let source = Signal<Int, Never>([1, 2, 3, 4]).handleEvents(onStart: { upstreamRuns.append("start") })
    let result = source.reduce(0) { (a: Int, x: Int) throws -> Int in
      if x == 3 { throw testError }
      return a + x
    }
    for _ in 0..<2 {
      do {
        _ = try await result.collect()
        Issue.record("the throw should fail the run")
      } catch {
        #expect(error as? TestError == testError)
      }
    }
    #expect(upstreamRuns.all == ["start", "start"])
  }
}

@Suite("reduce picks its form by the closure")
struct ReduceOverloadTests {
  @Test("a closure that does not throw keeps the typed failure; one that throws fails with any Error")
  func formsByClosure() {
    let plain = Signal<Int, Never>([1]).reduce(0, +)
    let _: Signal<Int, Never> = plain
    let throwing = Signal<Int, Never>([1]).reduce(0) { (a: Int, x: Int) throws -> Int in a + x }
    let _: Signal<Int, any Error> = throwing
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let typed = subject.reduce(0) { $0 + $1 }
    let _: Signal<Int, TestError> = typed
  }
}
