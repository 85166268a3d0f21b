import AsyncReactive
import AsyncReactiveTesting
import Testing

/// take(until:) reads each input in a task of its own; the tests feed both through ``Feed``s, whose `send` returns
/// once the operator took the event, and stamp the output on a ``TestClock``.
@Suite("take(until:)", .timeLimit(.minutes(1)))
struct TakeUntilTests {
  @Test("the exact timeline: values pass until the trigger's first element; then the base is cancelled")
  func timeline() async {
    let clock = TestClock()
    let values = Feed<Int, Never>()
    let trigger = Feed<Void, Never>()
    let recorder = Recorder(values.take(until: trigger), clock: clock)
    await clock.advance(to: instant(100))
    await values.send(1)
    _ = await recorder.waitForValues(count: 1)
    await clock.advance(to: instant(200))
    await values.send(2)
    _ = await recorder.waitForValues(count: 2)
    await clock.advance(to: instant(300))
    await trigger.send(())
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(300)))
    #expect(recorder.values == [Timed(1, at: .milliseconds(100)), Timed(2, at: .milliseconds(200))])
    await values.cancelled.wait()
    await trigger.cancelled.wait()
  }

  @Test("the trigger finishing without an element changes nothing (RxSwift): the result ends with the base")
  func triggerFinishesWithoutElement() async {
    let clock = TestClock()
    let values = Feed<Int, Never>()
    let trigger = Feed<Void, Never>()
    let recorder = Recorder(values.take(until: trigger), clock: clock)
    await values.send(1)
    _ = await recorder.waitForValues(count: 1)
    await clock.advance(to: instant(100))
    await trigger.finish()
    await clock.advance(to: instant(200))
    await values.send(2)
    _ = await recorder.waitForValues(count: 2)
    await clock.advance(to: instant(300))
    await values.finish()
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(300)))
    #expect(recorder.values == [Timed(1, at: .zero), Timed(2, at: .milliseconds(200))])
  }

  @Test("the base finishing ends the result and cancels the trigger")
  func baseFinishes() async {
    let trigger = Feed<Void, Never>()
    #expect(await Signal<Int, Never>([1, 2, 3]).take(until: trigger).collect() == [1, 2, 3])
    await trigger.cancelled.wait()
  }

  @Test("a failure of the base fails the result after the values before it, and cancels the trigger")
  func baseFailure() async {
    let values = Feed<Int, TestError>()
    let trigger = Feed<Void, Never>()
    let consumer = Task { await values.take(until: trigger).collectResult() }
    await values.send(1)
    await values.fail(TestError(code: 3))
    let result = await consumer.value
    #expect(result.values == [1])
    #expect(result.failure == TestError(code: 3))
    await trigger.cancelled.wait()
  }

  @Test("a failure of the trigger fails the result (RxSwift) and cancels the base")
  func triggerFailure() async {
    let values = Feed<Int, TestError>()
    let trigger = Feed<Void, TestError>()
    let consumer = Task { await values.take(until: trigger).collectResult() }
    await values.send(1)
    await trigger.fail(TestError(code: 4))
    let result = await consumer.value
    #expect(result.values == [1])
    #expect(result.failure == TestError(code: 4))
    await values.cancelled.wait()
  }

  @Test("a trigger whose first element is immediate ends the result before anything; the base is cancelled")
  func immediateTrigger() async {
    let values = Feed<Int, Never>()
    #expect(await values.take(until: Signal<Void, Never>.just(())).collect() == [])
    await values.cancelled.wait()
  }

  @Test("cancelling the consumer, or dropping the iterator, cancels both sequences")
  func cancellation() async {
    let values = WatchedInput<Int, Never>()
    let trigger = WatchedInput<Void, Never>()
    await expectCancellingTheConsumerCancelsBoth(values, trigger) {
      await values.signal.take(until: trigger.signal).collect()
    }

    let fed = Feed<Int, Never>()
    let otherTrigger = Feed<Void, Never>()
    do {
      var iterator = fed.take(until: otherTrigger).makeAsyncIterator()
      let sender = Task { await fed.send(1) }
      #expect(await iterator.next() == 1)
      await sender.value
    }
    await fed.cancelled.wait()
    await otherTrigger.cancelled.wait()
  }

  @Test("the lifecycle idiom: a subject's values until a view-disappeared subject fires")
  func lifecycle() async {
    let positions = AsyncPassthroughSubject<Int, Never>()
    let disappeared = AsyncPassthroughSubject<Void, Never>()
    var iterator = positions.take(until: disappeared).makeAsyncIterator()  // subscribes to both now
    positions.send(1)
    #expect(await iterator.next() == 1)
    disappeared.send(())
    #expect(await iterator.next() == nil)
    positions.send(2)
    #expect(await iterator.next() == nil)
  }

  @Test("the result's failure type; over two signals it can be retried")
  func failureTypes() async {
    let never = Signal<Int, Never>.just(1)
    let typed = Signal<Int, TestError>.just(1)
    let other = Signal<Int, OtherError>.just(1)
    #expect(type(of: never.take(until: never)).Failure.self == Never.self)
    #expect(type(of: typed.take(until: typed)).Failure.self == TestError.self)
    #expect(type(of: never.take(until: typed)).Failure.self == (any Error).self)  // the other input fails: any Error
    #expect(type(of: typed.take(until: never)).Failure.self == TestError.self)
    #expect(type(of: typed.take(until: other)).Failure.self == (any Error).self)
    for await _ in never.take(until: Signal<Int, Never>.never) {}
    _ = typed.take(until: never).retry(1)
  }
}

private struct OtherError: Error {}
