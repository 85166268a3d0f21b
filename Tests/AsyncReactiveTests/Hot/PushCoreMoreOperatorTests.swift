import AsyncReactive
import AsyncReactiveTesting
import Testing

/// A second failure type, for the operators that change it.
private struct OtherError: Error, Equatable {
  var code = 0
}

/// What a recorder of a hot source recorded, without the time stamps.
private func recorded<Element, Failure>(_ recorder: Recorder<Element, Failure>) -> [Element] {
  recorder.values.map(\.value)
}

@Suite("Push core: more hot operators, evaluated inside send")
struct PushCoreMoreOperatorTests {
  // MARK: Every new operator

  @Test("the last consumer leaving stops the observation of the subject", arguments: HotOperatorCase.all)
  func lastConsumerDisconnects(_ kind: HotOperatorCase) {
    let subject = PassthroughSubject<Int, Never>()
    let node = kind.build(subject)
    let lifetime = Lifetime()
    node.sink(in: lifetime) { _ in }
    var consumer: SubjectSubscription<Int, Never>? = node.subscribe()
    subject.send(1)
    #expect(subject.consumerCount > 0)
    lifetime.cancel()
    #expect(subject.consumerCount > 0)  // the subscription is still there
    consumer = nil
    _ = consumer
    #expect(subject.consumerCount == 0)
  }

  // MARK: prepend

  @Test("prepend: each consumer gets the values when it subscribes, then the live values")
  func prependGivesEachConsumerItsValues() async {
    let subject = PassthroughSubject<Int, Never>()
    let started = subject.prepend(0, 1)
    let clock = TestClock()
    let first = Recorder(started, clock: clock)
    #expect(recorded(first) == [0, 1])  // at the subscription, no await
    subject.send(2)
    #expect(recorded(first) == [0, 1, 2])
    let second = Recorder(started, clock: clock)
    #expect(recorded(second) == [0, 1])
    let third = started.subscribe()
    #expect(subject.consumerCount == 1)  // one observation for all three
    subject.send(3)
    #expect(recorded(first) == [0, 1, 2, 3])
    #expect(recorded(second) == [0, 1, 3])
    subject.finish()
    #expect(first.termination?.value == .finished)
    #expect(await third.collect() == [0, 1, 3])
    // After the end: the values, then the end.
    #expect(await started.subscribe().collect() == [0, 1])
  }

  @Test("prepend over a current value: the values, then the current value, for every consumer")
  func prependOverACurrentValue() async {
    let property = CurrentValueSubject<Int, Never>(5)
    let started = property.prepend(contentsOf: [0])
    let clock = TestClock()
    let first = Recorder(started, clock: clock)
    #expect(recorded(first) == [0, 5])
    property.send(6)
    let second = Recorder(started, clock: clock)
    #expect(recorded(second) == [0, 6])
    #expect(property.consumerCount == 1)
    first.cancel()
    second.cancel()
    #expect(property.consumerCount == 0)
  }

  @Test("prepend: a failure comes after the values; an operator after prepend receives them when it connects")
  func prependFailureAndDownstream() async {
    let subject = PassthroughSubject<Int, TestError>()
    let started = subject.prepend(0)
    let tenfold = started.map { $0 * 10 }
    let clock = TestClock()
    let first = Recorder(tenfold, clock: clock)
    #expect(recorded(first) == [0])
    // The map is one consumer of the prepend: its later consumers see what it produces from then on.
    let second = Recorder(tenfold, clock: clock)
    #expect(recorded(second) == [])
    subject.send(1)
    subject.fail(TestError(code: 4))
    #expect(recorded(first) == [0, 10])
    #expect(recorded(second) == [10])
    #expect(second.termination?.value == .failed(TestError(code: 4)))
    let late = await started.subscribe().collectResult()
    #expect(late.values == [0])
    #expect(late.failure == TestError(code: 4))
  }
}
