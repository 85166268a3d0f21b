import AsyncReactive
import AsyncReactiveTesting
import Testing

/// `reduce`, `toArray`, `takeLast`, `last`, `ignoreElements`, `ifEmpty(default:)`, `first()`, `element(at:)`,
/// `enumerated()` and `dematerialize()`: RxSwift's own test cases (its ticks as seconds), over hot and cold inputs.
@Suite("Aggregates and positions: reduce, toArray, takeLast, element(at:), enumerated, …", .timeLimit(.minutes(1)))
struct AggregateOperatorTests {
  /// What RxTest's `scheduler.start` gives: the events of the operator subscribed at 200 s and watched until
  /// `disposed`, and whether it still observed its input just before that (RxTest's `Subscription(200, 1000)`).
  struct Run<Output: Sendable, Failure: Error> {
    var events: [Recorded<Output, Failure>]
    var observedUntilDisposed: Bool
  }

  /// Subscribes `make()` at 200 s, advances to `disposed` and cancels the consumer there, as RxTest's
  /// `scheduler.start(disposed:)` does; `consumers` counts the input's consumers.
  static func start<Output: Sendable, Failure: Error>(
    _ clock: TestClock, disposed: Int = 1000, consumers: () -> Int, _ make: () -> Signal<Output, Failure>
  ) async -> Run<Output, Failure> {
    await clock.advance(to: seconds(200))
    let recorder = Recorder(make(), clock: clock)
    await clock.advance(to: seconds(disposed))
    let run = Run(events: recorder.events, observedUntilDisposed: consumers() > 0)
    recorder.cancel()
    await clock.settle()
    #expect(consumers() == 0, "the consumer's cancellation ends the upstream")
    return run
  }

  static func seconds(_ count: Int) -> TestClock.Instant { TestClock.Instant(offset: .seconds(count)) }

  /// The timeline of RxSwift's `takeLast` and `element(at:)` tests, up to its end.
  static let longTimeline: [Recorded<Int, TestError>] = [
    .value(6, at: .seconds(70)), .value(4, at: .seconds(150)), .value(9, at: .seconds(210)),
    .value(13, at: .seconds(230)), .value(7, at: .seconds(270)), .value(1, at: .seconds(280)),
    .value(-1, at: .seconds(300)), .value(3, at: .seconds(310)), .value(8, at: .seconds(340)),
    .value(11, at: .seconds(370)), .value(15, at: .seconds(410)), .value(16, at: .seconds(415)),
    .value(72, at: .seconds(460)), .value(76, at: .seconds(510)), .value(32, at: .seconds(560)),
    .value(-100, at: .seconds(570)), .value(-3, at: .seconds(580)), .value(5, at: .seconds(590)),
    .value(10, at: .seconds(630)),
  ]

  // MARK: reduce

