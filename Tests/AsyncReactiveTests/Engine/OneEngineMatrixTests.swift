import AsyncReactive
import AsyncReactiveTesting
import Foundation
import Testing

/// One engine: an operator behaves the same whatever the static type of its inputs, and a cold input behaves as a
/// cold input must. The rows (one per operator) are in OneEngineMatrixRows.swift, written out per shape by
/// Scripts/generate-matrix.py.
@Suite("OneEngineMatrix: every operator, the same timeline, every shape of input")
struct OneEngineMatrixTests {
  /// One step of a timeline: time moves to a second, an input sends or ends.
  enum Step: Sendable {
    case at(Int)
    case a(Int)
    case b(Int)
    case finishA
    case finishB
  }

  /// With bursts: several sends at one instant, across both inputs (`a.send(2); b.send(11); a.send(3)`), where a
  /// graph that read its inputs at its consumer's pace would pair them differently.
  static let burst: [Step] = [
    .at(1), .a(1), .at(2), .b(10), .at(3), .a(2), .b(11), .a(3), .at(4), .b(20), .at(5), .a(4), .b(21), .at(6), .a(5),
    .at(7), .finishA, .at(8), .b(30), .at(9), .finishB,
  ]

  /// Without ties: at most one event an instant, which cold inputs (each on its own timer) play the same way.
  static let untied: [Step] = [
    .at(1), .a(1), .at(2), .b(10), .at(3), .a(2), .at(4), .b(20), .at(5), .a(4), .at(6), .a(5), .at(7), .finishA,
    .at(8), .b(30), .at(9), .finishB,
  ]

  /// The last instant a run is watched to.
  static let horizon = 12

  /// Records what one run of `make` produces while `steps` play on subjects: its events, each with the second it
  /// arrived at.
  static func recordHot(
    _ steps: [Step],
    _ make:
      @escaping @Sendable (AsyncPassthroughSubject<Int, Never>, AsyncCurrentValueSubject<Int, Never>, TestClock)
      -> Signal<String, Never>
  ) async -> [String] {
    let clock = TestClock()
    return await clock.withVirtualTime {
      let a = AsyncPassthroughSubject<Int, Never>()
      let b = AsyncCurrentValueSubject<Int, Never>(0)
      let recorder = Recorder(make(a, b, clock), clock: clock)
      await clock.settle()
      for step in steps {
        switch step {
        case .at(let second):
          await clock.settle()
          await clock.advance(to: TestClock.Instant(offset: .seconds(second)))
        case .a(let value): a.send(value)
        case .b(let value): b.send(value)
        case .finishA: a.finish()
        case .finishB: b.finish()
        }
      }
      await clock.settle()
      await clock.advance(to: TestClock.Instant(offset: .seconds(horizon)))
      await clock.settle()
      defer { recorder.cancel() }
      return events(recorder, from: TestClock.Instant(offset: .zero))
    }
  }

  static func events(_ recorder: Recorder<String, Never>, from start: TestClock.Instant) -> [String] {
    recorder.values.map { "\($0.value)@\(start.duration(to: $0.instant))" }
  }

  // MARK: Hot shapes: the same values, ends and instants

  @Test("concrete, generic, eraseToSignal and eraseToHotSignal inputs record the same", arguments: MatrixRow.allCases)
  func hotShapesAgree(_ row: MatrixRow) async {
    let concrete = await Self.recordHot(Self.burst) { MatrixShapes.concrete(row, $0, $1, clock: $2) }
    let generic = await Self.recordHot(Self.burst) { MatrixShapes.generic(row, $0, $1, clock: $2) }
    let erased = await Self.recordHot(Self.burst) {
      MatrixShapes.erased(row, $0.eraseToSignal(), $1.eraseToSignal(), clock: $2)
    }
    let erasedHot = await Self.recordHot(Self.burst) {
      MatrixShapes.erasedHot(row, $0.eraseToHotSignal(), $1.eraseToHotSignal(), clock: $2)
    }
    #expect(!concrete.isEmpty, "\(row): recorded nothing, not even an end")
    #expect(generic == concrete, "\(row): a generic parameter")
    #expect(erased == concrete, "\(row): eraseToSignal()")
    #expect(erasedHot == concrete, "\(row): eraseToHotSignal()")
  }

  // MARK: Cold shapes

  /// A cold input that plays `steps` for one input (`a` or `b`) from the start of each run, counting its runs.
  static func coldInput(_ steps: [Step], b: Bool, clock: TestClock, runs: Counter) -> Signal<Int, Never> {
    Signal { emitter in
      runs.increment()
      let start = clock.now
      if b { await emitter.send(0) }  // what the current-value subject `b` gives first
      var now = 0
      for step in steps {
        switch step {
        case .at(let second): now = second
        case .a(let value) where !b, .b(let value) where b:
          do { try await clock.sleep(until: start.advanced(by: .seconds(now))) } catch { return }
          await emitter.send(value)
        case .finishA where !b, .finishB where b:
          do { try await clock.sleep(until: start.advanced(by: .seconds(now))) } catch { return }
          return
        default: break
        }
      }
    }
  }

  /// Records two runs, one after the other, of `result`, each watched from its start to the horizon.
  static func recordRuns(
    _ make: @escaping @Sendable (TestClock) -> Signal<String, Never>
  ) async -> (first: [String], second: [String]) {
    let clock = TestClock()
    return await clock.withVirtualTime {
      let result = make(clock)
      var runs: [[String]] = []
      for _ in 0..<2 {
        let start = clock.now
        let recorder = Recorder(result, clock: clock)
        await clock.settle()
        await clock.advance(to: start.advanced(by: .seconds(horizon)))
        await clock.settle()
        recorder.cancel()
        await clock.settle()
        runs.append(events(recorder, from: start))
      }
      return (runs[0], runs[1])
    }
  }

