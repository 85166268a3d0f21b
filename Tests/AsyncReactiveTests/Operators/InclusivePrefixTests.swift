import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("prefix(while:inclusive:): the run, and the value that ends it")
struct InclusivePrefixTests {
  @Test("inclusive passes the first failing value on and finishes without pulling another")
  func inclusive() async {
    let pulled = Counter()
    let upstream = Signal<Int, Never>([1, 2, 3, 4, 5]).handleEvents(onValue: { _ in _ = pulled.increment() })
    #expect(await upstream.prefix(while: { $0 < 3 }, inclusive: true).collect() == [1, 2, 3])
    #expect(pulled.value == 3)
  }

  @Test("exclusive is the standard library's prefix(while:); the unlabelled call is unchanged")
  func exclusiveAndStandardLibrary() async {
    let values = Signal<Int, Never>([1, 2, 3, 4])
    #expect(await values.prefix(while: { $0 < 3 }, inclusive: false).collect() == [1, 2])
    // The unlabelled form is still the standard library's sequence type.
    let standard: AsyncPrefixWhileSequence<Signal<Int, Never>> = values.prefix { $0 < 3 }
    #expect(await standard.collect() == [1, 2])
  }

  @Test("edge cases: the first value ends the run; nothing ends it; an empty upstream; after the end, nil")
  func edges() async {
    #expect(await Signal<Int, Never>([9, 1]).prefix(while: { $0 < 3 }, inclusive: true).collect() == [9])
    #expect(await Signal<Int, Never>([1, 2]).prefix(while: { $0 < 3 }, inclusive: true).collect() == [1, 2])
    #expect(await Signal<Int, Never>.empty.prefix(while: { $0 < 3 }, inclusive: true).collect() == [])
    var iterator = Signal<Int, Never>([5, 6]).prefix(while: { $0 < 3 }, inclusive: true).makeAsyncIterator()
    #expect(await iterator.next() == 5)
    #expect(await iterator.next() == nil)
    #expect(await iterator.next() == nil)
  }

  @Test("the upstream's failure passes through when it comes before the end of the run")
  func failure() async {
    let upstream = AsyncPassthroughSubject<Int, TestError>()
    let run = upstream.subscribe().prefix(while: { $0 < 3 }, inclusive: true)
    upstream.send(1)
    upstream.fail(TestError(code: 5))
    let result = await run.collectResult()
    #expect(result.values == [1])
    #expect(result.failure == TestError(code: 5))
  }

  @Test("hot: the ending value is delivered, then the node finishes inside the same send")
  func hot() {
    let progress = AsyncCurrentValueSubject<Double, Never>(0.5)
    let inclusive = Recorder(progress.prefix(while: { $0 < 1 }, inclusive: true), clock: TestClock())
    let exclusive = Recorder(progress.prefix(while: { $0 < 1 }, inclusive: false), clock: TestClock())
    progress.value = 0.9
    #expect(inclusive.end == nil)
    progress.value = 1
    #expect(inclusive.values.map(\.value) == [0.5, 0.9, 1])
    #expect(inclusive.end != nil)
    #expect(exclusive.values.map(\.value) == [0.5, 0.9])
    #expect(exclusive.end != nil)
    progress.value = 0.1  // the nodes ended: nothing more
    #expect(inclusive.values.count == 3)
    #expect(progress.consumerCount == 0)
  }
}
