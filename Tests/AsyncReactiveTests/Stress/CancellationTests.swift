import AsyncReactive
import Testing

/// How a consumer stops in the middle of a stream.
enum StopMode: String, CaseIterable, Sendable, CustomStringConvertible {
  /// The consuming task is cancelled.
  case cancelTask
  /// The consumer breaks out of its loop (the iterator goes out of scope).
  case breakLoop
  /// The consumer drops an iterator it pulled from, without ending it.
  case dropIterator

  var description: String { rawValue }
}

/// Consumes the sequence `make` builds and stops as `mode` says: after `count` values (or, when the sequence does
/// not promise to emit promptly, after its producers sent `count` values).
func stop<S: AsyncSequence>(
  _ mode: StopMode,
  after count: Int,
  prompt: Bool,
  probe: Probe,
  _ make: @escaping @Sendable () -> S
) async where S: SendableMetatype, S.AsyncIterator: SendableMetatype {
  switch mode {
  case .cancelTask:
    let consumer = Task {
      var iterator = make().makeAsyncIterator()
      while true {
        do {
          guard try await iterator.next(isolation: nil) != nil else { return }
        } catch {
          return
        }
      }
    }
    _ = await probe.waitForSent(count)
    consumer.cancel()
    await consumer.value
  case .breakLoop where prompt:
    var iterator = make().makeAsyncIterator()
    for _ in 0..<count {
      guard (try? await iterator.next(isolation: nil)) != nil else { break }
    }
  case .dropIterator where prompt:
    var iterator: S.AsyncIterator? = make().makeAsyncIterator()
    for _ in 0..<count { _ = try? await iterator?.next(isolation: nil) }
    iterator = nil
  case .breakLoop, .dropIterator:
    // No promise of values: make the iterator (it may subscribe) and drop it.
    var iterator: S.AsyncIterator? = make().makeAsyncIterator()
    _ = await probe.waitForSent(min(count, 1))
    iterator = nil
    _ = iterator
  }
}

@Suite("Stress: cancellation and leaks", .timeLimit(.minutes(10)))
struct StressCancellationTests {
  static let seeds = StressProfile.seeds(StressProfile.current.cancellationSeeds)

  enum Operation: String, CaseIterable, Sendable, CustomStringConvertible {
    case combineLatest2, combineLatestArray, zip2, zipArray, merge3, mergeArray
    case flatMapMerge, flatMapConcat, flatMapLatest, flatMapConcurrent, withLatestFrom, share, shareReplay
    case debounce, throttle, delay, timeout, retry, retryWithDelay, catchError, replaceError, mapError
    case removeDuplicates, scan, prepend, handleEvents, not, materialize, signalBody, asAsyncStream
    case observeInLifetime

    var description: String { rawValue }

    /// Whether the operator emits as soon as its inputs do, so that a consumer can wait for values.
    var isPrompt: Bool {
      switch self {
      case .debounce, .throttle, .withLatestFrom: false
      default: true
      }
    }
  }

  enum Upstream: String, CaseIterable, Sendable {
    /// Cold inputs: every run is a producer task of the probe, which must end.
    case signals
    /// Hot inputs: subjects fed by producer tasks, whose consumers must be removed.
    case subjects
  }

