import AsyncReactive
import Dispatch
import Synchronization
import Testing

/// A node lends its single sink to the delivering thread without retaining it: a sink removed meanwhile must still
/// be alive for that call, and must be released (its closure and what it captured) once the delivery is over.
@Suite("Sinks lent to the delivering thread: removed during a delivery, released after it")
struct SinkLendingTests {
  /// Counts its releases.
  final class Probe: Sendable {
    let record: Record
    init(_ record: Record) { self.record = record }
    deinit { record.releases.wrappingAdd(1, ordering: .relaxed) }
  }

  /// What the test keeps: the probe itself is only captured by the sink's closure.
  final class Record: Sendable {
    let releases = Atomic<Int>(0)
    let values = Locked<[Int]>([])
    let ends = Atomic<Int>(0)
  }

  /// Registers a sink on `subject` whose closure captures a fresh probe and calls `onValue` with each value.
  static func observe(
    _ subject: AsyncPassthroughSubject<Int, Never>, in lifetime: Lifetime, record: Record,
    onValue: @escaping @Sendable (Int) -> Void = { _ in }
  ) {
    let probe = Probe(record)
    subject.sink(in: lifetime) { value in
      withExtendedLifetime(probe) {
        record.values.withLock { $0.append(value) }
        onValue(value)
      }
    } onEnd: { _ in
      record.ends.wrappingAdd(1, ordering: .relaxed)
    }
  }

  @Test("a sink that cancels its own lifetime while it is called is released when the send returns (1,000 rounds)")
  func removedByItself() {
    for _ in 0..<1_000 {
      let subject = AsyncPassthroughSubject<Int, Never>()
      let record = Record()
      let lifetime = Lifetime()
      Self.observe(subject, in: lifetime, record: record) { _ in lifetime.cancel() }
      #expect(record.releases.load(ordering: .relaxed) == 0)
      subject.send(1)
      #expect(record.releases.load(ordering: .relaxed) == 1)
      subject.send(2)
      #expect(record.values.withLock { $0 } == [1])
    }
  }

  @Test("a sink removed by another thread while it is called finishes that call, then is released (200 rounds)")
  func removedByAnotherThread() async {
    for _ in 0..<200 {
      let subject = AsyncPassthroughSubject<Int, Never>()
      let record = Record()
      let lifetime = Lifetime()
      let inside = DispatchSemaphore(value: 0)
      let cancelled = DispatchSemaphore(value: 0)
      Self.observe(subject, in: lifetime, record: record) { value in
        guard value == 1 else { return }
        inside.signal()
        cancelled.wait()  // the other thread removes this sink now, while this thread has the turn
      }
      await onThreads(2) { thread in
        if thread == 0 {
          subject.send(1)
        } else {
          inside.wait()
          lifetime.cancel()
          cancelled.signal()
        }
      }
      #expect(record.releases.load(ordering: .relaxed) == 1)
      subject.send(2)
      #expect(record.values.withLock { $0 } == [1])
    }
  }

  @Test("sends racing a removal from another thread: the sink is released once both are done (1,000 rounds)")
  func removalRacingSends() async {
    for round in 0..<1_000 {
      let subject = AsyncPassthroughSubject<Int, Never>()
      let record = Record()
      let lifetime = Lifetime()
      Self.observe(subject, in: lifetime, record: record)
      let sends = 1 + round % 50
      await onThreads(2) { thread in
        if thread == 0 {
          for value in 0..<sends { subject.send(value) }
        } else {
          lifetime.cancel()
        }
      }
      #expect(record.releases.load(ordering: .relaxed) == 1)
      // Whatever was delivered before the removal is a prefix of the sends, in order.
      let values = record.values.withLock { $0 }
      #expect(values == Array(0..<values.count))
    }
  }

  @Test("the subject ending while a thread calls its only sink: the end arrives once, then the sink is released")
  func terminatedDuringDelivery() async {
    for _ in 0..<200 {
      let subject = AsyncPassthroughSubject<Int, Never>()
      let record = Record()
      let lifetime = Lifetime()
      let inside = DispatchSemaphore(value: 0)
      let finished = DispatchSemaphore(value: 0)
      Self.observe(subject, in: lifetime, record: record) { value in
        guard value == 1 else { return }
        inside.signal()
        finished.wait()
      }
      await onThreads(2) { thread in
        if thread == 0 {
          subject.send(1)
        } else {
          inside.wait()
          subject.finish()
          finished.signal()
        }
      }
      #expect(record.values.withLock { $0 } == [1])
      #expect(record.ends.load(ordering: .relaxed) == 1)
      #expect(record.releases.load(ordering: .relaxed) == 1)
      withExtendedLifetime(lifetime) {}
    }
  }
}
