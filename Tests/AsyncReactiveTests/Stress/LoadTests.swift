import AsyncReactive
import Testing

/// What one consumer saw of values that encode `producer << 32 | sequence`: every value must be the next one of
/// its producer, so a lost, duplicated or reordered value shows as `outOfOrder`.
struct ProducerTally: Sendable {
  /// The next sequence number expected from each producer.
  var next: [Int]
  var outOfOrder = 0
  var count = 0
  /// Values that are not from a producer (an `AsyncCurrentValueSubject`'s initial value), in order of arrival.
  var others: [Int] = []
  /// A hash of the whole order, to compare consumers that must see the same order.
  var orderHash: UInt64 = 0xcbf2_9ce4_8422_2325
  /// Whether each producer may start anywhere (a consumer that joined late), not at 0.
  var joinedLate = false
  private var seen: [Bool]

  init(producers: Int, joinedLate: Bool = false) {
    next = Array(repeating: 0, count: producers)
    seen = Array(repeating: false, count: producers)
    self.joinedLate = joinedLate
  }

  mutating func record(_ value: Int) {
    guard value >= 0 else {
      others.append(value)
      return
    }
    let producer = value >> 32
    let sequence = value & 0xFFFF_FFFF
    if joinedLate && !seen[producer] { next[producer] = sequence }
    seen[producer] = true
    if next[producer] != sequence { outOfOrder += 1 }
    next[producer] = sequence + 1
    count += 1
    orderHash = (orderHash ^ UInt64(bitPattern: Int64(value))) &* 0x100_0000_01b3
  }
}

/// A one-shot countdown: `wait()` returns once `arrive()` was called `count` times.
final class Countdown: Sendable {
  private let remaining: Locked<Int>
  private let done = Gate()

  init(_ count: Int) {
    remaining = Locked(count)
    if count == 0 { done.open() }
  }

  func arrive() {
    if remaining.withLock({
      $0 -= 1
      return $0 == 0
    }) {
      done.open()
    }
  }

  func wait() async { await done.wait() }
}

/// Runs `consumers` tasks that each make their iterator of `makeSequence(index)`, then (once every consumer has
/// registered) runs `produce` and returns what each consumer folded, in consumer order.
func consume<Seq: AsyncSequence<Element, Never>, Element, Result: Sendable>(
  consumers: Int,
  initial: @escaping @Sendable (Int) -> Result,
  makeSequence: @escaping @Sendable (Int) -> Seq,
  fold: @escaping @Sendable (inout Result, Element) -> Void,
  produce: @escaping @Sendable () async -> Void
) async -> [Result] where Seq: SendableMetatype, Seq.AsyncIterator: SendableMetatype {
  let ready = Countdown(consumers)
  let go = Gate()
  return await withTaskGroup(of: (Int, Result).self) { group in
    for index in 0..<consumers {
      group.addTask {
        var iterator = makeSequence(index).makeAsyncIterator()
        ready.arrive()
        await go.wait()
        var result = initial(index)
        while let element = await iterator.next(isolation: nil) { fold(&result, element) }
        return (index, result)
      }
    }
    await ready.wait()
    go.open()
    await produce()
    var results: [(Int, Result)] = []
    for await result in group { results.append(result) }
    return results.sorted { $0.0 < $1.0 }.map(\.1)
  }
}

/// Runs `producers` tasks; producer `p` calls `send(p << 32 | s)` for `s` in `0..<perProducer`.
func produce(producers: Int, perProducer: Int, send: @escaping @Sendable (Int) -> Void) async {
  await withTaskGroup(of: Void.self) { group in
    for producer in 0..<producers {
      group.addTask {
        for sequence in 0..<perProducer { send(producer << 32 | sequence) }
      }
    }
  }
}

@Suite("Stress: load", .timeLimit(.minutes(10)))
struct StressLoadTests {
  let profile = StressProfile.current
  var perProducer: Int { profile.loadEvents / profile.producers }
  var total: Int { perProducer * profile.producers }

