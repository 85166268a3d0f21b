import AsyncReactive
import Testing

/// How a sequence ended when drained: its values, and its failure if it failed.
struct DrainOutcome<Failure: Error>: Sendable where Failure: Sendable {
  var values: [Int] = []
  var failure: Failure?
  /// After the failure: `true` if the next `next()` returned `nil`, as a sequence that failed once must.
  var endedAfterFailure = false
}

/// Iterates `sequence` to its end; after a failure asks once more, to check that it fails only once.
func drain<S: AsyncSequence>(_ sequence: S, value: (S.Element) -> Int = { _ in 0 }) async -> DrainOutcome<S.Failure>
where S.Failure: Sendable {
  var iterator = sequence.makeAsyncIterator()
  var outcome = DrainOutcome<S.Failure>()
  do throws(S.Failure) {
    while let element = try await iterator.next(isolation: nil) { outcome.values.append(value(element)) }
  } catch {
    outcome.failure = error
    do throws(S.Failure) {
      outcome.endedAfterFailure = try await iterator.next(isolation: nil) == nil
    } catch {
      outcome.endedAfterFailure = false
    }
  }
  return outcome
}

@Suite("Stress: faults", .timeLimit(.minutes(10)))
struct StressFaultTests {
  static let seeds = StressProfile.seeds(StressProfile.current.faultSeeds)

  enum Operator: String, CaseIterable, Sendable, CustomStringConvertible {
    case combineLatest, zip, merge, withLatestFrom
    case flatMapMerge, flatMapConcat, flatMapLatest, flatMapConcurrent
    case share

    var description: String { rawValue }
  }

  @Test(
    "an upstream error injected at a random point fails the result once, with it, and cancels the rest",
    arguments: Operator.allCases)
  func injectedError(_ operation: Operator) async {
    for seed in Self.seeds {
      switch operation {
      case .combineLatest, .zip, .merge, .withLatestFrom: await nary(operation, seed: seed)
      case .flatMapMerge: await flatten(.merge, seed: seed)
      case .flatMapConcat: await flatten(.concat, seed: seed)
      case .flatMapLatest: await flatten(.latest, seed: seed)
      case .flatMapConcurrent: await flatten(.concurrent(limit: 2), seed: seed)
      case .share: await share(seed: seed)
      }
    }
    print(
      "stress faults \(operation): \(Self.seeds.count) faults injected (seeds \(Self.seeds.first!)…\(Self.seeds.last!))"
    )
  }

  /// combineLatest, zip, merge (array forms, 2 to 5 inputs) and withLatestFrom: one input fails after a random
  /// number of values; the others send a random number of values and never end by themselves.
  private func nary(_ operation: Operator, seed: UInt64) async {
    var random = SplitMix64(seed: seed)
    let probe = Probe()
    let count = operation == .withLatestFrom ? 2 : random.int(in: 2..<6)
    let failing = random.int(in: 0..<count)
    let error = TestError(code: Int(seed % 10_000) + 1)
    let inputs = (0..<count).map { index in
      probe.input(
        TestError.self,
        values: (index * 1_000)..<(index * 1_000 + random.int(in: 0..<20)),
        yieldEvery: random.int(in: 1..<4),
        then: index == failing ? .fail(error) : .waitForCancellation)
    }
    let failingValues = Array(((failing * 1_000)..<(failing * 1_000 + 20)))
    let outcome: DrainOutcome<TestError>
    switch operation {
    case .combineLatest: outcome = await drain(combineLatest(inputs))
    case .zip: outcome = await drain(zip(inputs))
    case .merge: outcome = await drain(merge(inputs)) { $0 }
    default: outcome = await drain(inputs[0].withLatestFrom(inputs[1]))
    }
    let context = "\(operation), seed \(seed): \(count) inputs, input \(failing) fails"
    #expect(outcome.failure == error, "\(context): ended with \(String(describing: outcome.failure))")
    #expect(outcome.endedAfterFailure, "\(context): failed more than once or went on after the failure")
    if operation == .merge {
      let delivered = outcome.values.filter { $0 / 1_000 == failing }
      #expect(failingValues.starts(with: delivered), "\(context): the failing input's values came out of order")
    }
    await expectCancelled(probe, failures: 1, context)
    #expect(probe.finished == 1, "\(context): an input other than the failing one ended without being cancelled")
  }

