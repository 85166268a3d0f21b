import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("zip")
struct ZipTests {
  @Test("pairs the n-th elements of each input; an input that runs ahead waits for its partners")
  func pairsInOrder() async {
    let numbers = AsyncPassthroughSubject<Int, Never>()
    let letters = AsyncPassthroughSubject<String, Never>()
    var iterator = zip(numbers, letters).makeAsyncIterator()
    numbers.send(1)
    letters.send("a")
    #expect(await iterator.next() == (1, "a"))
    numbers.send(2)
    numbers.send(3)
    letters.send("b")
    #expect(await iterator.next() == (2, "b"))
    letters.send("c")
    #expect(await iterator.next() == (3, "c"))
    letters.send("d")
    letters.send("e")
    numbers.send(4)
    #expect(await iterator.next() == (4, "d"))
    numbers.send(5)
    #expect(await iterator.next() == (5, "e"))
    numbers.finish()
    letters.finish()
    #expect(await iterator.next() == nil)
  }

  @Test("an input that finished still pairs what it buffered; the result ends when every input has ended")
  func finishesWhenFinishedInputRunsDry() async {
    let numbers = AsyncPassthroughSubject<Int, Never>()
    let letters = AsyncPassthroughSubject<String, Never>()
    var iterator = zip(numbers, letters).makeAsyncIterator()
    numbers.send(1)
    numbers.send(2)
    numbers.finish()
    letters.send("a")
    #expect(await iterator.next() == (1, "a"))
    letters.send("b")
    #expect(await iterator.next() == (2, "b"))
    letters.send("c")  // nothing left to pair it with: dropped
    letters.finish()
    #expect(await iterator.next() == nil)
  }

  @Test("a failure ends the result after the pairs already made, even with elements still buffered")
  func failureAfterValues() async throws {
    let numbers = AsyncPassthroughSubject<Int, TestError>()
    let letters = AsyncPassthroughSubject<String, TestError>()
    var iterator = zip(numbers, letters).makeAsyncIterator()
    numbers.send(1)
    numbers.send(2)
    letters.send("a")
    #expect(try await iterator.next() == (1, "a"))
    letters.fail(TestError(code: 8))
    await #expect(throws: TestError(code: 8)) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("the standard library's zip of two sequences is still chosen for plain sequences")
  func standardZipStillWorks() {
    let pairs = Array(zip([1, 2, 3], ["a", "b"]))
    #expect(pairs.map(\.0) == [1, 2] && pairs.map(\.1) == ["a", "b"])
  }

  @Test("the array form pairs into arrays")
  func arrayForm() async {
    let zipped = zip([Signal<Int, Never>([1, 2, 3]), Signal([10, 20]), Signal([100, 200, 300, 400])])
    #expect(await zipped.collect() == [[1, 10, 100], [2, 20, 200]])
    let failed = await zip([Signal.just(1), Signal<Int, TestError>.fail(TestError(code: 5))]).collectResult()
    #expect(failed.values.isEmpty && failed.failure == TestError(code: 5))
  }

  @Test("the array form finishes at an element that makes no array while every other input has finished (RxSwift)")
  func arrayFormCollectionRule() {
    let clock = TestClock()
    let a = AsyncPassthroughSubject<Int, Never>()
    let b = AsyncPassthroughSubject<Int, Never>()
    let array = Recorder(zip([a, b]), clock: clock)
    let pair = Recorder(zip(a, b), clock: clock)
    a.send(1)
    b.send(10)
    a.finish()
    #expect(array.end == nil && pair.end == nil)
    b.send(20)  // nothing left of `a` to pair with, and every other input finished
    #expect(array.values.map(\.value) == [[1, 10]])
    #expect(array.end != nil)
    #expect(pair.end == nil)  // the fixed arity keeps running, as RxSwift's zip(a, b) does
    b.finish()
    #expect(pair.values.map { [$0.value.0, $0.value.1] } == [[1, 10]])
    #expect(pair.end != nil)
    // Three inputs: it waits until all but the producing one have finished.
    let x = AsyncPassthroughSubject<Int, Never>()
    let y = AsyncPassthroughSubject<Int, Never>()
    let z = AsyncPassthroughSubject<Int, Never>()
    let three = Recorder(zip([x, y, z]), clock: clock)
    x.finish()
    y.send(1)
    #expect(three.end == nil)
    z.finish()
    y.send(2)
    #expect(three.values.isEmpty)
    #expect(three.end != nil)
  }

  @Test("six inputs of six element types")
  func sixInputs() async {
    let zipped = zip(
      Signal<Int, Never>([1, 2]),
      Signal<String, Never>(["one", "two"]),
      Signal<Bool, Never>([true, false]),
      Signal<Double, Never>([1.5, 2.5]),
      finiteStream(Character("1"), Character("2")),
      Signal<[Int], Never>([[1], [2], [3]])
    )
    let values = await zipped.collect()
    #expect(values.count == 2)
    if values.count == 2 {
      #expect(values[0] == (1, "one", true, 1.5, "1", [1]))
      #expect(values[1] == (2, "two", false, 2.5, "2", [2]))
    }
  }

  @Test("two inputs sending 5,000 elements each at the same time are paired in order")
  func concurrentInputs() async {
    let left = AsyncPassthroughSubject<Int, Never>()
    let right = AsyncPassthroughSubject<Int, Never>()
    let zipped = zip(left, right)
    let iterator = zipped.makeAsyncIterator()
    let count = 5_000
    let consumer = Task {
      var iterator = iterator
      var pairs: [(Int, Int)] = []
      while let pair = await iterator.next() { pairs.append(pair) }
      return pairs
    }
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for value in 0..<count { left.send(value) }
        left.finish()
      }
      group.addTask {
        for value in 0..<count { right.send(-value) }
        right.finish()
      }
    }
    let pairs = await consumer.value
    #expect(pairs.count == count)
    #expect(pairs.map(\.0) == Array(0..<count))
    #expect(pairs.map(\.1) == (0..<count).map { -$0 })
  }
}
