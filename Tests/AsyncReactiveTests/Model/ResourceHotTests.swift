import AsyncReactive
import AsyncReactiveTesting
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
    #expect(recorder.termination == nil)
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
    #expect(recorder.termination?.value == .finished)
    // A consumer that comes after the end still gets the last value, then the end.
    #expect(await values.subscribe().collect() == ["orders"])
  }
}
