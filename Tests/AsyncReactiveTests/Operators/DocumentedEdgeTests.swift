import AsyncReactive
import AsyncReactiveTesting
import Testing

/// Edges the guides and the API contracts spell out, pinned with exact values and instants: what `combineLatest` and
/// `withLatestFrom` do with an input that ended (they keep its last element, also for a consumer that joins then),
/// what `flatMapLatest` does once its outer sequence ended, and what a failure does to a `buffer(every:)` window
/// that ends at the failure's instant.
@Suite("Documented edges: ended inputs, flatMapLatest after its outer, buffer(every:) failing at a window's end")
struct DocumentedEdgeTests {
  // MARK: combineLatest

  @Test("combineLatest keeps an ended input's last element and finishes when every input has finished")
  func combineLatestKeepsAnEndedInput() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let numbers: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(1)), .value(2, at: .seconds(4)), .finished(at: .seconds(6)),
      ])
      let letters: HotTimeline<String, TestError> = clock.hotTimeline([
        .value("a", at: .seconds(2)), .finished(at: .seconds(3)),
      ])
      let recorder = Recorder(combineLatest(numbers, letters).map { "\($0)\($1)" }, clock: clock)
      await clock.run()
      #expect(
        recorder.events == [.value("1a", at: .seconds(2)), .value("2a", at: .seconds(4)), .finished(at: .seconds(6))])
    }
  }

  @Test("a consumer that joins combineLatest after an input ended is given the latest combination, with its element")
  func combineLatestLateConsumerAfterAnInputEnded() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let s = AsyncCurrentValueSubject<Int, TestError>(5)
      let t = AsyncCurrentValueSubject<Int, TestError>(7)
      let node = combineLatest(s, t).map { $0 * 10 + $1 }
      let first = Recorder(node, clock: clock)
      await clock.advance(by: .seconds(1))
      s.send(6)
      await clock.advance(by: .seconds(1))
      t.finish()
      await clock.advance(by: .seconds(1))
      let late = Recorder(node, clock: clock)
      #expect(late.values == [Timed(67, at: .seconds(3))])  // at once: t's last element is still combined
      // A fresh combineLatest finds t ended, with no value: it gives nothing, and finishes at s's next element.
      let fresh = Recorder(combineLatest(s, t).map { $0 * 10 + $1 }, clock: clock)
      #expect(fresh.events.isEmpty)
      await clock.advance(by: .seconds(1))
      s.send(8)
      s.finish()
      #expect(
        first.events == [
          .value(57, at: .zero), .value(67, at: .seconds(1)), .value(87, at: .seconds(4)), .finished(at: .seconds(4)),
        ])
      #expect(late.events == [.value(67, at: .seconds(3)), .value(87, at: .seconds(4)), .finished(at: .seconds(4))])
      #expect(fresh.events == [.finished(at: .seconds(4))])
    }
  }

  // MARK: withLatestFrom

  @Test("withLatestFrom keeps the other sequence's last element after it ended; the base's end ends the result")
  func withLatestFromKeepsAnEndedOther() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let values: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(1)), .value(2, at: .seconds(4)), .finished(at: .seconds(6)),
      ])
      let latest: HotTimeline<String, TestError> = clock.hotTimeline([
        .value("a", at: .seconds(2)), .finished(at: .seconds(3)),
      ])
      let recorder = Recorder(values.withLatestFrom(latest) { "\($0)\($1)" }, clock: clock)
      await clock.run()
      #expect(recorder.events == [.value("2a", at: .seconds(4)), .finished(at: .seconds(6))])
    }
  }

  @Test("a consumer that joins withLatestFrom after the other sequence ended is given the latest pair")
  func withLatestFromLateConsumerAfterTheOtherEnded() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let s = AsyncCurrentValueSubject<Int, TestError>(5)
      let t = AsyncCurrentValueSubject<Int, TestError>(7)
      let node = s.withLatestFrom(t) { $0 * 10 + $1 }
      let first = Recorder(node, clock: clock)
      await clock.advance(by: .seconds(1))
      s.send(6)
      await clock.advance(by: .seconds(1))
      t.finish()
      await clock.advance(by: .seconds(1))
      let late = Recorder(node, clock: clock)
      #expect(late.values == [Timed(67, at: .seconds(3))])
      // A fresh withLatestFrom finds t ended, with no value: it drops every element of s until s ends.
      let fresh = Recorder(s.withLatestFrom(t) { $0 * 10 + $1 }, clock: clock)
      await clock.advance(by: .seconds(1))
      s.send(8)
      s.finish()
      #expect(
        first.events == [
          .value(57, at: .zero), .value(67, at: .seconds(1)), .value(87, at: .seconds(4)), .finished(at: .seconds(4)),
        ])
      #expect(late.events == [.value(67, at: .seconds(3)), .value(87, at: .seconds(4)), .finished(at: .seconds(4))])
      #expect(fresh.events == [.finished(at: .seconds(4))])
    }
  }

  @Test("withLatestFrom reads an other sequence that cannot fail as a property, whose value outlives its end")
  func withLatestFromReadsAnEndedProperty() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let s = AsyncCurrentValueSubject<Int, Never>(6)
      let t = AsyncCurrentValueSubject<Int, Never>(7)
      t.finish()
      let fresh = Recorder(s.withLatestFrom(t) { $0 * 10 + $1 }, clock: clock)
      #expect(fresh.values == [Timed(67, at: .zero)])
      await clock.advance(by: .seconds(1))
      s.send(8)
      #expect(fresh.values == [Timed(67, at: .zero), Timed(87, at: .seconds(1))])
    }
  }

  // MARK: flatMapLatest

  @Test("flatMapLatest goes on with the current inner after its outer finished, and finishes when that inner does")
  func flatMapLatestAfterTheOuterFinished() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let outer: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(1)), .finished(at: .seconds(3)),
      ])
      let inner: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(7, at: .seconds(2)), .value(8, at: .seconds(4)), .finished(at: .seconds(6)),
      ])
      let recorder = Recorder(outer.flatMapLatest { v in inner.map { v * 10 + $0 } }, clock: clock)
      await clock.run()
      #expect(
        recorder.events == [.value(17, at: .seconds(2)), .value(18, at: .seconds(4)), .finished(at: .seconds(6))])
      #expect(inner.subscriptions == [TimelineSubscription(.seconds(1), .seconds(6))])
    }
  }

  @Test("flatMapLatest finishes with its outer when no inner is running")
  func flatMapLatestFinishesWithItsOuterWhenNoInnerRuns() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let outer: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(1)), .finished(at: .seconds(3)),
      ])
      let recorder = Recorder(outer.flatMapLatest { Signal<Int, TestError>.just($0 * 10) }, clock: clock)
      await clock.run()
      #expect(recorder.events == [.value(10, at: .seconds(1)), .finished(at: .seconds(3))])
    }
  }

  @Test("an outer failure fails flatMapLatest at once and cancels the current inner")
  func flatMapLatestOuterFailure() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let outer: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(1)), .failed(TestError(code: 9), at: .seconds(3)),
      ])
      let inner: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(7, at: .seconds(2)), .value(8, at: .seconds(4)), .finished(at: .seconds(6)),
      ])
      let recorder = Recorder(outer.flatMapLatest { v in inner.map { v * 10 + $0 } }, clock: clock)
      await clock.run()
      #expect(recorder.events == [.value(17, at: .seconds(2)), .failed(TestError(code: 9), at: .seconds(3))])
      #expect(inner.subscriptions == [TimelineSubscription(.seconds(1), .seconds(3))])
    }
  }

  @Test("a consumer that joins flatMapLatest after its outer finished is given the current inner's latest value")
  func flatMapLatestLateConsumerAfterTheOuterFinished() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let s = AsyncCurrentValueSubject<Int, TestError>(5)
      let t = AsyncCurrentValueSubject<Int, TestError>(7)
      let node = s.flatMapLatest { v in t.map { v * 10 + $0 } }
      let first = Recorder(node, clock: clock)
      await clock.advance(by: .seconds(1))
      s.send(6)
      await clock.advance(by: .seconds(1))
      s.finish()
      await clock.advance(by: .seconds(1))
      let late = Recorder(node, clock: clock)
      #expect(late.values == [Timed(67, at: .seconds(3))])
      await clock.advance(by: .seconds(1))
      t.send(8)
      await clock.advance(by: .seconds(1))
      t.finish()
      #expect(
        first.events == [
          .value(57, at: .zero), .value(67, at: .seconds(1)), .value(68, at: .seconds(4)), .finished(at: .seconds(5)),
        ])
      #expect(late.events == [.value(67, at: .seconds(3)), .value(68, at: .seconds(4)), .finished(at: .seconds(5))])
    }
  }

  // MARK: buffer(every:)

  @Test("buffer(every:): a failure mid-window drops the window's values")
  func bufferFailureMidWindow() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .milliseconds(500)), .value(2, at: .milliseconds(1500)),
        .failed(TestError(code: 3), at: .milliseconds(1700)),
      ])
      let recorder = Recorder(xs.buffer(every: .seconds(1), clock: clock), clock: clock)
      await clock.run()
      #expect(recorder.events == [.value([1], at: .seconds(1)), .failed(TestError(code: 3), at: .milliseconds(1700))])
    }
  }

  @Test("buffer(every:): a failure that comes before the timer at a window's end drops that window's values")
  func bufferFailureBeforeTheTimerAtAWindowsEnd() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      // The timeline's events were scheduled before the node's timer: at 2 s the failure comes first.
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .milliseconds(500)), .value(2, at: .milliseconds(1500)),
        .failed(TestError(code: 3), at: .seconds(2)),
      ])
      let recorder = Recorder(xs.buffer(every: .seconds(1), clock: clock), clock: clock)
      await clock.run()
      #expect(recorder.events == [.value([1], at: .seconds(1)), .failed(TestError(code: 3), at: .seconds(2))])
    }
  }

  @Test("buffer(every:): a failure that comes after the timer at a window's end follows that window's array")
  func bufferFailureAfterTheTimerAtAWindowsEnd() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let subject = AsyncPassthroughSubject<Int, TestError>()
      let recorder = Recorder(subject.buffer(every: .seconds(1), clock: clock), clock: clock)
      await clock.advance(by: .milliseconds(500))
      subject.send(1)
      await clock.advance(by: .seconds(1))
      subject.send(2)
      await clock.advance(by: .milliseconds(500))  // t=2 s: the timer has emitted [2]
      subject.fail(TestError(code: 3))
      #expect(
        recorder.events == [
          .value([1], at: .seconds(1)), .value([2], at: .seconds(2)), .failed(TestError(code: 3), at: .seconds(2)),
        ])
    }
  }

  @Test("buffer(every:): the finish at a window's end emits that window first, even before the timer")
  func bufferFinishBeforeTheTimerAtAWindowsEnd() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .milliseconds(500)), .value(2, at: .milliseconds(1500)), .finished(at: .seconds(2)),
      ])
      let recorder = Recorder(xs.buffer(every: .seconds(1), clock: clock), clock: clock)
      await clock.run()
      #expect(
        recorder.events == [.value([1], at: .seconds(1)), .value([2], at: .seconds(2)), .finished(at: .seconds(2))])
    }
  }
}
