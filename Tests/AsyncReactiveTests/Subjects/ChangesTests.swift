import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("changes: a property's and a current-value subject's changes, without the current value")
struct ChangesTests {
  @Test("a subject's changes start after registration, never with the current value; repeats count")
  func subjectChanges() async {
    let subject = AsyncCurrentValueSubject<Int, Never>(1)
    subject.value = 2
    let changes = subject.changes.subscribe()
    #expect(subject.value == 2)
    subject.value = 3
    subject.value = 3
    subject.send(4)
    subject.finish()
    #expect(await changes.collect() == [3, 3, 4])
  }

  @Test("a sink on changes is called inside send, never at registration")
  func sinkInsideSend() {
    let subject = AsyncCurrentValueSubject<String, Never>("")
    let lifetime = Lifetime()
    let seen = Log<String>()
    subject.changes.sink(in: lifetime) { seen.append($0) }
    #expect(seen.all == [])
    subject.value = "s"
    #expect(seen.all == ["s"])
    subject.value = "sw"
    #expect(seen.all == ["s", "sw"])
  }

  @Test("each consumer of one changes signal gets the changes after its own registration")
  func lateConsumerOfConnectedNode() async {
    let subject = AsyncCurrentValueSubject<Int, Never>(0)
    let changes = subject.changes
    let early = changes.subscribe()
    subject.value = 1
    let late = changes.subscribe()
    subject.value = 2
    subject.finish()
    #expect(await early.collect() == [1, 2])
    #expect(await late.collect() == [2])
  }

  @Test("a node that disconnected and connects again skips the current value again")
  func reconnection() async {
    let subject = AsyncCurrentValueSubject<Int, Never>(0)
    let changes = subject.changes
    do {
      let lifetime = Lifetime()
      let seen = Log<Int>()
      changes.sink(in: lifetime) { seen.append($0) }
      subject.value = 1
      lifetime.cancel()
      #expect(seen.all == [1])
    }
    subject.value = 2
    let again = changes.subscribe()
    subject.value = 3
    subject.finish()
    #expect(await again.collect() == [3])
  }

  @Test("a failing subject's changes end with its failure")
  func failure() async {
    let subject = AsyncCurrentValueSubject<Int, TestError>(0)
    let changes = subject.changes.subscribe()
    subject.send(1)
    subject.fail(TestError(code: 3))
    let result = await changes.collectResult()
    #expect(result.values == [1])
    #expect(result.failure == TestError(code: 3))
  }

  @Test("a property's changes: over a subject, derived, removeDuplicates, and a constant")
  func propertyChanges() async {
    let subject = AsyncCurrentValueSubject<Int, Never>(1)
    let property = subject.property
    let parity = property.map { $0 % 2 }
    let distinctParity = parity.removeDuplicates()
    let direct = property.changes.subscribe()
    let mapped = parity.changes.subscribe()
    let distinct = distinctParity.changes.subscribe()
    for value in [3, 4, 6, 7] { subject.value = value }
    subject.finish()
    #expect(await direct.collect() == [3, 4, 6, 7])
    #expect(await mapped.collect() == [1, 0, 0, 1])
    #expect(await distinct.collect() == [0, 1])
    #expect(await Property(value: 5).changes.collect() == [])
  }

  @Test("changes of a combined property, and operators on changes stay hot")
  func combinedAndChained() {
    let name = AsyncCurrentValueSubject<String, Never>("a")
    let age = AsyncCurrentValueSubject<Int, Never>(1)
    let summary = combineLatest(name, age).map { "\($0) \($1)" }
    let recorder = Recorder(summary.changes.map { $0.uppercased() }, clock: TestClock())
    #expect(recorder.values.isEmpty)
    name.value = "b"
    age.value = 2
    #expect(recorder.values.map(\.value) == ["B 1", "B 2"])
  }

  @Test("registering while another task sends: the first change a consumer gets is later than its registration")
  func registrationRacesSends() async {
    for _ in 0..<200 {
      let subject = AsyncCurrentValueSubject<Int, Never>(0)
      let sender = Task {
        for value in 1...50 { subject.value = value }
      }
      let before = subject.value
      let changes = subject.changes.subscribe()
      await sender.value
      subject.finish()
      let values = await changes.collect()
      // Strictly increasing, and none of them is a value that was current before the registration began.
      #expect(values == values.sorted())
      #expect(Set(values).count == values.count)
      #expect(values.allSatisfy { $0 > before })
      #expect(values.last == 50 || values.isEmpty)
    }
  }
}
