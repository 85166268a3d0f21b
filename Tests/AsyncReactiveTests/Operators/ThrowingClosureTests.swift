import AsyncReactive
import AsyncReactiveTesting
import Testing

/// Closures that may throw, as RxSwift's may: on the library's own sequences (a subject, a `Signal`, a `Property`)
/// every spelling, throwing or not, is the library's operator, hot on a hot input; on a foreign sequence (an
/// `AsyncStream`) the standard library's names keep the standard library's meaning, and the library's own names
/// are the library's.
@Suite("throwing closures")
struct ThrowingClosureTests {
  struct Bad: Error, Equatable {
    var value: Int
  }

  static func check(_ value: Int) throws -> Int {
    if value < 0 { throw Bad(value: value) }
    return value
  }

  @Test("every spelling on a subject is the library's hot operator: a Signal, hot, failing with any Error")
  func spellingsOnASubject() {
    let s = AsyncPassthroughSubject<Int, Never>()
    let t = AsyncPassthroughSubject<Int, Never>()
    #expect(isHot(s.map { try Self.check($0) }, as: Signal<Int, any Error>.self))
    #expect(isHot(s.compactMap { try Self.check($0) }, as: Signal<Int, any Error>.self))
    #expect(isHot(s.filter { try Self.check($0) > 0 }, as: Signal<Int, any Error>.self))
    #expect(isHot(s.prefix { try Self.check($0) > 0 }, as: Signal<Int, any Error>.self))
    #expect(isHot(s.drop { try Self.check($0) > 0 }, as: Signal<Int, any Error>.self))
    #expect(isHot(s.scan(0) { try Self.check($0 + $1) }, as: Signal<Int, any Error>.self))
    #expect(isHot(s.removeDuplicates { try Self.check($0) == $1 }, as: Signal<Int, any Error>.self))
    #expect(isHot(s.withLatestFrom(t) { try Self.check($0 + $1) }, as: Signal<Int, any Error>.self))
    #expect(isHot(s.handleEvents(onValue: { _ = try Self.check($0) }), as: Signal<Int, any Error>.self))
    #expect(isHot(s.flatMap { try Signal<Int, Never>.just(Self.check($0)) }, as: Signal<Int, any Error>.self))
    #expect(isHot(s.flatMapLatest { try Signal<Int, Never>.just(Self.check($0)) }, as: Signal<Int, any Error>.self))
    let failing = AsyncPassthroughSubject<Int, Bad>()
    #expect(
      isHot(
        failing.catch { error in try Signal<Int, Never>.just(Self.check(error.value)) }, as: Signal<Int, any Error>.self
      ))
    // Without a throw, the same spellings keep the upstream's failure.
    #expect(isHot(s.map { $0 + 1 }, as: Signal<Int, Never>.self))
    #expect(isHot(s.filter { $0 > 0 }, as: Signal<Int, Never>.self))
    #expect(isHot(s.scan(0) { $0 + $1 }, as: Signal<Int, Never>.self))
    #expect(isHot(s.withLatestFrom(t) { $0 + $1 }, as: Signal<Int, Never>.self))
    #expect(isHot(failing.catch { _ in Signal<Int, Never>.just(0) }, as: Signal<Int, Never>.self))
  }

  @Test("on a Signal, a Property, and a chain in a closure's result: the library's operator")
  func spellingsOnOtherLibraryTypes() async throws {
    let cold = Signal<Int, Never>([1, 2, -3, 4])
    let mapped: Signal<Int, any Error> = cold.map { try Self.check($0) }
    let result = await mapped.collectResult()
    #expect(result.values == [1, 2])
    #expect(result.failure as? Bad == Bad(value: -3))
    let typed = Signal<Int, Bad>([1])
    let _: Signal<Int, any Error> = typed.map { try Self.check($0) }
    let property = Property(value: 5)
    #expect(isHot(property.map { try Self.check($0) }, as: Signal<Int, any Error>.self))
    let made: () -> Signal<Int, any Error> = { AsyncPassthroughSubject<Int, Never>().filter { try Self.check($0) > 0 } }
    #expect(made().isHot)
  }

  @Test(
    "on an AsyncStream: the standard library's names stay the standard library's; the library's own are the library's")
  func spellingsOnAForeignSequence() {
    let stream = AsyncStream<Int> { $0.finish() }
    let mapped = stream.map { try Self.check($0) }
    #expect(type(of: mapped) == AsyncThrowingMapSequence<AsyncStream<Int>, Int>.self)
    let filtered = stream.filter { try Self.check($0) > 0 }
    #expect(type(of: filtered) == AsyncThrowingFilterSequence<AsyncStream<Int>>.self)
    let _: Signal<Int, any Error> = stream.scan(0) { try Self.check($0 + $1) }
    let _: Signal<Int, any Error> = stream.removeDuplicates { try Self.check($0) == $1 }
  }

  @Test(
    "a throw fails that node once: the subject and the node's siblings go on; a consumer that joins gets the failure")
  func throwOnAHotChain() {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let checked = subject.map { try Self.check($0) }
    let sibling = subject.map { $0 * 10 }
    let first = Recorder(checked, clock: clock)
    let siblingRecorder = Recorder(sibling, clock: clock)
    subject.send(1)
    subject.send(-2)
    subject.send(3)
    #expect(first.values.map(\.value) == [1])
    #expect(first.failure as? Bad == Bad(value: -2))
    #expect(siblingRecorder.values.map(\.value) == [10, -20, 30])
    let late = Recorder(checked, clock: clock)
    #expect(late.values.isEmpty)
    #expect(late.failure as? Bad == Bad(value: -2))
    subject.send(4)
    #expect(siblingRecorder.values.map(\.value) == [10, -20, 30, 40])
  }

  @Test("scan, removeDuplicates, withLatestFrom and catch: what each gives before, at and after a throw")
  func statefulThrows() async {
    let clock = TestClock()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let other = AsyncCurrentValueSubject<Int, Never>(100)
    let sums = Recorder(subject.scan(0) { try Self.check($0 + $1) }, clock: clock)
    let distinct = Recorder(subject.removeDuplicates { try Self.check($0) == $1 }, clock: clock)
    let combined = Recorder(subject.withLatestFrom(other) { try Self.check($0 + $1) }, clock: clock)
    for value in [1, 1, 2, -5, 7] { subject.send(value) }
    #expect(sums.values.map(\.value) == [1, 2, 4])
    #expect(sums.failure as? Bad == Bad(value: -1))
    #expect(distinct.values.map(\.value) == [1, 2, -5])
    #expect(combined.values.map(\.value) == [101, 101, 102, 95, 107])
    let failing = AsyncPassthroughSubject<Int, Bad>()
    let recovered = Recorder(
      failing.catch { error in try Signal<Int, Never>.just(Self.check(-error.value)) }, clock: clock)
    let rethrown = Recorder(
      failing.catch { error -> Signal<Int, Never> in throw Bad(value: error.value * 10) }, clock: clock)
    failing.send(1)
    failing.fail(Bad(value: -4))
    #expect(recovered.values.map(\.value) == [1, 4])
    #expect(recovered.finished)
    #expect(rethrown.values.map(\.value) == [1])
    #expect(rethrown.failure as? Bad == Bad(value: -40))
  }
}

extension Recorder {
  /// The failure the recorded sequence ended with, if it failed.
  fileprivate var failure: Failure? {
    if case .failed(let failure)? = end?.value { return failure }
    return nil
  }

  /// Whether the recorded sequence finished normally.
  fileprivate var finished: Bool {
    if case .finished? = end?.value { return true }
    return false
  }
}
