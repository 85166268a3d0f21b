import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("Stateless operators")
struct StatelessOperatorTests {
  struct Session: Equatable, Sendable {
    var userID: Int
    var token: String
  }

  @Test("removeDuplicates skips consecutive equal values only")
  func removeDuplicates() async {
    let values = await Signal<Int, Never>([1, 1, 2, 2, 2, 1, 3, 3]).removeDuplicates().collect()
    #expect(values == [1, 2, 1, 3])
  }

  @Test("removeDuplicates by key path and by predicate")
  func removeDuplicatesBy() async {
    let sessions = Signal<Session, Never>([
      Session(userID: 1, token: "a"), Session(userID: 1, token: "b"), Session(userID: 2, token: "c"),
    ])
    #expect(await sessions.removeDuplicates(by: \.userID).collect().map(\.token) == ["a", "c"])
    let close = await Signal<Double, Never>([1.0, 1.2, 2.0, 2.1]).removeDuplicates { abs($0 - $1) < 0.5 }.collect()
    #expect(close == [1.0, 2.0])
  }

  @Test("scan emits every accumulation")
  func scan() async {
    #expect(await Signal<Int, Never>([1, 2, 3, 4]).scan(0, +).collect() == [1, 3, 6, 10])
    #expect(await Signal<Int, Never>.empty.scan(0, +).collect() == [])
  }

  @Test("prepend emits its values before the upstream's; the upstream registers at once")
  func prepend() async {
    #expect(await Signal<Int, Never>([3, 4]).prepend(1, 2).collect() == [1, 2, 3, 4])
    #expect(await Signal<Int, Never>.empty.prepend(contentsOf: [0]).collect() == [0])
    let subject = AsyncPassthroughSubject<Int, Never>()
    var iterator = subject.prepend(0).makeAsyncIterator()
    subject.send(1)
    subject.finish()
    #expect(await iterator.next() == 0)
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == nil)
  }

  @Test("not negates Bools; typed failure is kept")
  func not() async {
    #expect(await Signal<Bool, Never>([false, true, false]).not().collect() == [true, false, true])
    let failing = Signal<Bool, TestError> { (emitter) throws(TestError) in
      emitter.send(true)
      throw TestError(code: 1)
    }
    let result = await failing.not().collectResult()
    #expect(result.values == [false])
    #expect(result.failure == TestError(code: 1))
  }

  @Test("operators on non-failing inputs stay non-failing (plain for await)")
  func typedFailureKept() async {
    var received: [Int] = []
    for await value in Signal<Int, Never>([1, 1, 2]).removeDuplicates().scan(0, +).prepend(-1) {
      received.append(value)
    }
    #expect(received == [-1, 1, 3])
  }

  @Test("handleEvents reports start, values and finish")
  func handleEventsFinish() async {
    let log = Log<String>()
    let signal = Signal<Int, Never>([1, 2]).handleEvents(
      onStart: { log.append("start") },
      onValue: { log.append("value \($0)") },
      onFinish: { log.append("finish") },
      onCancel: { log.append("cancel") }
    )
    #expect(await signal.collect() == [1, 2])
    #expect(log.all == ["start", "value 1", "value 2", "finish"])
  }

  @Test("handleEvents reports a failure with its typed error")
  func handleEventsFailure() async {
    let log = Log<String>()
    let signal = Signal<Int, TestError>.fail(TestError(code: 4)).handleEvents(
      onFinish: { log.append("finish") },
      onFailure: { log.append("failure \($0.code)") },
      onCancel: { log.append("cancel") }
    )
    _ = await signal.collectResult()
    #expect(log.all == ["failure 4"])
  }

  @Test("handleEvents reports a consumer that stops early as cancel, once")
  func handleEventsCancel() async {
    let log = Log<String>()
    let subject = AsyncPassthroughSubject<Int, Never>()
    let events = subject.handleEvents(
      onValue: { log.append("value \($0)") },
      onFinish: { log.append("finish") },
      onCancel: { log.append("cancel") }
    )
    // On a subject, handleEvents is hot: its node reports its connection, which the last consumer ends.
    var iterator: Signal<Int, Never>.Iterator? = events.makeAsyncIterator()
    subject.send(1)
    _ = await iterator?.next()
    iterator = nil
    #expect(log.all == ["value 1", "cancel"])
    #expect(subject.consumerCount == 0)
  }
}
