import AsyncReactive
import AsyncReactiveTesting
import Testing

/// `Signal.just`, `.empty` and `.fail` inners are delivered in place by the outer pump from their stored outcome (no task, iterator or run per inner); these
/// tests pin down that this fast path keeps every strategy's contract.
@Suite("flatMap with immediate inners (just, empty, fail)")
struct FlatMapImmediateInnerTests {
  @Test(
    "merge: every value arrives, in outer order, also past the buffer limit",
    arguments: [.merge, .concat, .latest, FlattenStrategy.concurrent(limit: 2)])
  func manyOneValueInners(strategy: FlattenStrategy) async {
    let users = AsyncPassthroughSubject<Int, Never>()
    let wallets = users.flattened(strategy) { user in Signal<Int, Never>.just(user * 2) }
    var iterator = wallets.makeAsyncIterator()  // subscribes now
    for user in 0..<1_000 { users.send(user) }
    users.finish()
    var received: [Int] = []
    while let wallet = await iterator.next() { received.append(wallet) }
    #expect(received == (0..<1_000).map { $0 * 2 })
  }

  @Test("empty inners contribute nothing; the sequence still finishes")
  func emptyInners() async {
    let values = await Signal<Int, Never>([1, 2, 3, 4])
      .flatMap { value in value.isMultiple(of: 2) ? Signal<Int, Never>.just(value) : .empty }
      .collect()
    #expect(values == [2, 4])
  }

  @Test("a failing immediate inner fails the whole sequence once, after the values before it")
  func failingInner() async {
    let result = await Signal<Int, TestError>([1, 2, 3, 4])
      .flatMap { value in value == 3 ? Signal<Int, TestError>.fail(TestError(code: 3)) : .just(value * 10) }
      .collectResult()
    #expect(result.values == [10, 20])
    #expect(result.failure == TestError(code: 3))
  }

  @Test("immediate and asynchronous inners mix under merge")
  func mixedInners() async {
    let gate = Gate()
    let values = Signal<Int, Never>([1, 2, 3]).flatMap { value -> Signal<Int, Never> in
      guard value == 1 else { return .just(value) }
      return Signal.future {
        await gate.wait()
        return 100
      }
    }
    var iterator = values.makeAsyncIterator()
    // The first inner waits for the gate; the immediate ones behind it are not held up.
    #expect(await iterator.next() == 2)
    #expect(await iterator.next() == 3)
    gate.open()
    #expect(await iterator.next() == 100)
    #expect(await iterator.next() == nil)
  }

  @Test("cancelling the consumer stops the outer pump that runs immediate inners in place")
  func cancellation() async {
    let users = AsyncPassthroughSubject<Int, Never>()
    let first = Gate()
    let consumer = Task {
      var count = 0
      for await _ in users.flatMap({ user in Signal<Int, Never>.just(user) }) {
        count += 1
        if count == 1 { first.open() }
      }
      return count
    }
    for _ in 0..<100_000 where users.consumerCount == 0 { await Task.yield() }
    users.send(1)
    await first.wait()
    consumer.cancel()
    #expect(await consumer.value >= 1)
    // The outer pump unsubscribes when its task sees the cancellation: give it a bounded number of turns,
    // so that a leak fails the test instead of hanging it.
    for _ in 0..<100_000 where users.consumerCount != 0 { await Task.yield() }
    #expect(users.consumerCount == 0)
  }
}
