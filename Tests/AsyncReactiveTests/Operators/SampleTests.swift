import AsyncReactive
import AsyncReactiveTesting
import Testing

/// sample(on:) reads each input in a task of its own; the tests feed both through ``Feed``s, whose `send` returns
/// once the operator took the event, and stamp the output on a ``TestClock``. The timelines are RxSwift's own
/// (`Observable+SampleTests.swift`), from t=200 on, where RxSwift's test scheduler subscribes, and up to the
/// result's end: an input that is cancelled must not be fed its own end after that.
@Suite("sample(on:)", .timeLimit(.minutes(1)))
struct SampleTests {
  @Test("RxSwift Simple1: the latest new value at each tick; the base's end waits for the trigger's end")
  func rxSimple1() async {
    let expected = [Timed(3, at: .milliseconds(250)), Timed(6, at: .milliseconds(320))]
    let played = await play(
      [
        (210, .tick), (220, .value(2)), (240, .value(3)), (250, .tick), (260, .tick), (290, .value(4)),
        (300, .value(5)), (310, .value(6)), (320, .tick), (400, .finish), (500, .triggerFinish),
      ], expecting: expected)
    #expect(played.values == expected)
    #expect(played.end == Timed(.finished, at: .milliseconds(500)))
  }

  @Test("RxSwift Simple2: the trigger's end emits the pending value, then ends")
  func rxSimple2() async {
    let expected = [
      Timed(3, at: .milliseconds(250)), Timed(6, at: .milliseconds(320)), Timed(7, at: .milliseconds(500)),
    ]
    let played = await play(
      [
        (210, .tick), (220, .value(2)), (240, .value(3)), (250, .tick), (260, .tick), (290, .value(4)),
        (300, .value(5)), (310, .value(6)), (320, .tick), (360, .value(7)), (400, .finish), (500, .triggerFinish),
      ], expecting: expected)
    #expect(played.values == expected)
    #expect(played.end == Timed(.finished, at: .milliseconds(500)))
  }

  @Test("RxSwift Simple3: after the base finished, the next tick emits the last value and ends the result")
  func rxSimple3() async {
    let expected = [Timed(3, at: .milliseconds(250)), Timed(4, at: .milliseconds(320))]
    let played = await play(
      [
        (210, .tick), (220, .value(2)), (240, .value(3)), (250, .tick), (260, .tick), (290, .value(4)),
        (300, .finish), (320, .tick),
      ], expecting: expected)
    #expect(played.values == expected)
    #expect(played.end == Timed(.finished, at: .milliseconds(320)))
    await played.trigger.cancelled.wait()
  }

  @Test("RxSwift SourceThrows: the base's failure fails the result at once; the trigger is cancelled")
  func rxSourceThrows() async {
    let expected = [Timed(3, at: .milliseconds(250)), Timed(5, at: .milliseconds(300))]
    let played = await play(
      [
        (210, .tick), (220, .value(2)), (240, .value(3)), (250, .tick), (260, .tick), (290, .value(4)),
        (300, .value(5)), (300, .tick), (310, .value(6)), (320, .fail),
      ], expecting: expected)
    #expect(played.values == expected)
    #expect(played.end == Timed(.failed(TestError(code: 1)), at: .milliseconds(320)))
    await played.trigger.cancelled.wait()
  }

  @Test("RxSwift SamplerThrows: the trigger's failure fails the result at once; the pending value is dropped")
  func rxSamplerThrows() async {
    let expected = [Timed(3, at: .milliseconds(250))]
    let played = await play(
      [
        (210, .tick), (220, .value(2)), (240, .value(3)), (250, .tick), (260, .tick), (290, .value(4)),
        (300, .value(5)), (310, .value(6)), (320, .triggerFail),
      ], expecting: expected)
    #expect(played.values == expected)
    #expect(played.end == Timed(.failed(TestError(code: 2)), at: .milliseconds(320)))
    await played.base.cancelled.wait()
  }

