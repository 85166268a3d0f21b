import AsyncReactive
import AsyncReactiveTesting
import Testing

/// A queue of inner sequences that end at once (ReactiveSwift's "should not overflow the stack if inner producers
/// complete immediately"): the next inner starts from a loop, not from inside the previous one's end.
@Suite("flatten: a queue of immediate inners does not recurse")
struct FlattenQueueDepthTests {
  @Test(
    "concatMap and flatMap(maxConcurrent: 1) over a subject: a waiting first inner, then queued just(1) inners",
    arguments: [10_000, 100_000], [true, false])
  func queuedImmediateInners(count: Int, concat: Bool) async {
    let outer = AsyncPassthroughSubject<Int, Never>()
    let first = AsyncPassthroughSubject<Int, Never>()
    let transform: @Sendable (Int) -> Signal<Int, Never> = { value in
      value == 0 ? Signal(first) : Signal.just(1)
    }
    let result = concat ? outer.concatMap(transform) : outer.flatMap(maxConcurrent: 1, transform)
    let received = Counter()
    let ended = Gate()
    let lifetime = Lifetime()
    result.sink(in: lifetime) { _ in
      received.increment()
    } onEnd: { _ in
      ended.open()
    }
    outer.send(0)
    for _ in 0..<count { outer.send(1) }
    outer.finish()
    #expect(received.value == 0)
    first.send(5)
    first.finish()  // the queued inners run now, each ending at once
    #expect(received.value == 1 + count)
    #expect(ended.isOpen)
  }

  @Test("inners that end inside their registration (a finished subject replaying its value) do not recurse either")
  func queuedEndedHotInners() async {
    let outer = AsyncPassthroughSubject<Int, Never>()
    let first = AsyncPassthroughSubject<Int, Never>()
    let ended = AsyncReplaySubject<Int, Never>(bufferSize: 1)
    ended.send(1)
    ended.finish()
    let received = Counter()
    let lifetime = Lifetime()
    outer.concatMap { value in value == 0 ? Signal(first) : Signal(ended) }.sink(in: lifetime) { _ in
      received.increment()
    }
    outer.send(0)
    for _ in 0..<100_000 { outer.send(1) }
    first.finish()
    #expect(received.value == 100_000)
  }

  @Test("the same over a cold outer read by a consumer", arguments: [10_000, 100_000])
  func coldOuter(count: Int) async {
    let result = Signal<Int, Never>(0..<count).concatMap { _ in Signal<Int, Never>.just(1) }
    var total = 0
    for await value in result { total += value }
    #expect(total == count)
  }
}
