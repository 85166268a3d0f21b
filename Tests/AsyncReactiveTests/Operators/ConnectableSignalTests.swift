import AsyncReactive
import AsyncReactiveTesting
import Testing

/// publish, replay, multicast, connect and refCount beyond RxSwift's timelines (RxSwiftPortedMulticastTests): RxSwift's
/// synchronous refCount tests over cold sources, the connection handles, cancellation and concurrency.
@Suite("ConnectableSignal: publish, replay, multicast, connect, refCount", .timeLimit(.minutes(1)))
struct ConnectableSignalTests {
  @Test("consumers registered before connect() get a cold source's every value and end (RxSwift DeadlockSimple)")
  func connectRunsAColdSource() async {
    let shared = Signal<Int, Never>([0, 1, 2]).publish()
    var first = shared.makeAsyncIterator()  // registered now
    var second = shared.makeAsyncIterator()
    shared.connect()
    for expected in [0, 1, 2] {
      #expect(await first.next() == expected)
      #expect(await second.next() == expected)
    }
    #expect(await first.next() == nil)
    #expect(await second.next() == nil)
  }

  @Test("a failing cold source: values, then the failure (RxSwift DeadlockErrorAfterN, DeadlockErrorImmediately)")
  func connectFailure() async {
    let failing = concat(Signal<Int, TestError>([0, 1, 2]), Signal<Int, TestError>.fail(TestError(code: 1))).publish()
    let consumer = Task { [iterator = failing.makeAsyncIterator()] in
      var iterator = iterator
      var values: [Int] = []
      do throws(TestError) {
        while let value = try await iterator.next() { values.append(value) }
        return (values, TestError?.none)
      } catch { return (values, error) }
    }
    failing.connect()
    let (values, failure) = await consumer.value
    #expect(values == [0, 1, 2])
    #expect(failure == TestError(code: 1))

    let immediately = Signal<Int, TestError>.fail(TestError(code: 2)).publish()
    var iterator = immediately.makeAsyncIterator()
    immediately.connect()
    await #expect(throws: TestError(code: 2)) { _ = try await iterator.next() }

    let empty = Signal<Int, Never>.empty.publish()
    var emptyIterator = empty.makeAsyncIterator()
    empty.connect()
    #expect(await emptyIterator.next() == nil)
  }

  @Test("connect() while connected returns that connection; cancelling it from any handle ends it once")
  func connectionHandles() async {
    let source = AsyncPassthroughSubject<Int, Never>()
    let shared = source.publish()
    let first = shared.connect()
    let second = shared.connect()
    #expect(first === second)
    #expect(source.consumerCount == 1)
    second.cancel()
    #expect(first.isCancelled)
    #expect(source.consumerCount == 0)
    first.cancel()  // nothing
    let third = shared.connect()
    #expect(third !== first)
    #expect(source.consumerCount == 1)
    third.cancel()
    #expect(source.consumerCount == 0)
  }

  @Test("refCount connects once for many consumers and disconnects when the last leaves (RxSwift NotConnected)")
  func refCountCounts() async {
    // Run n opens started[n] when it starts and stopped[n] when it is cancelled.
    let started = [Gate(), Gate(), Gate()]
    let stopped = [Gate(), Gate(), Gate()]
    let runs = Locked(0)
    let source = Signal<Int, Never>.deferred {
      let run = runs.withLock { count in
        defer { count += 1 }
        return count
      }
      return Signal<Int, Never>.create { _ in
        started[run].open()
        return { stopped[run].open() }
      }
    }
    let counted = source.publish().refCount()
    var first: Signal<Int, Never>.Iterator? = counted.makeAsyncIterator()
    var second: Signal<Int, Never>.Iterator? = counted.makeAsyncIterator()
    _ = (first, second)
    await started[0].wait()
    first = nil
    second = nil
    await stopped[0].wait()  // the last consumer left: the connection ended
    #expect(runs.withLock { $0 } == 1)  // both consumers shared one run
    var third: Signal<Int, Never>.Iterator? = counted.makeAsyncIterator()
    _ = third
    await started[1].wait()  // a consumer after that connects anew
    third = nil
    await stopped[1].wait()
    #expect(runs.withLock { $0 } == 2)
  }

  @Test("publish().refCount() over a failing source: each consumer, one after the other, gets only the failure")
  func refCountError() async {
    let counted = Signal<Int, TestError>.fail(TestError(code: 3)).publish().refCount()
    for _ in 0..<2 {
      let result = await counted.collectResult()
      #expect(result.values == [])
      #expect(result.failure == TestError(code: 3))
    }
  }

  @Test("replay(1): a consumer that joins a running connection gets the latest value first")
  func replayLatest() async {
    let prices = AsyncPassthroughSubject<Int, Never>()
    let shared = prices.replay(1)
    let connection = shared.connect()
    prices.send(10)
    prices.send(11)
    var late = shared.makeAsyncIterator()
    prices.send(12)
    #expect(await late.next() == 11)
    #expect(await late.next() == 12)
    connection.cancel()
    #expect(prices.consumerCount == 0)
  }

  @Test("share(replay:scope: .forever) runs the source once and replays it, with its end, to later consumers")
  func shareForever() async {
    let runs = Locked(0)
    let user = Signal<Int, Never>.future {
      runs.withLock { $0 += 1 }
      return 7
    }.share(replay: 1, scope: .forever)
    #expect(await user.collect() == [7])
    #expect(await user.collect() == [7])
    #expect(runs.withLock { $0 } == 1)
    let whileConnected = Signal<Int, Never>.future {
      runs.withLock { $0 += 1 }
      return 8
    }.share(replay: 1)
    #expect(await whileConnected.collect() == [8])
    #expect(await whileConnected.collect() == [8])
    #expect(runs.withLock { $0 } == 3)  // a run per consumer that comes after the end
  }

  @Test("consumers that come and go from many tasks: one connection at a time, none left behind", arguments: 0..<20)
  func concurrentRefCount(round: Int) async {
    let source = AsyncPassthroughSubject<Int, Never>()
    let counted = source.publish().refCount()
    await withTaskGroup(of: Void.self) { group in
      for value in 0..<8 {
        group.addTask {
          var iterator = counted.makeAsyncIterator()
          source.send(value)
          _ = await iterator.next()  // some value: the consumer is connected
        }
      }
      // Every consumer gets a value only while connected: keep sending until all of them had one.
      let done = Locked(false)
      group.addTask {
        while !done.withLock({ $0 }) {
          source.send(-1)
          await Task.yield()
        }
      }
      for _ in 0..<8 { await group.next() }
      done.withLock { $0 = true }
    }
    // Every consumer got a value (none waited on a dropped subject), and at most one connection is left.
    #expect(source.consumerCount <= 1)
  }
}
