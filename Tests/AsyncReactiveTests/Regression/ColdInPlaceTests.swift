import AsyncReactive
import AsyncReactiveTesting
import Testing

/// Cold work starts when you subscribe, on your actor, until it first waits (RxSwift's `subscribe`): a synchronous
/// source (`just`, `fail`, an array) has delivered, and ended, before the subscribing call returns.
@Suite("Cold work starts in place, where it is subscribed")
struct ColdInPlaceTests {
  @Test("Property(initial:then:) over Signal.just holds the value before init returns (on and off the main actor)")
  func propertyOverJust() async {
    #expect(Property(initial: false, then: Signal<Bool, Never>.just(true)).value == true)
    #expect(Property(initial: 0, then: Signal<Int, Never>([1, 2, 3])).value == 3)
    await MainActor.run {
      #expect(Property(initial: false, then: Signal<Bool, Never>.just(true)).value == true)
    }
  }

  @Test("Command(enabledIf:) over a property of a constant input is enabled on the next line, and executes")
  func commandEnabledByConstant() async throws {
    let isValid = Signal<Bool, Never>.just(true)
    let command = Command<Void, Int, Never>(enabledIf: Property(initial: false, then: isValid)) { 42 }
    #expect(command.isEnabled.value == true)
    #expect(try await command.execute() == 42)
  }

  @Test("observe(in:) of a synchronous cold signal has delivered, and finished, before it returns, on the main actor")
  @MainActor func observeOnMain() {
    let lifetime = Lifetime()
    var seen: [Int] = []
    var finished = false
    Signal<Int, Never>([1, 2, 3]).observe(in: lifetime, { seen.append($0) }, onFinish: { finished = true })
    #expect(seen == [1, 2, 3])
    #expect(finished)
  }

  @Test("observe(in:) from no actor too, and the failing form delivers its failure in place")
  func observeNonisolated() {
    let lifetime = Lifetime()
    let seen = Log<String>()
    Signal<Int, Never>([1, 2]).observe(in: lifetime) { seen.append("\($0)") }
    Signal<Int, TestError>.fail(TestError(code: 7)).observe(
      in: lifetime, onValue: { seen.append("\($0)") }, onFailure: { seen.append("failed \($0.code)") })
    #expect(seen.all == ["1", "2", "failed 7"])
  }

  @Test("bind(to: object, keyPath) assigns a constant before it returns")
  @MainActor func bindToKeyPath() {
    final class Label { var text = "" }
    let label = Label()
    let lifetime = Lifetime()
    Signal<String, Never>.just("ready").bind(to: label, \.text, in: lifetime)
    #expect(label.text == "ready")
  }

  @Test("bind(to: command) triggers with what a cold source has ready before it returns")
  func bindToCommand() async {
    let lifetime = Lifetime()
    let runs = Log<Int>()
    let command = Command<Int, Void, Never>(policy: .enqueue) { runs.append($0) }
    var values = command.values.makeAsyncIterator()
    Signal<Int, Never>([1, 2]).bind(to: command, in: lifetime)
    // Both were admitted inside the call (the runs themselves belong to the command).
    #expect(await values.next() != nil)
    #expect(await values.next() != nil)
    #expect(runs.all == [1, 2])
  }

  @Test("inside withVirtualTime: a constant is delivered in place, a timer waits for the clock")
  func insideVirtualTime() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let lifetime = Lifetime()
      let seen = Log<Int>()
      concat(Signal<Int, Never>.just(1), Signal<Int, Never>.timer(after: .seconds(5), clock: clock).map { _ in 2 })
        .observe(in: lifetime) { seen.append($0) }
      #expect(seen.all == [1])
      await clock.advance(by: .seconds(5))
      #expect(seen.all == [1, 2])
    }
  }
}

/// The rest of the ways to subscribe: a cold signal's `sink(in:)`, a `Recorder`, a hot operator's cold input and the
/// pump of a foreign sequence all start the run in place, before the call returns.
@Suite("Cold work starts in place: sinks, recorders, cold inputs, foreign pumps")
struct ColdInPlaceInputTests {
  @Test("sink(in:) of a cold chain over an array has delivered, and ended, before it returns")
  func sinkOfArray() {
    let lifetime = Lifetime()
    let seen = Log<String>()
    Signal<Int, Never>([1, 2, 3]).map { $0 * 10 }.sink(
      in: lifetime, onValue: { seen.append("\($0)") }, onEnd: { _ in seen.append("end") })
    #expect(seen.all == ["10", "20", "30", "end"])
  }

