import AsyncReactive
import AsyncReactiveTesting
import Testing

/// concatMap and flatMap(maxConcurrent:) keep reading the outer sequence while every slot is taken: the transform
/// runs as each outer value arrives (as RxSwift calls its selector), and the inner sequence waits its turn as the
/// ``FlattenBuffering`` says.
@Suite("flatMap with a limit: outer buffering", .timeLimit(.minutes(1)))
struct FlatMapBufferingTests {
  /// An inner that sends `value` and finishes; inner 0 first opens `started` and waits for `gate`, so that the
  /// inners after it queue up.
  private func innerHeldAtZero(_ value: Int, started: Gate, until gate: Gate) -> Signal<Int, Never> {
    Signal { emitter in
      if value == 0 {
        started.open()
        await gate.wait()
      }
      await emitter.send(value)
    }
  }

  @Test("concatMap: a throwing transform fails the result when its value arrives (550), not when its turn comes (965)")
  func throwingTransformFailsAtArrival() async {
    let clock = TestClock()
    let outer = Feed<Int, Never>()
    let transformed = Log<Int>()
    let innerCancelled = Gate()
    let results = outer.concatMap { value throws -> Signal<String, Never> in
      transformed.append(value)
      if value == 2 { throw TestError(code: 2) }
      return Signal { emitter in
        do {
          try await clock.sleep(until: instant(300))
          await emitter.send("\(value)a")
          try await clock.sleep(until: instant(965))
          await emitter.send("\(value)b")
        } catch {
          innerCancelled.open()
        }
      }
    }
    let recorder = Recorder(results, clock: clock)
    await clock.advance(to: instant(100))
    await outer.send(1)
    await clock.waitForSleepers(1)
    await clock.advance(to: instant(300))
    #expect(await recorder.waitForValues(count: 1) == [Timed("1a", at: .milliseconds(300))])
    await clock.waitForSleepers(1)
    await clock.advance(to: instant(550))
    await outer.send(2)  // inner 1 runs until 965: the transform runs now all the same, and throws
    let end = await recorder.waitForEnd()
    #expect(end?.instant == instant(550))
    #expect(failure(of: end?.value) == TestError(code: 2))
    await innerCancelled.wait()
    #expect(transformed.all == [1, 2])
    #expect(recorder.values.map(\.value) == ["1a"])
  }

