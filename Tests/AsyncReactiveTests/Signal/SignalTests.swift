import AsyncReactive
import AsyncReactiveTesting
import Dispatch
import Testing

@Suite("Signal")
struct SignalTests {
  @Test("every iteration runs the body anew")
  func coldRunsPerIteration() async {
    let runs = Counter()
    let signal = Signal<Int, Never> { emitter in
      let run = runs.increment()
      emitter.send(run * 10)
      emitter.send(run * 10 + 1)
    }
    #expect(runs.value == 0)  // nothing runs before iteration
    #expect(await signal.collect() == [10, 11])
    #expect(await signal.collect() == [20, 21])
    #expect(runs.value == 2)
  }

  @Test("a throwing body fails the iteration after the values it sent, with the typed error")
  func typedBodyFailure() async {
    let signal = Signal<Int, TestError> { (emitter) throws(TestError) in
      emitter.send(1)
      throw TestError(code: 5)
    }
    let result = await signal.collectResult()
    #expect(result.values == [1])
    #expect(result.failure == TestError(code: 5))
  }

  @Test("an untyped throwing body gives Signal<_, any Error> with no annotation")
  func untypedBodyFailure() async {
    let signal = Signal<Int, any Error> { emitter in
      emitter.send(1)
      throw TestError(code: 6)
    }
    let result = await signal.collectResult()
    #expect(result.values == [1])
    #expect(result.failure as? TestError == TestError(code: 6))
  }

  @Test("a Never-failure signal is iterated with plain for await")
  func neverFailureNeedsNoTry() async {
    let signal = Signal<String, Never> { emitter in emitter.send("a") }
    var received: [String] = []
    for await value in signal { received.append(value) }  // compiles only without `try`
    #expect(received == ["a"])
  }

  @Test("cancelling the consumer cancels the producer's run")
  func consumerCancellationCancelsProducer() async {
    let producerCancelled = Gate()
    let firstReceived = Gate()
    let signal = Signal<Int, Never> { emitter in
      await emitter.send(1)
      await waitForCancellation()
      producerCancelled.open()
    }
    let consumer = Task {
      var values: [Int] = []
      for await value in signal {
        values.append(value)
        firstReceived.open()
      }
      return values
    }
    await firstReceived.wait()
    consumer.cancel()
    await producerCancelled.wait()
    #expect(await consumer.value == [1])
  }

  @Test("breaking out of the loop cancels the producer's run")
  func breakCancelsProducer() async {
    let producerCancelled = Gate()
    let signal = Signal<Int, Never> { emitter in
      await emitter.send(1)
      await waitForCancellation()
      producerCancelled.open()
    }
    for await _ in signal { break }
    await producerCancelled.wait()
    #expect(producerCancelled.isOpen)
  }

  @Test("create bridges a callback API that sends from another thread")
  func createFromAnotherThread() async throws {
    let signal = Signal<Int, any Error>.create { emitter in
      DispatchQueue.global().async {
        for value in 1...3 { emitter.send(value) }
        emitter.finish()
      }
      return {}
    }
    #expect(try await signal.collect() == [1, 2, 3])
    #expect(try await signal.collect() == [1, 2, 3])
  }

  @Test("create's cancellation handler runs exactly once when the consumer is cancelled")
  func createHandlerOnCancel() async {
    let handlerRuns = Counter()
    let handlerRan = Gate()
    let started = Gate()
    let signal = Signal<Int, Never>.create { emitter in
      emitter.send(1)
      started.open()
      return {
        handlerRuns.increment()
        handlerRan.open()
      }
    }
    let consumer = Task { await signal.collect() }
    await started.wait()
    consumer.cancel()
    await handlerRan.wait()
    _ = await consumer.value
    #expect(handlerRuns.value == 1)
  }