  /// Every consumer got every value once, each producer's in order, and all consumers in the same order.
  func expectComplete(_ tallies: [ProducerTally], _ name: String) {
    for (index, tally) in tallies.enumerated() {
      #expect(tally.count == total, "\(name): consumer \(index) got \(tally.count) of \(total)")
      #expect(tally.outOfOrder == 0, "\(name): consumer \(index): \(tally.outOfOrder) lost, duplicated or reordered")
      #expect(tally.next == Array(repeating: perProducer, count: profile.producers), "\(name): consumer \(index)")
    }
    #expect(Set(tallies.map(\.orderHash)).count == 1, "\(name): consumers saw different orders")
    print("stress load \(name): \(total) events pushed, \(tallies.map(\.count).reduce(0, +)) delivered")
  }

  /// Has `profile.consumers` consumers each iterate a sequence from `makeSequence` while `profile.producers`
  /// producers pass their values to `send`, then calls `finish`; returns each consumer's tally, in consumer order.
  func tallyConsumers<Seq: AsyncSequence<Int, Never>>(
    of makeSequence: @escaping @Sendable () -> Seq,
    send: @escaping @Sendable (Int) -> Void,
    finish: @escaping @Sendable () -> Void
  ) async -> [ProducerTally] where Seq: SendableMetatype, Seq.AsyncIterator: SendableMetatype {
    let (producers, perProducer) = (profile.producers, perProducer)
    return await consume(
      consumers: profile.consumers, initial: { _ in ProducerTally(producers: producers) },
      makeSequence: { _ in makeSequence() }, fold: { $0.record($1) },
      produce: {
        await produce(producers: producers, perProducer: perProducer, send: send)
        finish()
      })
  }

