import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("TestSubject", .timeLimit(.minutes(1)))
struct TestSubjectTests {
  @Test("send returns only once the consumer has come back for the next value")
  func sendWaitsForTheConsumerToHandleTheValue() async {
    let subject = TestSubject<Int, Never>()
    let log = Log<String>()
    let took = Gate()
    let release = Gate()
    let consumer = Task {
      for await value in subject {
        log.append("took \(value)")
        took.open()
        await release.wait()  // still handling the value
        log.append("handled \(value)")
      }
    }
    await subject.waitForConsumers(1)
    let sending = Task {
      await subject.send(1)
      log.append("send returned")
    }
    await took.wait()
    #expect(log.all == ["took 1"])  // the consumer holds the value: send cannot have returned
    release.open()
    await sending.value
    #expect(log.all == ["took 1", "handled 1", "send returned"])
    await subject.finish()
    await consumer.value
  }

  @Test("every consumer gets every value in order, and send waits for all of them")
  func manyConsumers() async {
    let clock = TestClock()
    let subject = TestSubject<String, TestError>()
    let first = Recorder(subject, clock: clock)
    await subject.send("a")
    let second = Recorder(subject.map { $0.uppercased() }, clock: clock)
    #expect(subject.consumerCount == 2)
    await subject.send("b")
    #expect(first.values.map(\.value) == ["a", "b"])
    #expect(second.values.map(\.value) == ["B"])
    await subject.fail(TestError(code: 3))  // returns once both consumers received it; they record it after
    #expect(subject.consumerCount == 0)
    #expect(await first.waitForEnd()?.value == .failed(TestError(code: 3)))
    #expect(await second.waitForEnd()?.value == .failed(TestError(code: 3)))
  }

  @Test("values wait in a consumer's buffer; the end comes after them")
  func bufferedThenEnd() async throws {
    let subject = TestSubject<Int, TestError>()
    var iterator = subject.makeAsyncIterator()
    let sends = Task {
      await subject.send(1)
      await subject.send(2)
      await subject.finish()
    }
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 2)
    #expect(try await iterator.next() == nil)
    await sends.value
    #expect(try await iterator.next() == nil)
  }

  @Test("without consumers, or after the end, events return at once and are dropped")
  func noConsumersAndAfterTheEnd() async throws {
    let subject = TestSubject<Int, TestError>()
    await subject.send(0)  // nobody listens
    await subject.finish()
    await subject.send(1)
    await subject.fail(TestError(code: 1))
    var late = subject.makeAsyncIterator()
    #expect(try await late.next() == nil)  // a later consumer finishes at once
    #expect(subject.consumerCount == 0)
  }

  @Test("a cancelled consumer or a released iterator stops holding up send")
  func stoppedConsumersDoNotHoldUpSend() async {
    let subject = TestSubject<Int, Never>()
    var released: TestSubject<Int, Never>.Iterator? = subject.makeAsyncIterator()
    let cancelled = Task {
      for await _ in subject {}
    }
    await subject.waitForConsumers(2)
    let sending = Task { await subject.send(1) }
    released = nil  // never took the value; releasing it stops that consumer
    cancelled.cancel()
    await sending.value
    await cancelled.value
    #expect(released == nil)
    #expect(subject.consumerCount == 0)
  }

  @Test("waitForConsumers returns once a late subscriber subscribes")
  func waitForLateConsumers() async {
    let subject = TestSubject<Int, Never>()
    let clock = TestClock()
    let late = Task { Recorder(subject.map { $0 * 10 }, clock: clock) }
    await subject.waitForConsumers(1)
    await subject.send(4)
    let recorder = await late.value
    #expect(recorder.values == [Timed(40, at: .zero)])
  }

  // MARK: The handshake with quiet operators

  /// A throttle with 300 ms windows on a test subject that sent 1 at t=0 (emitted at once, opening a window
  /// until 300); the clock is then moved to t=100.
  private func throttleInItsFirstWindow(latest: Bool) async -> (
    clock: TestClock, offsets: TestSubject<Int, Never>, throttled: Recorder<Int, Never>
  ) {
    let clock = TestClock()
    let offsets = TestSubject<Int, Never>()
    let throttled = Recorder(offsets.throttle(for: .milliseconds(300), clock: clock, latest: latest), clock: clock)
    await offsets.send(1)
    #expect(await throttled.waitForValues(count: 1) == [Timed(1, at: .zero)])
    await clock.advance(by: .milliseconds(100))
    return (clock, offsets, throttled)
  }

  @Test("a throttle holding a value: send returns once it was taken, with no output and no new timer; no yields")
  func throttleHoldingAValue() async {
    let (clock, offsets, throttled) = await throttleInItsFirstWindow(latest: true)
    await offsets.send(2)  // held for the window's end
    await clock.advance(by: .milliseconds(100))
    await offsets.send(3)  // t=200: replaces 2
    #expect(throttled.values.count == 1)  // quiet: nothing emitted for 2 and 3
    await clock.waitForSleeper(until: TestClock.Instant(offset: .milliseconds(300)))  // the window's timer
    await clock.advance(by: .milliseconds(100))  // t=300: the window ends with the held value
    #expect(await throttled.waitForValues(count: 2) == [Timed(1, at: .zero), Timed(3, at: .milliseconds(300))])
    await offsets.finish()
    #expect(await throttled.waitForEnd() == Timed(.finished, at: .milliseconds(300)))
  }

  @Test("a throttle dropping values inside its window (latest: false): send tells the test they were taken")
  func throttleDroppingValues() async {
    let (clock, offsets, throttled) = await throttleInItsFirstWindow(latest: false)
    await offsets.send(2)  // t=100: inside the window, dropped (RxSwift)
    await clock.advance(by: .milliseconds(250))
    await offsets.send(3)  // t=350: a new window, emitted at once
    #expect(await throttled.waitForValues(count: 2) == [Timed(1, at: .zero), Timed(3, at: .milliseconds(350))])
    await offsets.finish()
    #expect(await throttled.waitForEnd() == Timed(.finished, at: .milliseconds(350)))
  }

  @Test("removeDuplicates dropping a repeat: send tells the test the repeat was seen and dropped")
  func droppedRepeat() async {
    let clock = TestClock()
    let input = TestSubject<Int, Never>()
    let distinct = Recorder(input.removeDuplicates(), clock: clock)
    await input.send(1)
    await input.send(1)  // dropped, quietly
    await clock.advance(by: .seconds(1))
    await input.send(2)
    await input.finish()
    #expect(await distinct.waitForEnd() == Timed(.finished, at: .seconds(1)))
    #expect(distinct.values == [Timed(1, at: .zero), Timed(2, at: .seconds(1))])
  }
}

