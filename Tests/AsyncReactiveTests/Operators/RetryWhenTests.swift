import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("retry() and retry(when:)", .timeLimit(.minutes(1)))
struct RetryWhenTests {
  // MARK: retry()

  @Test("retry() retries as often as it takes; the values of every attempt stay delivered")
  func unboundedRetry() async {
    let attempts = Counter()
    let flaky = Signal<Int, TestError> { (emitter) throws(TestError) in
      let attempt = attempts.increment()
      emitter.send(attempt)
      if attempt <= 5 { throw TestError(code: attempt) }
    }
    let values = await flaky.retry().collectResult()
    #expect(values.values == [1, 2, 3, 4, 5, 6])
    #expect(values.failure == nil)
    #expect(attempts.value == 6)
  }

  @Test("retry() stops at the consumer's cancellation: the result ends as the cancelled attempt does")
  func unboundedRetryStopsWhenCancelled() async {
    let attempts = Counter()
    let looping = Gate()
    let alwaysFailing = Signal<Int, TestError> { (_) throws(TestError) in
      if attempts.increment() == 3 { looping.open() }
      throw TestError(code: 7)
    }
    let consumer = Task { await alwaysFailing.retry().collectResult() }
    await looping.wait()
    consumer.cancel()
    let result = await consumer.value
    #expect(result.values == [])
    // The cancellation lands either between attempts (the failure that was to be retried is thrown) or in an
    // attempt (a cancelled Signal finishes): both end the loop.
    #expect(result.failure == nil || result.failure == TestError(code: 7))
  }

  // MARK: retry(when:)

  @Test("the exact timeline: after each failure the trigger is iterated anew; its first element starts an attempt")
  func timeline() async {
    let clock = TestClock()
    let attempts = Counter()
    let log = Log<String>()
    let request = Signal<Int, TestError> { (emitter) throws(TestError) in
      let attempt = attempts.increment()
      log.append("attempt \(attempt)")
      emitter.send(attempt * 10)
      if attempt < 3 { throw TestError(code: attempt) }
    }
    let triggers = Triggers<TestError>(log: log)
    let recorder = Recorder(request.retry(when: triggers.signal), clock: clock)
    let first = await triggers.iteration(0)  // t=0: attempt 1 sent 10 and failed; the trigger runs
    await clock.advance(to: instant(100))
    await first.send(())  // attempt 2: 20, fails
    let second = await triggers.iteration(1)
    await triggers.cancelled(0).wait()  // the first trigger run was dropped after its element
    await clock.advance(to: instant(300))
    await second.send(())  // attempt 3 succeeds
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(300)))
    #expect(
      recorder.values == [Timed(10, at: .zero), Timed(20, at: .milliseconds(100)), Timed(30, at: .milliseconds(300))]
    )
    #expect(
      log.all == ["attempt 1", "trigger 0", "attempt 2", "trigger 1", "attempt 3"]
    )
    await triggers.cancelled(1).wait()
  }

  @Test("the trigger finishing while a failure waits finishes the result: the failure is dropped (RxSwift)")
  func triggerFinishes() async {
    let request = Signal<Int, TestError> { (emitter) throws(TestError) in
      emitter.send(1)
      throw TestError(code: 1)
    }
    let triggers = Triggers<TestError>(log: Log())
    let consumer = Task { await request.retry(when: triggers.signal).collectResult() }
    let first = await triggers.iteration(0)
    await first.send(())
    let second = await triggers.iteration(1)
    second.finish()
    let result = await consumer.value
    #expect(result.values == [1, 1])
    #expect(result.failure == nil)
  }

  @Test("the trigger failing while a failure waits fails the result with the trigger's failure (RxSwift)")
  func triggerFails() async {
    let request = Signal<Int, TestError>.fail(TestError(code: 1))
    let triggers = Triggers<TestError>(log: Log())
    let consumer = Task { await request.retry(when: triggers.signal).collectResult() }
    (await triggers.iteration(0)).fail(TestError(code: 99))
    let result = await consumer.value
    #expect(result.values == [])
    #expect(result.failure == TestError(code: 99))

    // A trigger with another failure type gives `any Error`.
    let otherTriggers = Triggers<OtherError>(log: Log())
    let typeErased = Task { await request.retry(when: otherTriggers.signal).collectResult() }
    (await otherTriggers.iteration(0)).fail(OtherError())
    #expect(await typeErased.value.failure is OtherError)
  }

  @Test("a trigger element before any failure is not used: the trigger is iterated only after a failure")
  func triggerUnusedWithoutFailure() async {
    let log = Log<String>()
    let triggers = Triggers<Never>(log: log)
    let values = await Signal<Int, TestError>([1, 2]).retry(when: triggers.signal).collectResult()
    #expect(values.values == [1, 2])
    #expect(values.failure == nil)
    #expect(log.all == [])
  }

  @Test("cancelling the consumer while it waits for the trigger cancels the trigger and throws the failure")
  func cancellationWhileWaiting() async {
    let request = Signal<Int, TestError>.fail(TestError(code: 5))
    let triggers = Triggers<Never>(log: Log())
    let consumer = Task { await request.retry(when: triggers.signal).collectResult() }
    _ = await triggers.iteration(0)
    consumer.cancel()
    await triggers.cancelled(0).wait()
    let result = await consumer.value
    #expect(result.failure == TestError(code: 5))
  }

  @Test("cancelling the consumer, or dropping the iterator, during an attempt cancels the attempt")
  func cancellationDuringAttempt() async throws {
    let attempt = WatchedInput<Int, TestError>()
    let triggers = Triggers<Never>(log: Log())
    let consumer = Task { await attempt.signal.retry(when: triggers.signal).collectResult() }
    await attempt.started.wait()
    consumer.cancel()
    await attempt.cancelled.wait()
    #expect(await consumer.value.failure == nil)

    let droppedCancelled = Gate()
    let sending = Signal<Int, TestError>.create { emitter in
      emitter.send(1)
      return { droppedCancelled.open() }
    }
    do {
      var iterator = sending.retry(when: triggers.signal).makeAsyncIterator()
      #expect(try await iterator.next() == 1)
    }
    await droppedCancelled.wait()
  }

  @Test("the result's failure type: the upstream's, unless the trigger fails with another type")
  func failureTypes() async {
    let never = Signal<Int, Never>.just(1)
    let typed = Signal<Int, TestError>.just(1)
    let other = Signal<Int, OtherError>.just(1)
    #expect(type(of: never.retry(when: never)).Failure.self == Never.self)
    #expect(type(of: typed.retry(when: never)).Failure.self == TestError.self)
    #expect(type(of: typed.retry(when: typed)).Failure.self == TestError.self)
    #expect(type(of: typed.retry(when: other)).Failure.self == (any Error).self)
    for await value in never.retry(when: never) { #expect(value == 1) }
    // Re-iterable: it can be retried again.
    #expect(await typed.retry(when: never).retry(1).collectResult().values == [1])
  }
}