  @Test(
    "cold Signal inputs: each iteration runs them anew and records what the subjects record",
    arguments: MatrixRow.allCases)
  func coldShape(_ row: MatrixRow) async {
    let runsA = Counter()
    let runsB = Counter()
    let (first, second) = await Self.recordRuns { clock in
      MatrixShapes.cold(
        row, Self.coldInput(Self.untied, b: false, clock: clock, runs: runsA),
        Self.coldInput(Self.untied, b: true, clock: clock, runs: runsB), clock: clock)
    }
    #expect(second == first, "\(row): a second iteration is a fresh run, with the same events")
    #expect(runsA.value >= 2, "\(row): input a ran \(runsA.value) times for two iterations")
    if !row.coldInputRestarts {
      let hot = await Self.recordHot(Self.untied) { MatrixShapes.concrete(row, $0, $1, clock: $2) }
      #expect(first == hot, "\(row): a cold run records what the subjects record")
    }
  }

  @Test("AsyncStream inputs: read once; a second iteration finds them ended", arguments: MatrixRow.allCases)
  func streamShape(_ row: MatrixRow) async {
    let (first, second) = await Self.recordRuns { clock in
      let (a, aInput) = AsyncStream.makeStream(of: Int.self)
      let (b, bInput) = AsyncStream.makeStream(of: Int.self)
      bInput.yield(0)
      let start = clock.now
      // The streams are fed once, on the timeline, whoever reads them (on the test's executor, so that the clock
      // sees the feeder too).
      Task(executorPreference: TaskExecutorContext.preferred) {
        var now = 0
        for step in Self.untied {
          switch step {
          case .at(let second):
            now = second
            try? await clock.sleep(until: start.advanced(by: .seconds(now)))
          case .a(let value): aInput.yield(value)
          case .b(let value): bInput.yield(value)
          case .finishA: aInput.finish()
          case .finishB: bInput.finish()
          }
        }
      }
      return MatrixShapes.generic(row, a, b, clock: clock)
    }
    let ended = await Self.recordRuns { clock in
      MatrixShapes.cold(row, .empty, .empty, clock: clock)
    }
    // A run that stopped before the streams ended (a `prefix`) leaves what it did not read for the next one.
    let stoppedEarly = first.last.map { $0.hasPrefix("finished@") && !$0.hasSuffix("@7.0 seconds") } ?? false
    if !stoppedEarly {
      #expect(second == ended.first, "\(row): the second iteration reads ended streams")
    }
    if !row.coldInputRestarts {
      let hot = await Self.recordHot(Self.untied) { MatrixShapes.concrete(row, $0, $1, clock: $2) }
      #expect(first == hot, "\(row): the first iteration records what the subjects record")
    }
  }

  @Test("retry re-runs a cold input, whatever made it: a body, a deferred stream, a sequence")
  func retryRerunsColdInputs() async throws {
    let runs = Counter()
    let body = Signal<Int, any Error> { emitter in
      if runs.increment() == 1 { throw MatrixError() }
      await emitter.send(1)
    }
    #expect(try await body.map { $0 * 10 }.retry(1).collect() == [10])
    #expect(runs.value == 2)
    let streams = Counter()
    let deferred = Signal<Int, any Error>.deferred {
      AsyncThrowingStream<Int, any Error> { continuation in
        if streams.increment() == 1 {
          continuation.finish(throwing: MatrixError())
        } else {
          continuation.yield(2)
          continuation.finish()
        }
      }
    }
    #expect(try await combineLatest(deferred, Signal<Int, any Error>([3])).map { $0 + $1 }.retry(1).collect() == [5])
    #expect(streams.value == 2)
  }

  // MARK: Every operator has its row

  @Test("every public operator in the API baseline has a row in the matrix")
  func everyOperatorHasARow() throws {
    let baseline = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".ci/api/AsyncReactive.txt")
    let lines = try String(contentsOf: baseline, encoding: .utf8).components(separatedBy: "\n")
    var operators = Set<String>()
    for line in lines {
      for prefix in ["AsyncSequence.", "ReactiveSequence.", "HotSequence.", "ReiterableAsyncSequence."]
      where line.hasPrefix(prefix) {
        operators.insert(String(line.dropFirst(prefix.count).prefix { $0.isLetter }))
      }
      // Free functions: `combineLatest(_:_:): …`.
      if let first = line.first, first.isLowercase, let open = line.firstIndex(of: "("),
        !line[..<open].contains(".")
      {
        operators.insert(String(line[..<open]))
      }
    }
    // Not operators: consumers and bridges (tested on their own), the hot node itself, and retry, which exists only
    // on cold sequences (retryRerunsColdInputs).
    let notOperators: Set<String> = [
      "observe", "bind", "asAsyncStream", "asAsyncThrowingStream", "hotSignal", "retry", "debugGraph",
    ]
    let covered = Set(MatrixRow.allCases.flatMap(\.covers))
    #expect(operators.subtracting(notOperators).subtracting(covered).sorted() == [])
    #expect(covered.subtracting(operators).sorted() == [], "rows that cover no public operator")
  }
}

struct MatrixError: Error, Equatable {}

/// A result as events, for recording: each value and the end as text.
func described<S: AsyncSequence & Sendable>(_ sequence: S) -> Signal<String, Never> where S.Element: Sendable {
  Signal<S.Element, S.Failure>(sequence).materialize().map { "\($0)" }
}
