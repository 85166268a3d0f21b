import AsyncReactive
import AsyncReactiveTesting
import Synchronization
import Testing

@Suite("AsyncCurrentValueSubject, AsyncReplaySubject and Property")
struct StatefulSubjectTests {
  @Test("value reads and writes synchronously; consumers get the current value first")
  func currentValueFirst() async {
    let subject = AsyncCurrentValueSubject<Int, Never>(1)
    #expect(subject.value == 1)
    subject.value = 2
    #expect(subject.value == 2)
    let values = subject.subscribe()
    subject.value += 1
    subject.send(4)
    #expect(subject.value == 4)
    subject.finish()
    #expect(await values.collect() == [2, 3, 4])
  }

  @Test("after finish, a late consumer gets only the end; value stays readable; sends are ignored")
  func currentValueAfterFinish() async {
    let subject = AsyncCurrentValueSubject<String, Never>("a")
    subject.send("b")
    subject.finish()
    subject.send("c")
    #expect(subject.value == "b")
    #expect(await subject.collect() == [])
  }

  @Test("fail reaches consumers after the current value")
  func currentValueFail() async {
    let subject = AsyncCurrentValueSubject<Int, TestError>(0)
    let values = subject.subscribe()
    subject.fail(TestError(code: 2))
    let result = await values.collectResult()
    #expect(result.values == [0])
    #expect(result.failure == TestError(code: 2))
  }

  @Test("AsyncReplaySubject replays the last n values, also after it finished")
  func replayLastN() async {
    let subject = AsyncReplaySubject<Int, Never>(bufferSize: 2)
    for value in 1...5 { subject.send(value) }
    let live = subject.subscribe()
    subject.send(6)
    subject.finish()
    #expect(await live.collect() == [4, 5, 6])
    #expect(await subject.collect() == [5, 6])
  }

  @Test("AsyncReplaySubject's buffer wraps around: at every count of sends, a new consumer gets the last n in order")
  func replayWrapsAround() {
    for bufferSize in 1...4 {
      let subject = AsyncReplaySubject<Int, Never>(bufferSize: bufferSize)
      for sent in 1...(3 * bufferSize + 2) {
        subject.send(sent)
        let lifetime = Lifetime()
        let replayed = Mutex<[Int]>([])
        subject.sink(in: lifetime) { value in replayed.withLock { $0.append(value) } }
        lifetime.cancel()
        let expected = Array(max(1, sent - bufferSize + 1)...sent)
        #expect(replayed.withLock { $0 } == expected, "bufferSize \(bufferSize), \(sent) sent")
      }
    }
  }

  @Test("AsyncCurrentValueSubject's value is the latest send, at every count of sends")
  func currentValueAfterManySends() {
    let subject = AsyncCurrentValueSubject<Int, Never>(0)
    for sent in 1...5 {
      subject.send(sent)
      #expect(subject.value == sent)
    }
  }

  @Test("AsyncReplaySubject replays before its failure")
  func replayThenFail() async {
    let subject = AsyncReplaySubject<Int, TestError>(bufferSize: 3)
    subject.send(1)
    subject.send(2)
    subject.fail(TestError(code: 9))
    let result = await subject.collectResult()
    #expect(result.values == [1, 2])
    #expect(result.failure == TestError(code: 9))
  }

  @Test("AsyncReplaySubject(bufferSize: 0) behaves like a AsyncPassthroughSubject")
  func replayZero() async {
    let subject = AsyncReplaySubject<Int, Never>(bufferSize: 0)
    subject.send(1)
    let values = subject.subscribe()
    subject.send(2)
    subject.finish()
    #expect(await values.collect() == [2])
  }

  @Test("AsyncReplaySubject with a negative buffer size traps")
  func replayNegative() async {
    await #expect(processExitsWith: .failure) {
      _ = AsyncReplaySubject<Int, Never>(bufferSize: -1)
    }
  }

  @Test("Property reflects its subject and cannot send")
  func propertyReflectsSubject() async {
    let subject = AsyncCurrentValueSubject<[String], Never>([])
    let property = Property(subject)
    #expect(property.value == [])
    let changes = property.subscribe()
    subject.value = ["swift"]
    #expect(property.value == ["swift"])
    subject.finish()
    #expect(await changes.collect() == [[], ["swift"]])
  }

  @Test("a constant Property yields its value and finishes")
  func constantProperty() async {
    let title = Property(value: "Orders")
    #expect(title.value == "Orders")
    #expect(await title.collect() == ["Orders"])
    #expect(await title.collect() == ["Orders"])
  }

  @Test("consumers of stateful subjects are removed when they stop")
  func statefulConsumersRemoved() async {
    let current = AsyncCurrentValueSubject<Int, Never>(0)
    let replay = AsyncReplaySubject<Int, Never>(bufferSize: 1)
    replay.send(1)
    for await _ in current { break }
    for await _ in replay { break }
    #expect(current.consumerCount == 0)
    #expect(replay.consumerCount == 0)
  }
}
