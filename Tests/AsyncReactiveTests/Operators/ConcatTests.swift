import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("concat", .timeLimit(.minutes(1)))
struct ConcatTests {
  @Test("the elements of each sequence, one sequence after another; the array form; no sequence at all")
  func order() async throws {
    #expect(await concat(Signal<Int, Never>([1, 2]), Signal([3]), .empty, Signal([4])).collect() == [1, 2, 3, 4])
    #expect(await concat([Signal<Int, Never>([1]), Signal([2, 3])]).collect() == [1, 2, 3])
    #expect(await concat([Signal<Int, Never>]()).collect() == [])
    // Any AsyncSequence of one type: streams too.
    #expect(await concat(finiteStream(1, 2), finiteStream(3)).collect() == [1, 2, 3])
  }

  @Test("the next sequence starts only when the previous one finished; a hot one counts what it sends from then on")
  func nextStartsAfterPrevious() async {
    let first = AsyncPassthroughSubject<Int, Never>()
    let second = AsyncPassthroughSubject<Int, Never>()
    let secondStarted = Gate()
    let sequence = concat(
      first.subscribe().eraseToSignal(),  // registered now: nothing sent from here on is missed
      Signal.deferred {
        let subscription = second.subscribe()
        secondStarted.open()
        return subscription
      })
    let consumer = Task { await sequence.collect() }
    first.send(1)
    second.send(99)  // the second sequence is not iterated yet
    #expect(!secondStarted.isOpen)
    first.send(2)
    first.finish()
    await secondStarted.wait()
    second.send(3)
    second.finish()
    #expect(await consumer.value == [1, 2, 3])
  }

  @Test("a failure of the first sequence fails the result at once; the later ones never start")
  func firstFails() async {
    let laterStarted = Gate()
    let later = Signal<Int, TestError>.deferred {
      laterStarted.open()
      return Signal<Int, TestError>.just(9)
    }
    let result = await concat(Signal<Int, TestError>([0, 1]), .fail(TestError(code: 1)), later)
      .collectResult()
    #expect(result.values == [0, 1])
    #expect(result.failure == TestError(code: 1))
    #expect(!laterStarted.isOpen)
  }

  @Test("a failure of a later sequence fails the result after the earlier elements")
  func laterFails() async {
    let result = await concat([Signal<Int, TestError>([1, 2]), .fail(TestError(code: 2)), .just(3)])
      .collectResult()
    #expect(result.values == [1, 2])
    #expect(result.failure == TestError(code: 2))
  }

  @Test("cancelling the consumer cancels the running sequence; the later ones never start")
  func cancellation() async {
    let running = Feed<Int, Never>()
    let laterStarted = Gate()
    let later = Signal<Int, Never>.deferred {
      laterStarted.open()
      return Signal<Int, Never>.just(9)
    }
    let consumer = Task { await concat(Signal<Int, Never>([1]), running.eraseToSignal(), later).collect() }
    await running.send(2)
    consumer.cancel()
    await running.cancelled.wait()
    #expect(await consumer.value == [1, 2])
    #expect(!laterStarted.isOpen)
  }

  @Test("dropping the iterator cancels the running sequence")
  func droppedIterator() async {
    let running = Feed<Int, Never>()
    let sender = Task { await running.send(2) }
    do {
      var iterator = concat(Signal<Int, Never>([1]), running.eraseToSignal()).makeAsyncIterator()
      #expect(await iterator.next() == 1)
      #expect(await iterator.next() == 2)
    }
    await sender.value
    await running.cancelled.wait()
  }

  @Test("concat of signals is re-iterable: a retry runs every sequence again")
  func retry() async {
    let attempts = Counter()
    let flaky = Signal<Int, TestError> { (emitter) throws(TestError) in
      if attempts.increment() == 1 { throw TestError(code: 1) }
      emitter.send(2)
    }
    let result = await concat(Signal<Int, TestError>([1]), flaky).retry(1).collectResult()
    #expect(result.values == [1, 1, 2])
    #expect(result.failure == nil)
  }
}