  @Test("AsyncPassthroughSubject: 8 producers, 8 consumers, nothing lost or duplicated, one order for all")
  func passthroughSubject() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let tallies = await tallyConsumers(of: { subject }, send: { subject.send($0) }, finish: { subject.finish() })
    expectComplete(tallies, "AsyncPassthroughSubject")
    #expect(subject.consumerCount == 0)
  }

  @Test("hot chain map → combineLatest → withLatestFrom: 8 producers, 8 consumers, nothing lost, one order for all")
  func hotChain() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let other = AsyncCurrentValueSubject<Int, Never>(0)
    let chain = combineLatest(subject.map { $0 }, other)
      .map { value, _ in value }
      .withLatestFrom(other.hotSignal) { value, _ in value }
    // combineLatest ends once both inputs have ended.
    let tallies = await tallyConsumers(
      of: { chain }, send: { subject.send($0) },
      finish: {
        subject.finish()
        other.finish()
      })
    expectComplete(tallies, "hot chain")
    #expect(subject.consumerCount == 0)
    #expect(other.consumerCount == 0)
  }

  @Test("AsyncCurrentValueSubject: each consumer gets the current value first, then every value sent")
  func currentValueSubject() async {
    let subject = AsyncCurrentValueSubject<Int, Never>(-1)
    let tallies = await tallyConsumers(of: { subject }, send: { subject.send($0) }, finish: { subject.finish() })
    expectComplete(tallies, "AsyncCurrentValueSubject")
    for tally in tallies { #expect(tally.others == [-1]) }
    #expect(subject.consumerCount == 0)
    #expect(subject.value >> 32 < profile.producers && subject.value & 0xFFFF_FFFF == perProducer - 1)
  }

  @Test("AsyncReplaySubject: early consumers get everything; consumers joining mid-stream get a contiguous suffix")
  func replaySubject() async {
    let subject = AsyncReplaySubject<Int, Never>(bufferSize: 16)
    let (producers, perProducer) = (profile.producers, perProducer)
    let late = Log<ProducerTally>()
    let halfway = Gate()
    let tallies = await consume(
      consumers: profile.consumers, initial: { _ in ProducerTally(producers: producers) },
      makeSequence: { _ in subject }, fold: { $0.record($1) },
      produce: {
        await withTaskGroup(of: Void.self) { group in
          for _ in 0..<2 {
            group.addTask {
              await halfway.wait()
              var tally = ProducerTally(producers: producers, joinedLate: true)
              for await value in subject { tally.record(value) }
              late.append(tally)
            }
          }
          group.addTask {
            await produce(producers: producers, perProducer: perProducer) { value in
              subject.send(value)
              if value == perProducer / 2 { halfway.open() }
            }
            await halfway.wait()
          }
          await group.next()
          // The late consumers are registered once they iterate; they may still be starting: wait for them.
          _ = await eventually { subject.consumerCount >= 2 + profile.consumers }
          subject.finish()
        }
      })
    expectComplete(tallies, "AsyncReplaySubject")
    for tally in late.all {
      #expect(tally.outOfOrder == 0, "a late consumer saw a gap, a duplicate or a reordering")
      #expect(tally.count >= 16, "a late consumer did not get the replay")
      #expect(tally.next.allSatisfy { $0 == perProducer || $0 == 0 })
    }
    #expect(late.all.count == 2)
    #expect(subject.consumerCount == 0)
  }

  @Test("Property: consumers of a Property see its subject's current value, then every value")
  func property() async {
    let subject = AsyncCurrentValueSubject<Int, Never>(-1)
    let property = Property(subject)
    let tallies = await tallyConsumers(of: { property }, send: { subject.send($0) }, finish: { subject.finish() })
    expectComplete(tallies, "Property")
    for tally in tallies { #expect(tally.others == [-1]) }
    #expect(subject.consumerCount == 0)
  }

  @Test("merge of 8 subjects, one producer each: every value once, each input's in order")
  func merge8() async {
    let subjects = (0..<profile.producers).map { _ in AsyncPassthroughSubject<Int, Never>() }
    let tallies = await tallyConsumers(
      of: { merge(subjects) }, send: { subjects[$0 >> 32].send($0) },
      finish: { for subject in subjects { subject.finish() } })
    for (index, tally) in tallies.enumerated() {
      #expect(tally.count == total && tally.outOfOrder == 0, "merge: consumer \(index)")
      #expect(tally.next == Array(repeating: perProducer, count: profile.producers), "merge: consumer \(index)")
    }
    print("stress load merge: \(total) events pushed, \(tallies.map(\.count).reduce(0, +)) delivered")
    #expect(subjects.allSatisfy { $0.consumerCount == 0 })
  }

  @Test("combineLatest of 8 subjects: one output per input value, each step moves one input by one")
  func combineLatest8() async {
    let subjects = (0..<profile.producers).map { _ in AsyncPassthroughSubject<Int, Never>() }
    let (producers, perProducer) = (profile.producers, perProducer)
    struct Steps: Sendable {
      var first: [Int]?
      var last: [Int]?
      var count = 0
      var badSteps = 0

      mutating func record(_ values: [Int]) {
        count += 1
        if let last {
          let moved = zip(last, values).filter { $0 != $1 }
          if moved.count != 1 || moved[0].1 != moved[0].0 + 1 { badSteps += 1 }
        } else {
          first = values
        }
        last = values
      }
    }
    let results = await consume(
      consumers: profile.consumers, initial: { _ in Steps() },
      makeSequence: { _ in combineLatest(subjects) }, fold: { $0.record($1) },
      produce: {
        await produce(producers: producers, perProducer: perProducer) { value in
          subjects[value >> 32].send(value & 0xFFFF_FFFF)
        }
        for subject in subjects { subject.finish() }
      })
    for (index, steps) in results.enumerated() {
      #expect(steps.badSteps == 0, "combineLatest: consumer \(index): outputs skipped or repeated an input value")
      #expect(steps.last == Array(repeating: perProducer - 1, count: producers), "combineLatest: consumer \(index)")
      let expected = 1 + (steps.first ?? []).map { perProducer - 1 - $0 }.reduce(0, +)
      #expect(steps.count == expected, "combineLatest: consumer \(index) got \(steps.count) outputs of \(expected)")
    }
    print("stress load combineLatest: \(total) events pushed, \(results.map(\.count).reduce(0, +)) delivered")
    #expect(subjects.allSatisfy { $0.consumerCount == 0 })
  }

  @Test("share: 8 consumers of one shared run get every value, in the same order", arguments: [0, 4])
  func share(replay: Int) async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let shared = subject.subscribe().share(replay: replay)
    let (producers, perProducer, consumers) = (profile.producers, perProducer, profile.consumers)
    let late = Log<ProducerTally>()
    let halfway = Gate()
    let tallies = await consume(
      consumers: consumers, initial: { _ in ProducerTally(producers: producers) },
      makeSequence: { _ in shared }, fold: { $0.record($1) },
      produce: {
        // Two consumers join the running run halfway: they get the latest `replay` values, then the rest.
        let lateConsumers = (0..<2).map { _ in
          Task {
            await halfway.wait()
            var tally = ProducerTally(producers: producers, joinedLate: true)
            for await value in shared { tally.record(value) }
            late.append(tally)
          }
        }
        await produce(producers: producers, perProducer: perProducer) { value in
          subject.send(value)
          if value == perProducer / 2 { halfway.open() }
        }
        // The run must not end before they joined (a consumer after the end would start a second run).
        _ = await eventually { shared.consumerCount >= consumers + 2 }
        subject.finish()
        for consumer in lateConsumers { await consumer.value }
      })
    expectComplete(tallies, "share(replay: \(replay))")
    for tally in late.all {
      #expect(tally.outOfOrder == 0, "share(replay: \(replay)): a late consumer saw a gap, a duplicate or a reordering")
      #expect(tally.count >= replay, "share(replay: \(replay)): a late consumer did not get the replay")
    }
    #expect(late.all.count == 2)
    #expect(shared.consumerCount == 0)
    #expect(subject.consumerCount == 0)
  }

  static let strategies: [FlattenStrategy] = [.merge, .concat, .latest, .concurrent(limit: 3)]

  @Test(
    "flatMap: 8 producers feed the outer, every inner kept whole and in order (.latest: what it promises)",
    arguments: strategies)
  func flatMap(strategy: FlattenStrategy) async {
    let innerSize = 8
    let outerPerProducer = max(1, profile.loadEvents / (innerSize * profile.consumers * profile.producers))
    let outerTotal = outerPerProducer * profile.producers
    let subject = AsyncPassthroughSubject<Int, Never>()
    let producers = profile.producers
    // What each consumer's transform saw, in the order the outer delivered it; an inner's values are
    // `arrival << 4 | position`.
    let arrivals = (0..<profile.consumers).map { _ in Log<Int>() }
    let counters = (0..<profile.consumers).map { _ in Counter() }
    struct Inners: Sendable {
      var values: [Int] = []
    }
    let results = await consume(
      consumers: profile.consumers, initial: { _ in Inners() },
      makeSequence: { consumer in
        subject.flattened(strategy) { outer in
          arrivals[consumer].append(outer)
          let arrival = counters[consumer].increment() - 1
          return Signal<Int, Never>((0..<innerSize).map { arrival << 4 | $0 })
        }
      },
      fold: { $0.values.append($1) },
      produce: {
        await produce(producers: producers, perProducer: outerPerProducer) { subject.send($0) }
        subject.finish()
      })
    for (consumer, result) in results.enumerated() {
      var outers = ProducerTally(producers: producers)
      for outer in arrivals[consumer].all { outers.record(outer) }
      #expect(outers.count == outerTotal && outers.outOfOrder == 0, "\(strategy): the outer lost or reordered values")
      check(strategy, result.values, outerTotal: outerTotal, innerSize: innerSize, consumer: consumer)
    }
    let delivered = results.map { $0.values.count }.reduce(0, +)
    print(
      "stress load flatMap(\(strategy)): \(outerTotal * innerSize * profile.consumers) inner events, \(delivered) delivered"
    )
    #expect(subject.consumerCount == 0)
  }

  private func check(_ strategy: FlattenStrategy, _ values: [Int], outerTotal: Int, innerSize: Int, consumer: Int) {
    let name = "\(strategy), consumer \(consumer)"
    var nextPosition: [Int: Int] = [:]
    var gaps = 0
    for value in values {
      let (arrival, position) = (value >> 4, value & 0xF)
      if nextPosition[arrival, default: 0] != position { gaps += 1 }
      nextPosition[arrival] = position + 1
    }
    #expect(gaps == 0, "\(name): an inner's values were lost, duplicated or reordered")
    switch strategy {
    case .latest:
      // Drops by design; promised: no stale value after a switch, the last inner whole, each inner a prefix.
      let arrivals = values.map { $0 >> 4 }
      #expect(zip(arrivals, arrivals.dropFirst()).allSatisfy { $0 <= $1 }, "\(name): a stale value after a switch")
      #expect(values.last == ((outerTotal - 1) << 4 | (innerSize - 1)), "\(name): the last inner did not finish")
      #expect(nextPosition[outerTotal - 1] == innerSize, "\(name)")
    case .concat:
      let expected = (0..<outerTotal).flatMap { arrival in (0..<innerSize).map { arrival << 4 | $0 } }
      #expect(values == expected, "\(name): not one inner after the other, in outer order")
    default:
      #expect(values.count == outerTotal * innerSize, "\(name): got \(values.count) of \(outerTotal * innerSize)")
      #expect(nextPosition.count == outerTotal && nextPosition.values.allSatisfy { $0 == innerSize }, "\(name)")
    }
  }

  @Test("Command under .concurrent(limit: 4): 8 callers, every execution once, never above the limit")
  func commandConcurrent() async {
    let limit = 4
    let inFlight = Locked((now: 0, peak: 0))
    let box = Locked<Command<Int, Int, Never>?>(
      Command(policy: .concurrent(limit: limit)) { input in
        inFlight.withLock {
          $0.now += 1
          $0.peak = max($0.peak, $0.now)
        }
        defer { inFlight.withLock { $0.now -= 1 } }
        await Task.yield()
        return input
      })
    // Only the box holds the command, so that releasing it there ends the streams.
    let (values, disabledErrors, errors) = box.withLock { ($0!.values, $0!.disabledErrors, $0!.errors) }
    let (executing, isEnabled) = box.withLock { ($0!.executing, $0!.isEnabled) }
    let flags = [executing, isEnabled].map { flag in
      let iterator = flag.makeAsyncIterator()
      return Task {
        var iterator = iterator
        var seen: [Bool] = []
        while let value = await iterator.next() { seen.append(value) }
        return seen
      }
    }
    let disabledIterator = disabledErrors.makeAsyncIterator()
    let errorsIterator = errors.makeAsyncIterator()
    let disabledSeen = Task {
      var iterator = disabledIterator
      var count = 0
      while await iterator.next() != nil { count += 1 }
      return count
    }
    let errorsSeen = Task {
      var iterator = errorsIterator
      var count = 0
      while await iterator.next() != nil { count += 1 }
      return count
    }
    let (producers, perProducer) = (profile.producers, perProducer)
    let disabled = Counter()
    let unexpected = Log<String>()
    let tallies = await consume(
      consumers: profile.consumers, initial: { _ in ProducerTally(producers: producers) },
      makeSequence: { _ in values }, fold: { $0.record($1) },
      produce: {
        guard let command = box.withLock({ $0 }) else { return }
        await withTaskGroup(of: Void.self) { group in
          for producer in 0..<producers {
            group.addTask {
              for sequence in 0..<perProducer {
                let input = producer << 32 | sequence
                while true {
                  do {
                    let output = try await command.execute(input)
                    if output != input { unexpected.append("execute(\(input)) returned \(output)") }
                    break
                  } catch CommandError<Never>.disabled {
                    disabled.increment()
                    await Task.yield()
                  } catch {
                    unexpected.append("execute(\(input)) threw \(error)")
                    break
                  }
                }
              }
            }
          }
        }
        // Releasing the command ends its streams, which ends the consumers.
        box.withLock { $0 = nil }
      })
    expectComplete(tallies, "Command .concurrent(limit: \(limit))")
    #expect(unexpected.all.isEmpty, "\(unexpected.all.prefix(5))")
    #expect(inFlight.withLock { $0.peak } <= limit, "more runs in flight than the limit")
    #expect(await disabledSeen.value == disabled.value, "disabledErrors does not match the rejected calls")
    #expect(await errorsSeen.value == 0)
    for (name, flag) in zip(["executing", "isEnabled"], flags) {
      let seen = await flag.value
      #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 != $1 }, "\(name) repeated a value")
      // Both end on `false`: `executing` when the last run ends, `isEnabled` when the command is released.
      #expect(seen.first == (name == "isEnabled") && seen.last == false, "\(name): \(seen.prefix(4))…")
    }
    print("stress load Command: \(total) executions, \(disabled.value) rejected at the limit and retried")
  }
}