  @Test("reduce over an empty hot input emits the seed at the finish (test_ReduceWithSeed_Empty)")
  func reduceEmpty() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([.value(1, at: .seconds(150)), .finished(at: .seconds(250))])
      let run = await Self.start(clock, consumers: { xs.consumerCount }) { xs.reduce(42, +) }
      #expect(run.events == [.value(42, at: .seconds(250)), .finished(at: .seconds(250))])
      #expect(!run.observedUntilDisposed)
    }
  }

  @Test("reduce emits the accumulation once, at the finish (test_ReduceWithSeed_Return, _Range)")
  func reduceRange() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let one = clock.hotTimeline([
        .value(1, at: .seconds(150)), .value(24, at: .seconds(210)), .finished(at: .seconds(250)),
      ])
      let range = clock.hotTimeline([
        .value(1, at: .seconds(150)), .value(0, at: .seconds(210)), .value(1, at: .seconds(220)),
        .value(2, at: .seconds(230)), .value(3, at: .seconds(240)), .value(4, at: .seconds(250)),
        .finished(at: .seconds(260)),
      ])
      await clock.advance(to: Self.seconds(200))
      let sums = Recorder(one.reduce(42, +), clock: clock)
      let sumsOfRange = Recorder(range.reduce(42, +), clock: clock)
      await clock.advance(to: Self.seconds(1000))
      #expect(sums.events == [.value(42 + 24, at: .seconds(250)), .finished(at: .seconds(250))])
      #expect(sumsOfRange.events == [.value(42 + 0 + 1 + 2 + 3 + 4, at: .seconds(260)), .finished(at: .seconds(260))])
      #expect(one.consumerCount == 0 && range.consumerCount == 0)
    }
  }

  @Test("reduce then map is RxSwift's reduce with a result selector (test_ReduceWithSeedAndResult_Range)")
  func reduceWithResultSelector() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([
        .value(1, at: .seconds(150)), .value(0, at: .seconds(210)), .value(1, at: .seconds(220)),
        .value(2, at: .seconds(230)), .value(3, at: .seconds(240)), .value(4, at: .seconds(250)),
        .finished(at: .seconds(260)),
      ])
      let run = await Self.start(clock, consumers: { xs.consumerCount }) { xs.reduce(42, +).map { $0 * 5 } }
      #expect(run.events == [.value((42 + 0 + 1 + 2 + 3 + 4) * 5, at: .seconds(260)), .finished(at: .seconds(260))])
    }
  }

  @Test("reduce passes a failure on at once, without the accumulation (test_ReduceWithSeed_Throw)")
  func reduceFailure() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(150)), .value(5, at: .seconds(205)), .failed(TestError(code: 1), at: .seconds(210)),
      ])
      let run = await Self.start(clock, consumers: { xs.consumerCount }) { xs.reduce(42, +) }
      #expect(run.events == [.failed(TestError(code: 1), at: .seconds(210))])
      #expect(!run.observedUntilDisposed)
    }
  }

  @Test("reduce over an input that never ends emits nothing and observes it until disposed (test_ReduceWithSeed_Never)")
  func reduceNever() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([.value(1, at: .seconds(150)), .value(2, at: .seconds(300))])
      let run = await Self.start(clock, consumers: { xs.consumerCount }) { xs.reduce(42, +) }
      #expect(run.events == [])
      #expect(run.observedUntilDisposed)
    }
  }

  @Test("reduce(into:) updates one accumulator in place and emits it at the finish")
  func reduceInto() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([
        .value("a", at: .seconds(210)), .value("b", at: .seconds(220)), .value("a", at: .seconds(230)),
        .finished(at: .seconds(240)),
      ])
      let run = await Self.start(clock, consumers: { xs.consumerCount }) {
        xs.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
      }
      #expect(run.events == [.value(["a": 2, "b": 1], at: .seconds(240)), .finished(at: .seconds(240))])
    }
    #expect(await Signal<Int, Never>(1...4).reduce(into: [Int]()) { $0.insert($1, at: 0) }.collect() == [[4, 3, 2, 1]])
  }

  @Test("reduce over cold inputs: one accumulator per run, emitted at the run's finish")
  func reduceCold() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.coldTimeline([
        .value(1, at: .seconds(10)), .value(2, at: .seconds(20)), .finished(at: .seconds(30)),
      ])
      let run = await Self.start(clock, consumers: { 0 }) { xs.reduce(10, +) }
      #expect(run.events == [.value(13, at: .seconds(230)), .finished(at: .seconds(230))])
    }
    let sum = Signal<Int, Never>([1, 2, 3]).reduce(0, +)
    #expect(await sum.collect() == [6])
    #expect(await sum.collect() == [6])
    #expect(await Signal<Int, Never>.empty.reduce(7, +).collect() == [7])
    let failed = await Signal<Int, TestError>.fail(TestError(code: 2)).reduce(0, +).collectResult()
    #expect(failed.values == [] && failed.failure == TestError(code: 2))
  }

  @Test("on an AsyncStream, reduce stays the standard library's; on ours, a result type picks it too")
  func reduceKeepsTheStandardLibrarysMeaning() async {
    let stream = AsyncStream<Int> { continuation in
      for value in 1...3 { continuation.yield(value) }
      continuation.finish()
    }
    let total = await stream.reduce(0, +)
    #expect(total == 6)
    let awaited: Int = await Signal<Int, Never>([1, 2, 3]).reduce(0, +)
    #expect(awaited == 6)
  }

  // MARK: toArray

  @Test("toArray over cold inputs: one array at the finish (test_ToArrayWith…_Return, _NoItems_Empty)")
  func toArrayCold() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let single = clock.coldTimeline([.value(1, at: .seconds(10)), .finished(at: .seconds(20))])
      let multiple = clock.coldTimeline([
        .value(1, at: .seconds(10)), .value(2, at: .seconds(20)), .value(3, at: .seconds(30)),
        .value(4, at: .seconds(40)), .finished(at: .seconds(50)),
      ])
      let empty = clock.coldTimeline([Recorded<Int, Never>.finished(at: .seconds(50))])
      await clock.advance(to: Self.seconds(200))
      let singles = Recorder(single.toArray(), clock: clock)
      let multiples = Recorder(multiple.toArray(), clock: clock)
      let empties = Recorder(empty.toArray(), clock: clock)
      await clock.advance(to: Self.seconds(1000))
      #expect(singles.events == [.value([1], at: .seconds(220)), .finished(at: .seconds(220))])
      #expect(multiples.events == [.value([1, 2, 3, 4], at: .seconds(250)), .finished(at: .seconds(250))])
      #expect(empties.events == [.value([], at: .seconds(250)), .finished(at: .seconds(250))])
    }
    let array = Signal<Int, Never>(1...5).toArray()
    #expect(await array.collect() == [[1, 2, 3, 4, 5]])
    #expect(await array.collect() == [[1, 2, 3, 4, 5]])
  }

  @Test("toArray fails at once, dropping what it collected (test_ToArrayWithImmediateError, _MultipleItems_Throw)")
  func toArrayFailure() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let immediate: ColdTimeline<Int, TestError> = clock.coldTimeline([.failed(TestError(code: 1), at: .seconds(10))])
      let later: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(1, at: .seconds(10)), .value(2, at: .seconds(20)), .value(3, at: .seconds(30)),
        .value(4, at: .seconds(40)), .failed(TestError(code: 2), at: .seconds(50)),
      ])
      await clock.advance(to: Self.seconds(200))
      let first = Recorder(immediate.toArray(), clock: clock)
      let second = Recorder(later.toArray(), clock: clock)
      await clock.advance(to: Self.seconds(1000))
      #expect(first.events == [.failed(TestError(code: 1), at: .seconds(210))])
      #expect(second.events == [.failed(TestError(code: 2), at: .seconds(250))])
    }
  }

  @Test("toArray over a hot input that never ends emits nothing (test_ToArrayWithSingleItem_Never)")
  func toArrayNever() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([.value(1, at: .seconds(150)), .value(2, at: .seconds(250))])
      let run = await Self.start(clock, consumers: { xs.consumerCount }) { xs.toArray() }
      #expect(run.events == [])
      #expect(run.observedUntilDisposed)
    }
  }

  // MARK: takeLast and last

  @Test("takeLast with fewer, as many and more values than the count (test_TakeLast_Complete_Less, _Same, _More)")
  func takeLastComplete() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let less = clock.hotTimeline(Self.longTimeline.prefix(7) + [.finished(at: .seconds(300))])
      let same = clock.hotTimeline(Self.longTimeline.prefix(7) + [.finished(at: .seconds(310))])
      let more = clock.hotTimeline(Self.longTimeline.prefix(9) + [.finished(at: .seconds(350))])
      await clock.advance(to: Self.seconds(200))
      let lessRecorder = Recorder(less.takeLast(7), clock: clock)
      let sameRecorder = Recorder(same.takeLast(5), clock: clock)
      let moreRecorder = Recorder(more.takeLast(5), clock: clock)
      await clock.advance(to: Self.seconds(1000))
      #expect(
        lessRecorder.events == [9, 13, 7, 1, -1].map { .value($0, at: .seconds(300)) } + [.finished(at: .seconds(300))])
      #expect(
        sameRecorder.events == [9, 13, 7, 1, -1].map { .value($0, at: .seconds(310)) } + [.finished(at: .seconds(310))])
      #expect(
        moreRecorder.events == [7, 1, -1, 3, 8].map { .value($0, at: .seconds(350)) } + [.finished(at: .seconds(350))])
      #expect(less.consumerCount == 0 && same.consumerCount == 0 && more.consumerCount == 0)
    }
  }

  @Test("takeLast fails at once, without the values it held (test_TakeLast_Error_Less, _Same, _More)")
  func takeLastFailure() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let less = clock.hotTimeline(Self.longTimeline.prefix(6) + [.failed(TestError(code: 1), at: .seconds(300))])
      let more = clock.hotTimeline(Self.longTimeline.prefix(9) + [.failed(TestError(code: 2), at: .seconds(360))])
      await clock.advance(to: Self.seconds(200))
      let lessRecorder = Recorder(less.takeLast(7), clock: clock)
      let moreRecorder = Recorder(more.takeLast(5), clock: clock)
      await clock.advance(to: Self.seconds(1000))
      #expect(lessRecorder.events == [.failed(TestError(code: 1), at: .seconds(300))])
      #expect(moreRecorder.events == [.failed(TestError(code: 2), at: .seconds(360))])
    }
  }

  @Test("takeLast(0) emits nothing; takeLast(3) the last three (test_TakeLast_0, _TakeLast1)")
  func takeLastZeroAndThree() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let endless = clock.hotTimeline(Array(Self.longTimeline.prefix(4)))
      let xs = clock.hotTimeline(Self.longTimeline.prefix(10) + [.finished(at: .seconds(400))])
      await clock.advance(to: Self.seconds(200))
      let none = Recorder(endless.takeLast(0), clock: clock)
      let three = Recorder(xs.takeLast(3), clock: clock)
      await clock.advance(to: Self.seconds(1000))
      #expect(none.events == [])
      #expect(endless.consumerCount == 1)
      #expect(three.events == [3, 8, 11].map { .value($0, at: .seconds(400)) } + [.finished(at: .seconds(400))])
      none.cancel()
    }
    #expect(await Signal<Int, Never>(1...3).takeLast(0).collect() == [])
  }

  @Test("a value sent back to the input while takeLast emits is not taken (test_TakeLast_DecrementCountsFirst)")
  func takeLastReentrantSend() async {
    let k = AsyncCurrentValueSubject<Bool, Never>(false)
    let elements = Locked<[Bool]>([])
    let lifetime = Lifetime()
    k.takeLast(1).eraseToHotSignal().sink(in: lifetime) { value in
      elements.withLock { $0.append(value) }
      k.send(!value)
    }
    k.finish()
    #expect(elements.withLock { $0 } == [false])
  }

  @Test("last emits the last value at the finish, nothing for an empty input, the failure at once")
  func last() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline(Self.longTimeline.prefix(8) + [.finished(at: .seconds(320))])
      let empty = clock.hotTimeline([Recorded<Int, Never>.value(1, at: .seconds(150)), .finished(at: .seconds(250))])
      let failing = clock.hotTimeline(Self.longTimeline.prefix(8) + [.failed(TestError(code: 3), at: .seconds(320))])
      await clock.advance(to: Self.seconds(200))
      let lasts = Recorder(xs.last(), clock: clock)
      let empties = Recorder(empty.last(), clock: clock)
      let failures = Recorder(failing.last(), clock: clock)
      await clock.advance(to: Self.seconds(1000))
      #expect(lasts.events == [.value(3, at: .seconds(320)), .finished(at: .seconds(320))])
      #expect(empties.events == [.finished(at: .seconds(250))])
      #expect(failures.events == [.failed(TestError(code: 3), at: .seconds(320))])
    }
    #expect(await Signal<Int, Never>([4, 5, 6]).last().collect() == [6])
    #expect(await Signal<Int, Never>.empty.last().collect() == [])
  }

  @Test("takeLast over a cold input: each run keeps its own last values")
  func takeLastCold() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.coldTimeline([
        .value(1, at: .seconds(10)), .value(2, at: .seconds(20)), .value(3, at: .seconds(30)),
        .finished(at: .seconds(40)),
      ])
      let run = await Self.start(clock, consumers: { 0 }) { xs.takeLast(2) }
      #expect(run.events == [.value(2, at: .seconds(240)), .value(3, at: .seconds(240)), .finished(at: .seconds(240))])
    }
    let lastTwo = Signal<Int, Never>(1...5).takeLast(2)
    #expect(await lastTwo.collect() == [4, 5])
    #expect(await lastTwo.collect() == [4, 5])
  }

  // MARK: ignoreElements

  @Test("ignoreElements passes on only the end: finished, failed, or nothing")
  func ignoreElements() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let finishing = clock.hotTimeline([
        .value(1, at: .seconds(210)), .value(2, at: .seconds(220)), .finished(at: .seconds(250)),
      ])
      let failing: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(210)), .failed(TestError(code: 4), at: .seconds(260)),
      ])
      let endless = clock.hotTimeline([Recorded<Int, Never>.value(1, at: .seconds(210))])
      await clock.advance(to: Self.seconds(200))
      let finished = Recorder(finishing.ignoreElements(), clock: clock)
      let failed = Recorder(failing.ignoreElements(), clock: clock)
      let running = Recorder(endless.ignoreElements(), clock: clock)
      await clock.advance(to: Self.seconds(1000))
      #expect(finished.events == [.finished(at: .seconds(250))])
      #expect(failed.events == [.failed(TestError(code: 4), at: .seconds(260))])
      #expect(running.events == [])
      #expect(endless.consumerCount == 1)
      running.cancel()
      await clock.settle()
      #expect(endless.consumerCount == 0)
    }
    let result = await Signal<Int, TestError> { (emitter) throws(TestError) in
      emitter.send(1)
      throw TestError(code: 5)
    }.ignoreElements().collectResult()
    #expect(result.values.isEmpty && result.failure == TestError(code: 5))
  }

  // MARK: ifEmpty(default:)

  @Test("ifEmpty(default:) over an empty, a failing, a non-empty and an endless input (test_DefaultIfEmpty_*)")
  func ifEmpty() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let empty = clock.hotTimeline([Recorded<Int, Never>.finished(at: .seconds(201))])
      let failing = clock.hotTimeline([Recorded<Int, TestError>.failed(TestError(code: 6), at: .seconds(201))])
      let emitting = clock.hotTimeline([
        .value(1, at: .seconds(201)), .value(2, at: .seconds(202)), .value(3, at: .seconds(203)),
        .finished(at: .seconds(204)),
      ])
      let endless = clock.hotTimeline([Recorded<Int, Never>.value(0, at: .zero)])
      await clock.advance(to: Self.seconds(200))
      let defaulted = Recorder(empty.ifEmpty(default: 1), clock: clock)
      let failed = Recorder(failing.ifEmpty(default: 1), clock: clock)
      let passed = Recorder(emitting.ifEmpty(default: 42), clock: clock)
      let waiting = Recorder(endless.ifEmpty(default: 42), clock: clock)
      await clock.advance(to: Self.seconds(1000))
      #expect(defaulted.events == [.value(1, at: .seconds(201)), .finished(at: .seconds(201))])
      #expect(failed.events == [.failed(TestError(code: 6), at: .seconds(201))])
      #expect(
        passed.events == [
          .value(1, at: .seconds(201)), .value(2, at: .seconds(202)), .value(3, at: .seconds(203)),
          .finished(at: .seconds(204)),
        ])
      #expect(waiting.events == [])
      #expect(endless.consumerCount == 1)
      waiting.cancel()
    }
    #expect(await Signal<Int, Never>.empty.ifEmpty(default: -1).collect() == [-1])
    #expect(await Signal<Int, Never>([1, 2]).ifEmpty(default: -1).collect() == [1, 2])
  }

  // MARK: first and element(at:)

  @Test("element(at:) emits the value at the index and lets the input go (test_ElementAt_Complete_After, _First)")
  func elementAt() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline(Self.longTimeline + [.finished(at: .seconds(690))])
      let ys = clock.hotTimeline(Self.longTimeline.prefix(10) + [.finished(at: .seconds(400))])
      let run = await Self.start(clock, consumers: { xs.consumerCount }) {
        Signal(merge(xs.element(at: 10), ys.element(at: 0).map { $0 * 1000 }))
      }
      #expect(
        run.events == [.value(9000, at: .seconds(210)), .value(72, at: .seconds(460)), .finished(at: .seconds(460))])
      #expect(!run.observedUntilDisposed)
      #expect(ys.consumerCount == 0)
    }
  }

  @Test("element(at:) over an input that finishes first finishes with nothing (RxSwift fails: argumentOutOfRange)")
  func elementAtInputEndsFirst() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline(Self.longTimeline.prefix(7) + [.finished(at: .seconds(320))])
      let run = await Self.start(clock, consumers: { xs.consumerCount }) { xs.element(at: 10) }
      #expect(run.events == [.finished(at: .seconds(320))])
      #expect(!run.observedUntilDisposed)
    }
    #expect(await Signal<Int, Never>([1, 2]).element(at: 2).collect() == [])
    #expect(await Signal<Int, Never>([1, 2]).element(at: 2).ifEmpty(default: 0).collect() == [0])
  }

  @Test("element(at:) ignores a failure after its value, passes one before it (test_ElementAt_Error_After, _Before)")
  func elementAtFailure() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let after = clock.hotTimeline(Self.longTimeline + [.failed(TestError(code: 1), at: .seconds(690))])
      let before = clock.hotTimeline(Self.longTimeline.prefix(7) + [.failed(TestError(code: 2), at: .seconds(310))])
      await clock.advance(to: Self.seconds(200))
      let afterRecorder = Recorder(after.element(at: 10), clock: clock)
      let beforeRecorder = Recorder(before.element(at: 10), clock: clock)
      await clock.advance(to: Self.seconds(1000))
      #expect(afterRecorder.events == [.value(72, at: .seconds(460)), .finished(at: .seconds(460))])
      #expect(beforeRecorder.events == [.failed(TestError(code: 2), at: .seconds(310))])
    }
  }

  @Test("element(at:) cancelled before or after its value (test_ElementAt_Dispose_Before, _After)")
  func elementAtDisposed() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline(Self.longTimeline + [.failed(TestError(code: 1), at: .seconds(690))])
      let early = await Self.start(clock, disposed: 250, consumers: { xs.consumerCount }) { xs.element(at: 3) }
      #expect(early.events == [])
      #expect(early.observedUntilDisposed)
    }
    let other = TestClock()
    await other.withVirtualTime {
      let xs = other.hotTimeline(Self.longTimeline + [.failed(TestError(code: 1), at: .seconds(690))])
      let late = await Self.start(other, disposed: 400, consumers: { xs.consumerCount }) { xs.element(at: 3) }
      #expect(late.events == [.value(1, at: .seconds(280)), .finished(at: .seconds(280))])
      #expect(!late.observedUntilDisposed)
    }
  }

  @Test("first() emits the first value and finishes; an empty input finishes; a failure before it passes")
  func first() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline(Self.longTimeline + [.finished(at: .seconds(690))])
      let empty = clock.hotTimeline([Recorded<Int, Never>.finished(at: .seconds(250))])
      let failing = clock.hotTimeline([Recorded<Int, TestError>.failed(TestError(code: 9), at: .seconds(230))])
      await clock.advance(to: Self.seconds(200))
      let firsts = Recorder(xs.first(), clock: clock)
      let empties = Recorder(empty.first(), clock: clock)
      let failures = Recorder(failing.first(), clock: clock)
      await clock.advance(to: Self.seconds(1000))
      #expect(firsts.events == [.value(9, at: .seconds(210)), .finished(at: .seconds(210))])
      #expect(empties.events == [.finished(at: .seconds(250))])
      #expect(failures.events == [.failed(TestError(code: 9), at: .seconds(230))])
    }
    #expect(await Signal<Int, Never>([7, 8]).first().collect() == [7])
    #expect(await Signal<Int, Never>.empty.first().collect() == [])
  }

  @Test("over a cold input, first() and element(at:) stop its run once they have their value")
  func elementCold() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.coldTimeline([
        .value(1, at: .seconds(10)), .value(2, at: .seconds(20)), .value(3, at: .seconds(30)),
        .finished(at: .seconds(40)),
      ])
      let run = await Self.start(clock, consumers: { 0 }) { xs.element(at: 1) }
      #expect(run.events == [.value(2, at: .seconds(220)), .finished(at: .seconds(220))])
      #expect(!clock.hasSleepers)
    }
    let values = Feed<Int, Never>()
    let consumer = Task { await values.first().collect() }
    await values.send(5)
    await values.cancelled.wait()
    #expect(await consumer.value == [5])
  }

  // MARK: enumerated

  @Test("enumerated numbers the values from 0 and passes the end on (test_Infinite, test_Completed, test_Error)")
  func enumerated() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let endless = clock.hotTimeline([
        .value("a", at: .seconds(210)), .value("b", at: .seconds(220)), .value("c", at: .seconds(280)),
      ])
      let completing = clock.hotTimeline([
        .value("a", at: .seconds(210)), .value("b", at: .seconds(220)), .value("c", at: .seconds(280)),
        .finished(at: .seconds(300)),
      ])
      let failing: HotTimeline<String, TestError> = clock.hotTimeline([
        .value("a", at: .seconds(210)), .value("b", at: .seconds(220)), .value("c", at: .seconds(280)),
        .failed(TestError(code: 1), at: .seconds(300)),
      ])
      await clock.advance(to: Self.seconds(200))
      let infinite = Recorder(endless.enumerated().map { "\($0.offset)\($0.element)" }, clock: clock)
      let completed = Recorder(completing.enumerated().map { "\($0.offset)\($0.element)" }, clock: clock)
      let failed = Recorder(failing.enumerated().map { "\($0.offset)\($0.element)" }, clock: clock)
      await clock.advance(to: Self.seconds(1000))
      let values: [Recorded<String, Never>] = [
        .value("0a", at: .seconds(210)), .value("1b", at: .seconds(220)), .value("2c", at: .seconds(280)),
      ]
      #expect(infinite.events == values)
      #expect(completed.events == values + [.finished(at: .seconds(300))])
      #expect(
        failed.events == [
          .value("0a", at: .seconds(210)), .value("1b", at: .seconds(220)), .value("2c", at: .seconds(280)),
          .failed(TestError(code: 1), at: .seconds(300)),
        ])
      #expect(endless.consumerCount == 1)
      infinite.cancel()
    }
    let numbered = Signal<String, Never>(["x", "y"]).enumerated().map { "\($0.offset)\($0.element)" }
    #expect(await numbered.collect() == ["0x", "1y"])
    #expect(await numbered.collect() == ["0x", "1y"])
  }

  // MARK: dematerialize

  @Test("dematerialize ends at the first end, event or input's (test_Dematerialize_Range1, _Range2)")
  func dematerializeRange() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let byInput = clock.hotTimeline([
        .value(Event<Int, TestError>.value(41), at: .seconds(150)), .value(.value(42), at: .seconds(210)),
        .value(.value(43), at: .seconds(220)), .finished(at: .seconds(250)), .finished(at: .seconds(251)),
      ])
      let byEvent = clock.hotTimeline([
        .value(Event<Int, TestError>.value(41), at: .seconds(150)), .value(.value(42), at: .seconds(210)),
        .value(.value(43), at: .seconds(220)), .value(.finished, at: .seconds(230)),
        .value(.finished, at: .seconds(231)),
      ])
      await clock.advance(to: Self.seconds(200))
      let first = Recorder(byInput.dematerialize(), clock: clock)
      let second = Recorder(byEvent.dematerialize(), clock: clock)
      await clock.advance(to: Self.seconds(1000))
      #expect(
        first.events == [.value(42, at: .seconds(210)), .value(43, at: .seconds(220)), .finished(at: .seconds(250))])
      #expect(
        second.events == [.value(42, at: .seconds(210)), .value(43, at: .seconds(220)), .finished(at: .seconds(230))])
      #expect(byEvent.consumerCount == 0)
    }
  }

  @Test("dematerialize fails with the first failed event (test_Dematerialize_Error2)")
  func dematerializeFailedEvent() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([
        .value(Event<Int, TestError>.value(41), at: .seconds(150)), .value(.value(42), at: .seconds(210)),
        .value(.value(43), at: .seconds(220)), .value(.failed(TestError(code: 1)), at: .seconds(230)),
        .value(.failed(TestError(code: 2)), at: .seconds(231)),
      ])
      let run = await Self.start(clock, consumers: { xs.consumerCount }) { xs.dematerialize() }
      #expect(
        run.events == [
          .value(42, at: .seconds(210)), .value(43, at: .seconds(220)), .failed(TestError(code: 1), at: .seconds(230)),
        ])
      #expect(!run.observedUntilDisposed)
    }
  }

  @Test("materialize then dematerialize gives the input back (test_Materialize_Dematerialize_*)")
  func materializeDematerialize() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let empty = clock.hotTimeline([
        Recorded<Int, TestError>.value(1, at: .seconds(150)), .finished(at: .seconds(250)),
      ])
      let returning = clock.hotTimeline([
        Recorded<Int, TestError>.value(1, at: .seconds(150)), .value(2, at: .seconds(210)),
        .finished(at: .seconds(250)),
      ])
      let throwing = clock.hotTimeline([
        Recorded<Int, TestError>.value(1, at: .seconds(150)), .failed(TestError(code: 3), at: .seconds(250)),
      ])
      await clock.advance(to: Self.seconds(200))
      let never = Recorder(Signal<Int, TestError>.never.materialize().dematerialize(), clock: clock)
      let empties = Recorder(empty.materialize().dematerialize(), clock: clock)
      let returns = Recorder(returning.materialize().dematerialize(), clock: clock)
      let throwsRecorder = Recorder(throwing.materialize().dematerialize(), clock: clock)
      await clock.advance(to: Self.seconds(1000))
      #expect(never.events == [])
      #expect(empties.events == [.finished(at: .seconds(250))])
      #expect(returns.events == [.value(2, at: .seconds(210)), .finished(at: .seconds(250))])
      #expect(throwsRecorder.events == [.failed(TestError(code: 3), at: .seconds(250))])
      never.cancel()
    }
    let roundTrip = await Signal<Int, TestError> { (emitter) throws(TestError) in
      emitter.send(1)
      emitter.send(2)
      throw TestError(code: 4)
    }.materialize().dematerialize().collectResult()
    #expect(roundTrip.values == [1, 2] && roundTrip.failure == TestError(code: 4))
  }

  // MARK: Cancellation, sharing, preconditions

  @Test("cancelling the consumer, or dropping the iterator, of an aggregate cancels the upstream")
  func cancellation() async {
    let values = Feed<Int, Never>()
    let consumer = Task { await values.toArray().collect() }
    await values.send(1)
    await values.send(2)
    consumer.cancel()
    await values.cancelled.wait()
    #expect(await consumer.value == [])

    let other = Feed<Int, Never>()
    let sender = Task { await other.send(1) }  // returns once the iterator is dropped
    do {
      var iterator = other.enumerated().makeAsyncIterator()
      #expect(await iterator.next()?.element == 1)
    }
    await sender.value
    await other.cancelled.wait()
  }

  @Test("consumers of one hot aggregate share its accumulator: one that joins later gets the same result")
  func sharedHotAggregate() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let total = subject.reduce(0, +)
    let early = Recorder(total, clock: clock)
    subject.send(1)
    let late = Recorder(total, clock: clock)
    subject.send(2)
    #expect(early.events == [] && late.events == [])
    subject.finish()
    #expect(early.events == [.value(3, at: .zero), .finished(at: .zero)])
    #expect(late.events == early.events)
    #expect(Recorder(total, clock: clock).events == [.finished(at: .zero)])
  }

  @Test("takeLast, element(at:) and first() name their node in a graph dump")
  func nodeNames() {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let chain = merge(subject.takeLast(2), subject.element(at: 1), subject.first(), subject.last())
    let dump = chain.eraseToHotSignal().debugGraph().description
    for name in ["takeLast", "element(at:)", "first()", "last()"] {
      #expect(dump.contains(name), "\(name) is missing from \(dump)")
    }
  }

  @Test("takeLast with a negative count traps with a clear message")
  func takeLastNegativeTraps() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.just(1).takeLast(-1)
    }
    expectTrapMessage(result, "takeLast(-1): the count must not be negative")
  }

  @Test("element(at:) with a negative index traps with a clear message")
  func elementAtNegativeTraps() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.just(1).element(at: -1)
    }
    expectTrapMessage(result, "element(at: -1): the index must not be negative")
  }
}
