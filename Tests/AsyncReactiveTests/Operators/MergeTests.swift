import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("merge")
struct MergeTests {
  @Test("interleaves elements as they arrive and finishes when every input finished")
  func interleaves() async {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
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

  @Test("an input that fails fails the result at once with its typed error and cancels the others", arguments: 0..<3)
  func inputFailure(failing position: Int) async throws {
    let failing = PassthroughSubject<Int, TestError>()
    let watched = [WatchedInput<Int, TestError>(), WatchedInput<Int, TestError>()]
    var others = watched.map(\.signal).makeIterator()
    let inputs = (0..<3).map { $0 == position ? Signal(failing) : others.next()! }
    var iterator = merge(inputs[0], inputs[1], inputs[2]).makeAsyncIterator()
    failing.send(1)
    #expect(try await iterator.next() == 1)
    Task {
      for input in watched { await input.started.wait() }
      failing.fail(TestError(code: position))
    }
    do throws(TestError) {
      _ = try await iterator.next()
      Issue.record("expected the failure of input \(position)")
    } catch {
      #expect(error == TestError(code: position))
    }
    for input in watched { await input.cancelled.wait() }
    #expect(try await iterator.next() == nil)
  }

  @Test("values produced before a failure are delivered before it")
  func valuesBeforeFailure() async {
    let first = PassthroughSubject<Int, TestError>()
    let second = PassthroughSubject<Int, TestError>()
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

  @Test("cancelling the consuming task cancels every input")
  func consumerCancellation() async {
    let watched = (WatchedInput<Int, Never>(), WatchedInput<Int, Never>(), WatchedInput<Int, Never>())
    let merged = merge(watched.0.signal, watched.1.signal, watched.2.signal)
    let consumer = Task {
      for await _ in merged { Issue.record("no input sends") }
    }
    await watched.0.started.wait()
    await watched.1.started.wait()
    await watched.2.started.wait()
    consumer.cancel()
    await watched.0.cancelled.wait()
    await watched.1.cancelled.wait()
    await watched.2.cancelled.wait()
    await consumer.value
  }

  @Test("dropping the iterator cancels every input; dropping it before next() unsubscribes at once")
  func iteratorDrop() async {
    let first = StreamInput<Int>()
    let second = StreamInput<Int>()
    func firstValue() async -> Int? {
      var iterator = merge(first.stream, second.stream).makeAsyncIterator()
      first.continuation.yield(1)
      return await iterator.next()
    }
    #expect(await firstValue() == 1)
    await first.terminated.wait()
    await second.terminated.wait()

    let subject = PassthroughSubject<Int, Never>()
    do {
      let iterator = merge(subject, subject, subject).makeAsyncIterator()
      #expect(subject.consumerCount == 3)
      _ = iterator
    }
    #expect(subject.consumerCount == 0)
  }

  @Test("breaking out of the loop cancels every input")
  func breakCancelsInputs() async {
    let first = StreamInput<Int>()
    let second = StreamInput<Int>()
    first.continuation.yield(1)
    for await value in merge(first.stream, second.stream) {
      #expect(value == 1)
      break
    }
    await first.terminated.wait()
    await second.terminated.wait()
  }

  @Test("the failure type is kept: Never, a shared typed error, or any Error for mixed inputs")
  func typedFailure() async {
    let never = merge(Signal<Int, Never>.just(1), finiteStream(2))
    let _: AsyncMergeSequence<Int, Never> = never
    var sum = 0
    for await value in never { sum += value }  // plain `for await`: the result cannot fail
    #expect(sum == 3)
    let typed = merge(Signal<Int, TestError>.never, Signal<Int, TestError>.fail(TestError(code: 3)))
    let _: ReiterableInputs<AsyncMergeSequence<Int, TestError>> = typed  // Signals are re-iterable
    do throws(TestError) {
      for try await _ in typed { Issue.record("nothing is sent before the failure") }
    } catch {
      #expect(error == TestError(code: 3))
    }
    let mixed = merge(Signal<Int, Never>.never, Signal<Int, TestError>.fail(TestError(code: 4)))
    let _: ReiterableInputs<AsyncMergeSequence<Int, any Error>> = mixed  // Signals are re-iterable
    await #expect(throws: TestError(code: 4)) { try await mixed.collect() }
  }

  @Test("the array form merges every input; an empty array finishes without a value")
  func arrayForm() async {
    let merged = merge([Signal<Int, Never>([1, 2, 3]), Signal([10, 20]), Signal.empty])
    let values = await merged.collect()
    #expect(values.sorted() == [1, 2, 3, 10, 20])
    #expect(values.filter { $0 < 10 } == [1, 2, 3])
    let none: [Signal<Int, Never>] = []
    #expect(await merge(none).collect() == [])
  }

  @Test("six inputs of six sequence types")
  func sixInputs() async {
    let passthrough = PassthroughSubject<Int, Never>()
    let current = CurrentValueSubject<Int, Never>(2)
    let replay = ReplaySubject<Int, Never>(bufferSize: 1)
    replay.send(3)
    let subscription = PassthroughSubject<Int, Never>()
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
    let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
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
