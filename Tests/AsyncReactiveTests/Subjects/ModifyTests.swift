import AsyncReactive
import AsyncReactiveTesting
import Observation
import Testing

@Suite("AsyncCurrentValueSubject.modify: atomic read-modify-write")
struct ModifyTests {
  @Test("8 tasks × 10,000 increments through modify lose nothing; a sink sees every value once, in order")
  func concurrentIncrementsLoseNothing() async {
    let tasks = 8
    let increments = 10_000
    let counter = AsyncCurrentValueSubject<Int, Never>(0)
    let lifetime = Lifetime()
    let seen = Log<Int>()
    counter.sink(in: lifetime) { seen.append($0) }
    let values = counter.subscribe()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<tasks {
        group.addTask {
          for _ in 0..<increments { counter.modify { $0 += 1 } }
        }
      }
    }
    #expect(counter.value == tasks * increments)
    // Each modification sent its own result, in the order of the modifications: 0 (current), 1, 2, …, 80,000.
    #expect(seen.all == Array(0...(tasks * increments)))
    counter.finish()
    #expect(await values.collect() == Array(0...(tasks * increments)))
  }

  @Test("modify returns the closure's result and sends the new value once")
  func returnsResultAndSendsOnce() async {
    let subject = AsyncCurrentValueSubject<[String], Never>(["a"])
    let values = subject.subscribe()
    let count = subject.modify { list -> Int in
      list.append("b")
      list.append("c")
      return list.count
    }
    #expect(count == 3)
    #expect(subject.value == ["a", "b", "c"])
    subject.modify { $0.removeFirst() }
    subject.finish()
    #expect(await values.collect() == [["a"], ["a", "b", "c"], ["b", "c"]])
  }

  @Test("a closure that throws changes nothing and sends nothing; the error keeps its type")
  func throwingClosureChangesNothing() async {
    let subject = AsyncCurrentValueSubject<Int, Never>(5)
    let values = subject.subscribe()
    #expect(throws: TestError(code: 7)) {
      try subject.modify { (value: inout Int) throws(TestError) in
        value = 99
        throw TestError(code: 7)
      }
    }
    #expect(subject.value == 5)
    do {
      try subject.modify { (_: inout Int) throws(TestError) in throw TestError(code: 8) }
    } catch {
      #expect(error.code == 8)  // `error` is a TestError: typed throws
    }
    subject.finish()
    #expect(await values.collect() == [5])
  }

  @Test("after finish, modify runs on a copy and changes nothing, as a send is ignored")
  func afterFinish() async {
    let subject = AsyncCurrentValueSubject<Int, Never>(1)
    subject.finish()
    let seen = subject.modify { value -> Int in
      value += 10
      return value
    }
    #expect(seen == 11)
    #expect(subject.value == 1)
  }

  @Test("a derived property reflects a modification on the next line; withObservationTracking hears it")
  func derivedAndObservation() {
    let subject = AsyncCurrentValueSubject<Int, Never>(1)
    let doubled = subject.map { $0 * 2 }
    let fired = Counter()
    withObservationTracking {
      _ = doubled.value
    } onChange: {
      fired.increment()
    }
    subject.modify { $0 += 1 }
    #expect(doubled.value == 4)
    #expect(fired.value == 1)
  }

  @Test("modify on a subject that can fail, and a hot chain evaluated inside it")
  func hotChainInsideModify() {
    let subject = AsyncCurrentValueSubject<Int, TestError>(0)
    let recorder = Recorder(subject.map { $0 * 10 }, clock: TestClock())
    subject.modify { $0 = 3 }
    #expect(recorder.values.map(\.value) == [0, 30])
  }

  @Test("calling back into the subject from the closure traps with a message, instead of deadlocking")
  func reentrancyTraps() async throws {
    let read = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let subject = AsyncCurrentValueSubject<Int, Never>(0)
      subject.modify { $0 = subject.value + 1 }
    }
    expectTrapMessage(read, "AsyncCurrentValueSubject.value called from inside modify(_:) on the same subject")
    let send = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let subject = AsyncCurrentValueSubject<Int, Never>(0)
      subject.modify { _ in subject.send(2) }
    }
    expectTrapMessage(send, "AsyncCurrentValueSubject.send(_:) called from inside modify(_:)")
    let nested = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let subject = AsyncCurrentValueSubject<Int, Never>(0)
      subject.modify { _ in subject.modify { $0 += 1 } }
    }
    expectTrapMessage(nested, "AsyncCurrentValueSubject.modify(_:) called from inside modify(_:)")
    let derived = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let subject = AsyncCurrentValueSubject<Int, Never>(0)
      let isPositive = subject.map { $0 > 0 }
      subject.modify { $0 = isPositive.value ? 0 : 1 }
    }
    expectTrapMessage(derived, "AsyncCurrentValueSubject.value called from inside modify(_:)")
  }

  @Test("another subject may be read and sent to from inside the closure")
  func otherSubjectsAreFine() async {
    let total = AsyncCurrentValueSubject<Int, Never>(0)
    let step = AsyncCurrentValueSubject<Int, Never>(5)
    let log = AsyncPassthroughSubject<String, Never>()
    let logged = log.subscribe()
    total.modify { value in
      value += step.value
      log.send("added \(step.value)")
    }
    log.finish()
    #expect(total.value == 5)
    #expect(await logged.collect() == ["added 5"])
  }
}
