import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("Resource: single-flight loads, refresh, update, cancellation")
struct ResourceTests {
  @Test("100 callers waiting at once share exactly one load")
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func singleFlight() async throws {
    let loads = Counter()
    let release = Latch()
    let resource = Resource<Int> {
      let count = loads.increment()
      try await release.pass()
      return count * 10
    }
    // Each caller runs up to its wait before the next one starts: all 100 are waiting on the load.
    let callers = (0..<100).map { _ in startNow { try await resource.value() } }
    release.open()
    for caller in callers { #expect(try await caller.value == 10) }
    #expect(loads.value == 1)
    #expect(try await resource.value() == 10)
    #expect(loads.value == 1)
  }

  @Test("100 concurrent value() calls cause exactly one load")
  func concurrentValueCalls() async throws {
    let loads = Counter()
    let resource = Resource<Int> {
      loads.increment()
      return 7
    }
    let values = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<100 { group.addTask { try await resource.value() } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(values == Array(repeating: 7, count: 100))
    #expect(loads.value == 1)
  }

  @Test("a failed load is not cached: the next value() loads again")
  func failedLoadRetried() async throws {
    let loads = Counter()
    let resource = Resource<String> {
      if loads.increment() == 1 { throw TestError(code: 502) }
      return "orders"
    }
    var values = resource.values.makeAsyncIterator()
    await #expect(throws: TestError(code: 502)) { try await resource.value() }
    #expect(try await resource.value() == "orders")
    #expect(try await resource.value() == "orders")
    #expect(loads.value == 2)
    #expect(await values.next() == "orders")
  }

  @Test("refresh() loads again and publishes; callers during a refresh share it")
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func refreshShares() async throws {
    let loads = Counter()
    let gates = [Latch(), Latch()]
    let resource = Resource<Int> {
      let count = loads.increment()
      try await gates[count - 1].pass()
      return count
    }
    var values = resource.values.makeAsyncIterator()
    gates[0].open()
    #expect(try await resource.value() == 1)
    let refreshes = (0..<3).map { _ in startNow { try await resource.refresh() } }
    // A value() call during the refresh gets the held value at once.
    #expect(try await resource.value() == 1)
    gates[1].open()
    for refresh in refreshes { #expect(try await refresh.value == 2) }
    #expect(loads.value == 2)
    #expect(await take(2, from: &values) == [1, 2])
  }

  @Test("update stores and publishes the operation's result")
  func updateStores() async throws {
    let resource = Resource<[String]> { ["Tom"] }
    var values = resource.values.makeAsyncIterator()
    let updated = try await resource.update { current in current + ["Ann"] }
    #expect(updated == ["Tom", "Ann"])
    #expect(try await resource.value() == ["Tom", "Ann"])
    #expect(await take(2, from: &values) == [["Tom"], ["Tom", "Ann"]])
  }

  @Test("a failing update throws and leaves the held value untouched")
  func updateFailureKeepsValue() async throws {
    let loads = Counter()
    var resource: Resource<Int>? = Resource {
      loads.increment()
      return 100
    }
    var values = resource!.values.makeAsyncIterator()
    #expect(try await resource!.value() == 100)
    await #expect(throws: TestError(code: 1)) {
      _ = try await resource!.update { _ in throw TestError(code: 1) }
    }
    #expect(try await resource!.value() == 100)
    #expect(loads.value == 1)
    resource = nil  // releasing the resource finishes `values`
    #expect(await drain(&values) == [100])
  }

  @Test("updates run one at a time, in call order, each on the previous one's result")
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func updatesSerialized() async throws {
    let resource = Resource<[Int]> { [] }
    _ = try await resource.value()
    let release = Latch()
    let first = startNow {
      try await resource.update { current in
        try await release.pass()
        return current + [1]
      }
    }
    let second = startNow { try await resource.update { current in current + [2] } }
    release.open()
    #expect(try await first.value == [1])
    #expect(try await second.value == [1, 2])
  }

  @Test("an update waiting for its turn can be cancelled")
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func waitingUpdateCancelled() async throws {
    let resource = Resource<Int> { 0 }
    let release = Latch()
    let first = startNow {
      try await resource.update { current in
        try await release.pass()
        return current + 1
      }
    }
    let second = startNow { try await resource.update { current in current + 10 } }
    second.cancel()
    await #expect(throws: CancellationError.self) { try await second.value }
    release.open()
    #expect(try await first.value == 1)
    #expect(try await resource.value() == 1)
  }

  @Test("a load that started before an update stored its result does not overwrite it")
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func staleLoadDropped() async throws {
    let loads = Counter()
    let slowRefresh = Latch()
    let resource = Resource<Int> {
      if loads.increment() == 2 { try await slowRefresh.pass() }
      return loads.value
    }
    var values = resource.values.makeAsyncIterator()
    #expect(try await resource.value() == 1)
    let refresh = startNow { try await resource.refresh() }
    #expect(try await resource.update { _ in 50 } == 50)
    slowRefresh.open()
    #expect(try await refresh.value == 50)
    #expect(try await resource.value() == 50)
    #expect(await take(2, from: &values) == [1, 50])
  }

  @Test("a cancelled caller stops waiting at once; the load goes on for the others")
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func callerCancellation() async throws {
    let release = Latch()
    let resource = Resource<Int> {
      try await release.pass()
      return 3
    }
    let leaving = startNow { try await resource.value() }
    let staying = startNow { try await resource.value() }
    leaving.cancel()
    await #expect(throws: CancellationError.self) { try await leaving.value }
    release.open()
    #expect(try await staying.value == 3)
  }

  @Test("cancel() cancels the load in flight; its callers get CancellationError; the next value() loads again")
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func cancelLoad() async throws {
    let loads = Counter()
    let loadCancelled = Gate()
    let resource = Resource<Int> {
      if loads.increment() == 1 {
        await waitForCancellation()
        loadCancelled.open()
        throw CancellationError()
      }
      return 2
    }
    let caller = startNow { try await resource.value() }
    resource.cancel()
    await #expect(throws: CancellationError.self) { try await caller.value }
    await loadCancelled.wait()
    #expect(try await resource.value() == 2)
    #expect(loads.value == 2)
  }

  @Test("releasing the resource cancels the load in flight: a request never outlives its service")
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func releaseCancelsLoad() async {
    let started = Gate()
    let loadCancelled = Gate()
    var resource: Resource<Int>? = Resource {
      started.open()
      await waitForCancellation()
      loadCancelled.open()
      throw CancellationError()
    }
    var values = resource!.values.makeAsyncIterator()
    // The screen asks for the value, then goes away: its task is cancelled and lets go of the resource.
    let screen = startNow { [resource] in try await resource!.value() }
    await started.wait()
    screen.cancel()
    await #expect(throws: CancellationError.self) { try await screen.value }
    resource = nil
    await loadCancelled.wait()
    #expect(await drain(&values).isEmpty)
  }

  @Test("values replays the latest stored value to a new consumer")
  func valuesReplayLatest() async throws {
    let loads = Counter()
    let resource = Resource<Int> { loads.increment() }
    #expect(try await resource.value() == 1)
    #expect(try await resource.refresh() == 2)
    var late = resource.values.makeAsyncIterator()
    #expect(await late.next() == 2)
    #expect(try await resource.update { $0 + 40 } == 42)
    #expect(await late.next() == 42)
  }
}
