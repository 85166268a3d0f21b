import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("buffer(count:)", .timeLimit(.minutes(1)))
struct BufferByCountTests {
  @Test("arrays of count values, in order; the last, shorter one on finish; never an empty array")
  func arrays() async {
    #expect(await Signal<Int, Never>(1...5).buffer(count: 2).collect() == [[1, 2], [3, 4], [5]])
    #expect(await Signal<Int, Never>(1...4).buffer(count: 2).collect() == [[1, 2], [3, 4]])
    #expect(await Signal<Int, Never>(1...3).buffer(count: 1).collect() == [[1], [2], [3]])
    #expect(await Signal<Int, Never>(1...3).buffer(count: 10).collect() == [[1, 2, 3]])
    #expect(await Signal<Int, Never>.empty.buffer(count: 2).collect() == [])
  }

  @Test("the exact timeline: an array comes out with the value that fills it; the rest with the finish")
  func timeline() async {
    let clock = TestClock()
    let values = Feed<String, Never>()
    let recorder = Recorder(values.buffer(count: 2), clock: clock)
    await values.send("a")
    await clock.advance(to: instant(100))
    await values.send("b")
    _ = await recorder.waitForValues(count: 1)
    await clock.advance(to: instant(200))
    await values.send("c")
    await clock.advance(to: instant(300))
    await values.finish()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(300)))
    #expect(recorder.values == [Timed(["a", "b"], at: .milliseconds(100)), Timed(["c"], at: .milliseconds(300))])
  }

  @Test("a failure is thrown at once after the full arrays; the values of an incomplete array are dropped")
  func failure() async {
    let values = Feed<Int, TestError>()
    let consumer = Task { await values.buffer(count: 2).collectResult() }
    for value in 1...3 { await values.send(value) }
    await values.fail(TestError(code: 1))
    let result = await consumer.value
    #expect(result.values == [[1, 2]])
    #expect(result.failure == TestError(code: 1))
  }

  @Test("cancelling the consumer, or dropping the iterator, cancels the upstream")
  func cancellation() async {
    let values = Feed<Int, Never>()
    let consumer = Task { await values.buffer(count: 2).collect() }
    await values.send(1)
    consumer.cancel()
    await values.cancelled.wait()
    #expect(await consumer.value == [])

    let other = Feed<Int, Never>()
    let sender = Task { await other.send(1) }  // returns once the iterator is dropped
    do {
      var iterator = other.buffer(count: 1).makeAsyncIterator()
      #expect(await iterator.next() == [1])
    }
    await sender.value
    await other.cancelled.wait()
  }

  @Test("a count below 1 traps with a clear message")
  func countBelowOneTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = Signal<Int, Never>.just(1).buffer(count: 0)
    }
  }

  @Test("over a signal it can be retried; the failure type is the upstream's")
  func retry() async {
    let attempts = Counter()
    let flaky = Signal<Int, TestError> { (emitter) throws(TestError) in
      emitter.send(1)
      if attempts.increment() == 1 { throw TestError(code: 1) }
      emitter.send(2)
    }
    let result = await flaky.buffer(count: 2).retry(1).collectResult()
    #expect(result.values == [[1, 2]])
    #expect(type(of: flaky.buffer(count: 2)).Failure.self == TestError.self)
  }
}
