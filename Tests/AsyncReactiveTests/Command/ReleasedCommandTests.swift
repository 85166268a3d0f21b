import AsyncReactive
import AsyncReactiveTesting
import Testing

/// A released command's streams end for every consumer, late ones too (Action's streams complete with it).
@Suite("a released command's streams")
struct ReleasedCommandTests {
  @Test("a consumer of isEnabled that comes after the release gets false and the end, not a hang")
  func lateConsumerOfIsEnabled() {
    let clock = TestClock()
    let form = AsyncCurrentValueSubject<Bool, Never>(true)
    let late = Recorder(Command<Void, Void, Never>(enabledIf: form.map { $0 }) { _ in }.isEnabled, clock: clock)
    #expect(late.values.map(\.value) == [false])
    #expect(late.end.map { if case .finished = $0.value { true } else { false } } == true)
  }

  @Test("a consumer of isEnabled before the release gets its state, then false and the end at the release")
  func earlyConsumerOfIsEnabled() {
    let clock = TestClock()
    let form = AsyncCurrentValueSubject<Bool, Never>(true)
    var command: Command<Void, Void, Never>? = Command(enabledIf: form) { _ in }
    let early = Recorder(command!.isEnabled, clock: clock)
    form.send(false)
    form.send(true)
    #expect(early.values.map(\.value) == [true, false, true])
    #expect(early.end == nil)
    command = nil
    #expect(early.values.map(\.value) == [true, false, true, false])
    #expect(early.end != nil)
    withExtendedLifetime(command) {}
  }

  @Test("the command's other streams give a late consumer their end")
  func lateConsumersOfTheOtherStreams() {
    let clock = TestClock()
    let command = Command<Int, Int, Never> { $0 }
    let executing = command.executing
    let values = command.values
    let errors = command.errors
    _ = consume command
    #expect(Recorder(executing, clock: clock).end != nil)
    #expect(Recorder(values, clock: clock).end != nil)
    #expect(Recorder(errors, clock: clock).end != nil)
  }

  @Test("releasing a command with a run in flight is reported once in debug builds, naming where it was made")
  func releasedWithRunInFlight() async {
    let reports = Log<String>()
    let started = Gate()
    let resume = Gate()
    let line = #line + 1
    var command: Command<Void, Void, Never>? = Command {
      started.open()
      await resume.wait()
    }
    command?.trigger()
    await started.wait()
    DebugReport.$handler.withValue(.init { reports.append($0) }) {
      command = nil
    }
    resume.open()
    #if DEBUG
      #expect(
        reports.all == [
          "AsyncReactive: the Command made at AsyncReactiveTests/ReleasedCommandTests.swift:\(line) was released "
            + "while a run was in flight, which cancels the run. Keep the command while it runs (a let of the view "
            + "model); a binding to it keeps it (taps.bind(to: command, in: lifetime))."
        ])
    #else
      #expect(reports.all.isEmpty)
    #endif
  }

  @Test("a command released with no run in flight is not reported")
  func releasedIdle() async throws {
    let reports = Log<String>()
    var command: Command<Void, Int, Never>? = Command { 1 }
    #expect(try await command?.execute() == 1)
    DebugReport.$handler.withValue(.init { reports.append($0) }) {
      command = nil
    }
    #expect(reports.all.isEmpty)
  }
}