  @Test("create's cancellation handler runs exactly once when the producer finishes, fails, or the loop breaks")
  func createHandlerOnTermination() async {
    let handlerRuns = Counter()
    let finishing = Signal<Int, Never>.create { emitter in
      emitter.send(1)
      emitter.finish()
      emitter.finish()
      return { handlerRuns.increment() }
    }
    #expect(await finishing.collect() == [1])
    #expect(handlerRuns.value == 1)

    let failing = Signal<Int, TestError>.create { emitter in
      emitter.fail(TestError(code: 1))
      emitter.send(2)
      return { handlerRuns.increment() }
    }
    let result = await failing.collectResult()
    #expect(result.values == [])
    #expect(result.failure == TestError(code: 1))
    #expect(handlerRuns.value == 2)

    let endless = Signal<Int, Never>.create { emitter in
      emitter.send(1)
      return { handlerRuns.increment() }
    }
    for await _ in endless { break }
    #expect(handlerRuns.value == 3)
  }

  @Test("emitter.isActive turns false when the consumer stops")
  func emitterIsActive() async {
    let emitterBox = Log<Signal<Int, Never>.Emitter>()
    let signal = Signal<Int, Never>.create { emitter in
      emitterBox.append(emitter)
      emitter.send(1)
      return {}
    }
    for await _ in signal { break }
    #expect(emitterBox.all.count == 1)
    #expect(emitterBox.all[0].isActive == false)
  }

  @Test("just, empty, fail and a sequence")
  func factories() async {
    #expect(await Signal<Int, Never>.just(42).collect() == [42])
    #expect(await Signal<Int, Never>.empty.collect() == [])
    #expect(await Signal<Int, Never>([1, 2, 3]).collect() == [1, 2, 3])
    let failed = await Signal<Int, TestError>.fail(TestError(code: 4)).collectResult()
    #expect(failed.values == [])
    #expect(failed.failure == TestError(code: 4))
  }

  @Test("never ends only when its consumer is cancelled")
  func never() async {
    let consumer = Task { await Signal<Int, Never>.never.collect() }
    consumer.cancel()
    #expect(await consumer.value == [])
  }

  @Test("future calls its operation once per iteration")
  func future() async throws {
    let calls = Counter()
    let signal = Signal.future { calls.increment() }
    #expect(await signal.collect() == [1])
    #expect(await signal.collect() == [2])
    let throwing = Signal<Int, any Error>.future { throw TestError(code: 8) }
    let result = await throwing.collectResult()
    #expect(result.failure as? TestError == TestError(code: 8))
    let typed = Signal<Int, TestError>.future { () throws(TestError) in 3 }
    #expect(try await typed.collect() == [3])
  }

  @Test("deferred makes an AsyncStream re-iterable; a plain erased stream is single-pass")
  func deferredStream() async {
    let builds = Counter()
    let signal = Signal.deferred {
      let build = builds.increment()
      return AsyncStream<Int> { continuation in
        continuation.yield(build)
        continuation.finish()
      }
    }
    #expect(await signal.collect() == [1])
    #expect(await signal.collect() == [2])

    let stream = AsyncStream<Int> { continuation in
      continuation.yield(1)
      continuation.finish()
    }
    let erased = Signal(stream)
    #expect(await erased.collect() == [1])
    #expect(await erased.collect() == [])
  }

  @Test("eraseToSignal keeps element and failure types; erasing a Signal returns it as it is")
  func erase() async {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let erased: Signal<Int, TestError> = subject.eraseToSignal()
    var iterator = erased.makeAsyncIterator()  // erasing a subject registers at makeAsyncIterator, as the subject does
    subject.send(1)
    subject.fail(TestError(code: 2))
    do throws(TestError) {
      #expect(try await iterator.next() == 1)
      _ = try await iterator.next()
      Issue.record("expected a failure")
    } catch {
      #expect(error == TestError(code: 2))
    }
    let signal = Signal<Int, Never>.just(1)
    #expect(await Signal(signal).collect() == [1])
  }

  @Test("a consumer cancelled before its first next() starts no run: the body and create's handler never run")
  func cancelledBeforeFirstNextStartsNothing() async {
    let ran = Counter()
    let handled = Counter()
    let consumer = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      var count = 0
      for await _ in Signal<Int, Never>({ emitter in
        ran.increment()
        emitter.send(1)
      }) { count += 1 }
      for await _ in Signal<Int, Never>.create({ emitter in
        ran.increment()
        emitter.send(1)
        return { handled.increment() }
      }) { count += 1 }
      return count
    }
    #expect(await consumer.value == 0)
    #expect(ran.value == 0)
    #expect(handled.value == 0)
  }
}
