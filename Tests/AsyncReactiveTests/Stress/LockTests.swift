import AsyncReactive
import Testing

/// The library's lock (`Locked`): every critical section alone, nothing lost, under contention short (the spin
/// path) and long (the yield and sleep paths).
@Suite("Locked: mutual exclusion under contention")
struct LockTests {
  struct Counter: Sendable {
    var inside = false
    var overlaps = 0
    var total = 0
    var perThread: [Int]
  }

  /// Enters the critical section: any other thread inside at the same time shows as an overlap.
  static func critical(_ state: inout Counter, thread: Int, work: Int) -> Int {
    if state.inside { state.overlaps += 1 }
    state.inside = true
    var spin = 0
    for step in 0..<work { spin &+= step }
    state.total += 1
    state.perThread[thread] += 1
    state.inside = false
    return spin
  }

  @Test("8 threads × 20,000 short critical sections: every one counted, none overlapping")
  func shortSections() async {
    let threads = 8
    let rounds = 20_000
    let lock = Locked(Counter(perThread: Array(repeating: 0, count: threads)))
    await onThreads(threads) { thread in
      for _ in 0..<rounds {
        _ = lock.withLock { Self.critical(&$0, thread: thread, work: 0) }
      }
    }
    let result = lock.withLock { $0 }
    #expect(result.overlaps == 0)
    #expect(result.total == threads * rounds)
    #expect(result.perThread == Array(repeating: rounds, count: threads))
  }

  @Test("4 threads × 200 long critical sections: waiters that yield and sleep still get in, one at a time")
  func longSections() async {
    let threads = 4
    let rounds = 200
    let lock = Locked(Counter(perThread: Array(repeating: 0, count: threads)))
    let sink = Locked(0)
    await onThreads(threads) { thread in
      for _ in 0..<rounds {
        // About 20–50 µs of work under the lock: long enough that the others spin out and sleep.
        let spin = lock.withLock { Self.critical(&$0, thread: thread, work: 20_000) }
        sink.withLock { $0 &+= spin }
      }
    }
    let result = lock.withLock { $0 }
    #expect(result.overlaps == 0)
    #expect(result.total == threads * rounds)
    #expect(result.perThread == Array(repeating: rounds, count: threads))
  }
}
