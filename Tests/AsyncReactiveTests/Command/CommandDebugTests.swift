import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("Command.debug")
struct CommandDebugTests {
  @Test("runs, values, failures, cancellations and refusals, named and timed on the test clock, in order")
  func trace() async throws {
    let clock = TestClock()
    let lines = Log<String>()
    let enabled = AsyncCurrentValueSubject<Bool, Never>(true)
    let release = Latch()
    let command = Command(enabledIf: enabled) { (value: Int) -> Int in
      if value < 0 { throw TestError(code: value) }
      if value == 0 { try await release.pass() }
      return value * 2
    }
    .debug("double", clock: clock, sink: DebugSink { lines.append($0) })

    #expect(try await command.execute(21) == 42)
    await clock.advance(by: .milliseconds(120))
    #expect(await Outcome { try await command.execute(-1) } == .failed(TestError(code: -1)))
    enabled.value = false
    #expect(await Outcome { try await command.execute(1) } == .disabled)
    enabled.value = true
    let stuck = Task { try await command.execute(0) }
    var started = command.started.makeAsyncIterator()
    if command.executing.value == false { _ = await started.next() }
    command.cancel()
    #expect(await Outcome { try await stuck.value } == .cancelled)
    #expect(
      lines.all == [
        "[double] +0ms start: 21",
        "[double] +0ms value: 42",
        "[double] +120ms start: -1",
        "[double] +120ms failure: TestError(code: -1)",
        "[double] +120ms refused: disabled",
        "[double] +120ms start: 0",
        "[double] +120ms cancelled",
      ]
    )
  }
}