  @Test("sink(in:) of an AsyncStream with buffered elements delivers them before it returns")
  func sinkOfStream() {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    continuation.yield(1)
    continuation.yield(2)
    continuation.finish()
    let lifetime = Lifetime()
    let seen = Log<String>()
    Signal(stream).sink(in: lifetime, onValue: { seen.append("\($0)") }, onEnd: { _ in seen.append("end") })
    #expect(seen.all == ["1", "2", "end"])
  }

  @Test("Recorder of a cold signal has recorded a synchronous source, and its end, when it is made")
  func recorderOfConstant() async {
    let clock = TestClock()
    let just = Recorder(Signal<Int, Never>.just(7), clock: clock)
    #expect(just.events == [.value(7, at: .zero), .finished(at: .zero)])
    let array = Recorder(Signal<Int, Never>([1, 2]).map { $0 + 1 }, clock: clock)
    #expect(array.events == [.value(2, at: .zero), .value(3, at: .zero), .finished(at: .zero)])
  }

  @Test("a hot operator's cold input is read in place: combineLatest of an array and a current value")
  func hotOperatorColdInput() {
    let current = AsyncCurrentValueSubject<Int, Never>(10)
    let lifetime = Lifetime()
    let seen = Log<String>()
    combineLatest(Signal<Int, Never>([1, 2]), current).sink(in: lifetime) { seen.append("\($0.0),\($0.1)") }
    #expect(seen.all == ["2,10"])
    current.send(11)
    #expect(seen.all == ["2,10", "2,11"])
  }

  @Test("skip(until: .just) over an array gives nothing, as RxSwift: the source has sent before the trigger")
  func skipUntilOverArray() async {
    #expect(await Signal<Int, Never>([1, 2, 3]).skip(until: Signal<Void, Never>.just(())).collect() == [])
  }

  /// A view model written over generic inputs: `b.map` is the standard library's `map` there, read by a pump.
  static func generic(
    _ a: some AsyncSequence<Int, Never> & Sendable, _ b: some AsyncSequence<Int, Never> & Sendable
  ) -> Signal<Int, Never> {
    a.flatMapLatest { x in b.map { x * 100 + $0 } }.eraseToSignal()
  }

  /// A burst of sends, as a ported view model's test makes them: b 2; a 2, 3, 4; b 3; a 5; b 4, 5; a 6.
  static func sendBurst(_ a: AsyncCurrentValueSubject<Int, Never>, _ b: AsyncCurrentValueSubject<Int, Never>) {
    b.send(2)
    for value in 2...4 { a.send(value) }
    b.send(3)
    a.send(5)
    b.send(4)
    b.send(5)
    a.send(6)
  }

  @Test("flatMapLatest over generic inputs: each switch delivers the new inner's current value in place")
  func genericFlatMapLatestBurst() {
    let a = AsyncCurrentValueSubject<Int, Never>(1)
    let b = AsyncCurrentValueSubject<Int, Never>(1)
    let lifetime = Lifetime()
    let seen = Log<Int>()
    Self.generic(a, b).sink(in: lifetime) { seen.append($0) }
    Self.sendBurst(a, b)
    // Each inner's pump starts inside the switch and delivers b's current value before `a.send` returns. What b
    // sends to a running inner is read by that pump's task: a switch on the same thread can come before it runs
    // (the library's own `map`, on a `some ReactiveSequence` input, delivers those inside `b.send` as well).
    let all = [101, 102, 202, 302, 402, 403, 503, 504, 505, 605]
    let switches = [101, 202, 302, 402, 503, 605]
    #expect(seen.all.filter { switches.contains($0) } == switches)
    #expect(seen.all.filter { all.contains($0) } == seen.all)
    #expect(seen.all == seen.all.sorted())
    lifetime.cancel()
  }

  @Test("the same over the library's sequences: every value, inside the sends")
  func reactiveFlatMapLatestBurst() {
    let a = AsyncCurrentValueSubject<Int, Never>(1)
    let b = AsyncCurrentValueSubject<Int, Never>(1)
    let lifetime = Lifetime()
    let seen = Log<Int>()
    a.flatMapLatest { x in b.map { x * 100 + $0 } }.sink(in: lifetime) { seen.append($0) }
    Self.sendBurst(a, b)
    #expect(seen.all == [101, 102, 202, 302, 402, 403, 503, 504, 505, 605])
    lifetime.cancel()
  }
}
