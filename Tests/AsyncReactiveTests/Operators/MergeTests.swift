import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("merge")
struct MergeTests {
  @Test("interleaves elements as they arrive and finishes when every input finished")
  func interleaves() async {
    let first = AsyncPassthroughSubject<Int, Never>()
    let second = AsyncPassthroughSubject<Int, Never>()
    var iterator = merge(first, second).makeAsyncIterator()
    first.send(1)
    #expect(await iterator.next() == 1)
    second.send(2)
    #expect(await iterator.next() == 2)
    first.send(3)
    #expect(await iterator.next() == 3)
    first.finish()
    second.send(4)
    #expect(await iterator.next() == 4)
    second.finish()
    #expect(await iterator.next() == nil)
    #expect(first.consumerCount == 0 && second.consumerCount == 0)
  }

  @Test("values produced before a failure are delivered before it")
  func valuesBeforeFailure() async {
    let first = AsyncPassthroughSubject<Int, TestError>()
    let second = AsyncPassthroughSubject<Int, TestError>()
    let merged = merge(first, second)
    let iterator = merged.makeAsyncIterator()
    let consumer = Task {
      var iterator = iterator
      var values: [Int] = []
      do throws(TestError) {
        while let value = try await iterator.next() { values.append(value) }
        return (values, TestError?.none)
      } catch {
        return (values, error)
      }
    }
    for value in 1...100 { first.send(value) }
    first.fail(TestError(code: 6))
    let (values, failure) = await consumer.value
    #expect(values == Array(1...100))
    #expect(failure == TestError(code: 6))
  }

  @Test("the array form merges every input")
  func arrayForm() async {
    let merged = merge([Signal<Int, Never>([1, 2, 3]), Signal([10, 20]), Signal.empty])
    let values = await merged.collect()
    #expect(values.sorted() == [1, 2, 3, 10, 20])
    #expect(values.filter { $0 < 10 } == [1, 2, 3])
  }

  @Test("six inputs of six sequence types")
  func sixInputs() async {
    let passthrough = AsyncPassthroughSubject<Int, Never>()
    let current = AsyncCurrentValueSubject<Int, Never>(2)
    let replay = AsyncReplaySubject<Int, Never>(bufferSize: 1)
    replay.send(3)
    let subscription = AsyncPassthroughSubject<Int, Never>()
    let merged = merge(
      passthrough,
      current,
      replay,
      finiteStream(4),
      Signal<Int, Never>.just(5),
      subscription.subscribe()
    )
    let iterator = merged.makeAsyncIterator()
    passthrough.send(1)
    subscription.send(6)
    for subject in [passthrough, subscription] { subject.finish() }
    current.finish()
    replay.finish()
    let consumer = Task {
      var iterator = iterator
      var values: [Int] = []
      while let value = await iterator.next() { values.append(value) }
      return values
    }
    #expect(await consumer.value.sorted() == [1, 2, 3, 4, 5, 6])
  }

  @Test("three inputs sending 5,000 elements each at the same time: nothing lost, each input's order kept")
  func concurrentInputs() async {
    let subjects = (0..<3).map { _ in AsyncPassthroughSubject<Int, Never>() }
    let iterator = merge(subjects).makeAsyncIterator()
    let count = 5_000
    let consumer = Task {
      var iterator = iterator
      var values: [Int] = []
      while let value = await iterator.next() { values.append(value) }
      return values
    }
    await withTaskGroup(of: Void.self) { group in
      for (index, subject) in subjects.enumerated() {
        group.addTask {
          for value in 0..<count { subject.send(index * 1_000_000 + value) }
          subject.finish()
        }
      }
    }
    let values = await consumer.value
    #expect(values.count == 3 * count)
    for index in 0..<3 {
      #expect(values.filter { $0 / 1_000_000 == index }.map { $0 % 1_000_000 } == Array(0..<count))
    }
  }
}