  @Test("the trigger ending while the base runs ends the result (RxSwift would wait forever); the base is cancelled")
  func triggerEndsFirst() async {
    let expected = [Timed(2, at: .milliseconds(250)), Timed(3, at: .milliseconds(300))]
    let played = await play(
      [(220, .value(2)), (250, .tick), (260, .value(3)), (300, .triggerFinish)], expecting: expected)
    #expect(played.values == expected)
    #expect(played.end == Timed(.finished, at: .milliseconds(300)))
    await played.base.cancelled.wait()
  }

  @Test("cancelling the consumer, or dropping the iterator, cancels both sequences")
  func cancellation() async {
    let base = WatchedInput<Int, Never>()
    let trigger = WatchedInput<Void, Never>()
    await expectCancellingTheConsumerCancelsBoth(base, trigger) {
      await base.signal.sample(on: trigger.signal).collect()
    }

    let values = Feed<Int, Never>()
    let ticks = Feed<Void, Never>()
    do {
      var iterator = values.sample(on: ticks).makeAsyncIterator()
      let first = Task {
        await values.send(1)
        await ticks.send(())
      }
      #expect(await iterator.next() == 1)
      await first.value
    }
    await values.cancelled.wait()
    await ticks.cancelled.wait()
  }

  @Test("the result's failure type; over two signals it can be retried")
  func failureTypes() async {
    let never = Signal<Int, Never>.just(1)
    let typed = Signal<Int, TestError>.just(1)
    let other = Signal<Int, OtherError>.just(1)
    #expect(type(of: never.sample(on: never)).Failure.self == Never.self)
    #expect(type(of: typed.sample(on: typed)).Failure.self == TestError.self)
    #expect(type(of: never.sample(on: typed)).Failure.self == (any Error).self)  // the other input fails: any Error
    #expect(type(of: typed.sample(on: never)).Failure.self == TestError.self)
    #expect(type(of: typed.sample(on: other)).Failure.self == (any Error).self)
    for await _ in never.sample(on: Signal<Int, Never>.empty) {}
    _ = typed.sample(on: never).retry(1)
  }

  // MARK: Timeline player

  enum Step {
    case value(Int)
    case finish
    case fail
    case tick
    case triggerFinish
    case triggerFail
  }

  struct Played {
    let values: [Timed<Int>]
    let end: Timed<Recorder<Int, TestError>.End>?
    let base: Feed<Int, TestError>
    let trigger: Feed<Void, TestError>
  }

  /// Plays `steps` (milliseconds, event) on two feeds and records `base.sample(on: trigger)`. Before moving the
  /// clock on, it waits until the operator took the event and the recorder has the `expected` values due before
  /// the next step (a value is stamped when the recorder takes it). An unexpected value shows in the recorded
  /// values.
  func play(_ steps: [(Int, Step)], expecting expected: [Timed<Int>]) async -> Played {
    let clock = TestClock()
    let base = Feed<Int, TestError>()
    let trigger = Feed<Void, TestError>()
    let recorder = Recorder(base.sample(on: trigger), clock: clock)
    for (index, (time, step)) in steps.enumerated() {
      await clock.advance(to: instant(time))
      switch step {
      case .value(let value): await base.send(value)
      case .finish: await base.finish()
      case .fail: await base.fail(TestError(code: 1))
      case .tick: await trigger.send(())
      case .triggerFinish: await trigger.finish()
      case .triggerFail: await trigger.fail(TestError(code: 2))
      }
      // Every value due before the next step's time has come out by now (two steps may share a time).
      let next = index + 1 < steps.count ? instant(steps[index + 1].0) : instant(.max)
      _ = await recorder.waitForValues(count: expected.count(where: { $0.instant < next }))
    }
    let end = await recorder.waitForEnd()
    return Played(values: recorder.values, end: end, base: base, trigger: trigger)
  }
}

private struct OtherError: Error {}
