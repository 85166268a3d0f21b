import AsyncReactive
import Testing

/// A node connects to its inputs before a registration returns, whatever other threads do to it meanwhile.
@Suite("Push core: a registration returns connected")
struct PushCoreConnectionTests {
  @Test(
    "observers joining and leaving one node from 4 threads: when a registration returns, the node observes its input",
    arguments: ["sink", "subscribe"])
  func registrationReturnsConnected(_ kind: String) async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let node = subject.map { $0 }
    let unconnected = Counter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<2_000 {
            let lifetime = Lifetime()
            var subscription: SubjectSubscription<Int, Never>?
            if kind == "sink" { node.sink(in: lifetime) { _ in } } else { subscription = node.subscribe() }
            // The node is the subject's only observer: it is connected exactly when the subject has one.
            if subject.consumerCount != 1 { unconnected.increment() }
            lifetime.cancel()
            subscription = nil
            _ = subscription
          }
        }
      }
    }
    #expect(unconnected.value == 0)
    #expect(subject.consumerCount == 0)
  }
}
