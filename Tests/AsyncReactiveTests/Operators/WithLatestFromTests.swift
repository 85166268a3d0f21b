import AsyncReactive
import AsyncReactiveTesting
import Testing

/// withLatestFrom pumps each input in a task of its own, so the tests order the inputs by handshakes: every input
/// is wrapped in a ``Paced`` sequence, and once the operator's task asks an input for its element n+1, that
/// input's element n has been taken into account.
@Suite("withLatestFrom")
struct WithLatestFromTests {
  @Test("each value is combined with the latest of the other; values before the other's first one are dropped")
  func combinesWithLatest() async {
    let values = Paced(AsyncPassthroughSubject<Int, Never>())
    let latest = Paced(AsyncPassthroughSubject<String, Never>())
    let recorder = Recorder(values.withLatestFrom(latest) { value, latest in "\(value)\(latest)" }, clock: TestClock())
    values.base.send(1)  // the other has nothing yet: dropped
    await values.pulled(2)
    latest.base.send("a")
    await latest.pulled(2)
    values.base.send(2)
    await values.pulled(3)
    latest.base.send("b")
    await latest.pulled(3)
    latest.base.send("c")  // only the latest counts; the other's values emit nothing by themselves
    await latest.pulled(4)
    values.base.send(3)
    values.base.send(4)
    values.base.finish()
    #expect(await recorder.waitForEnd()?.value == .finished)
    #expect(recorder.values.map(\.value) == ["2a", "3c", "4c"])
  }

  @Test("the tuple form pairs each value with the latest of the other")
  func pairs() async {
    let values = Paced(AsyncPassthroughSubject<Int, Never>())
    let latest = Paced(AsyncCurrentValueSubject<String, Never>("a"))
    let recorder = Recorder(values.withLatestFrom(latest).map { "\($0.0)\($0.1)" }, clock: TestClock())
    await latest.pulled(2)  // the current value "a" was taken
    values.base.send(1)
    await values.pulled(2)
    latest.base.value = "b"
    await latest.pulled(3)
    values.base.send(2)
    values.base.finish()
    #expect(await recorder.waitForEnd()?.value == .finished)
    #expect(recorder.values.map(\.value) == ["1a", "2b"])
  }

  @Test("the other finishing does not end the result: its latest value keeps being used")
  func otherFinishingKeepsLatest() async {
    let values = Paced(AsyncPassthroughSubject<Int, Never>())
    let latest = Paced(Signal<String, Never>(["a"]))
    let recorder = Recorder(values.withLatestFrom(latest) { "\($0)\($1)" }, clock: TestClock())
    await latest.pulled(2)  // "a" taken; the other ends right after
    values.base.send(1)
    values.base.send(2)
    values.base.finish()
    #expect(await recorder.waitForEnd()?.value == .finished)
    #expect(recorder.values.map(\.value) == ["1a", "2a"])
  }

  @Test("an other that finishes without a value makes every value drop (as in RxSwift), until self finishes")
  func emptyOtherDropsEverything() async {
    let combined = Signal<Int, Never>([1, 2, 3]).withLatestFrom(Signal<String, Never>.empty)
    #expect(await combined.map { "\($0.0)\($0.1)" }.collect() == [])
  }

  @Test("the result finishes when self finishes, after its buffered values, and the other is cancelled")
  func finishesWithSelfAndCancelsOther() async {
    let cancelled = Gate()
    let values = Paced(AsyncPassthroughSubject<Int, Never>())
    let latest = Paced(
      Signal<String, Never>.create { emitter in
        emitter.send("a")
        return { cancelled.open() }
      })
    var iterator = values.withLatestFrom(latest) { "\($0)\($1)" }.makeAsyncIterator()
    let first = Task {
      await latest.pulled(2)
      values.base.send(1)
      values.base.finish()
    }
    #expect(await iterator.next() == "1a")
    #expect(await iterator.next() == nil)
    await cancelled.wait()
    await first.value
  }

  @Test("a failure of the other fails the result at once and cancels self")
  func otherFailure() async {
    let values = WatchedInput<Int, TestError>()
    let combined = values.signal.withLatestFrom(Signal<String, TestError>.fail(TestError(code: 2)))
    let result = await combined.map { "\($0.0)\($0.1)" }.collectResult()
    #expect(result.values == [])
    #expect(result.failure == TestError(code: 2))
    await values.cancelled.wait()
  }

  @Test("a failure of self fails the result after the values before it, and cancels the other")
  func selfFailure() async {
    let values = Paced(AsyncPassthroughSubject<Int, TestError>())
    let latest = WatchedInput<String, Never>()
    let latestValue = Paced(latest.signal.prepend("a"))
    let recorder = Recorder(values.withLatestFrom(latestValue) { "\($0)\($1)" }, clock: TestClock())
    await latestValue.pulled(2)
    values.base.send(1)
    values.base.fail(TestError(code: 3))
    #expect(await recorder.waitForEnd()?.value == .failed(TestError(code: 3)))
    #expect(recorder.values.map(\.value) == ["1a"])
    await latest.cancelled.wait()
  }

  @Test("cancelling the consumer cancels both inputs")
  func cancellationCancelsBoth() async {
    let values = WatchedInput<Int, Never>()
    let latest = WatchedInput<String, Never>()
    await expectCancellingTheConsumerCancelsBoth(values, latest) {
      await values.signal.withLatestFrom(latest.signal).map { "\($0.0)\($0.1)" }.collect()
    }
  }

  @Test("dropping the iterator (a break) cancels both inputs")
  func breakCancelsBoth() async {
    let latest = WatchedInput<String, Never>()
    let values = Paced(AsyncPassthroughSubject<Int, Never>())
    let other = Paced(latest.signal.prepend("a"))
    let sender = Task {
      await other.pulled(2)
      values.base.send(1)
    }
    for await value in values.withLatestFrom(other, { "\($0)\($1)" }) {
      #expect(value == "1a")
      break
    }
    await latest.cancelled.wait()
    await sender.value
  }

  @Test("the result's failure: shared (Never included), this side's when the other cannot fail; any Error otherwise")
  func failureTypes() async {
    let never = Signal<Int, Never>.just(1)
    let typed = Signal<Int, TestError>.just(1)
    let other = Signal<Int, OtherError>.just(1)
    #expect(hasFailure(never.withLatestFrom(never), Never.self))
    #expect(hasFailure(typed.withLatestFrom(typed), TestError.self))
    #expect(hasFailure(never.withLatestFrom(typed), (any Error).self))
    #expect(hasFailure(typed.withLatestFrom(never), TestError.self))
    #expect(hasFailure(typed.withLatestFrom(other), (any Error).self))
    #expect(hasFailure(never.withLatestFrom(never) { $0 + $1 }, Never.self))
    #expect(hasFailure(typed.withLatestFrom(typed) { $0 + $1 }, TestError.self))
    #expect(hasFailure(never.withLatestFrom(typed) { $0 + $1 }, (any Error).self))
    #expect(hasFailure(typed.withLatestFrom(never) { $0 + $1 }, TestError.self))
    #expect(hasFailure(typed.withLatestFrom(other) { $0 + $1 }, (any Error).self))
    // A non-failing result is iterated with plain `for await`; over two signals it can be retried.
    for await _ in never.withLatestFrom(Signal<Int, Never>.empty) {}
    _ = typed.withLatestFrom(never).retry(1)
  }
}

private struct OtherError: Error {}

private func hasFailure<S: AsyncSequence, Failure>(_ sequence: S, _ failure: Failure.Type) -> Bool {
  S.Failure.self == Failure.self
}
