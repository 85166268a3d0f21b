import AsyncReactive
import AsyncReactiveTesting
import Testing

/// How zip and combineLatest end, event by event as RxSwift 6 records them with RxTest's `TestScheduler`
/// (1 tick = 1 s here; `v@t` is a value at tick t). The expected timelines are RxSwift's.
@Suite("RxSwift fidelity: how zip and combineLatest end")
struct RxSwiftEndingTests {
  typealias Subject = AsyncPassthroughSubject<Int, TestError>

  /// Moves the clock to tick `tick` (ticks only go forward).
  static func at(_ tick: Int, _ clock: TestClock) async {
    await clock.advance(to: TestClock.Instant(offset: .seconds(tick)))
  }

  @Test("zip: a.send(1); b.send(2)@1, a.finish()@2, b.send(3)@3, b.finish()@4 → 12@1, finished@4")
  func zipFinishesWhenEveryInputHas() async {
    let clock = TestClock()
    let a = Subject()
    let b = Subject()
    let recorder = Recorder(zip(a, b).map { $0 * 10 + $1 }, clock: clock)
    await Self.at(1, clock)
    a.send(1)
    b.send(2)
    await Self.at(2, clock)
    a.finish()
    await Self.at(3, clock)
    b.send(3)
    #expect(recorder.end == nil)
    await Self.at(4, clock)
    b.finish()
    #expect(recorder.values == [Timed(12, at: .seconds(1))])
    #expect(recorder.end == Timed(.finished, at: .seconds(4)))
  }

  @Test("zip: a.finish()@1 alone leaves the result running; b.fail(E)@2 fails it")
  func zipEmptyInputThenFailure() async {
    let clock = TestClock()
    let a = Subject()
    let b = Subject()
    let recorder = Recorder(zip(a, b).map { $0 * 10 + $1 }, clock: clock)
    await Self.at(1, clock)
    a.finish()
    #expect(recorder.end == nil)
    await Self.at(2, clock)
    b.fail(TestError(code: 1))
    #expect(recorder.values.isEmpty)
    #expect(recorder.end == Timed(.failed(TestError(code: 1)), at: .seconds(2)))
  }

  @Test("zip: RxSwift's testZip_NeverEmpty: a never-ending input and an empty one record nothing")
  func zipNeverEmpty() async {
    let clock = TestClock()
    let never = Subject()
    let empty = Subject()
    let recorder = Recorder(zip(never, empty).map { $0 + $1 }, clock: clock)
    await Self.at(210, clock)
    empty.finish()
    await Self.at(1000, clock)
    #expect(recorder.values.isEmpty)
    #expect(recorder.end == nil)
    _ = never
  }

  @Test("zip: RxSwift's testZip_EmptyNonEmpty: finished@210, then 2@215, finished@220 → finished@220")
  func zipEmptyNonEmpty() async {
    let clock = TestClock()
    let empty = Subject()
    let other = Subject()
    let recorder = Recorder(zip(empty, other).map { $0 + $1 }, clock: clock)
    await Self.at(210, clock)
    empty.finish()
    await Self.at(215, clock)
    other.send(2)
    await Self.at(220, clock)
    other.finish()
    #expect(recorder.values.isEmpty)
    #expect(recorder.end == Timed(.finished, at: .seconds(220)))
  }

  @Test("combineLatest: a.finish()@1, b.send(1)@2, b.finish()@3 → finished@2")
  func combineLatestFinishesWhenNoCombinationCanCome() async {
    let clock = TestClock()
    let a = Subject()
    let b = Subject()
    let recorder = Recorder(combineLatest(a, b).map { $0 * 10 + $1 }, clock: clock)
    await Self.at(1, clock)
    a.finish()
    #expect(recorder.end == nil)
    await Self.at(2, clock)
    b.send(1)
    #expect(recorder.end == Timed(.finished, at: .seconds(2)))
    await Self.at(3, clock)
    b.finish()
    #expect(recorder.values.isEmpty)
    #expect(recorder.end == Timed(.finished, at: .seconds(2)))
  }

  @Test("combineLatest: b.finish()@1 alone leaves the result running; a.fail(E)@2 fails it")
  func combineLatestEmptyInputThenFailure() async {
    let clock = TestClock()
    let a = Subject()
    let b = Subject()
    let recorder = Recorder(combineLatest(a, b).map { $0 * 10 + $1 }, clock: clock)
    await Self.at(1, clock)
    b.finish()
    #expect(recorder.end == nil)
    await Self.at(2, clock)
    a.fail(TestError(code: 2))
    #expect(recorder.values.isEmpty)
    #expect(recorder.end == Timed(.failed(TestError(code: 2)), at: .seconds(2)))
  }

  @Test("combineLatest: RxSwift's testCombineLatest_NeverEmpty records nothing")
  func combineLatestNeverEmpty() async {
    let clock = TestClock()
    let never = Subject()
    let empty = Subject()
    let recorder = Recorder(combineLatest(never, empty).map { $0 + $1 }, clock: clock)
    await Self.at(210, clock)
    empty.finish()
    await Self.at(1000, clock)
    #expect(recorder.values.isEmpty)
    #expect(recorder.end == nil)
    _ = never
  }

  @Test("combineLatest of three: an input that produces while another has nothing ends it only once the rest ended")
  func combineLatestOfThree() async {
    let clock = TestClock()
    let inputs = (0..<3).map { _ in Subject() }
    let recorder = Recorder(
      combineLatest(inputs[0], inputs[1], inputs[2]).map { $0 * 100 + $1 * 10 + $2 }, clock: clock)
    await Self.at(1, clock)
    inputs[0].finish()  // never produced
    await Self.at(2, clock)
    inputs[1].send(1)  // input 2 runs: not yet
    await Self.at(3, clock)
    inputs[1].finish()
    await Self.at(4, clock)
    #expect(recorder.end == nil)
    inputs[2].send(2)  // every other input ended: nothing can ever be combined
    #expect(recorder.values.isEmpty)
    #expect(recorder.end == Timed(.finished, at: .seconds(4)))
  }

  @Test("the array forms follow the same rules", arguments: [false, true])
  func arrayForms(zipped: Bool) async {
    let clock = TestClock()
    let inputs = (0..<2).map { _ in Subject() }
    let result = zipped ? zip(inputs) : combineLatest(inputs)
    let recorder = Recorder(result.map { $0[0] * 10 + $0[1] }, clock: clock)
    await Self.at(1, clock)
    inputs[0].send(1)
    inputs[1].send(2)
    await Self.at(2, clock)
    inputs[0].finish()
    await Self.at(3, clock)
    inputs[1].send(3)
    await Self.at(4, clock)
    inputs[1].finish()
    let expected = zipped ? [Timed(12, at: .seconds(1))] : [Timed(12, at: .seconds(1)), Timed(13, at: .seconds(3))]
    #expect(recorder.values == expected)
    // RxSwift's zip of a collection finishes at the element that can never be paired (3: the other input ended
    // with nothing left); its fixed-arity zip and combineLatest run until every input has ended.
    #expect(recorder.end == Timed(.finished, at: .seconds(zipped ? 3 : 4)))
  }
}