  @Test(
    "every operator: stopping the consumer at a random point ends every upstream and leaves no task",
    arguments: Operation.allCases, Upstream.allCases)
  func operatorStops(_ operation: Operation, upstream: Upstream) async {
    var stops: [StopMode: Int] = [:]
    for seed in Self.seeds {
      var random = SplitMix64(seed: seed)
      let mode = StopMode.allCases[random.int(in: 0..<StopMode.allCases.count)]
      let count = random.int(in: 0..<40)
      stops[mode, default: 0] += 1
      let probe = Probe()
      let context = "\(operation) over \(upstream), seed \(seed): \(mode) after \(count)"
      switch upstream {
      case .signals:
        let inputs = (0..<3).map { _ in probe.input(Never.self, yieldEvery: random.int(in: 1..<4)) }
        await exercise(operation, inputs: inputs, inner: { _ in probe.input(Never.self) }, mode, count, probe)
      case .subjects:
        let subjects = (0..<3).map { _ in AsyncPassthroughSubject<Int, Never>() }
        for subject in subjects { probe.feed(subject) }
        await exercise(operation, inputs: subjects, inner: { _ in subjects[1] }, mode, count, probe)
        #expect(
          await eventually { subjects.allSatisfy { $0.consumerCount == 0 } },
          "\(context): consumers left registered: \(subjects.map(\.consumerCount))")
        probe.stopFeeders()
      }
      let counts = await probe.settledCounts()
      #expect(counts != nil, "\(context): producer tasks left running: \(probe.counts)")
      #expect(counts.map { $0.cancelled == $0.started } ?? false, "\(context): \(probe.counts)")
    }
    print("stress cancellation \(operation) over \(upstream): \(Self.seeds.count) stops \(stops)")
  }

  private func exercise<Input: AsyncSequence<Int, Never> & Sendable>(
    _ operation: Operation,
    inputs: [Input],
    inner: @escaping @Sendable (Int) -> Input,
    _ mode: StopMode,
    _ count: Int,
    _ probe: Probe
  ) async where Input.AsyncIterator: SendableMetatype {
    let prompt = operation.isPrompt
    let (a, b, c) = (inputs[0], inputs[1], inputs[2])
    switch operation {
    case .combineLatest2: await stop(mode, after: count, prompt: prompt, probe: probe) { combineLatest(a, b) }
    case .combineLatestArray: await stop(mode, after: count, prompt: prompt, probe: probe) { combineLatest(inputs) }
    case .zip2: await stop(mode, after: count, prompt: prompt, probe: probe) { zip(a, b) }
    case .zipArray: await stop(mode, after: count, prompt: prompt, probe: probe) { zip(inputs) }
    case .merge3: await stop(mode, after: count, prompt: prompt, probe: probe) { merge(a, b, c) }
    case .mergeArray: await stop(mode, after: count, prompt: prompt, probe: probe) { merge(inputs) }
    case .flatMapMerge: await stop(mode, after: count, prompt: prompt, probe: probe) { a.flatMap(inner) }
    case .flatMapConcat: await stop(mode, after: count, prompt: prompt, probe: probe) { a.concatMap(inner) }
    case .flatMapLatest: await stop(mode, after: count, prompt: prompt, probe: probe) { a.flatMapLatest(inner) }
    case .flatMapConcurrent:
      await stop(mode, after: count, prompt: prompt, probe: probe) { a.flatMap(maxConcurrent: 2, inner) }
    case .withLatestFrom: await stop(mode, after: count, prompt: prompt, probe: probe) { a.withLatestFrom(b) }
    case .share: await stop(mode, after: count, prompt: prompt, probe: probe) { a.share() }
    case .shareReplay:
      // Two consumers of one share point: an idle one, and one that stops as `mode` says; then the idle one leaves.
      // The idle one is registered first (a hot node never waits for a consumer: it buffers for it) and pulls only
      // at the end; the stopping one registers next and gets every element from the first.
      let shared = a.share(replay: 2)
      var other: Signal<Int, Never>.Iterator? = shared.makeAsyncIterator()
      await stop(mode, after: count, prompt: prompt, probe: probe) { shared }
      #expect(await other?.next() != nil, "share(replay:): the idle consumer got no element")
      other = nil
      #expect(await eventually { shared.consumerCount == 0 }, "share(replay:): consumers left registered")
    case .debounce: await stop(mode, after: count, prompt: prompt, probe: probe) { a.debounce(for: .zero) }
    case .throttle: await stop(mode, after: count, prompt: prompt, probe: probe) { a.throttle(for: .zero) }
    case .delay: await stop(mode, after: count, prompt: prompt, probe: probe) { a.delay(for: .zero) }
    case .timeout: await stop(mode, after: count, prompt: prompt, probe: probe) { a.timeout(.seconds(3_600)) }
    case .retry: await stop(mode, after: count, prompt: prompt, probe: probe) { Signal(a).retry(2) }
    case .retryWithDelay:
      await stop(mode, after: count, prompt: prompt, probe: probe) { Signal(a).retry(2, delay: .constant(.zero)) }
    case .catchError: await stop(mode, after: count, prompt: prompt, probe: probe) { typed(a).catch { _ in b } }
    case .replaceError: await stop(mode, after: count, prompt: prompt, probe: probe) { a.replaceError(with: -1) }
    case .mapError:
      await stop(mode, after: count, prompt: prompt, probe: probe) { typed(a).mapError { $0 as any Error } }
    case .removeDuplicates: await stop(mode, after: count, prompt: prompt, probe: probe) { a.removeDuplicates() }
    case .scan: await stop(mode, after: count, prompt: prompt, probe: probe) { a.scan(0, +) }
    case .prepend: await stop(mode, after: count, prompt: prompt, probe: probe) { a.prepend(-2, -1) }
    case .handleEvents:
      let (starts, ends) = (Counter(), Counter())
      await stop(mode, after: count, prompt: prompt, probe: probe) {
        a.handleEvents(onStart: { starts.increment() }, onFinish: { ends.increment() }, onCancel: { ends.increment() })
      }
      // A run starts at its first next(): an iterator dropped before it has no run to end.
      #expect(starts.value <= 1 && ends.value == starts.value, "handleEvents reported \(ends.value) ends for one run")
    case .not: await stop(mode, after: count, prompt: prompt, probe: probe) { a.map { $0 % 2 == 0 }.not() }
    case .materialize: await stop(mode, after: count, prompt: prompt, probe: probe) { a.materialize() }
    case .signalBody:
      await stop(mode, after: count, prompt: prompt, probe: probe) {
        Signal<Int, Never> { emitter in
          for await value in a { await emitter.send(value) }
        }
      }
    case .asAsyncStream: await stop(mode, after: count, prompt: prompt, probe: probe) { a.asAsyncStream() }
    case .observeInLifetime:
      let lifetime = Lifetime()
      let observation = a.observe(in: lifetime) { _ in }
      _ = await probe.waitForSent(count)
      if mode == .dropIterator { lifetime.cancel() } else { observation.cancel() }
      await observation.value
    }
  }

  /// `input` as a sequence that can fail, so that the error operators have a failure type to work on.
  private func typed<Input: AsyncSequence<Int, Never> & Sendable>(_ input: Input) -> Signal<Int, TestError>
  where Input.AsyncIterator: SendableMetatype {
    Signal { (emitter) throws(TestError) in
      for await value in input { emitter.send(value) }
    }
  }

  enum SubjectKind: String, CaseIterable, Sendable {
    case passthrough, currentValue, replay, property, boundedSubscription
  }

  @Test("subjects: a consumer that stops at a random point is removed at once", arguments: SubjectKind.allCases)
  func subjectStops(_ kind: SubjectKind) async {
    for seed in Self.seeds {
      var random = SplitMix64(seed: seed)
      let mode = StopMode.allCases[random.int(in: 0..<StopMode.allCases.count)]
      let count = random.int(in: 0..<40)
      let probe = Probe()
      let source = AsyncPassthroughSubject<Int, Never>()
      probe.feed(source)
      let context = "\(kind), seed \(seed): \(mode) after \(count)"
      // Each kind is fed from `source` through a binding-free relay task, so that the subject under test has
      // exactly the consumers the test makes.
      let consumerCount: @Sendable () -> Int
      switch kind {
      case .passthrough:
        let subject = AsyncPassthroughSubject<Int, Never>()
        await stopConsumer(mode, after: count, probe: probe, relaying: source, to: subject.send) { subject }
        consumerCount = { subject.consumerCount }
      case .currentValue:
        let subject = AsyncCurrentValueSubject<Int, Never>(0)
        await stopConsumer(mode, after: count, probe: probe, relaying: source, to: subject.send) { subject }
        consumerCount = { subject.consumerCount }
      case .replay:
        let subject = AsyncReplaySubject<Int, Never>(bufferSize: random.int(in: 0..<8))
        await stopConsumer(mode, after: count, probe: probe, relaying: source, to: subject.send) { subject }
        consumerCount = { subject.consumerCount }
      case .property:
        let subject = AsyncCurrentValueSubject<Int, Never>(0)
        let property = Property(subject)
        await stopConsumer(mode, after: count, probe: probe, relaying: source, to: subject.send) { property }
        consumerCount = { subject.consumerCount }
      case .boundedSubscription:
        let subject = AsyncPassthroughSubject<Int, Never>()
        let limit = random.int(in: 1..<4)
        await stopConsumer(mode, after: count, probe: probe, relaying: source, to: subject.send) {
          subject.subscribe(bufferingPolicy: .bufferingNewest(limit))
        }
        consumerCount = { subject.consumerCount }
      }
      // Contract: the consumer is removed at once, not eventually.
      #expect(consumerCount() == 0, "\(context): \(consumerCount()) consumers still registered")
      probe.stopFeeders()
      #expect(await probe.waitUntilIdle(), "\(context): the feeding task is still running")
      #expect(await eventually { source.consumerCount == 0 }, "\(context): the relay is still subscribed")
    }
  }

  /// Stops a consumer of `make()` promptly, as `stop(_:after:prompt:probe:_:)` does, while `source` is forwarded
  /// to `send` (subscribed before the consumer starts, cancelled once it stopped).
  private func stopConsumer<S: AsyncSequence>(
    _ mode: StopMode, after count: Int, probe: Probe,
    relaying source: AsyncPassthroughSubject<Int, Never>, to send: @escaping @Sendable (Int) -> Void,
    _ make: @escaping @Sendable () -> S
  ) async where S: SendableMetatype, S.AsyncIterator: SendableMetatype {
    let subscription = source.subscribe()
    let relay = Task {
      for await value in subscription { send(value) }
    }
    await stop(mode, after: count, prompt: true, probe: probe, make)
    relay.cancel()
  }

  @Test(
    "Command: cancelled callers, cancel() or releasing the command stops every run under every policy",
    arguments: [CommandPolicy.reject, .concurrent(limit: 3), .enqueue, .cancelPrevious])
  func commandStops(_ policy: CommandPolicy) async {
    var outcomes: [String: Int] = [:]
    for seed in Self.seeds {
      var random = SplitMix64(seed: seed)
      let callers = random.int(in: 1..<6)
      let way = random.int(in: 0..<3)
      let runs = Probe()
      var command: Command<Int, Int, any Error>? = Command(policy: policy) { input in
        // The work is one probe run: it sends nothing and waits for cancellation.
        for await _ in runs.input(Never.self, values: 0..<0) {}
        try Task.checkCancellation()
        return input
      }
      let executing = command!.executing
      if way == 2 {
        // A caller awaiting `execute` keeps the command alive; `trigger` does not: release it with runs in flight.
        for index in 0..<callers { command!.trigger(index) }
        _ = await eventually { runs.started >= 1 }
        command = nil
        outcomes["triggered, released", default: 0] += callers
      } else {
        let tasks = (0..<callers).map { [command] index in
          Task { () -> String in
            do {
              _ = try await command!.execute(index)
              return "returned"
            } catch let error as CommandError<any Error> {
              return "\(error)"
            } catch {
              return "\(type(of: error))"
            }
          }
        }
        _ = await eventually { runs.started >= 1 }
        if way == 0 {
          for task in tasks { task.cancel() }
        } else {
          command!.cancel()
        }
        for task in tasks { outcomes[await task.value, default: 0] += 1 }
      }
      let context = "\(policy), seed \(seed): \(callers) callers, stopped by \(["cancel", "cancel()", "release"][way])"
      let counts = await runs.settledCounts()
      #expect(counts != nil, "\(context): runs left running: \(runs.counts)")
      #expect(counts.map { $0.cancelled == $0.started } ?? false, "\(context): \(runs.counts)")
      #expect(await eventually { executing.value == false }, "\(context): still executing")
      _ = command
    }
    print("stress cancellation Command \(policy): \(Self.seeds.count) rounds, caller outcomes \(outcomes)")
  }
}