private struct OtherError: Error {}

/// A trigger whose runs the test drives: each iteration is a `Signal.create` run whose emitter the test gets with
/// ``iteration(_:)``, in the order the runs started; ``cancelled(_:)`` opens when run `index` ends.
private final class Triggers<Failure: Error>: Sendable {
  typealias Emitter = Signal<Void, Failure>.Emitter

  private struct State {
    var emitters: [Emitter] = []
    var waiters: [Int: [CheckedContinuation<Emitter, Never>]] = [:]
  }

  private let state = Locked(State())
  private let ended = (0..<8).map { _ in Gate() }
  private let log: Log<String>

  init(log: Log<String>) {
    self.log = log
  }

  var signal: Signal<Void, Failure> {
    Signal.create { [self] emitter in
      let (index, waiters) = state.withLock { state in
        state.emitters.append(emitter)
        let index = state.emitters.count - 1
        return (index, state.waiters.removeValue(forKey: index) ?? [])
      }
      log.append("trigger \(index)")
      for waiter in waiters { waiter.resume(returning: emitter) }
      return { [ended] in ended[index].open() }
    }
  }

  /// The emitter of run `index`, once that run has started.
  func iteration(_ index: Int) async -> Emitter {
    await withCheckedContinuation { continuation in
      let emitter = state.withLock { state -> Emitter? in
        if index < state.emitters.count { return state.emitters[index] }
        state.waiters[index, default: []].append(continuation)
        return nil
      }
      if let emitter { continuation.resume(returning: emitter) }
    }
  }

  /// Opens when run `index` ended (the consumer dropped it, or it finished or failed).
  func cancelled(_ index: Int) -> Gate { ended[index] }
}
