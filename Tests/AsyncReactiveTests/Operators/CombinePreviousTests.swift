import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("combinePrevious: each value paired with the one before it")
struct CombinePreviousTests {
  @Test("without an initial value the first value only becomes the previous of the second")
  func pullWithoutInitial() async {
    let pairs = await Signal<Int, Never>([1, 2, 3, 5]).combinePrevious().collect()
    #expect(pairs.map { [$0.0, $0.1] } == [[1, 2], [2, 3], [3, 5]])
    #expect(await Signal<Int, Never>([1]).combinePrevious().collect().isEmpty)
    #expect(await Signal<Int, Never>.empty.combinePrevious().collect().isEmpty)
  }

  @Test("with an initial value the first value is paired with it")
  func pullWithInitial() async {
    let pairs = await Signal<Int, Never>([1, 2, 3]).combinePrevious(0).collect()
    #expect(pairs.map { [$0.0, $0.1] } == [[0, 1], [1, 2], [2, 3]])
    #expect(await Signal<Int, Never>.empty.combinePrevious(0).collect().isEmpty)
  }

  @Test("the upstream's failure passes through after the pairs before it")
  func pullFailure() async {
    let upstream = AsyncPassthroughSubject<Int, TestError>()
    let pairs = upstream.subscribe().combinePrevious()
    upstream.send(1)
    upstream.send(2)
    upstream.fail(TestError(code: 4))
    let result = await pairs.collectResult()
    #expect(result.values.map { [$0.0, $0.1] } == [[1, 2]])
    #expect(result.failure == TestError(code: 4))
  }

  @Test("each iteration starts afresh (retry and re-iteration see the same pairs)")
  func reiteration() async {
    let pairs = Signal<Int, Never>([1, 2, 3]).combinePrevious(0)
    #expect(await pairs.collect().map { [$0.0, $0.1] } == [[0, 1], [1, 2], [2, 3]])
    #expect(await pairs.collect().map { [$0.0, $0.1] } == [[0, 1], [1, 2], [2, 3]])
  }

  @Test("hot: over a current value, pairs come inside send, the first with the first change")
  func hotOverCurrentValue() {
    let position = AsyncCurrentValueSubject<Int, Never>(10)
    let moves = Recorder(position.combinePrevious(), clock: TestClock())
    let fromStart = Recorder(position.combinePrevious(0), clock: TestClock())
    #expect(moves.values.isEmpty)
    #expect(fromStart.values.map { [$0.value.0, $0.value.1] } == [[0, 10]])
    position.value = 12
    position.value = 11
    #expect(moves.values.map { [$0.value.0, $0.value.1] } == [[10, 12], [12, 11]])
    #expect(fromStart.values.map { [$0.value.0, $0.value.1] } == [[0, 10], [10, 12], [12, 11]])
  }

  @Test("hot: one previous value for the node's consumers; a reconnected node starts afresh; the end passes")
  func hotSharedAndReconnected() async {
    let taps = AsyncPassthroughSubject<Int, TestError>()
    let pairs = taps.combinePrevious()
    do {
      let lifetime = Lifetime()
      let seen = Log<[Int]>()
      pairs.sink(in: lifetime) { seen.append([$0.0, $0.1]) }
      taps.send(1)
      let second = pairs.subscribe()
      taps.send(2)
      taps.send(3)
      #expect(seen.all == [[1, 2], [2, 3]])
      lifetime.cancel()
      _ = second
    }
    // Disconnected: the next connection has no previous value yet.
    let again = pairs.subscribe()
    taps.send(7)
    taps.send(8)
    taps.fail(TestError(code: 1))
    let result = await again.collectResult()
    #expect(result.values.map { [$0.0, $0.1] } == [[7, 8]])
    #expect(result.failure == TestError(code: 1))
  }
}
