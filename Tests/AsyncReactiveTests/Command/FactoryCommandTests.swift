import AsyncReactive
import AsyncReactiveTesting
import Testing

/// A command made by a factory and triggered at once (`subject.registerButtonCommand().trigger()`): its work runs in
/// place until it first waits, as RxSwift's Action runs its work inside `execute`.
@Suite("commands made by a factory")
struct FactoryCommandTests {
  /// A fake API whose answer is ready at once, as a test's stub is.
  struct StubAPI: Sendable {
    let calls = Log<String>()
    func register() async -> Int {
      calls.append("register")
      return 201
    }
  }

  @Test("trigger() on a temporary command: synchronous work has run when trigger returns")
  func triggerOnATemporary() {
    let api = StubAPI()
    func make() -> Command<Void, Int, Never> { Command { await api.register() } }
    make().trigger()
    #expect(api.calls.all == ["register"])
  }

  @Test("trigger() publishes the run's value, and executing's true and false, before it returns")
  func triggerPublishesInPlace() {
    let clock = TestClock()
    let api = StubAPI()
    let command = Command<Void, Int, Never> { await api.register() }
    let values = Recorder(command.values, clock: clock)
    let executing = Recorder(command.executing, clock: clock)
    command.trigger()
    #expect(values.values.map(\.value) == [201])
    #expect(executing.values.map(\.value) == [false, true, false])
  }

  @Test("work that iterates a constant signal completes inside trigger()")
  func workOverAConstantSignal() {
    let seen = Log<Int>()
    let command = Command<Void, Void, Never> {
      for await value in Signal<Int, Never>([1, 2, 3]) { seen.append(value) }
    }
    command.trigger()
    #expect(seen.all == [1, 2, 3])
  }

  @Test("work that really waits is still running when trigger() returns, and ends with its value later")
  func waitingWorkRunsOn() async {
    let gate = Gate()
    let command = Command<Void, Int, Never> {
      await gate.wait()
      return 1
    }
    var values = command.values.makeAsyncIterator()
    command.trigger()
    #expect(command.executing.value == true)
    gate.open()
    #expect(await values.next() == 1)
  }
}
