import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("combineLatest")
struct CombineLatestTests {
  @Test("the first value waits for every input, then each element emits with the latest of the others")
  func combinesLatest() async {
    let numbers = AsyncPassthroughSubject<Int, Never>()
    let letters = AsyncPassthroughSubject<String, Never>()
    var iterator = combineLatest(numbers, letters).makeAsyncIterator()
    numbers.send(1)
    letters.send("a")
    #expect(await iterator.next() == (1, "a"))
    numbers.send(2)
    #expect(await iterator.next() == (2, "a"))
    letters.send("b")
    #expect(await iterator.next() == (2, "b"))
    letters.send("c")
    #expect(await iterator.next() == (2, "c"))
    numbers.finish()
    letters.send("d")
    #expect(await iterator.next() == (2, "d"))
    letters.finish()
    #expect(await iterator.next() == nil)
    #expect(numbers.consumerCount == 0 && letters.consumerCount == 0)
  }

  @Test("elements that arrive before every input produced only update their slot")
  func earlyValuesOnlyUpdateTheSlot() async {
    let first = DrainingSequence(1, 2)
    let second = DrainingSequence(10, 20)
    let third = AsyncPassthroughSubject<Int, Never>()
    var iterator = combineLatest(first, second, third).makeAsyncIterator()
    Task {
      await first.drained.wait()  // 1 and 2 were both stored (and 10, 20 below)
      await second.drained.wait()
      third.send(100)
    }
    #expect(await iterator.next() == (2, 20, 100))
    third.send(200)
    #expect(await iterator.next() == (2, 20, 200))
    third.finish()
    #expect(await iterator.next() == nil)
  }

  @Test("a failure after the first value ends the result after the values already produced")
  func failureAfterValues() async throws {
    let numbers = AsyncPassthroughSubject<Int, TestError>()
    let letters = AsyncPassthroughSubject<String, TestError>()
    var iterator = combineLatest(numbers, letters).makeAsyncIterator()
    numbers.send(1)
    letters.send("a")
    #expect(try await iterator.next() == (1, "a"))
    letters.fail(TestError(code: 9))
    await #expect(throws: TestError(code: 9)) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("an AsyncStream input is terminated even when the result ends while it is between elements")
  func streamInputTerminatedMidStream() async {
    let numbers = StreamInput<Int>()
    let empty = AsyncPassthroughSubject<Int, Never>()
    // Connected now: the stream's pump waits for its first element, the subject is observed.
    let results = combineLatest(numbers.stream, empty).subscribe()
    empty.finish()
    // The stream's first element ends the result (the other input finished without a value), with 9,999 still
    // buffered in the stream.
    for value in 0..<10_000 { numbers.continuation.yield(value) }
    var iterator = results.makeAsyncIterator()
    #expect(await iterator.next() == nil)
    await numbers.terminated.wait()
  }

  @Test("an input that finishes after producing keeps its latest value until every input finished")
  func finishesWhenAllFinished() async {
    let numbers = AsyncPassthroughSubject<Int, Never>()
    let letters = AsyncPassthroughSubject<String, Never>()
    let flags = AsyncPassthroughSubject<Bool, Never>()
    var iterator = combineLatest(numbers, letters, flags).makeAsyncIterator()
    numbers.send(1)
    numbers.finish()
    letters.send("a")
    letters.finish()
    flags.send(true)
    #expect(await iterator.next() == (1, "a", true))
    flags.send(false)
    #expect(await iterator.next() == (1, "a", false))
    flags.finish()
    #expect(await iterator.next() == nil)
  }

  @Test("the array form combines into arrays")
  func arrayForm() async {
    let subjects = (0..<3).map { _ in AsyncPassthroughSubject<Int, Never>() }
    var iterator = combineLatest(subjects).makeAsyncIterator()
    for (index, subject) in subjects.enumerated() { subject.send(index) }
    #expect(await iterator.next() == [0, 1, 2])
    subjects[1].send(11)
    #expect(await iterator.next() == [0, 11, 2])
    for subject in subjects { subject.finish() }
    #expect(await iterator.next() == nil)
  }

  @Test("the array form ends without a value when an input finishes empty and the others end, and fails typed")
  func arrayFormEnds() async {
    let finished = await combineLatest([Signal<Int, TestError>.just(1), Signal.empty, Signal([2, 3])]).collectResult()
    #expect(finished.values.isEmpty && finished.failure == nil)
    let failed = await combineLatest([Signal.just(1), Signal<Int, TestError>.fail(TestError(code: 5))]).collectResult()
    #expect(failed.values.isEmpty && failed.failure == TestError(code: 5))
  }

  @Test("six inputs of six element types")
  func sixInputs() async {
    let combined = combineLatest(
      Signal<Int, Never>.just(1),
      Signal<String, Never>.just("two"),
      Signal<Bool, Never>.just(true),
      Signal<Double, Never>.just(4.5),
      finiteStream(Character("5")),
      Signal<[Int], Never>.just([6])
    )
    let values = await combined.collect()
    #expect(values.count == 1)
    if let value = values.first { #expect(value == (1, "two", true, 4.5, "5", [6])) }
  }

  @Test("elements that arrive together each produce one value: 2 × 2,000 concurrent sends, nothing merged or lost")
  func concurrentInputsLoseNothing() async {
    let left = AsyncPassthroughSubject<Int, Never>()
    let right = AsyncPassthroughSubject<Int, Never>()
    let combined = combineLatest(left, right)
    var iterator = combined.makeAsyncIterator()
    left.send(0)
    right.send(0)
    #expect(await iterator.next() == (0, 0))
    let count = 2_000
    let senders = Task {
      await withTaskGroup(of: Void.self) { group in
        group.addTask {
          for value in 1...count { left.send(value) }
          left.finish()
        }
        group.addTask {
          for value in 1...count { right.send(value) }
          right.finish()
        }
      }
    }
    var values: [(Int, Int)] = []
    while let value = await iterator.next() { values.append(value) }
    await senders.value
    #expect(values.count == 2 * count)
    // Each output changes exactly one side by one step: every element produced its own value, in order.
    var previous = (0, 0)
    for value in values {
      let steps = (value.0 - previous.0, value.1 - previous.1)
      #expect(steps == (1, 0) || steps == (0, 1))
      previous = value
    }
    #expect(previous == (count, count))
  }

  @Test("scenario 1: three callback requests feed three subjects; the UI is updated once, with all three results")
  func scenarioSeveralRequestsOneCompletion() async throws {
    struct Profile: Equatable { var name: String }
    struct Wallet: Equatable { var money: Int }
    let profile = AsyncPassthroughSubject<Profile, any Error>()
    let wallet = AsyncPassthroughSubject<Wallet, any Error>()
    let orders = AsyncPassthroughSubject<[String], any Error>()
    let screen = Log<String>()
    let updates = combineLatest(profile, wallet, orders)
    var iterator = updates.makeAsyncIterator()  // the view subscribes, then the view model fires the requests
    request(Profile(name: "Tom")) { result in
      profile.send(result)
      profile.finish()
    }
    request(Wallet(money: 100)) { result in
      wallet.send(result)
      wallet.finish()
    }
    request(["#1", "#2"]) { result in
      orders.send(result)
      orders.finish()
    }
    while let (profile, wallet, orders) = try await iterator.next() {
      screen.append("\(profile.name) has \(wallet.money) and \(orders.count) orders")
    }
    #expect(screen.all == ["Tom has 100 and 2 orders"])
  }
}
