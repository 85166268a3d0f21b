import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("AsyncPassthroughSubject")
struct PassthroughSubjectTests {
  @Test("a consumer gets every value sent after it subscribed, then the end")
  func deliversInOrder() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    subject.send(0)  // nobody listens yet: not delivered to later consumers
    let values = subject.subscribe()
    for value in 1...5 { subject.send(value) }
    subject.finish()
    #expect(await values.collect() == [1, 2, 3, 4, 5])
  }

  @Test("a send with nobody registered is skipped, and consumers that come and go keep the count right")
  func sendsWithoutConsumers() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    for round in 0..<100 {
      subject.send(-1)  // nobody listens: dropped without taking the lock
      let early = subject.subscribe()
      let late = subject.subscribe()
      subject.send(round)
      var iterator = early.makeAsyncIterator()
      #expect(await iterator.next() == round)
      _ = consume iterator  // removes `early`
      #expect(subject.consumerCount == 1)
      subject.send(round + 1_000)
      var lateIterator = late.makeAsyncIterator()
      #expect(await lateIterator.next() == round)
      #expect(await lateIterator.next() == round + 1_000)
      _ = consume lateIterator
      #expect(subject.consumerCount == 0)
    }
  }

  @Test("two consumers see identical sequences")
  func twoConsumersSeeTheSame() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let first = subject.subscribe()
    let second = subject.subscribe()
    let producer = Task {
      for value in 0..<1_000 { subject.send(value) }
      subject.finish()
    }
    async let a = first.collect()
    async let b = second.collect()
    let (firstValues, secondValues) = await (a, b)
    await producer.value
    #expect(firstValues == Array(0..<1_000))
    #expect(secondValues == firstValues)
  }

  @Test("4 concurrent senders × 20,000 values × 3 consumers: nothing lost, per-sender order kept, same order")
  func concurrentSenders() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let consumers = (0..<3).map { _ in subject.subscribe() }
    let perSender = 20_000
    let results = await withTaskGroup(of: [Int].self) { group in
      for consumer in consumers { group.addTask { await consumer.collect() } }
      await withTaskGroup(of: Void.self) { senders in
        for sender in 0..<4 {
          senders.addTask {
            for index in 0..<perSender { subject.send(sender * 1_000_000 + index) }
          }
        }
      }
      subject.finish()
      var all: [[Int]] = []
      for await values in group { all.append(values) }
      return all
    }
    #expect(results.count == 3)
    for values in results {
      #expect(values.count == 4 * perSender)
      for sender in 0..<4 {
        let own = values.filter { $0 / 1_000_000 == sender }.map { $0 % 1_000_000 }
        #expect(own == Array(0..<perSender))
      }
      #expect(values == results[0])
    }
  }

  @Test("finish reaches current and late consumers; later sends are ignored")
  func finishReachesLateConsumers() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let early = subject.subscribe()
    subject.send(1)
    subject.finish()
    subject.send(2)
    #expect(await early.collect() == [1])
    #expect(await subject.collect() == [])
  }

  @Test("fail reaches current and late consumers after their buffered values, with the typed error")
  func failReachesLateConsumers() async {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let early = subject.subscribe()
    subject.send(1)
    subject.fail(TestError(code: 7))
    subject.send(2)
    subject.finish()
    let (values, failure) = await early.collectResult()
    #expect(values == [1])
    #expect(failure == TestError(code: 7))
    let late = await subject.collectResult()
    #expect(late.values == [])
    #expect(late.failure == TestError(code: 7))
  }

  @Test("typed failure: the thrown error is the subject's Failure type, no cast needed")
  func typedFailure() async {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    subject.fail(TestError(code: 3))
    do throws(TestError) {
      for try await _ in subject {}
      Issue.record("expected a failure")
    } catch {
      #expect(error.code == 3)  // `error` is statically a TestError
    }
  }

  @Test("a Never-failure subject is iterated with plain for await")
  func neverFailureNeedsNoTry() async {
    let subject = AsyncPassthroughSubject<String, Never>()
    let values = subject.subscribe()
    subject.send("a")
    subject.finish()
    var received: [String] = []
    for await value in values { received.append(value) }  // compiles only without `try`
    #expect(received == ["a"])
  }

  /// Also the case of a fresh consumer whose first look is its park (`ConsumerCursor.refill`): the park finds the
  /// values sent before it and does not suspend.
  @Test("values sent between subscribe() and the loop start are kept")
  func subscribeRegistersAtOnce() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let values = subject.subscribe()
    #expect(subject.consumerCount == 1)
    subject.send(1)
    subject.send(2)
    subject.finish()
    #expect(await values.collect() == [1, 2])
  }

  @Test("a cancelled consumer is removed at once")
  func cancelledConsumerIsRemoved() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let values = subject.subscribe()
    let received = Gate()
    let consumer = Task {
      var count = 0
      for await _ in values {
        count += 1
        received.open()
      }
      return count
    }
    subject.send(1)
    await received.wait()
    #expect(subject.consumerCount == 1)
    consumer.cancel()
    #expect(subject.consumerCount == 0)
    #expect(await consumer.value == 1)
    subject.send(2)  // no consumer left: nothing is buffered anywhere
    #expect(subject.consumerCount == 0)
  }

  @Test("breaking out of the loop removes the consumer")
  func breakRemovesConsumer() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let values = subject.subscribe()
    subject.send(1)
    subject.send(2)
    for await value in values where value == 1 { break }
    #expect(subject.consumerCount == 0)
  }

  @Test("a subscription dropped without being iterated is removed")
  func droppedSubscriptionIsRemoved() {
    let subject = AsyncPassthroughSubject<Int, Never>()
    do {
      let subscription = subject.subscribe()
      #expect(subject.consumerCount == 1)
      _ = subscription
    }
    #expect(subject.consumerCount == 0)
  }

  @Test("a consumer that finished is removed")
  func finishedConsumerIsRemoved() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let values = subject.subscribe()
    subject.finish()
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next() == nil)
    #expect(subject.consumerCount == 0)
    #expect(await iterator.next() == nil)
  }

  @Test("bufferingNewest keeps the latest values, bufferingOldest the first ones")
  func boundedBuffers() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let newest = subject.subscribe(bufferingPolicy: .bufferingNewest(2))
    let oldest = subject.subscribe(bufferingPolicy: .bufferingOldest(2))
    let all = subject.subscribe()
    for value in 1...100 { subject.send(value) }
    subject.finish()
    #expect(await newest.collect() == [99, 100])
    #expect(await oldest.collect() == [1, 2])
    #expect(await all.collect() == Array(1...100))
  }

  @Test("a consumer parked in next() is woken by send, finish and fail")
  func parkedConsumerIsWoken() async {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let values = subject.subscribe()
    let consumer = Task { await values.collectResult() }
    for value in 1...3 { subject.send(value) }
    subject.fail(TestError(code: 1))
    let result = await consumer.value
    #expect(result.values == [1, 2, 3])
    #expect(result.failure == TestError(code: 1))
  }

  @Test("Void subjects have send()")
  func voidSend() async {
    let taps = AsyncPassthroughSubject<Void, Never>()
    let values = taps.subscribe()
    taps.send()
    taps.send()
    taps.finish()
    #expect(await values.collect().count == 2)
  }

  @Test("a bounded buffer smaller than 1 traps with a message")
  func boundedBufferPrecondition() async {
    await #expect(processExitsWith: .failure) {
      _ = BufferingPolicy.bufferingNewest(0)
    }
    await #expect(processExitsWith: .failure) {
      _ = BufferingPolicy.bufferingOldest(-1)
    }
  }

  @Test("iterating one subscription twice traps")
  func subscriptionIsSinglePass() async {
    await #expect(processExitsWith: .failure) {
      let subscription = AsyncPassthroughSubject<Int, Never>().subscribe()
      _ = subscription.makeAsyncIterator()
      _ = subscription.makeAsyncIterator()
    }
  }
}
