import AsyncReactive
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Stress: memory")
struct StressMemoryTests {
  /// 10,000 subscribe/stop cycles on one subject, after 1,000 to warm up, in a process of their own so that no
  /// other test moves the resident size. The child prints its figures; growth beyond 4 MiB fails it.
  @Test("10,000 subscribe/cancel cycles on one subject leave resident memory flat")
  func subscribeCancelCyclesKeepMemoryFlat() async throws {
    let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
      let subject = AsyncPassthroughSubject<Int, Never>()
      /// One cycle: a consumer registers, receives a value, and stops in one of the three ways.
      func cycle(_ index: Int) async {
        switch index % 3 {
        case 0:
          let received = Gate()
          let subscription = subject.subscribe()
          let consumer = Task {
            for await _ in subscription { received.open() }
          }
          subject.send(index)
          await received.wait()
          consumer.cancel()
          await consumer.value
        case 1:
          let subscription = subject.subscribe()
          subject.send(index)
          for await _ in subscription { break }
        default:
          var iterator = subject.makeAsyncIterator()
          subject.send(index)
          _ = await iterator.next()
          subject.send(index)  // stays buffered, freed with the dropped iterator
        }
      }
      for index in 0..<1_000 { await cycle(index) }
      guard let before = residentMemory() else {
        print("no /proc/self/statm: skipped")
        return
      }
      for index in 0..<10_000 { await cycle(index) }
      let after = residentMemory() ?? 0
      let growth = after - before
      print("rss before \(before) after \(after) growth \(growth) consumers \(subject.consumerCount)")
      if subject.consumerCount != 0 { exit(2) }
      if growth > 4 << 20 && !isAddressSanitized { exit(3) }
    }
    let output = String(decoding: result.standardOutputContent, as: UTF8.self)
    print("stress memory: \(output)")
  }
}
