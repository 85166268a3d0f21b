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
