import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("share")
struct ShareTests {
  // MARK: One run, many consumers

  @Test("one upstream run feeds every consumer, and all of them see every value in the same order")
  func oneRunForManyConsumers() async {
    let runs = Counter()
    let go = Gate()
    let shared = Signal<Int, Never> { emitter in
      runs.increment()
      await go.wait()
      for value in 0..<1_000 { await emitter.send(value) }
    }.share()
    // Each recorder registers when it is made; the upstream waits for the gate, so none can miss a value.
    let recorders = (0..<4).map { _ in Recorder(shared, clock: TestClock()) }
    go.open()
    for recorder in recorders {
      #expect(await recorder.waitForEnd()?.value == .finished)
      #expect(recorder.values.map(\.value) == Array(0..<1_000))
    }
    #expect(runs.value == 1)
    #expect(shared.consumerCount == 0)
  }

  @Test("the first consumer starts the run, later ones join it; the upstream is subscribed to once")
  func registeredBeforeFirstNext() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    // A cold sequence over the subject (a hot one is shared already: its `share()` is itself).
    let shared = Signal(Foreign(subject)).share()
    var first = shared.makeAsyncIterator()  // starts the run: it subscribes to the subject now
    #expect(subject.consumerCount == 1)
    var second = shared.makeAsyncIterator()  // joins the run
    #expect(subject.consumerCount == 1)
    #expect(Signal(subject).share().consumerCount == subject.consumerCount)  // a hot sequence's share is itself
    subject.send(1)
    subject.send(2)
    subject.finish()
    #expect(await readAll(&first) == [1, 2])
    #expect(await readAll(&second) == [1, 2])
    #expect(shared.consumerCount == 0)
  }

  @Test("the doc example: combineLatest observes both shared branches before the request answers: one run feeds both")
  func combineLatestOfSharedBranches() async {
    let runs = Counter()
    let answer = Gate()
    let user = Signal.future { () async -> Int in
      runs.increment()
      await answer.wait()  // a request takes time: both branches observe the run before it answers
      return 5
    }.share()
    // Hot all the way down: making the iterator connects both branches, so both observe the one run.
    var both = combineLatest(user.map { $0 * 2 }, user.map { $0 + 1 }).map { [$0, $1] }.makeAsyncIterator()
    #expect(user.consumerCount == 2)
    answer.open()
    #expect(await both.next() == [10, 6])
    #expect(await both.next() == nil)
    #expect(runs.value == 1)
  }

  @Test("a run that ends while the first branch connects (an answer that never suspends) runs again for the second")
  func immediateRunRunsPerBranch() async {
    // RxSwift's `share()` does the same: a synchronous source completes inside the first subscription.
    let runs = Counter()
    let user = Signal.future { () async -> Int in
      runs.increment()
      return 5
    }.share()
    let both = await combineLatest(user.map { $0 * 2 }, user.map { $0 + 1 }).map { [$0, $1] }.collect()
    #expect(both == [[10, 6]])
    #expect(runs.value == 2)
  }

  // MARK: Replay

  @Test("a consumer that joins a running run gets the latest `replay` values first, then live ones")
  func replayForLateConsumers() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let shared = subject.share(replay: 2)
    var early = shared.makeAsyncIterator()
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect([await early.next(), await early.next(), await early.next()] == [1, 2, 3])
    // `early` has received 3, so the run has handed it out: the replay buffer holds 2 and 3.
    var late = shared.makeAsyncIterator()
    subject.send(4)
    subject.finish()
    #expect(await readAll(&late) == [2, 3, 4])
    #expect(await readAll(&early) == [4])
  }

  @Test("without replay, a late consumer gets only the values sent after it joined")
  func noReplayByDefault() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let shared = subject.share()
    var early = shared.makeAsyncIterator()
    subject.send(1)
    #expect(await early.next() == 1)
    var late = shared.makeAsyncIterator()
    subject.send(2)
    subject.finish()
    #expect(await readAll(&late) == [2])
    #expect(await readAll(&early) == [2])
  }

  // MARK: Leaving and starting again

  @Test("the upstream run is cancelled when the last consumer leaves, not before")
  func lastConsumerCancelsUpstream() async {
    let input = WatchedInput<Int, Never>()
    let shared = input.signal.share()
    let firstIterator = shared.makeAsyncIterator()
    let secondIterator = shared.makeAsyncIterator()
    let first = Task {
      var iterator = firstIterator
      return await readAll(&iterator)
    }
    let second = Task {
      var iterator = secondIterator
      return await readAll(&iterator)
    }
    await input.started.wait()
    first.cancel()
    #expect(await first.value == [])
    #expect(shared.consumerCount == 1)
    #expect(!input.cancelled.isOpen)
    second.cancel()
    await input.cancelled.wait()
    #expect(await second.value == [])
    #expect(shared.consumerCount == 0)
  }

  @Test("breaking out of the loop or dropping the iterator leaves too")
  func breakAndDropLeave() async {
    let cancelled = Gate()
    let shared = Signal<Int, Never>.create { emitter in
      emitter.send(1)
      return { cancelled.open() }
    }.share()
    for await value in shared {
      #expect(value == 1)
      break
    }
    await cancelled.wait()
    #expect(shared.consumerCount == 0)

    // A consumer that never pulls holds the upstream's subscription too, until its iterator is dropped.
    let upstream = ReleaseWatched()
    let unused = upstream.share()
    do {
      let iterator = unused.makeAsyncIterator()
      #expect(unused.consumerCount == 1)
      #expect(!upstream.released.isOpen)
      _ = iterator
    }
    #expect(unused.consumerCount == 0)
    await upstream.released.wait()
  }

  @Test("an AsyncStream upstream is terminated when the last consumer leaves, even while the run is paused")
  func streamUpstreamTerminated() async {
    let input = StreamInput<Int>()
    for value in 0..<1_000 { input.continuation.yield(value) }
    let shared = input.stream.share()  // holds the stream: only cancelling a pending next() terminates it
    do {
      var iterator = shared.makeAsyncIterator()
      #expect(await iterator.next() == 0)
      // The run goes on until 256 values wait for this consumer, then pauses; then the consumer leaves.
    }
    await input.terminated.wait()
    #expect(shared.consumerCount == 0)
  }

  @Test("a consumer that comes after the run ended starts a new run, without the old run's replay")
  func resubscriptionStartsNewRun() async {
    let runs = Counter()
    let shared = Signal<Int, Never> { emitter in
      let run = runs.increment()
      for value in 0..<3 { emitter.send(run * 10 + value) }
    }.share(replay: 1)
    #expect(await shared.collect() == [10, 11, 12])  // run 1 finished
    #expect(await shared.collect() == [20, 21, 22])  // run 2, nothing replayed from run 1
    for await value in shared {  // run 3, cancelled after its first value
      #expect(value == 30)
      break
    }
    #expect(await shared.collect() == [40, 41, 42])
    #expect(runs.value == 4)
  }

  // MARK: Termination

  @Test("a failure reaches every consumer after the values before it")
  func failureReachesAll() async {
    let shared = Signal<Int, TestError> { (emitter) throws(TestError) in
      emitter.send(1)
      throw TestError(code: 7)
    }.share()
    var first = shared.makeAsyncIterator()
    var second = shared.makeAsyncIterator()
    #expect(await readResult(&first) == ([1], TestError(code: 7)))
    #expect(await readResult(&second) == ([1], TestError(code: 7)))
  }

  @Test("a consumer of a run that ended reads that run's end, even if it pulls only after a new run started")
  func endedRunConsumersKeepTheirEnd() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let runs = Counter()
    let shared = Signal.deferred {
      runs.increment()
      return subject.subscribe()
    }.share()
    var first = shared.makeAsyncIterator()
    var second = shared.makeAsyncIterator()  // same run, not pulling yet
    subject.send(1)
    subject.finish()
    #expect(await readAll(&first) == [1])  // run 1 ended
    var third = shared.makeAsyncIterator()  // starts run 2 (on the finished subject: it ends at once)
    #expect(runs.value == 2)
    #expect(await readAll(&second) == [1])  // still run 1's values and end
    #expect(await readAll(&third) == [])
  }

  // MARK: Buffering

  @Test("a consumer that does not keep up never slows the run or the others: its values wait in its own queue")
  func slowConsumerPausesRun() async {
    let sent = Counter()
    let go = Gate()
    let shared = Signal<Int, Never> { emitter in
      await go.wait()
      for value in 0..<1_000 {
        sent.increment()
        await emitter.send(value)  // a shared run never waits: a hot node does not slow its source
      }
    }.share()
    var fast = shared.makeAsyncIterator()
    var slow = shared.makeAsyncIterator()
    go.open()
    for expected in 0..<1_000 { #expect(await fast.next() == expected) }
    #expect(sent.value == 1_000)
    for expected in 0..<1_000 { #expect(await slow.next() == expected) }
    #expect(await slow.next() == nil)
  }

  @Test("consumers joining and leaving concurrently each see a gap-free, in-order slice of one run")
  func concurrentJoinAndLeave() async {
    let shared = Signal<Int, Never>(0..<1_000_000).share(replay: 3)
    await withTaskGroup(of: Bool.self) { group in
      for consumer in 0..<8 {
        group.addTask {
          var inOrder = true
          for round in 0..<20 {
            var iterator = shared.makeAsyncIterator()
            var previous: Int?
            for _ in 0..<(10 + (consumer * 7 + round * 13) % 90) {
              guard let value = await iterator.next() else { break }
              // A run counts up from 0; a consumer joining late gets replayed values first, still in order.
              if let previous, value != previous + 1 { inOrder = false }
              previous = value
            }
          }
          return inOrder
        }
      }
      for await inOrder in group { #expect(inOrder) }
    }
    #expect(shared.consumerCount == 0)
  }

  @Test("the result keeps the upstream's failure type; a non-failing one is iterated with plain for await")
  func failureType() async {
    let never = Signal<Int, Never>.just(1).share()
    let typed = Signal<Int, TestError>.just(1).share()
    #expect(type(of: never).Failure.self == Never.self)
    #expect(type(of: typed).Failure.self == TestError.self)
    for await value in never { #expect(value == 1) }
  }

  @Test("a negative replay count traps with a clear message")
  func negativeReplayTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = Signal<Int, Never>.just(1).share(replay: -1)
    }
  }
}

/// Reads an iterator to its end.
private func readAll<Iterator: AsyncIteratorProtocol>(_ iterator: inout Iterator) async -> [Iterator.Element]
where Iterator.Failure == Never {
  var values: [Iterator.Element] = []
  while let value = await iterator.next(isolation: nil) { values.append(value) }
  return values
}

/// Reads an iterator to its end, returning the values and the failure it ended with.
private func readResult<Iterator: AsyncIteratorProtocol>(
  _ iterator: inout Iterator
) async -> ReadResult<Iterator.Element, Iterator.Failure> {
  var values: [Iterator.Element] = []
  do throws(Iterator.Failure) {
    while let value = try await iterator.next(isolation: nil) { values.append(value) }
    return ReadResult(values: values, failure: nil)
  } catch {
    return ReadResult(values: values, failure: error)
  }
}

private struct ReadResult<Element, Failure> {
  var values: [Element]
  var failure: Failure?
}

private func == <Element: Equatable, Failure: Equatable>(
  lhs: ReadResult<Element, Failure>, rhs: ([Element], Failure)
) -> Bool {
  lhs.values == rhs.0 && lhs.failure == rhs.1
}

/// A sequence that never produces, whose iterator opens `released` when it is released: proves that the share point
/// let go of its subscription.
private struct ReleaseWatched: AsyncSequence, Sendable {
  let released = Gate()

  func makeAsyncIterator() -> Iterator {
    Iterator(token: Token(released: released))
  }

  struct Iterator: AsyncIteratorProtocol {
    let token: Token

    mutating func next() async -> Int? {
      await waitForCancellation()
      return nil
    }
  }

  final class Token {
    let released: Gate

    init(released: Gate) {
      self.released = released
    }

    deinit { released.open() }
  }
}
