import AsyncReactive
import AsyncReactiveTesting
import Testing

/// skip(until:) beyond RxSwift's timelines (RxSwiftPortedSkipUntilTests): subjects with a current value, cold
/// inputs, the trigger let go at its first element, the failure types.
@Suite("skip(until:)", .timeLimit(.minutes(1)))
struct SkipUntilTests {
  @Test("the screen idiom: taps before the trigger are dropped, those after pass; the trigger is let go at once")
  func screenIdiom() async {
    let taps = AsyncPassthroughSubject<Int, Never>()
    let appeared = AsyncPassthroughSubject<Void, Never>()
    var iterator = taps.skip(until: appeared).makeAsyncIterator()  // subscribes to both now
    #expect(taps.consumerCount == 1)
    #expect(appeared.consumerCount == 1)
    taps.send(1)
    appeared.send(())
    #expect(appeared.consumerCount == 0)  // RxSwift disposes the trigger at its first element
    taps.send(2)
    taps.send(3)
    taps.finish()
    #expect(await iterator.next() == 2)
    #expect(await iterator.next() == 3)
    #expect(await iterator.next() == nil)
  }

  @Test("this sequence is observed first: its current value is dropped even when the trigger has one")
  func currentValues() async {
    let text = AsyncCurrentValueSubject<String, Never>("a")
    let ready = AsyncCurrentValueSubject<Bool, Never>(true)
    var iterator = text.skip(until: ready).makeAsyncIterator()
    #expect(ready.consumerCount == 0)  // released during the subscription, by its current value
    text.send("b")
    #expect(await iterator.next() == "b")
    text.finish()
    #expect(await iterator.next() == nil)
  }

  @Test("a cold trigger is cancelled at its first element; the base goes on")
  func coldTriggerCancelled() async {
    let values = Feed<Int, Never>()
    let trigger = Feed<Void, Never>()
    let consumer = Task { await values.skip(until: trigger).collect() }
    await values.send(1)
    await trigger.send(())
    await trigger.cancelled.wait()
    await values.send(2)
    await values.finish()
    #expect(await consumer.value == [2])
  }

  @Test("a cold base that ends before the trigger: nothing, then the end (RxSwift's result would never end)")
  func coldBaseEndsFirst() async {
    let trigger = Feed<Void, Never>()
    #expect(await Signal<Int, Never>([1, 2, 3]).skip(until: trigger).collect() == [])
    await trigger.cancelled.wait()
  }

  @Test("an immediate trigger opens the gate at once: what the base sends after the subscription passes")
  func immediateTrigger() async {
    let values = Feed<Int, Never>()
    // `subscribe()` has connected when it returns: the base is read, the trigger has opened the gate.
    let subscription = values.skip(until: Signal<Void, Never>.just(())).subscribe()
    let consumer = Task { await subscription.collect() }
    await values.send(1)
    await values.finish()
    #expect(await consumer.value == [1])
  }

  @Test("the trigger's failure after its first element is not seen; before it, it fails the result")
  func triggerFailure() async throws {
    let values = AsyncPassthroughSubject<Int, TestError>()
    let trigger = AsyncPassthroughSubject<Void, TestError>()
    var iterator = values.skip(until: trigger).makeAsyncIterator()
    trigger.send(())
    trigger.fail(TestError(code: 1))  // let go already
    values.send(1)
    values.finish()
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == nil)

    let more = AsyncPassthroughSubject<Int, TestError>()
    let failing = AsyncPassthroughSubject<Void, TestError>()
    var second = more.skip(until: failing).makeAsyncIterator()
    failing.fail(TestError(code: 2))
    await #expect(throws: TestError(code: 2)) { try await second.next() }
    #expect(more.consumerCount == 0)
  }

  @Test("cancelling the consumer, or dropping the iterator, cancels both sequences")
  func cancellation() async {
    let values = WatchedInput<Int, Never>()
    let trigger = WatchedInput<Void, Never>()
    await expectCancellingTheConsumerCancelsBoth(values, trigger) {
      await values.signal.skip(until: trigger.signal).collect()
    }
  }

  @Test("the result's failure type; over two signals it can be retried")
  func failureTypes() async {
    let never = Signal<Int, Never>.just(1)
    let typed = Signal<Int, TestError>.just(1)
    let other = Signal<Int, OtherError>.just(1)
    #expect(type(of: never.skip(until: never)).Failure.self == Never.self)
    #expect(type(of: typed.skip(until: typed)).Failure.self == TestError.self)
    #expect(type(of: never.skip(until: typed)).Failure.self == (any Error).self)
    #expect(type(of: typed.skip(until: never)).Failure.self == TestError.self)
    #expect(type(of: typed.skip(until: other)).Failure.self == (any Error).self)
    _ = typed.skip(until: never).retry(1)
  }
}

private struct OtherError: Error {}
