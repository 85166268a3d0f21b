import AsyncReactive
import AsyncReactiveTesting
import Testing

// RxSwift's tests of `Observable.range`, `generate` and `repeatElement` (Observable+RangeTests.swift,
// Observable+GenerateTests.swift, Observable+RepeatTests.swift). RxSwift runs them on a test scheduler, one element
// per tick from 201, and disposes at a given tick; here a run sends its elements as its consumer asks, so each test
// checks RxSwift's values, order and end, and a disposal at tick N is a `prefix` of the elements before it.

private let testError = TestError(code: 0)

@Suite("Signal.range, generate and repeatElement (RxSwift's tests)", .timeLimit(.minutes(1)))
struct GenerateTests {
  @Test("testRange_Boundaries: start + count - 1 == Int.max does not overflow")
  func rangeBoundaries() async {
    #expect(await Signal<Int, Never>.range(start: .max, count: 1).collect() == [.max])
  }

  @Test("testRange_Dispose: the consumer stops after three elements")
  func rangeDispose() async {
    #expect(await Signal<Int, Never>.range(start: -10, count: 5).prefix(3).collect() == [-10, -9, -8])
    #expect(await Signal<Int, Never>.range(start: -10, count: 5).collect() == [-10, -9, -8, -7, -6])
  }

  @Test("testRange_ZeroCount: nothing, then the end")
  func rangeZeroCount() async {
    #expect(await Signal<Int, Never>.range(start: 0, count: 0).collect() == [])
    #expect(await Signal<UInt8, Never>.range(start: 250, count: 6).collect() == [250, 251, 252, 253, 254, 255])
  }

  @Test("testGenerate_Finite")
  func generateFinite() async {
    let finite = Signal<Int, Never>.generate(initial: 0, condition: { $0 <= 3 }, iterate: { $0 + 1 })
    #expect(await finite.collect() == [0, 1, 2, 3])
    #expect(await finite.collect() == [0, 1, 2, 3])  // each run anew
  }

  @Test("testGenerate_ThrowCondition: the failure, before any element")
  func generateThrowCondition() async {
    let failing = Signal<Int, TestError>.generate(
      initial: 0, condition: { (_: Int) throws(TestError) -> Bool in throw testError }, iterate: { $0 + 1 })
    let result = await failing.collectResult()
    #expect(result.values == [])
    #expect(result.failure == testError)
  }

  @Test("testGenerate_ThrowIterate: the first element, then the failure")
  func generateThrowIterate() async {
    let failing = Signal<Int, TestError>.generate(
      initial: 0, condition: { _ in true }, iterate: { (_: Int) throws(TestError) -> Int in throw testError })
    let result = await failing.collectResult()
    #expect(result.values == [0])
    #expect(result.failure == testError)
  }

  @Test("testGenerate_Dispose: an endless generate, stopped by its consumer")
  func generateDispose() async {
    let endless = Signal<Int, Never>.generate(initial: 0, condition: { _ in true }, iterate: { $0 + 1 })
    #expect(await endless.prefix(2).collect() == [0, 1])
  }

  @Test("testGenerate_take: iterate runs only between the elements the consumer takes")
  func generateTake() async {
    let count = Counter()
    let counted = Signal<Int, Never>.generate(
      initial: 0, condition: { _ in true },
      iterate: { x in
        count.increment()
        return x + 1
      })
    #expect(await counted.prefix(4).collect() == [0, 1, 2, 3])
    #expect(count.value == 3)
  }

  @Test("testRepeat_Element: six elements before the disposal; a count ends it by itself")
  func repeatElement() async {
    #expect(await Signal<Int, Never>.repeatElement(42).prefix(6).collect() == [42, 42, 42, 42, 42, 42])
    #expect(await Signal<Int, Never>.repeatElement(7, count: 3).collect() == [7, 7, 7])
    #expect(await Signal<Int, Never>.repeatElement(7, count: 0).collect() == [])
  }

  @Test("in a hot graph, an endless source is read by a pump that the consumer's leaving stops")
  func endlessInAHotGraph() async {
    let subject = AsyncCurrentValueSubject<Int, Never>(100)
    let combined = combineLatest(subject, Signal<Int, Never>.repeatElement(1)).map { $0 + $1 }
    #expect(await combined.prefix(3).collect() == [101, 101, 101])
    let zipped = zip(Signal<Int, Never>.range(start: 1, count: 3), Signal<Int, Never>.repeatElement(0, count: 3))
    #expect(await zipped.map { $0 + $1 }.collect() == [1, 2, 3])
  }
}
