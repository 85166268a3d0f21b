import AsyncReactive
import AsyncReactiveTesting
import Synchronization
import Testing

/// `Resource.values` on the push path: a hot read-only stream whose operators and sinks run inside the
/// resource's publication, with no lock of the resource held, in the order the stores happened.
@Suite("Resource: values is hot")
struct ResourceHotTests {
  @Test("values is a HotSignal: two consumers of a map on it share one evaluation per stored value")
  func valuesIsHotAndShared() async throws {
    let loads = Counter()
    let resource = Resource<Int> { loads.increment() }
    #expect(type(of: resource.values) == HotSignal<Int, Never>.self)
    let evaluations = Counter()
    let doubled = resource.values.map { value in
      evaluations.increment()
      return value * 2
    }
    let clock = TestClock()
    let first = Recorder(doubled, clock: clock)
    let second = Recorder(doubled, clock: clock)
    let iterating = doubled.subscribe()
    #expect(try await resource.value() == 1)
    #expect(try await resource.refresh() == 2)
    #expect(try await resource.update { $0 + 40 } == 42)
    #expect(first.values.map(\.value) == [2, 4, 84])
    #expect(second.values.map(\.value) == [2, 4, 84])
    #expect(evaluations.value == 3)  // once per stored value, not once per consumer
    // A consumer joining the connected map gets its latest output, without evaluating the closure again.
    var late = doubled.makeAsyncIterator()
    #expect(await late.next() == 84)
    #expect(evaluations.value == 3)
    #expect(loads.value == 2)
    _ = (iterating, first, second)
  }

  @Test("a stored value is recorded by a sink before value(), refresh() and update return; failures send nothing")
  func storedValueIsPublishedBeforeTheCallReturns() async throws {
    let loads = Counter()
    let resource = Resource<Int> {
      let count = loads.increment()
      if count == 3 { throw TestError(code: 503) }
      return count * 10
    }
    let clock = TestClock()
    let recorder = Recorder(resource.values, clock: clock)
    #expect(recorder.values.isEmpty)
    #expect(try await resource.value() == 10)
    #expect(recorder.values.map(\.value) == [10])  // no await on the recorder: recorded inside the store
    #expect(try await resource.refresh() == 20)
    #expect(recorder.values.map(\.value) == [10, 20])
    #expect(try await resource.update { $0 + 1 } == 21)
    #expect(recorder.values.map(\.value) == [10, 20, 21])
    await #expect(throws: TestError(code: 503)) { try await resource.refresh() }
    await #expect(throws: TestError(code: 1)) { try await resource.update { _ in throw TestError(code: 1) } }
    #expect(try await resource.value() == 21)  // held: no load
    #expect(recorder.values.map(\.value) == [10, 20, 21])  // exact: the failures sent nothing
    #expect(recorder.end == nil)
  }

  @Test("a sink that calls the resource back (cancel, update) does not deadlock; its store goes out next (200 rounds)")
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func sinkUpdatingTheResourceIsQueued() async throws {
    for _ in 0..<200 {
      let resource = Resource<Int> { 0 }
      let lifetime = Lifetime()
      let log = Log<String>()
      let depth = Depth()
      resource.values.sink(in: lifetime) { [weak resource] value in
        guard let resource else { return }
        depth.enter()
        defer { depth.leave() }
        log.append("A\(value)")
        // Synchronous calls into the resource: they take its lock, which a publication under it would hold.
        resource.cancel()
        if value < 3 {
          // Runs to its end right here (the update's turn is free, the value held, the operation synchronous):
          // its store is queued behind the current publication.
          Task.immediate { _ = try await resource.update { $0 + 1 } }
        }
      }
      resource.values.sink(in: lifetime) { value in log.append("B\(value)") }
      var values = resource.values.makeAsyncIterator()
      // The load's publication delivers the stores the sink made, in order, before the caller resumes.
      #expect(try await resource.value() == 0)
      #expect(log.all == ["A0", "B0", "A1", "B1", "A2", "B2", "A3", "B3"])
      #expect(depth.deepest == 1)  // never delivered recursively
      #expect(await take(4, from: &values) == [0, 1, 2, 3])
      #expect(try await resource.value() == 3)
      lifetime.cancel()
    }
  }

  @Test("a sink that refreshes the resource does not deadlock; each reload goes out after the current one (200 rounds)")
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func sinkRefreshingTheResourceIsQueued() async throws {
    for _ in 0..<200 {
      let loads = Counter()
      let resource = Resource<Int> { loads.increment() }
      let lifetime = Lifetime()
      let log = Log<String>()
      let done = Gate()
      resource.values.sink(in: lifetime) { [weak resource] value in
        guard let resource else { return }
        log.append("A\(value)")
        resource.cancel()  // nothing in flight: the load that stored `value` has ended
        // The reload runs in a task of the resource and may store while this publication is still going out,
        // on another thread: its value is handed to this delivery, after the current one.
        if value < 4 { Task.immediate { _ = try await resource.refresh() } }
      }
      resource.values.sink(in: lifetime) { value in
        log.append("B\(value)")
        if value == 4 { done.open() }
      }
      #expect(try await resource.value() == 1)
      await done.wait()
      #expect(log.all == ["A1", "B1", "A2", "B2", "A3", "B3", "A4", "B4"])
      #expect(loads.value == 4)
      #expect(try await resource.value() == 4)
      lifetime.cancel()
    }
  }

  @Test("updates from 4 tasks at once are published in the order they were stored")
  func concurrentUpdatesArePublishedInStoreOrder() async throws {
    let resource = Resource<Int> { 0 }
    let clock = TestClock()
    let recorder = Recorder(resource.values, clock: clock)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<50 { _ = try await resource.update { $0 + 1 } }
        }
      }
      try await group.waitForAll()
    }
    #expect(recorder.values.map(\.value) == Array(0...200))
  }

  @Test("values does not keep the resource alive: releasing it finishes values and the operators on it")
  func releasingTheResourceFinishesValues() async throws {
    var resource: Resource<String>? = Resource { "orders" }
    weak let released = resource
    let values = resource!.values
    let clock = TestClock()
    let recorder = Recorder(values.map { $0.count }, clock: clock)
    #expect(try await resource!.value() == "orders")
    resource = nil
    #expect(released == nil)
    #expect(recorder.values.map(\.value) == [6])
    #expect(recorder.end?.value == .finished)
    // A consumer that comes after the end still gets the last value, then the end.
    #expect(await values.subscribe().collect() == ["orders"])
  }
}
