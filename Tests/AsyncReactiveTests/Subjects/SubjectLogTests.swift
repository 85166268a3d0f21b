import AsyncReactive
import AsyncReactiveTesting
import Testing

/// The consumers of a subject with an unbounded buffer (the default) read one shared log at their own positions
/// instead of each keeping a copy of every value: these tests pin what that must not change (every value, in
/// order, to every consumer, whatever their pace) and what it must not keep (values every consumer has read).
@Suite("Subjects: the shared log of unbounded consumers")
struct SubjectLogTests {
  @Test("consumers at different paces, beside a bounded one, each get every value in send order across log trims")
  func differentPaces() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    var eager = subject.makeAsyncIterator()
    var everyTen = subject.makeAsyncIterator()
    let atTheEnd = subject.subscribe()
    let bounded = subject.subscribe(bufferingPolicy: .bufferingOldest(1_000))
    var eagerValues: [Int] = []
    var everyTenValues: [Int] = []
    for value in 0..<500 {
      subject.send(value)
      eagerValues.append(await eager.next()!)
      if value % 10 == 9 {
        for _ in 0..<10 { everyTenValues.append(await everyTen.next()!) }
      }
    }
    subject.finish()
    #expect(await eager.next() == nil)
    #expect(await everyTen.next() == nil)
    #expect(eagerValues == Array(0..<500))
    #expect(everyTenValues == Array(0..<500))
    #expect(await atTheEnd.collect() == Array(0..<500))
    #expect(await bounded.collect() == Array(0..<500))
    #expect(subject.consumerCount == 0)
  }

  @Test("a consumer whose look takes the last values leaves the subject at that look, before it consumes them")
  func lastLookRemoves() async throws {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    var reader = subject.makeAsyncIterator()
    var bounded = subject.subscribe(bufferingPolicy: .bufferingNewest(10)).makeAsyncIterator()
    for value in 0..<3 { subject.send(value) }
    subject.fail(TestError(code: 2))
    #expect(subject.consumerCount == 2)
    #expect(try await reader.next() == 0)  // takes 0, 1, 2 and the end in one look
    #expect(subject.consumerCount == 1)
    #expect(try await bounded.next() == 0)
    #expect(subject.consumerCount == 0)
    #expect(try await reader.next() == 1)
    #expect(try await reader.next() == 2)
    await #expect(throws: TestError(code: 2)) { try await reader.next() }
    #expect(try await reader.next() == nil)
    #expect(try await bounded.next() == 1)
    #expect(try await bounded.next() == 2)
    await #expect(throws: TestError(code: 2)) { try await bounded.next() }
  }

  @Test("a consumer in a task cancelled before its first look still gets what was buffered for it, then ends")
  func cancelledBeforeFirstLook() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let values = subject.subscribe()
    subject.send(1)
    subject.send(2)
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await values.collect()
    }
    #expect(await task.value == [1, 2])
    #expect(subject.consumerCount == 0)
  }

  @Test("a consumer that joins late starts at the next send, whatever the others have not read yet")
  func lateJoiner() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let early = subject.subscribe()
    for value in 0..<100 { subject.send(value) }
    let late = subject.subscribe()
    for value in 100..<200 { subject.send(value) }
    subject.finish()
    #expect(await late.collect() == Array(100..<200))
    #expect(await early.collect() == Array(0..<200))
  }

  @Test("a replay subject gives the replayed values, then the live ones from the log")
  func replayThenLog() async {
    let subject = AsyncReplaySubject<Int, Never>(bufferSize: 2)
    for value in 1...3 { subject.send(value) }
    let first = subject.subscribe()
    subject.send(4)
    let second = subject.subscribe()
    subject.send(5)
    subject.finish()
    #expect(await first.collect() == [2, 3, 4, 5])
    #expect(await second.collect() == [3, 4, 5])
  }

  @Test("values sent before a failure all come before it, for a consumer that had not read any of them")
  func failureAfterValues() async throws {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    var reader = subject.makeAsyncIterator()
    let other = subject.subscribe()
    for value in 0..<3 { subject.send(value) }
    subject.fail(TestError(code: 1))
    #expect(try await reader.next() == 0)
    #expect(try await reader.next() == 1)
    #expect(try await reader.next() == 2)
    await #expect(throws: TestError(code: 1)) { try await reader.next() }
    let (values, failure) = await other.collectResult()
    #expect(values == [0, 1, 2])
    #expect(failure == TestError(code: 1))
  }

  @Test("the log lets go of a value once the only other consumer left and the last one read past it")
  func releasedWhenAloneAndRead() async {
    let subject = AsyncPassthroughSubject<Box, Never>()
    var reader = subject.makeAsyncIterator()
    weak var watched: Box?
    do {
      let leaver = subject.subscribe()
      do {
        let box = Box(1)
        watched = box
        subject.send(box)
      }
      #expect(await reader.next()?.id == 1)
      withExtendedLifetime(leaver) {}  // leaves without reading it
    }
    #expect(subject.consumerCount == 1)
    subject.send(Box(2))
    #expect(await reader.next()?.id == 2)
    #expect(watched == nil)
  }

  @Test("with several consumers, a value every one of them has read is let go within 64 more sends")
  func releasedAfterTrim() async {
    let subject = AsyncPassthroughSubject<Box, Never>()
    var readers = (0..<3).map { _ in subject.makeAsyncIterator() }
    weak var watched: Box?
    do {
      let box = Box(0)
      watched = box
      subject.send(box)
    }
    for index in readers.indices { #expect(await readers[index].next()?.id == 0) }
    for id in 1...64 { subject.send(Box(id)) }
    for index in readers.indices {
      for id in 1...64 { #expect(await readers[index].next()?.id == id) }
    }
    #expect(watched == nil)
  }

  @Test("the log lets go of everything when the last consumer leaves")
  func releasedWhenEveryoneLeft() async {
    let subject = AsyncPassthroughSubject<Box, Never>()
    weak var watched: Box?
    do {
      let first = subject.subscribe()
      let second = subject.subscribe()
      do {
        let box = Box(1)
        watched = box
        subject.send(box)
      }
      #expect(watched != nil)
      withExtendedLifetime((first, second)) {}
    }
    #expect(subject.consumerCount == 0)
    #expect(watched == nil)
  }

  @Test("consumers parked for the next value and consumers still reading agree, 500 rounds")
  func parkedAndReading() async {
    for round in 0..<500 {
      let subject = AsyncPassthroughSubject<Int, Never>()
      let consumers = (0..<4).map { _ in subject.subscribe() }
      let results = await withTaskGroup(of: [Int].self) { group in
        for consumer in consumers { group.addTask { await consumer.collect() } }
        for value in 0..<100 {
          subject.send(value)
          if value % (round % 7 + 1) == 0 { await Task.yield() }
        }
        subject.finish()
        return await group.reduce(into: []) { $0.append($1) }
      }
      #expect(results.count == 4)
      for result in results { #expect(result == Array(0..<100), "round \(round)") }
      #expect(subject.consumerCount == 0)
    }
  }

  @Test("a consumer that keeps pace with bursts gets each burst's last value without another send, in order")
  func pacingConsumerSeesTheEndOfEachBurst() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let values = subject.subscribe()
    let (acks, ack) = AsyncStream.makeStream(of: Int.self)
    let bursts = 20
    let burst = 10_000
    let consumer = Task {
      var expected = 0
      var wrong = 0
      for await value in values {
        if value != expected { wrong += 1 }
        expected = value + 1
        // The burst's last value: the producer sends nothing more until this consumer has it.
        if value % burst == burst - 1 { ack.yield(value) }
      }
      ack.finish()
      return (expected, wrong)
    }
    var acked: [Int] = []
    var acknowledgements = acks.makeAsyncIterator()
    for round in 0..<bursts {
      for value in round * burst..<(round + 1) * burst { subject.send(value) }
      if let last = await acknowledgements.next() { acked.append(last) }
    }
    subject.finish()
    let (next, wrong) = await consumer.value
    #expect(acked == (1...bursts).map { $0 * burst - 1 })
    #expect(next == bursts * burst)
    #expect(wrong == 0)
  }

  @Test("a parked reader removed before the next send: the reader that remains still gets that value")
  func parkedReaderRemovedThenSend() async {
    for round in 0..<200 {
      let storage = Node<Int, Never>(replay: .none)
      let leaving = storage.register(policy: .unbounded)
      let staying = storage.register(policy: .unbounded)
      let parked = Gate()
      let waiter = Task {
        _ = await withUnsafeContinuation { (continuation: ConsumerQueue<Int, Never>.Waiter) in
          let didPark = storage.withQueue(leaving) { $0?.park(continuation) ?? false }
          parked.open()
          if !didPark { continuation.resume(returning: .recheck) }
        }
      }
      await parked.wait()
      storage.removeConsumer(leaving)  // wakes it; its id stays among the parked until the next send
      await waiter.value
      storage.send(round)
      var batch: [Int] = []
      let taken = storage.withQueue(staying) { $0?.take(into: &batch) }
      guard case .elements(let start) = taken else {
        Issue.record("round \(round): the remaining reader found \(String(describing: taken))")
        continue
      }
      #expect(Array(batch[start...]) == [round])
      storage.removeConsumer(staying)
    }
  }

  @Test("a slot is reused by a new consumer, but the id of the one that left finds nothing")
  func slotsReuseNotIDs() {
    var slots = ConsumerSlots()
    let first = slots.allocate()
    let second = slots.allocate()
    slots.setPosition(7, of: first)
    slots.setPosition(~3, of: second)
    #expect(slots.position(of: first) == 7)
    #expect(slots.position(of: second) == ~3)
    #expect(slots.free(first) == 7)
    #expect(slots.free(first) == nil)
    var previous = first
    for round in 0..<3 {
      let reused = slots.allocate()
      #expect(reused & 0xFFFF_FFFF == first & 0xFFFF_FFFF, "round \(round): the freed slot is reused")
      #expect(reused != previous)
      slots.setPosition(round, of: reused)
      #expect(slots.position(of: previous) == nil)
      #expect(slots.position(of: reused) == round)
      #expect(slots.position(of: second) == ~3)
      #expect(slots.free(reused) == round)
      previous = reused
    }
  }

  @Test("freed slots are reused, the last freed first, each once, before a new slot is opened")
  func freeSlotsFormAList() {
    var slots = ConsumerSlots()
    let ids = (0..<5).map { _ in slots.allocate() }
    #expect(ids == [0, 1, 2, 3, 4])
    for (index, id) in ids.enumerated() { slots.setPosition(index * 10, of: id) }
    #expect(slots.free(ids[1]) == 10)
    #expect(slots.free(ids[3]) == 30)
    #expect(slots.free(ids[4]) == 40)
    let reused = (0..<3).map { _ in slots.allocate() }
    #expect(reused.map { $0 & 0xFFFF_FFFF } == [4, 3, 1])
    #expect(reused.map { $0 >> 32 } == [1, 1, 1])
    #expect(slots.allocate() == 5)
    for id in ids where ![0, 2].contains(id) { #expect(slots.position(of: id) == nil) }
    #expect(slots.position(of: ids[0]) == 0)
    #expect(slots.position(of: ids[2]) == 20)
  }

  final class Box: Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
  }
}