  /// flatMap with `strategy`: the outer or one inner fails at a random point.
  private func flatten(_ strategy: FlattenStrategy, seed: UInt64) async {
    var random = SplitMix64(seed: seed)
    let probe = Probe()
    let error = TestError(code: Int(seed % 10_000) + 1)
    let outerCount = random.int(in: 1..<8)
    let outerFails = random.int(in: 0..<3) == 0
    // An inner that waits for cancellation would hold `.concat` and a limited `.concurrent` forever.
    let innersEnd = strategy == .merge || strategy == .latest
    let failingInner = outerFails ? -1 : (strategy == .latest ? outerCount - 1 : random.int(in: 0..<outerCount))
    let inners: [(values: Range<Int>, yieldEvery: Int, end: InputEnd<TestError>)] = (0..<outerCount).map { index in
      let base = (index + 1) * 1_000
      let end: InputEnd<TestError> =
        index == failingInner ? .fail(error) : (innersEnd ? .waitForCancellation : .finish)
      return (base..<(base + random.int(in: 0..<10)), random.int(in: 1..<4), end)
    }
    let outer = probe.input(
      TestError.self, values: 0..<outerCount, yieldEvery: random.int(in: 1..<4),
      then: outerFails ? .fail(error) : .waitForCancellation)
    let flattened = outer.flattened(strategy) { index in
      probe.input(
        TestError.self, values: inners[index].values, yieldEvery: inners[index].yieldEvery, then: inners[index].end)
    }
    let outcome = await drain(flattened) { $0 }
    let failingName = outerFails ? "the outer" : "inner \(failingInner)"
    let context = "flatMap(\(strategy)), seed \(seed): \(outerCount) inners, \(failingName) fails"
    #expect(outcome.failure == error, "\(context): ended with \(String(describing: outcome.failure))")
    #expect(outcome.endedAfterFailure, "\(context): failed more than once or went on after the failure")
    await expectCancelled(probe, failures: 1, context)
  }

  /// share: the upstream fails after a random number of values; 1 to 4 consumers, registered before the run
  /// starts, each get every value, then the failure, once.
  private func share(seed: UInt64) async {
    var random = SplitMix64(seed: seed)
    let probe = Probe()
    let error = TestError(code: Int(seed % 10_000) + 1)
    let valueCount = random.int(in: 0..<300)
    let input = probe.input(
      TestError.self, values: 0..<valueCount, yieldEvery: random.int(in: 1..<4), then: .fail(error))
    // The run starts with the first consumer (a hot node connects at its first registration): it waits for the
    // others to register before its input runs.
    let go = Gate()
    let upstream = Signal<Int, TestError> { (emitter) async throws(TestError) in
      await go.wait()
      for try await value in input { await emitter.send(value) }
    }
    let shared = upstream.share(replay: random.int(in: 0..<3))
    let consumers = random.int(in: 1..<5)
    let ready = Countdown(consumers)
    let start = Gate()
    let outcomes = await withTaskGroup(of: DrainOutcome<TestError>.self) { group in
      for _ in 0..<consumers {
        group.addTask {
          var iterator = shared.makeAsyncIterator()
          ready.arrive()
          await start.wait()
          var outcome = DrainOutcome<TestError>()
          do throws(TestError) {
            while let value = try await iterator.next() { outcome.values.append(value) }
          } catch {
            outcome.failure = error
            outcome.endedAfterFailure = (try? await iterator.next()) == .some(nil)
          }
          return outcome
        }
      }
      await ready.wait()
      go.open()
      start.open()
      var outcomes: [DrainOutcome<TestError>] = []
      for await outcome in group { outcomes.append(outcome) }
      return outcomes
    }
    let context = "share, seed \(seed): \(consumers) consumers, the upstream fails after \(valueCount) values"
    for outcome in outcomes {
      #expect(outcome.values == Array(0..<valueCount), "\(context): a consumer lost values")
      #expect(outcome.failure == error, "\(context): ended with \(String(describing: outcome.failure))")
      #expect(outcome.endedAfterFailure, "\(context): failed more than once")
    }
    #expect(await eventually { shared.consumerCount == 0 }, "\(context): consumers left registered")
    await expectCancelled(probe, failures: 1, context)
  }

  /// Every producer task ended; all but the failing ones ended through cancellation or by finishing as designed.
  private func expectCancelled(_ probe: Probe, failures: Int, _ context: String) async {
    let counts = await probe.settledCounts()
    #expect(counts != nil, "\(context): producer tasks left running: \(probe.counts)")
    #expect(counts.map { $0.cancelled + $0.finished == $0.started } ?? false, "\(context): \(probe.counts)")
  }
}
