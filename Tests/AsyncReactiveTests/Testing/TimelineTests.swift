import AsyncReactive
import AsyncReactiveTesting
import Testing

/// `TestClock.hotTimeline`, `TestClock.coldTimeline`, `Recorded` and `Recorder.events`: RxTest's timeline in, one
/// array of events out.
@Suite("Timelines: RxTest's hot and cold observables and recorded events", .timeLimit(.minutes(1)))
struct TimelineTests {
  // MARK: Recorded events

  @Test("a Recorder's events are its values then its end, each with its instant")
  func recorderEvents() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<String, TestError>()
    let recorder = Recorder(subject, clock: clock)
    #expect(recorder.events.isEmpty)
    subject.send("a")
    await clock.advance(by: .milliseconds(300))
    subject.send("b")
    #expect(recorder.events == [.value("a", at: .zero), .value("b", at: .milliseconds(300))])
    subject.fail(TestError(code: 7))
    #expect(
      recorder.events == [
        .value("a", at: .zero), .value("b", at: .milliseconds(300)),
        .failed(TestError(code: 7), at: .milliseconds(300)),
      ])
    #expect(recorder.events.map(\.event) == [.value("a"), .value("b"), .failed(TestError(code: 7))])

    let finishing = AsyncPassthroughSubject<Int, Never>()
    let finished = Recorder(finishing, clock: clock)
    finishing.finish()
    #expect(finished.events == [.finished(at: TestClock.Instant(offset: .milliseconds(300)))])
  }

  @Test("events print as value@instant, so a failed expectation reads as a timeline")
  func eventDescriptions() {
    let events: [Recorded<String, TestError>] = [
      .value("a", at: .seconds(210)), .value("b", at: .milliseconds(250)), .finished(at: .milliseconds(1500)),
      .failed(TestError(code: 7), at: .zero), Recorded(.value("c"), at: .seconds(-1)),
    ]
    #expect(
      events.map(\.description) == [
        "a@210s", "b@0.25s", "finished@1.5s", "failed(TestError(code: 7))@0s", "c@-1s",
      ])
    #expect("\(events.prefix(3))" == "[a@210s, b@0.25s, finished@1.5s]")
  }

  @Test("the Duration and Instant spellings build the same event, and events are Hashable")
  func eventSpellings() {
    let instant = TestClock.Instant(offset: .seconds(2))
    #expect(Recorded<Int, TestError>.value(1, at: .seconds(2)) == .value(1, at: instant))
    #expect(Recorded<Int, TestError>.finished(at: .seconds(2)) == .finished(at: instant))
    #expect(Recorded<Int, TestError>.failed(TestError(), at: .seconds(2)) == .failed(TestError(), at: instant))
    #expect(Recorded<Int, Never>(.value(1), at: .seconds(2)) == Recorded(.value(1), at: instant))
    #expect(Set([Recorded<Int, Never>.value(1, at: .zero), .value(1, at: .zero), .finished(at: .zero)]).count == 2)
    #expect(Recorded<Int, Never>.value(1, at: .seconds(2)) != .value(1, at: .seconds(3)))
  }

  // MARK: Hot timelines

  @Test("RxTest's first example: a hot timeline, an operator over it subscribed at 200, one array out")
  func rxTestFirstExample() async {
    for _ in 0..<50 {
      let clock = TestClock()
      await clock.withVirtualTime {
        let xs = clock.hotTimeline([
          .value(1, at: .seconds(150)), .value(2, at: .seconds(210)), .value(3, at: .seconds(220)),
          .finished(at: .seconds(300)),
        ])
        await clock.advance(to: TestClock.Instant(offset: .seconds(200)))
        let recorder = Recorder(xs.map { $0 * 2 }, clock: clock)
        await clock.run()
        #expect(
          recorder.events == [.value(4, at: .seconds(210)), .value(6, at: .seconds(220)), .finished(at: .seconds(300))])
        #expect(!clock.hasSleepers)
      }
    }
  }

  @Test("a hot timeline sends at its instants whether or not anything observes it; a late subscriber misses them")
  func hotTimelineSendsUnobserved() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([
        .value(1, at: .seconds(1)), .value(2, at: .seconds(2)), .value(3, at: .seconds(3)),
        .finished(at: .seconds(4)),
      ])
      #expect(clock.sleeperDeadlines == [TestClock.Instant(offset: .seconds(1))])  // sleeping from its creation
      let early = Recorder(xs, clock: clock)
      await clock.advance(by: .milliseconds(1500))
      #expect(early.events == [.value(1, at: .seconds(1))])
      early.cancel()
      #expect(xs.consumerCount == 0)
      await clock.advance(by: .seconds(1))  // t=2.5s: 2 is sent to nobody
      #expect(clock.sleeperDeadlines == [TestClock.Instant(offset: .seconds(3))])
      let late = Recorder(xs.map { $0 * 10 }, clock: clock)
      await clock.run()
      #expect(late.events == [.value(30, at: .seconds(3)), .finished(at: .seconds(4))])
      #expect(early.events == [.value(1, at: .seconds(1))])  // its cancellation recorded nothing
      let afterTheEnd = Recorder(xs, clock: clock)
      #expect(afterTheEnd.events == [.finished(at: .seconds(4))])
    }
  }

  @Test("two observers of one hot timeline see the same events at the same instants")
  func hotTimelineSharedByTwoObservers() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([.value(1, at: .seconds(1)), .value(2, at: .seconds(2))])
      let doubled = Recorder(xs.map { $0 * 2 }, clock: clock)
      let iterated = Recorder(xs.prefix(2), clock: clock)
      await clock.advance(by: .seconds(5))
      #expect(doubled.events == [.value(2, at: .seconds(1)), .value(4, at: .seconds(2))])
      #expect(iterated.events == [.value(1, at: .seconds(1)), .value(2, at: .seconds(2)), .finished(at: .seconds(2))])
    }
  }

  @Test("events at the same instant keep their order in the array; events given out of order go by instant")
  func sameInstantOrder() async {
    for _ in 0..<50 {
      let clock = TestClock()
      await clock.withVirtualTime {
        let xs = clock.hotTimeline([
          .value("b1", at: .seconds(2)), .value("a", at: .seconds(1)), .value("b2", at: .seconds(2)),
          .finished(at: .seconds(2)), .value("b3", at: .seconds(2)),
        ])
        let ys = clock.coldTimeline([
          .value("y2", at: .seconds(1)), .value("y1", at: .zero), .value("y3", at: .seconds(1)),
        ])
        let hot = Recorder(xs, clock: clock)
        let cold = Recorder(ys, clock: clock)
        await clock.run()
        #expect(
          hot.events == [
            .value("a", at: .seconds(1)), .value("b1", at: .seconds(2)), .value("b2", at: .seconds(2)),
            .finished(at: .seconds(2)),
          ])
        #expect(cold.events == [.value("y1", at: .zero), .value("y2", at: .seconds(1)), .value("y3", at: .seconds(1))])
        cold.cancel()
      }
    }
  }

  @Test("two hot timelines merged: each sends at its instants, in the order the advance reaches them")
  func twoHotTimelinesMerged() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([.value(1, at: .seconds(1)), .value(3, at: .seconds(3)), .finished(at: .seconds(5))])
      let ys = clock.hotTimeline([.value(2, at: .seconds(2)), .value(4, at: .seconds(4)), .finished(at: .seconds(4))])
      let merged = Recorder(merge(xs, ys), clock: clock)
      await clock.run()
      #expect(
        merged.events == [
          .value(1, at: .seconds(1)), .value(2, at: .seconds(2)), .value(3, at: .seconds(3)),
          .value(4, at: .seconds(4)), .finished(at: .seconds(5)),
        ])
    }
  }

  @Test("a hot timeline's failure ends it; nothing after the first end is sent, and no sleeper is left")
  func hotTimelineFailure() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(1)), .failed(TestError(code: 3), at: .seconds(2)), .value(2, at: .seconds(3)),
        .finished(at: .seconds(4)),
      ])
      let recorder = Recorder(xs, clock: clock)
      await clock.run()
      #expect(recorder.events == [.value(1, at: .seconds(1)), .failed(TestError(code: 3), at: .seconds(2))])
      #expect(clock.now == TestClock.Instant(offset: .seconds(2)))  // nothing was left to wait for
      #expect(!clock.hasSleepers)
    }
  }

  @Test("events due when the hot timeline is created are sent at the test's next await, to who subscribed by then")
  func hotTimelineEventsAlreadyDue() async {
    let clock = TestClock(now: TestClock.Instant(offset: .seconds(10)))
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([.value(1, at: .seconds(5)), .value(2, at: .seconds(10)), .value(3, at: .seconds(11))])
      let recorder = Recorder(xs, clock: clock)
      #expect(recorder.events.isEmpty)
      await clock.settle()
      #expect(recorder.events == [.value(1, at: .seconds(10)), .value(2, at: .seconds(10))])
      await clock.run()
      #expect(recorder.events.last == .value(3, at: .seconds(11)))
    }
  }

  @Test("an ended timeline given at creation: a consumer that comes later gets the end at once")
  func hotTimelineEndedBeforeAnyConsumer() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([.failed(TestError(code: 1), at: .zero)])
      await clock.settle()
      let recorder = Recorder(xs, clock: clock)
      #expect(recorder.events == [.failed(TestError(code: 1), at: .zero)])
      let empty = clock.hotTimeline([Recorded<Int, Never>]())
      #expect(empty.consumerCount == 0)
    }
  }

  @Test("outside withVirtualTime: advance to one instant at a time and wait for the output")
  func hotTimelineOutsideVirtualTime() async {
    let clock = TestClock()
    let xs = clock.hotTimeline([.value("a", at: .seconds(1)), .value("b", at: .seconds(2)), .finished(at: .seconds(3))])
    let recorder = Recorder(xs, clock: clock)
    await clock.waitForSleeper(until: TestClock.Instant(offset: .seconds(1)))
    await clock.advance(to: TestClock.Instant(offset: .seconds(1)))
    _ = await recorder.waitForValues(count: 1)
    await clock.waitForSleeper(until: TestClock.Instant(offset: .seconds(2)))
    await clock.advance(to: TestClock.Instant(offset: .seconds(2)))
    _ = await recorder.waitForValues(count: 2)
    await clock.waitForSleeper(until: TestClock.Instant(offset: .seconds(3)))
    await clock.advance(to: TestClock.Instant(offset: .seconds(3)))
    await recorder.waitForEnd()
    #expect(
      recorder.events == [.value("a", at: .seconds(1)), .value("b", at: .seconds(2)), .finished(at: .seconds(3))])
  }

  // MARK: Cold timelines

  @Test("a cold timeline runs anew for each subscription, its instants relative to that subscription")
  func coldTimelinePerSubscription() async {
    for _ in 0..<50 {
      let clock = TestClock()
      let ys = clock.coldTimeline([
        .value("a", at: .seconds(10)), .value("b", at: .seconds(20)), .finished(at: .seconds(30)),
      ])
      await clock.withVirtualTime {
        let first = Recorder(ys, clock: clock)
        await clock.advance(by: .seconds(5))
        let second = Recorder(ys.map { $0.uppercased() }, clock: clock)
        await clock.advance(by: .seconds(100))
        #expect(
          first.events == [.value("a", at: .seconds(10)), .value("b", at: .seconds(20)), .finished(at: .seconds(30))])
        #expect(
          second.events == [.value("A", at: .seconds(15)), .value("B", at: .seconds(25)), .finished(at: .seconds(35))])
        let third = Recorder(ys, clock: clock)  // t=105s
        await clock.run()
        #expect(
          third.events == [
            .value("a", at: .seconds(115)), .value("b", at: .seconds(125)), .finished(at: .seconds(135)),
          ])
      }
    }
  }

  @Test("a cold timeline fails its run at its failure; each run fails anew")
  func coldTimelineFailure() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let ys: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(1, at: .seconds(1)), .failed(TestError(code: 2), at: .seconds(2)), .value(3, at: .seconds(3)),
      ])
      let retried = Recorder(ys.retry(1), clock: clock)
      await clock.run()
      #expect(
        retried.events == [
          .value(1, at: .seconds(1)), .value(1, at: .seconds(3)), .failed(TestError(code: 2), at: .seconds(4)),
        ])
      #expect(!clock.hasSleepers)
    }
  }

  @Test("a cold timeline without an end runs until its consumer stops, and then leaves nothing behind")
  func coldTimelineWithoutEnd() async {
    let clock = TestClock()
    await expectNoLeaks {
      await clock.withVirtualTime {
        let ys = clock.coldTimeline([.value(1, at: .seconds(1)), .value(2, at: .seconds(2))])
        let recorder = Recorder(ys.map { $0 }, clock: clock)
        await clock.run()
        #expect(recorder.events == [.value(1, at: .seconds(1)), .value(2, at: .seconds(2))])
        #expect(!clock.hasSleepers)
        recorder.cancel()
        await clock.settle()  // the recording task ends its iteration
        #expect(await recorder.waitForEnd() == Timed(.finished, at: .seconds(2)))  // stopped, and
        #expect(recorder.events == [.value(1, at: .seconds(1)), .value(2, at: .seconds(2))])  // nothing recorded
      }
    }
  }

  // MARK: Cancellation and leaks

  @Test("a hot timeline's task lives until its last event, then ends")
  func hotTimelineTaskEndsAfterItsLastEvent() async {
    let clock = TestClock()
    await withTaskScope { scope in
      await clock.withVirtualTime {
        let xs = clock.hotTimeline([.value(1, at: .seconds(1)), .value(2, at: .seconds(2))])
        #expect(tasks(scope) == ["task 'HotTimeline'": 1])
        await clock.advance(by: .seconds(1))
        #expect(tasks(scope) == ["task 'HotTimeline'": 1])
        await clock.advance(by: .seconds(1))
        #expect(tasks(scope).isEmpty)  // the advance ran the task to its end
        #expect(xs.consumerCount == 0)
      }
    }
  }

  @Test("releasing a hot timeline cancels its task and finishes its consumers; nothing is left behind")
  func releasingAHotTimeline() async {
    let clock = TestClock()
    await expectNoLeaks {
      await clock.withVirtualTime {
        var xs: HotTimeline<Int, Never>? = clock.hotTimeline([.value(1, at: .seconds(1)), .value(2, at: .seconds(10))])
        let recorder = Recorder(xs!.map { $0 + 1 }, clock: clock)
        await clock.advance(by: .seconds(2))
        #expect(clock.sleeperDeadlines == [TestClock.Instant(offset: .seconds(10))])
        xs = nil
        #expect(recorder.events == [.value(2, at: .seconds(1)), .finished(at: .seconds(2))])
        await clock.settle()
        #expect(!clock.hasSleepers)
        await clock.advance(by: .seconds(10))
        #expect(recorder.events.count == 2)
      }
    }
  }

  @Test("a recorder of a cold timeline that is cancelled cancels its run; nothing is left behind")
  func cancellingAColdTimelineRun() async {
    let clock = TestClock()
    await expectNoLeaks {
      await clock.withVirtualTime {
        let ys = clock.coldTimeline([.value(1, at: .seconds(1)), .finished(at: .seconds(10))])
        let pulled = Recorder(ys, clock: clock)
        let pushed = Recorder(ys.map { $0 }, clock: clock)
        await clock.advance(by: .seconds(2))
        #expect(clock.sleeperCount == 2)
        pulled.cancel()
        pushed.cancel()
        await clock.settle()
        #expect(!clock.hasSleepers)
        #expect(pulled.events == [.value(1, at: .seconds(1))])
        #expect(pushed.events == [.value(1, at: .seconds(1))])
        #expect(
          ys.subscriptions == [TimelineSubscription(.zero, .seconds(2)), TimelineSubscription(.zero, .seconds(2))])
      }
    }
  }

  // MARK: Ported from the advance-and-send tests of the time operators

  @Test("debounce: sends closer together than the due time collapse to the last one (timeline)")
  func debounceBurstTimeline() async {
    for _ in 0..<50 {
      let clock = TestClock()
      await clock.withVirtualTime {
        let xs = clock.hotTimeline([
          .value(1, at: .zero), .value(2, at: .milliseconds(500)), .value(3, at: .seconds(1)),
          .value(4, at: .milliseconds(1500)), .value(5, at: .seconds(2)), .finished(at: .seconds(3)),
        ])
        let recorder = Recorder(xs.debounce(for: .seconds(1), clock: clock), clock: clock)
        await clock.run()
        #expect(recorder.events == [.value(5, at: .seconds(3)), .finished(at: .seconds(3))])
        #expect(!clock.hasSleepers)
      }
    }
  }

  @Test("throttle, latest, RxSwift's input (200 ms earlier): 2@10, 5@210, 7@300, finish@300 (timeline)")
  func throttleRxSwiftInputLatestTimeline() async {
    for _ in 0..<50 {
      let clock = TestClock()
      await clock.withVirtualTime {
        let xs = clock.hotTimeline([
          .value(2, at: .milliseconds(10)), .value(3, at: .milliseconds(50)), .value(4, at: .milliseconds(110)),
          .value(5, at: .milliseconds(150)), .value(6, at: .milliseconds(210)), .value(7, at: .milliseconds(250)),
          .finished(at: .milliseconds(300)),
        ])
        let recorder = Recorder(xs.throttle(for: .milliseconds(200), clock: clock, latest: true), clock: clock)
        await clock.run()
        #expect(
          recorder.events == [
            .value(2, at: .milliseconds(10)), .value(5, at: .milliseconds(210)), .value(7, at: .milliseconds(300)),
            .finished(at: .milliseconds(300)),
          ])
        #expect(!clock.hasSleepers)
      }
    }
  }

  @Test("delay: every value and the finish come out the delay after their send, keeping order and spacing (timeline)")
  func delayTimelineFromATimeline() async {
    for _ in 0..<50 {
      let clock = TestClock()
      await clock.withVirtualTime {
        let xs = clock.hotTimeline([
          .value("a", at: .zero), .value("b", at: .milliseconds(100)), .finished(at: .milliseconds(150)),
        ])
        let recorder = Recorder(xs.delay(for: .milliseconds(300), clock: clock), clock: clock)
        await clock.advance(to: TestClock.Instant(offset: .milliseconds(299)))
        #expect(recorder.events.isEmpty)
        await clock.run()
        #expect(
          recorder.events == [
            .value("a", at: .milliseconds(300)), .value("b", at: .milliseconds(400)), .finished(at: .milliseconds(450)),
          ])
      }
    }
  }

  @Test("timeout(fallback:), cold fallback (RxSwift TimeoutOccurs_2): the upstream, then the fallback (timelines)")
  func timeoutSwitchesToAColdFallbackTimeline() async {
    for _ in 0..<50 {
      let clock = TestClock()
      await clock.withVirtualTime {
        let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
          .value(3, at: .milliseconds(40)), .value(4, at: .milliseconds(110)),
        ])
        let ys: ColdTimeline<Int, TestError> = clock.coldTimeline([
          .value(-1, at: .milliseconds(50)), .value(-2, at: .milliseconds(200)), .value(-3, at: .milliseconds(310)),
          .finished(at: .milliseconds(320)),
        ])
        let recorder = Recorder(xs.timeout(.milliseconds(100), clock: clock, fallback: ys), clock: clock)
        await clock.run()
        #expect(
          recorder.events == [
            .value(3, at: .milliseconds(40)), .value(4, at: .milliseconds(110)), .value(-1, at: .milliseconds(260)),
            .value(-2, at: .milliseconds(410)), .value(-3, at: .milliseconds(520)), .finished(at: .milliseconds(530)),
          ])
        #expect(xs.consumerCount == 0)  // let go at the timeout
        #expect(!clock.hasSleepers)
      }
    }
  }
}