  @Test("concatMap: the exact timeline: each inner waits for the previous one; outer values are read meanwhile")
  func concatTimeline() async {
    let clock = TestClock()
    let outer = Feed<Int, Never>()
    let events = Log<String>()
    // Inner v sends "v" when it starts and "v+" 200 ms later, then finishes.
    let results = outer.concatMap { value in
      events.append("transform \(value)")
      return Signal<String, Never> { emitter in
        events.append("start \(value)")
        await emitter.send("\(value)")
        try? await clock.sleep(for: .milliseconds(200))
        await emitter.send("\(value)+")
      }
    }
    let recorder = Recorder(results, clock: clock)
    await outer.send(1)  // t=0: inner 1 starts
    _ = await recorder.waitForValues(count: 1)
    await clock.waitForSleepers(1)
    await clock.advance(to: instant(50))
    await outer.send(2)  // read and transformed at once; inner 2 waits for inner 1
    await clock.advance(to: instant(100))
    await outer.send(3)
    await outer.finish()  // the result still waits for the queued inners
    #expect(events.all == ["transform 1", "start 1", "transform 2", "transform 3"])
    await clock.advance(to: instant(200))  // inner 1 ends; inner 2 starts at once
    _ = await recorder.waitForValues(count: 3)
    await clock.waitForSleepers(1)
    await clock.advance(to: instant(400))
    _ = await recorder.waitForValues(count: 5)
    await clock.waitForSleepers(1)
    await clock.advance(to: instant(600))
    #expect(await recorder.waitForEnd() == Timed(.finished, at: .milliseconds(600)))
    #expect(
      recorder.values == [
        Timed("1", at: .zero), Timed("1+", at: .milliseconds(200)), Timed("2", at: .milliseconds(200)),
        Timed("2+", at: .milliseconds(400)), Timed("3", at: .milliseconds(400)), Timed("3+", at: .milliseconds(600)),
      ]
    )
    #expect(
      events.all == ["transform 1", "start 1", "transform 2", "transform 3", "start 2", "start 3"]
    )
    #expect(clock.sleeperCount == 0)
  }

  @Test("flatMap(maxConcurrent: 2): every value is transformed on arrival; inners start in order as slots free")
  func maxConcurrentTransformsOnArrival() async {
    let outer = Feed<Int, Never>()
    let transformed = Log<Int>()
    let started = Log<Int>()
    let gates = (0..<5).map { _ in Gate() }
    let startedGates = (0..<5).map { _ in Gate() }
    let results = outer.flatMap(maxConcurrent: 2) { value in
      transformed.append(value)
      return Signal<Int, Never> { emitter in
        started.append(value)
        startedGates[value].open()
        await gates[value].wait()
        await emitter.send(value)
      }
    }
    var iterator = results.makeAsyncIterator()
    async let fed: Void = {
      for value in 0..<5 { await outer.send(value) }  // each returns once the value was read and transformed
      #expect(transformed.all == [0, 1, 2, 3, 4])
      await startedGates[0].wait()
      await startedGates[1].wait()
      #expect(Set(started.all) == [0, 1])
      gates[1].open()
    }()
    #expect(await iterator.next() == 1)  // the first next() starts the outer pump
    await fed
    await startedGates[2].wait()  // the oldest waiting one takes the free slot
    gates[0].open()
    #expect(await iterator.next() == 0)
    await startedGates[3].wait()
    #expect(Array(started.all.suffix(2)) == [2, 3])
    gates[2].open()
    gates[3].open()
    await outer.finish()
    #expect(Set([await iterator.next(), await iterator.next()]) == [2, 3])
    await startedGates[4].wait()
    #expect(started.all.last == 4)
    gates[4].open()
    #expect(await iterator.next() == 4)
    #expect(await iterator.next() == nil)
  }

  @Test(
    "buffering: bufferingNewest drops the oldest waiting inner, bufferingOldest drops the newcomers",
    arguments: [
      (FlattenBuffering.bufferingNewest(1), [0, 3]), (.bufferingOldest(1), [0, 1]),
      (.bufferingNewest(2), [0, 2, 3]), (.unbounded, [0, 1, 2, 3]),
    ])
  func droppingBuffers(buffering: FlattenBuffering, expected: [Int]) async {
    let outer = Feed<Int, Never>()
    let transformed = Log<Int>()
    let firstGate = Gate()
    let firstStarted = Gate()
    let results = outer.concatMap(buffering: buffering) { value in
      transformed.append(value)
      return innerHeldAtZero(value, started: firstStarted, until: firstGate)
    }
    var iterator = results.makeAsyncIterator()
    async let fed: Void = {
      await outer.send(0)
      await firstStarted.wait()
      for value in 1...3 { await outer.send(value) }
      await outer.finish()
      #expect(transformed.all == [0, 1, 2, 3])  // the transform runs for every value, dropped or not
      firstGate.open()
    }()
    var received: [Int] = []
    while let value = await iterator.next() { received.append(value) }  // the first next() starts the outer pump
    await fed
    #expect(received == expected)
  }

  @Test("buffering: suspendingOuter(after: 0) reads the outer only when its inner can start at once")
  func suspendingOuter() async {
    let outer = Feed<Int, Never>()
    let firstGate = Gate()
    let firstStarted = Gate()
    let sentFirst = Gate()
    let results = outer.concatMap(buffering: .suspendingOuter(after: 0)) { value in
      innerHeldAtZero(value, started: firstStarted, until: firstGate)
    }
    var iterator = results.makeAsyncIterator()
    let sender = Task {
      await outer.send(0)  // returns when the operator asks for the next value: only once inner 0 finished
      sentFirst.open()
      await outer.send(1)
      await outer.finish()
    }
    async let released: Void = {
      await firstStarted.wait()
      #expect(!sentFirst.isOpen)
      firstGate.open()
    }()
    #expect(await iterator.next() == 0)  // the first next() starts the outer pump
    await released
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == nil)
    await sender.value
  }

  @Test("buffering: suspendingOuter(after: 1) lets one inner wait, then stops reading until it starts")
  func suspendingOuterAfterOne() async {
    let outer = Feed<Int, Never>()
    let transformed = Log<Int>()
    let firstGate = Gate()
    let secondTransformed = Gate()
    let sentSecond = Gate()
    let results = outer.concatMap(buffering: .suspendingOuter(after: 1)) { value in
      transformed.append(value)
      if value == 1 { secondTransformed.open() }
      return Signal<Int, Never> { emitter in
        if value == 0 { await firstGate.wait() }
        await emitter.send(value)
      }
    }
    var iterator = results.makeAsyncIterator()
    let sender = Task {
      await outer.send(0)  // inner 0 starts; one inner may wait, so the outer is read on
      await outer.send(1)  // queued: now the outer pump waits until inner 1 starts before it reads again
      sentSecond.open()
      await outer.send(2)
      await outer.finish()
    }
    async let released: Void = {
      await secondTransformed.wait()
      #expect(transformed.all == [0, 1])
      #expect(!sentSecond.isOpen)
      firstGate.open()
    }()
    var received: [Int] = []
    while let value = await iterator.next() { received.append(value) }  // the first next() starts the outer pump
    await released
    #expect(received == [0, 1, 2])
    #expect(transformed.all == [0, 1, 2])
    await sender.value
  }

  @Test("an outer failure fails the result at once, while inners wait; the running inner is cancelled")
  func outerFailureWhileQueued() async {
    let outer = Feed<Int, TestError>()
    let started = Log<Int>()
    let cancelled = Gate()
    let firstStarted = Gate()
    let results = outer.concatMap { value in
      Signal<Int, TestError> { (_) throws(TestError) in
        started.append(value)
        firstStarted.open()
        await waitForCancellation()
        cancelled.open()
      }
    }
    let consumer = Task { await results.collectResult() }
    await outer.send(0)
    await firstStarted.wait()
    await outer.send(1)
    await outer.fail(TestError(code: 9))
    let (values, failure) = await consumer.value
    #expect(values == [])
    #expect(failure == TestError(code: 9))
    await cancelled.wait()
    #expect(started.all == [0])  // inner 1 never started
  }

  @Test("an inner failure fails the result; the waiting inners never start")
  func innerFailureDropsQueue() async {
    let outer = Feed<Int, TestError>()
    let started = Log<Int>()
    let failGate = Gate()
    let firstStarted = Gate()
    let results = outer.flatMap(maxConcurrent: 1) { value in
      Signal<Int, TestError> { (_) throws(TestError) in
        started.append(value)
        firstStarted.open()
        await failGate.wait()
        throw TestError(code: value)
      }
    }
    let consumer = Task { await results.collectResult() }
    await outer.send(0)
    await firstStarted.wait()
    await outer.send(1)
    await outer.send(2)
    failGate.open()
    let (values, failure) = await consumer.value
    #expect(values == [])
    #expect(failure == TestError(code: 0))
    await outer.cancelled.wait()
    #expect(started.all == [0])
  }

  @Test("cancelling the consumer cancels the running inner and the outer; waiting inners never start and are freed")
  func cancellationFreesQueue() async {
    let outer = Feed<Int, Never>()
    let started = Log<Int>()
    let innerCancelled = Gate()
    let firstStarted = Gate()
    let freed = (0..<3).map { _ in Gate() }
    let results = outer.concatMap { value in
      let probe = ReleaseProbe(freed[value])
      return Signal<Int, Never> { emitter in
        _ = probe
        started.append(value)
        firstStarted.open()
        await waitForCancellation()
        innerCancelled.open()
      }
    }
    let consumer = Task { await results.collect() }
    await outer.send(0)
    await firstStarted.wait()
    await outer.send(1)
    await outer.send(2)
    consumer.cancel()
    #expect(await consumer.value == [])
    await innerCancelled.wait()
    await outer.cancelled.wait()
    for gate in freed { await gate.wait() }
    #expect(started.all == [0])
  }

  @Test("dropping the iterator does the same")
  func droppedIteratorFreesQueue() async {
    let outer = Feed<Int, Never>()
    let innerCancelled = Gate()
    let freed = (0..<3).map { _ in Gate() }
    let results = outer.concatMap { value in
      let probe = ReleaseProbe(freed[value])
      return Signal<Int, Never> { emitter in
        _ = probe
        await emitter.send(value)
        await waitForCancellation()
        innerCancelled.open()
      }
    }
    do {
      var iterator = results.makeAsyncIterator()
      async let sent: Void = outer.send(0)
      #expect(await iterator.next() == 0)  // the first next() starts the outer pump
      await sent
      await outer.send(1)
      await outer.send(2)
    }
    await innerCancelled.wait()
    await outer.cancelled.wait()
    for gate in freed { await gate.wait() }
  }

  @Test("memory: an inner that ran is not kept by the queue; a long bounded outer ends with nothing left")
  func startedInnersAreFreed() async {
    let count = 200
    let freed = (0..<count).map { _ in Gate() }
    let values = await Signal<Int, Never>(0..<count).flatMap(maxConcurrent: 3) { value in
      let probe = ReleaseProbe(freed[value])
      return Signal<Int, Never>.future {
        _ = probe
        return value
      }
    }.collect()
    #expect(values.sorted() == Array(0..<count))
    for gate in freed { await gate.wait() }
  }

  @Test("descriptions and preconditions of FlattenBuffering")
  func descriptions() async {
    #expect("\(FlattenBuffering.unbounded)" == ".unbounded")
    #expect("\(FlattenBuffering.bufferingNewest(3))" == ".bufferingNewest(3)")
    #expect("\(FlattenBuffering.bufferingOldest(2))" == ".bufferingOldest(2)")
    #expect("\(FlattenBuffering.suspendingOuter(after: 0))" == ".suspendingOuter(after: 0)")
    await #expect(processExitsWith: .failure) { _ = FlattenBuffering.bufferingNewest(0) }
    await #expect(processExitsWith: .failure) { _ = FlattenBuffering.bufferingOldest(0) }
    await #expect(processExitsWith: .failure) { _ = FlattenBuffering.suspendingOuter(after: -1) }
  }
}

/// Opens its gate when it is freed: proves that nothing keeps an inner sequence alive.
final class ReleaseProbe: Sendable {
  let freed: Gate

  init(_ freed: Gate) {
    self.freed = freed
  }

  deinit { freed.open() }
}

/// The failure of a recorder's end, if it failed with a ``TestError``.
func failure<Failure>(of end: Recorder<String, Failure>.End?) -> TestError? {
  guard case .failed(let error)? = end else { return nil }
  return error as? TestError
}
