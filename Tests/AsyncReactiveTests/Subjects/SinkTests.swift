import AsyncReactive
import AsyncReactiveTesting
import Synchronization
import Testing

/// `sink(in:onValue:onEnd:)`: synchronous observers of a subject, without a task.
@Suite("Subject.sink: synchronous observers")
struct SinkTests {
  private struct Failed: Error, Equatable {
    let code: Int
  }

  @Test("a passthrough sink gets each value before send returns, then the end once; later sends are ignored")
  func passthroughDeliversSynchronously() {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let lifetime = Lifetime()
    let values = Log<Int>()
    let ends = Counter()
    subject.send(0)  // before the sink: not delivered
    subject.sink(in: lifetime, onValue: { values.append($0) }, onEnd: { _ in ends.increment() })
    #expect(subject.consumerCount == 1)
    for value in 1...3 {
      subject.send(value)
      #expect(values.all == Array(1...value))
    }
    subject.finish()
    #expect(ends.value == 1)
    subject.send(4)
    #expect(values.all == [1, 2, 3])
    #expect(ends.value == 1)
    #expect(subject.consumerCount == 0)
    #expect(lifetime.observationCount == 0)
  }

  @Test("a current-value sink gets the current value in the call, then each change; a failure ends it with the error")
  func currentValueReplaysAndFails() {
    let subject = AsyncCurrentValueSubject<String, Failed>("a")
    let lifetime = Lifetime()
    let values = Log<String>()
    let ends = Log<Failed?>()
    subject.sink(in: lifetime, onValue: { values.append($0) }, onEnd: { ends.append($0) })
    #expect(values.all == ["a"])
    subject.value = "b"
    #expect(values.all == ["a", "b"])
    subject.fail(Failed(code: 7))
    #expect(ends.all == [Failed(code: 7)])
    #expect(subject.consumerCount == 0)
  }

  @Test("a replay sink gets the buffer first; on an ended subject it gets the buffer and the end in the call")
  func replayAndEndedSubject() {
    let subject = AsyncReplaySubject<Int, Never>(bufferSize: 2)
    let lifetime = Lifetime()
    for value in 1...3 { subject.send(value) }
    let live = Log<Int>()
    subject.sink(in: lifetime) { live.append($0) }
    subject.send(4)
    #expect(live.all == [2, 3, 4])
    subject.finish()
    let late = Log<String>()
    subject.sink(in: lifetime, onValue: { late.append("\($0)") }, onEnd: { late.append("end \($0 == nil)") })
    #expect(late.all == ["3", "4", "end true"])
    #expect(subject.consumerCount == 0)
    #expect(lifetime.observationCount == 0)
  }

  @Test("ending the lifetime stops the sink at once and removes it; a sink on an ended lifetime never runs")
  func lifetimeEndsTheSink() {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let values = Log<Int>()
    do {
      let lifetime = Lifetime()
      subject.sink(in: lifetime) { values.append($0) }
      subject.send(1)
      #expect(lifetime.observationCount == 1)
      lifetime.cancel()
      #expect(lifetime.observationCount == 0)
      subject.send(2)
      subject.sink(in: lifetime) { values.append($0 * 100) }
      subject.send(3)
    }
    let dropped = { () -> Void in
      let lifetime = Lifetime()
      subject.sink(in: lifetime) { values.append($0 * 1_000) }
    }
    dropped()  // a released lifetime ends its sinks
    subject.send(4)
    #expect(values.all == [1])
    #expect(subject.consumerCount == 0)
  }

  @Test("a sink that sends to its own subject does not recurse: every sink gets each event before the next")
  func reentrantSendIsQueued() {
    let subject = AsyncPassthroughSubject<String, Never>()
    let lifetime = Lifetime()
    let log = Log<String>()
    let depth = Atomic<Int>(0)
    let deepest = Atomic<Int>(0)
    subject.sink(in: lifetime) { value in
      let now = depth.add(1, ordering: .relaxed).newValue
      _ = deepest.max(now, ordering: .relaxed)
      log.append("A \(value)")
      if value == "x1" { subject.send("x2") }
      depth.subtract(1, ordering: .relaxed)
    }
    subject.sink(in: lifetime) { log.append("B \($0)") }
    subject.send("x1")
    #expect(log.all == ["A x1", "B x1", "A x2", "B x2"])
    #expect(deepest.load(ordering: .relaxed) == 1)
  }

  @Test("released subject: its sinks end with nil and the lifetime forgets them")
  func releasedSubjectEndsSinks() {
    let lifetime = Lifetime()
    let ends = Log<String>()
    do {
      let subject = AsyncCurrentValueSubject<Int, Never>(1)
      subject.sink(in: lifetime, onValue: { _ in }, onEnd: { ends.append($0 == nil ? "finished" : "failed") })
    }
    #expect(ends.all == ["finished"])
    #expect(lifetime.observationCount == 0)
  }

  @Test("a long-lived lifetime does not collect the sinks of 1,000 subjects that ended")
  func endedSinksDoNotAccumulate() {
    let lifetime = Lifetime()
    let sum = Atomic<Int>(0)
    for value in 0..<1_000 {
      let subject = AsyncPassthroughSubject<Int, Never>()
      subject.sink(in: lifetime) { sum.add($0, ordering: .relaxed) }
      subject.send(value)
      subject.finish()
    }
    #expect(sum.load(ordering: .relaxed) == 499_500)
    #expect(lifetime.observationCount == 0)
  }

  @Test("4 concurrent senders × 5,000 values × 3 sinks: each value once, same order everywhere, one at a time")
  func concurrentSenders() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let lifetime = Lifetime()
    let logs = (0..<3).map { _ in Log<Int>() }
    let inside = Atomic<Int>(0)
    let overlaps = Counter()
    for log in logs {
      subject.sink(in: lifetime) { value in
        if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 { overlaps.increment() }
        log.append(value)
        inside.subtract(1, ordering: .sequentiallyConsistent)
      }
    }
    let perSender = 5_000
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<4 {
        group.addTask {
          for index in 0..<perSender { subject.send(sender * perSender + index) }
        }
      }
    }
    let first = logs[0].all
    #expect(first.count == 4 * perSender)
    #expect(Set(first).count == 4 * perSender)
    for log in logs.dropFirst() { #expect(log.all == first) }
    for sender in 0..<4 {
      let mine = first.filter { $0 / perSender == sender }
      #expect(mine == Array(sender * perSender..<(sender + 1) * perSender))
    }
    #expect(overlaps.value == 0)
    lifetime.cancel()
    #expect(subject.consumerCount == 0)
  }

  @Test("a sink and an iterating consumer of one subject see the same values")
  func sinkBesideIterator() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let lifetime = Lifetime()
    let synchronous = Log<Int>()
    subject.sink(in: lifetime) { synchronous.append($0) }
    let iterated = subject.subscribe()
    for value in 0..<100 { subject.send(value) }
    subject.finish()
    #expect(await iterated.collect() == Array(0..<100))
    #expect(synchronous.all == Array(0..<100))
  }
}