@Suite("TestSubjectStateMachine")
struct TestSubjectStateMachineTests {
  private typealias Machine = TestSubjectStateMachine<Int, TestError, String, String>

  private func subscribe(_ machine: inout Machine) -> Int {
    let id = machine.makeID()
    _ = machine.subscribe(id: id)
    return id
  }

  @Test func aSenderWaitsUntilEachConsumerComesBack() {
    var machine = Machine()
    let a = subscribe(&machine)
    let b = subscribe(&machine)
    guard case .park = machine.next(id: a, consumer: "a", isCancelled: false).action else {
      Issue.record("a should park")
      return
    }
    let sent = machine.send(1, sender: "send 1", id: machine.makeID())
    #expect(sent.consumers == ["a"])  // a was parked: it takes the value now
    #expect(sent.senders == [])
    #expect(machine.next(id: a, consumer: "a", isCancelled: false).senders == [])  // b has not taken it
    let bNext = machine.next(id: b, consumer: "b", isCancelled: false)
    guard case .deliver(.value(1)) = bNext.action else {
      Issue.record("b should take the buffered 1")
      return
    }
    #expect(bNext.senders == [])  // taken, not yet handled
    #expect(machine.next(id: b, consumer: "b", isCancelled: false).senders == ["send 1"])
  }

  @Test func theEndIsHandledWhenReceivedOrWhenTheConsumerStops() {
    var machine = Machine()
    let parked = subscribe(&machine)
    let busy = subscribe(&machine)
    _ = machine.next(id: parked, consumer: "parked", isCancelled: false)
    let ended = machine.terminate(.finished, sender: "finish", id: machine.makeID())
    #expect(ended.consumers == ["parked"])
    #expect(ended.senders == [])  // busy has not received the end
    #expect(machine.consumerCount == 1)
    let stopped = machine.stop(id: busy)
    #expect(stopped.consumer == nil)
    #expect(stopped.senders == ["finish"])
    #expect(machine.terminate(.failed(TestError()), sender: "again", id: machine.makeID()).senders == ["again"])
  }

  @Test func aCancelledSenderIsRemovedOnce() {
    var machine = Machine()
    _ = subscribe(&machine)
    let id = machine.makeID()
    _ = machine.send(1, sender: "send", id: id)
    #expect(machine.isWaiting(sender: id))
    #expect(
      machine.describePending(sender: id) == ["consumer 1 has not taken it (it took 0 of the 1 value sent to it)"])
    #expect(machine.cancelSender(id: id) == "send")
    #expect(machine.cancelSender(id: id) == nil)
    #expect(machine.describePending(sender: id) == [])
  }

  @Test func consumersAreNamedByTheirPlaceInSubscriptionOrder() {
    var machine = Machine()
    let first = subscribe(&machine)
    _ = subscribe(&machine)
    _ = machine.stop(id: first)
    let id = machine.makeID()
    _ = machine.send(1, sender: "send", id: id)
    #expect(
      machine.describePending(sender: id) == ["consumer 2 has not taken it (it took 0 of the 1 value sent to it)"])
  }

  @Test func consumerWaitersResumeWhenEnoughSubscribe() {
    var machine = Machine()
    let waiter = machine.makeID()
    #expect(machine.waitForConsumers(2, waiter: "two", id: waiter, isCancelled: false) == nil)
    #expect(machine.subscribe(id: machine.makeID()) == [])
    #expect(machine.subscribe(id: machine.makeID()) == ["two"])
    #expect(machine.cancelConsumerWaiter(id: waiter) == nil)
    #expect(machine.waitForConsumers(5, waiter: "cancelled", id: machine.makeID(), isCancelled: true) == "cancelled")
  }
}
