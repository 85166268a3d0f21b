import AsyncReactive
import AsyncReactiveTesting
import Testing

/// A second failure type, for the operators that change it.
private struct OtherError: Error, Equatable {
  var code = 0
}

/// What a recorder of a hot source recorded, without the time stamps.
private func recorded<Element, Failure>(_ recorder: Recorder<Element, Failure>) -> [Element] {
  recorder.values.map(\.value)
}

@Suite("Push core: more hot operators, evaluated inside send")
struct PushCoreMoreOperatorTests {
  // MARK: Every new operator

  @Test("the last consumer leaving stops the observation of the subject", arguments: HotOperatorCase.all)
  func lastConsumerDisconnects(_ kind: HotOperatorCase) {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let node = kind.build(subject)
    let lifetime = Lifetime()
    node.sink(in: lifetime) { _ in }
    var consumer: SubjectSubscription<Int, Never>? = node.subscribe()
    subject.send(1)
    #expect(subject.consumerCount > 0)
    lifetime.cancel()
    #expect(subject.consumerCount > 0)  // the subscription is still there
    consumer = nil
    _ = consumer
    #expect(subject.consumerCount == 0)
  }

  // MARK: prepend

  @Test("prepend: each consumer gets the values when it subscribes, then the live values")
  func prependGivesEachConsumerItsValues() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let started = subject.prepend(0, 1)
    let clock = TestClock()
    let first = Recorder(started, clock: clock)
    #expect(recorded(first) == [0, 1])  // at the subscription, no await
    subject.send(2)
    #expect(recorded(first) == [0, 1, 2])
    let second = Recorder(started, clock: clock)
    #expect(recorded(second) == [0, 1])
    let third = started.subscribe()
    #expect(subject.consumerCount == 1)  // one observation for all three
    subject.send(3)
    #expect(recorded(first) == [0, 1, 2, 3])
    #expect(recorded(second) == [0, 1, 3])
    subject.finish()
    #expect(first.end?.value == .finished)
    #expect(await third.collect() == [0, 1, 3])
    // After the end: the values, then the end.
    #expect(await started.subscribe().collect() == [0, 1])
  }

  @Test("prepend over a current value: the values, then the current value, for every consumer")
  func prependOverACurrentValue() async {
    let property = AsyncCurrentValueSubject<Int, Never>(5)
    let started = property.prepend(contentsOf: [0])
    let clock = TestClock()
    let first = Recorder(started, clock: clock)
    #expect(recorded(first) == [0, 5])
    property.send(6)
    let second = Recorder(started, clock: clock)
    #expect(recorded(second) == [0, 6])
    #expect(property.consumerCount == 1)
    first.cancel()
    second.cancel()
    #expect(property.consumerCount == 0)
  }

  @Test("prepend: a failure comes after the values; an operator after prepend receives them when it connects")
  func prependFailureAndDownstream() async {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let started = subject.prepend(0)
    let tenfold = started.map { $0 * 10 }
    let clock = TestClock()
    let first = Recorder(tenfold, clock: clock)
    #expect(recorded(first) == [0])
    // The map is one consumer of the prepend: its later consumers see what it produces from then on.
    let second = Recorder(tenfold, clock: clock)
    #expect(recorded(second) == [])
    subject.send(1)
    subject.fail(TestError(code: 4))
    #expect(recorded(first) == [0, 10])
    #expect(recorded(second) == [10])
    #expect(second.end?.value == .failed(TestError(code: 4)))
    let late = await started.subscribe().collectResult()
    #expect(late.values == [0])
    #expect(late.failure == TestError(code: 4))
  }

  // MARK: mapError, replaceError, catch

  @Test("mapError: values pass inside send; the failure is transformed once for every consumer")
  func mapErrorTransformsOnce() async {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let calls = Counter()
    let mapped = subject.mapError { error -> OtherError in
      calls.increment()
      return OtherError(code: error.code + 1)
    }
    let clock = TestClock()
    let first = Recorder(mapped, clock: clock)
    let second = mapped.subscribe()
    #expect(subject.consumerCount == 1)
    subject.send(1)
    #expect(recorded(first) == [1])
    subject.fail(TestError(code: 1))
    #expect(first.end?.value == .failed(OtherError(code: 2)))
    let result = await second.collectResult()
    #expect(result.values == [1])
    #expect(result.failure == OtherError(code: 2))
    #expect(calls.value == 1)
  }

  @Test("replaceError: the failure becomes one last value and the end, inside the failing send")
  func replaceErrorEndsWithTheValue() async {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let replaced = subject.replaceError(with: -1)
    let clock = TestClock()
    let first = Recorder(replaced, clock: clock)
    let second = replaced.subscribe()
    subject.send(1)
    subject.fail(TestError())
    #expect(recorded(first) == [1, -1])
    #expect(first.end?.value == .finished)
    #expect(await second.collect() == [1, -1])
    #expect(await replaced.subscribe().collect() == [])  // late: the end only (nothing current to give)
    #expect(subject.consumerCount == 0)
  }

  @Test("replaceError: a finishing upstream finishes without the value")
  func replaceErrorOnFinish() {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let recorder = Recorder(subject.replaceError(with: -1), clock: TestClock())
    subject.send(1)
    subject.finish()
    #expect(recorded(recorder) == [1])
    #expect(recorder.end?.value == .finished)
  }

  @Test("catch with an immediate fallback: delivered in place; the handler runs once for every consumer")
  func catchImmediateFallback() async {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let calls = Counter()
    let caught = subject.catch { error in
      calls.increment()
      return Signal<Int, Never>.just(error.code)
    }
    let clock = TestClock()
    let first = Recorder(caught, clock: clock)
    let second = caught.subscribe()
    subject.send(1)
    #expect(recorded(first) == [1])
    subject.fail(TestError(code: 9))
    #expect(recorded(first) == [1, 9])  // before `fail` returned
    #expect(first.end?.value == .finished)
    #expect(await second.collect() == [1, 9])
    #expect(calls.value == 1)
    #expect(subject.consumerCount == 0)
  }

  @Test("catch: an upstream that finishes never calls the handler")
  func catchOnFinish() {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let calls = Counter()
    let recorder = Recorder(
      subject.catch { _ in
        calls.increment()
        return Signal<Int, Never>.just(0)
      }, clock: TestClock())
    subject.send(1)
    subject.finish()
    #expect(recorded(recorder) == [1])
    #expect(recorder.end?.value == .finished)
    #expect(calls.value == 0)
  }

  @Test("catch with a hot fallback: observed synchronously until it ends, and no longer once the consumers leave")
  func catchHotFallback() {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let backup = AsyncPassthroughSubject<Int, OtherError>()
    let caught = subject.catch { _ in backup }
    let clock = TestClock()
    let recorder = Recorder(caught, clock: clock)
    subject.fail(TestError())
    #expect(backup.consumerCount == 1)
    backup.send(5)
    #expect(recorded(recorder) == [5])
    backup.fail(OtherError(code: 3))
    #expect(recorder.end?.value == .failed(OtherError(code: 3)))
    #expect(backup.consumerCount == 0)
  }

  @Test("catch with a hot fallback: the last consumer leaving stops observing it")
  func catchHotFallbackDisconnects() {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let backup = AsyncCurrentValueSubject<Int, Never>(7)
    let recorder = Recorder(subject.catch { _ in backup }, clock: TestClock())
    subject.fail(TestError())
    #expect(recorded(recorder) == [7])  // its current value, in place
    #expect(backup.consumerCount == 1)
    recorder.cancel()
    #expect(backup.consumerCount == 0)
    #expect(subject.consumerCount == 0)
  }

  @Test("catch with a cold fallback: one task, whose values follow; it finishes the result")
  func catchColdFallback() async {
    await expectNoLeaks {
      let subject = AsyncPassthroughSubject<Int, TestError>()
      let caught = subject.catch { _ in Signal<Int, Never>([7, 8]) }
      let consumer = caught.subscribe()
      subject.send(1)
      subject.fail(TestError())
      #expect(await consumer.collect() == [1, 7, 8])
    }
  }

  @Test("catch with a cold fallback: the last consumer leaving cancels its task (200 rounds)")
  func catchColdFallbackCancelled() async {
    for _ in 0..<200 {
      await expectNoLeaks {
        let subject = AsyncPassthroughSubject<Int, TestError>()
        let received = Gate()
        let cancelled = Gate()
        let fallback = Signal<Int, Never> { emitter in
          await emitter.send(100)
          await waitForCancellation()
          cancelled.open()
        }
        let lifetime = Lifetime()
        let log = Log<Int>()
        subject.catch { _ in fallback }.sink(in: lifetime) { value in
          log.append(value)
          if value == 100 { received.open() }
        }
        subject.send(1)
        subject.fail(TestError())
        await received.wait()
        #expect(log.all == [1, 100])
        lifetime.cancel()
        await cancelled.wait()
        #expect(subject.consumerCount == 0)
      }
    }
  }

  @Test("catch: the last consumer leaving while the upstream fails leaves no fallback running (200 rounds)")
  func catchFailureRacingDisconnection() async {
    for _ in 0..<200 {
      await expectNoLeaks {
        let subject = AsyncPassthroughSubject<Int, TestError>()
        let fallback = Signal<Int, Never> { _ in await waitForCancellation() }
        let lifetime = Lifetime()
        subject.catch { _ in fallback }.sink(in: lifetime) { _ in }
        await withTaskGroup(of: Void.self) { group in
          group.addTask { subject.fail(TestError()) }
          group.addTask { lifetime.cancel() }
        }
        #expect(subject.consumerCount == 0)
      }
    }
  }

  // MARK: debug

  @Test("debug: one line per event of the node, however many consumers, timed from its subscription")
  func debugLogsOncePerEvent() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let clock = TestClock()
    let lines = Log<String>()
    let logged = subject.debug("query", clock: clock, sink: DebugSink { lines.append($0) })
    let lifetime = Lifetime()
    logged.sink(in: lifetime) { _ in }
    logged.sink(in: lifetime) { _ in }
    var consumer: SubjectSubscription<Int, Never>? = logged.subscribe()
    #expect(lines.all == ["[query] +0ms start"])
    subject.send(1)
    await clock.advance(by: .milliseconds(300))
    subject.send(2)
    #expect(lines.all == ["[query] +0ms start", "[query] +0ms value: 1", "[query] +300ms value: 2"])
    lifetime.cancel()
    #expect(lines.all.count == 3)  // a consumer is left
    consumer = nil
    _ = consumer
    #expect(lines.all.last == "[query] +300ms cancel")
    #expect(subject.consumerCount == 0)
    // A new round, timed afresh.
    let again = logged.subscribe()
    await clock.advance(by: .milliseconds(50))
    subject.finish()
    #expect(await again.collect() == [])
    #expect(lines.all.suffix(2) == ["[query] +0ms start", "[query] +50ms finish"])
  }

  @Test("debug: a failure is reported once, then no cancel")
  func debugReportsFailure() {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let lines = Log<String>()
    let recorder = Recorder(
      subject.debug("load", clock: TestClock(), sink: DebugSink { lines.append($0) }), clock: TestClock())
    subject.fail(TestError(code: 2))
    recorder.cancel()
    #expect(lines.all == ["[load] +0ms start", "[load] +0ms failure: TestError(code: 2)"])
  }

  // MARK: buffer(count:)

  @Test("buffer(count:): arrays inside send, one collection for all consumers, the rest at the end")
  func bufferCollectsOncePerNode() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let batches = subject.buffer(count: 2)
    let clock = TestClock()
    let first = Recorder(batches, clock: clock)
    subject.send(1)
    #expect(recorded(first) == [])
    // Joins in the middle of an array: the array is the node's, so it gets [1, 2] too.
    let second = batches.subscribe()
    #expect(subject.consumerCount == 1)
    subject.send(2)
    #expect(recorded(first) == [[1, 2]])
    subject.send(3)
    subject.send(4)
    subject.send(5)
    #expect(recorded(first) == [[1, 2], [3, 4]])
    subject.finish()
    #expect(recorded(first) == [[1, 2], [3, 4], [5]])
    #expect(first.end?.value == .finished)
    #expect(await second.collect() == [[1, 2], [3, 4], [5]])
  }

  @Test("buffer(count:): a failure drops the incomplete array; a new connection starts an empty one")
  func bufferFailureAndReconnection() {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let batches = subject.buffer(count: 2)
    let clock = TestClock()
    let first = Recorder(batches, clock: clock)
    subject.send(1)
    first.cancel()
    #expect(subject.consumerCount == 0)
    let second = Recorder(batches, clock: clock)
    subject.send(2)
    subject.send(3)
    subject.send(4)
    subject.fail(TestError())
    #expect(recorded(second) == [[2, 3]])
    #expect(second.end?.value == .failed(TestError()))
  }

  // MARK: trackActivity

  @Test("trackActivity: the node's observation is one activity for all consumers, ended before the end arrives")
  func trackActivityCountsTheNode() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let tracker = ActivityTracker()
    let clock = TestClock()
    let states = Recorder(tracker, clock: clock)
    let tracked = subject.trackActivity(tracker)
    #expect(tracker.activeCount == 0)  // nobody observes it yet
    let activeAtEnd = Log<Bool>()
    let lifetime = Lifetime()
    tracked.sink(in: lifetime, onValue: { _ in }, onEnd: { _ in activeAtEnd.append(tracker.value) })
    #expect(tracker.activeCount == 1)
    let second = tracked.subscribe()
    #expect(tracker.activeCount == 1)  // shared: one activity
    subject.send(1)
    subject.finish()
    #expect(tracker.activeCount == 0)
    #expect(activeAtEnd.all == [false])
    #expect(await second.collect() == [1])
    #expect(recorded(states) == [false, true, false])
  }

  @Test("trackActivity: the last consumer leaving ends the activity; connecting again starts a new one")
  func trackActivityEndsOnDisconnect() {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let tracker = ActivityTracker()
    let clock = TestClock()
    let states = Recorder(tracker, clock: clock)
    let tracked = subject.trackActivity(tracker)
    let first = Recorder(tracked, clock: clock)
    let second = Recorder(tracked, clock: clock)
    first.cancel()
    #expect(tracker.value)
    second.cancel()
    #expect(!tracker.value)
    #expect(subject.consumerCount == 0)
    let third = Recorder(tracked, clock: clock)
    #expect(tracker.value)
    subject.fail(TestError())
    #expect(!tracker.value)
    #expect(third.end?.value == .failed(TestError()))
    #expect(recorded(states) == [false, true, false, true, false])
  }

  @Test("trackActivity: consumers joining and leaving on 4 tasks at once leave the count at 0 (200 rounds)")
  func trackActivityUnderConcurrentConsumers() async {
    for _ in 0..<200 {
      let subject = AsyncPassthroughSubject<Int, Never>()
      let tracker = ActivityTracker()
      let tracked = subject.trackActivity(tracker)
      await withTaskGroup(of: Void.self) { group in
        for task in 0..<4 {
          group.addTask {
            for round in 0..<10 {
              let lifetime = Lifetime()
              tracked.sink(in: lifetime) { _ in }
              subject.send(task * 10 + round)
              lifetime.cancel()
            }
          }
        }
      }
      #expect(tracker.activeCount == 0)
      #expect(subject.consumerCount == 0)
    }
  }

  // MARK: sample(on:)

  @Test("sample(on:): the latest element at the trigger's send, once; shared by every consumer")
  func sampleTakesTheLatestAtTheTrigger() async {
    let positions = AsyncPassthroughSubject<Int, Never>()
    let frames = AsyncPassthroughSubject<Void, Never>()
    let sampled = positions.sample(on: frames)
    let clock = TestClock()
    let first = Recorder(sampled, clock: clock)
    let second = sampled.subscribe()
    #expect(positions.consumerCount == 1 && frames.consumerCount == 1)
    positions.send(1)
    positions.send(2)
    #expect(recorded(first) == [])
    frames.send()
    #expect(recorded(first) == [2])
    frames.send()
    #expect(recorded(first) == [2])  // nothing new: nothing emitted
    positions.send(3)
    frames.send()
    #expect(recorded(first) == [2, 3])
    positions.send(4)
    positions.finish()
    #expect(recorded(first) == [2, 3])  // the base's end waits for the next trigger element
    frames.send()
    #expect(recorded(first) == [2, 3, 4])
    #expect(first.end?.value == .finished)
    #expect(await second.collect() == [2, 3, 4])
    #expect(frames.consumerCount == 0)
  }

  @Test("sample(on:): the trigger finishing last emits the pending element, then the end")
  func sampleTriggerFinishesLast() {
    let positions = AsyncPassthroughSubject<Int, Never>()
    let frames = AsyncPassthroughSubject<Void, Never>()
    let recorder = Recorder(positions.sample(on: frames), clock: TestClock())
    positions.send(5)
    positions.finish()
    frames.finish()
    #expect(recorded(recorder) == [5])
    #expect(recorder.end?.value == .finished)
  }

  @Test("sample(on:): either input's failure fails the result at once")
  func sampleFails() {
    let positions = AsyncPassthroughSubject<Int, TestError>()
    let frames = AsyncPassthroughSubject<Void, TestError>()
    let recorder = Recorder(positions.sample(on: frames), clock: TestClock())
    positions.send(5)
    frames.fail(TestError(code: 1))
    #expect(recorded(recorder) == [])
    #expect(recorder.end?.value == .failed(TestError(code: 1)))
    #expect(positions.consumerCount == 0)
  }

  // MARK: take(until:)

  @Test("take(until:): values pass until the trigger's first element, which ends the result inside its send")
  func takeUntilEndsAtTheTrigger() async {
    let values = AsyncPassthroughSubject<Int, Never>()
    let disappear = AsyncPassthroughSubject<Void, Never>()
    let taken = values.take(until: disappear)
    let clock = TestClock()
    let first = Recorder(taken, clock: clock)
    let second = taken.subscribe()
    #expect(values.consumerCount == 1)
    values.send(1)
    #expect(recorded(first) == [1])
    disappear.send()
    #expect(first.end?.value == .finished)
    #expect(values.consumerCount == 0 && disappear.consumerCount == 0)
    values.send(2)
    #expect(await second.collect() == [1])
  }

  @Test("take(until:): a trigger that finishes without an element changes nothing; a current value ends at once")
  func takeUntilTriggerEnds() {
    let values = AsyncPassthroughSubject<Int, Never>()
    let trigger = AsyncPassthroughSubject<Void, Never>()
    let clock = TestClock()
    let recorder = Recorder(values.take(until: trigger), clock: clock)
    trigger.finish()
    values.send(1)
    #expect(recorded(recorder) == [1])
    #expect(recorder.end == nil)
    values.finish()
    #expect(recorder.end?.value == .finished)
    // RxSwift subscribes to the trigger first: a current value ends the result before the base's current value.
    let base = AsyncCurrentValueSubject<Int, Never>(1)
    let closed = AsyncCurrentValueSubject<Bool, Never>(true)
    let ended = Recorder(base.take(until: closed), clock: clock)
    #expect(recorded(ended) == [])
    #expect(ended.end?.value == .finished)
    #expect(base.consumerCount == 0 && closed.consumerCount == 0)
  }

  @Test("take(until:): a failure of either input fails the result")
  func takeUntilFails() {
    let values = AsyncPassthroughSubject<Int, TestError>()
    let trigger = AsyncPassthroughSubject<Void, OtherError>()
    let recorder = Recorder(values.take(until: trigger), clock: TestClock())
    values.send(1)
    trigger.fail(OtherError(code: 5))
    #expect(recorded(recorder) == [1])
    guard case .failed(let error) = recorder.end?.value else {
      Issue.record("take(until:) did not fail: \(String(describing: recorder.end))")
      return
    }
    #expect(error as? OtherError == OtherError(code: 5))  // the trigger's, as `any Error`
  }

  // MARK: dropFirst, prefix, drop(while:)

  @Test("dropFirst: one count for the node, from its first consumer; no current value for a later one")
  func dropFirstCountsPerNode() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let skipped = subject.dropFirst(2)
    let clock = TestClock()
    let first = Recorder(skipped, clock: clock)
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect(recorded(first) == [3])
    let second = Recorder(skipped, clock: clock)
    subject.send(4)
    #expect(recorded(first) == [3, 4])
    #expect(recorded(second) == [4])  // the node's count is spent: nothing skipped for it
    #expect(subject.consumerCount == 1)
    // A property's changes, for every consumer.
    let property = AsyncCurrentValueSubject<Int, Never>(0)
    let changes = property.dropFirst()
    let early = Recorder(changes, clock: clock)
    #expect(recorded(early) == [])
    property.send(1)
    let late = Recorder(changes, clock: clock)
    #expect(recorded(late) == [])  // not the current value
    property.send(2)
    #expect(recorded(early) == [1, 2])
    #expect(recorded(late) == [2])
  }

  @Test("prefix: finishes inside the send of its last value and stops observing; prefix(0) never observes")
  func prefixFinishesInsideSend() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let firstTwo = subject.prefix(2)
    let clock = TestClock()
    let first = Recorder(firstTwo, clock: clock)
    let second = firstTwo.subscribe()
    subject.send(1)
    #expect(first.end == nil)
    subject.send(2)
    #expect(recorded(first) == [1, 2])
    #expect(first.end?.value == .finished)
    #expect(subject.consumerCount == 0)
    subject.send(3)
    #expect(await second.collect() == [1, 2])
    let none = Recorder(subject.prefix(0), clock: clock)
    #expect(none.end?.value == .finished)
    #expect(subject.consumerCount == 0)
  }

  @Test("drop(while:): the predicate runs once per value until it first fails, for every consumer together")
  func dropWhileRunsThePredicateOnce() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let calls = Counter()
    let typed = subject.drop { value in
      calls.increment()
      return value < 3
    }
    let clock = TestClock()
    let first = Recorder(typed, clock: clock)
    let second = typed.subscribe()
    for value in [1, 2, 3, 1, 4] { subject.send(value) }
    #expect(recorded(first) == [3, 1, 4])
    #expect(calls.value == 3)
    subject.finish()
    #expect(await second.collect() == [3, 1, 4])
  }

  // MARK: share

  @Test("share(): the hot sequence as it is, one evaluation; share(replay:) replays the latest while connected")
  func shareIsTheNodeWithReplay() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let calls = Counter()
    let doubled = subject.map { value -> Int in
      calls.increment()
      return value * 2
    }
    let clock = TestClock()
    let shared = doubled.share()
    let first = Recorder(shared, clock: clock)
    let second = Recorder(doubled, clock: clock)
    subject.send(1)
    #expect(calls.value == 1)  // shared() is the map node itself
    #expect(recorded(first) == [2] && recorded(second) == [2])
    let replaying = doubled.share(replay: 2)
    let early = Recorder(replaying, clock: clock)
    for value in [2, 3, 4] { subject.send(value) }
    let late = Recorder(replaying, clock: clock)
    #expect(recorded(late) == [6, 8])
    subject.send(5)
    #expect(recorded(early) == [4, 6, 8, 10])
    #expect(recorded(late) == [6, 8, 10])
    #expect(calls.value == 5)
    // The kept values go when the last consumer leaves.
    early.cancel()
    late.cancel()
    let afterReconnect = Recorder(replaying, clock: clock)
    #expect(recorded(afterReconnect) == [])
    subject.send(6)
    subject.finish()
    #expect(recorded(afterReconnect) == [12])
    // Nothing of an ended run is replayed.
    #expect(await replaying.subscribe().collect() == [])
  }

  @Test("share(replay:) over a current value gives it to each new consumer")
  func shareReplayOverACurrentValue() {
    let property = AsyncCurrentValueSubject<Int, Never>(3)
    let shared = property.share(replay: 1)
    let clock = TestClock()
    let first = Recorder(shared, clock: clock)
    property.send(4)
    let second = Recorder(shared, clock: clock)
    #expect(recorded(first) == [3, 4])
    #expect(recorded(second) == [4])
    #expect(property.consumerCount == 1)
  }

  // MARK: Overload resolution

  @Test("hot inputs get the hot forms: the static type is HotSignal, with no contextual type to help")
  func hotInputsGetHotSignal() {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let failing = AsyncPassthroughSubject<Int, TestError>()
    let property = AsyncCurrentValueSubject<Int, Never>(0)
    let tracker = ActivityTracker()
    #expect(isHot(subject.prepend(0), as: Signal<Int, Never>.self))
    #expect(isHot(subject.prepend(contentsOf: [0, 1]), as: Signal<Int, Never>.self))
    #expect(isHot(failing.mapError { OtherError(code: $0.code) }, as: Signal<Int, OtherError>.self))
    #expect(isHot(failing.replaceError(with: 0), as: Signal<Int, Never>.self))
    #expect(isHot(failing.catch { _ in Signal<Int, Never>.just(0) }, as: Signal<Int, Never>.self))
    #expect(isHot(failing.catch { _ in subject }, as: Signal<Int, Never>.self))
    #expect(isHot(subject.debug("s", sink: DebugSink { _ in }), as: Signal<Int, Never>.self))
    #expect(isHot(subject.buffer(count: 2), as: Signal<[Int], Never>.self))
    #expect(isHot(subject.trackActivity(tracker), as: Signal<Int, Never>.self))
    #expect(isHot(subject.dropFirst(), as: Signal<Int, Never>.self))
    #expect(isHot(subject.dropFirst(2), as: Signal<Int, Never>.self))
    #expect(isHot(subject.prefix(2), as: Signal<Int, Never>.self))
    #expect(isHot(subject.drop { $0 < 2 }, as: Signal<Int, Never>.self))
    #expect(isHot(property.dropFirst(), as: Signal<Int, Never>.self))
    #expect(isHot(subject.share(), as: Signal<Int, Never>.self))
    #expect(isHot(subject.share(replay: 1), as: Signal<Int, Never>.self))
    // A chain stays hot.
    #expect(isHot(subject.dropFirst().map { $0 * 2 }.prefix(3).share(), as: Signal<Int, Never>.self))
    // As the brief writes it.
    let skipped: Signal<Int, Never> = subject.dropFirst()
    _ = skipped
  }

  @Test("sample(on:) and take(until:) on two hot inputs: the hot form for each failure-type combination")
  func triggeredOperatorsResolveForEveryFailureCombination() {
    let never = AsyncPassthroughSubject<Int, Never>()
    let failing = AsyncPassthroughSubject<Int, TestError>()
    let trigger = AsyncPassthroughSubject<Void, Never>()
    let failingTrigger = AsyncPassthroughSubject<Void, TestError>()
    let otherTrigger = AsyncPassthroughSubject<Void, OtherError>()
    #expect(isHot(never.sample(on: trigger), as: Signal<Int, Never>.self))
    #expect(isHot(failing.sample(on: failingTrigger), as: Signal<Int, TestError>.self))
    #expect(isHot(never.sample(on: failingTrigger), as: Signal<Int, any Error>.self))
    #expect(isHot(failing.sample(on: trigger), as: Signal<Int, TestError>.self))
    #expect(isHot(failing.sample(on: otherTrigger), as: Signal<Int, any Error>.self))
    #expect(isHot(never.take(until: trigger), as: Signal<Int, Never>.self))
    #expect(isHot(failing.take(until: failingTrigger), as: Signal<Int, TestError>.self))
    #expect(isHot(never.take(until: failingTrigger), as: Signal<Int, any Error>.self))
    #expect(isHot(failing.take(until: trigger), as: Signal<Int, TestError>.self))
    #expect(isHot(failing.take(until: otherTrigger), as: Signal<Int, any Error>.self))
  }

  @Test("cold inputs keep the stream forms (and the standard library's dropFirst, prefix, drop(while:))")
  func coldInputsKeepTheStreamForms() {
    typealias Cold = Signal<Int, Never>
    let cold = Cold([1, 2, 3])
    let failing = Signal<Int, TestError>.fail(TestError())
    let subject = AsyncPassthroughSubject<Int, Never>()
    let coldTrigger = Signal<Void, Never>.just(())
    #expect(type(of: cold.prepend(0)) == Cold.self)
    #expect(type(of: failing.mapError { OtherError(code: $0.code) }) == Signal<Int, OtherError>.self)
    #expect(type(of: failing.replaceError(with: 0)) == Cold.self)
    #expect(type(of: cold.buffer(count: 2)) == Signal<[Int], Never>.self)
    #expect(type(of: cold.trackActivity(ActivityTracker())) == Cold.self)
    #expect(type(of: cold.dropFirst()) == Cold.self)
    #expect(type(of: cold.prefix(2)) == Cold.self)
    #expect(type(of: cold.drop { $0 < 2 }) == Cold.self)
    #expect(isHot(cold.share(), as: Signal<Int, Never>.self))
    #expect(type(of: subject.subscribe().dropFirst()) == Cold.self)
    // A cold base keeps the stream form of the two-input operators; a hot base with a cold trigger is hot (its
    // trigger pumped by a task per connection: PushCoreColdOtherTests).
    #expect(isHot(subject.sample(on: coldTrigger), as: Signal<Int, Never>.self))
    #expect(type(of: cold.sample(on: subject)) == Cold.self)
    #expect(type(of: cold.take(until: subject)) == Cold.self)
  }
}
