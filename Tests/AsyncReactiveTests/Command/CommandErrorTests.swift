import AsyncReactive
import AsyncReactiveTesting
import Testing

/// Asserting a command's error in a test: refused, cancelled, or failed with a given error, for a typed failure
/// and for `any Error`, and recognised by a handler that does not know the failure type.
@Suite("CommandError: kind, isDisabled, isCancelled, isNoValue, failure, AnyCommandError")
struct CommandErrorTests {
  @Test("the run was refused: == .disabled for a typed failure, kind == .disabled for any Error")
  func refused() async {
    let enabled = AsyncCurrentValueSubject<Bool, Never>(false)
    let typed = Command(enabledIf: enabled) { (value: Int) throws(TestError) -> Int in value }
    let typedError = await #expect(throws: CommandError<TestError>.self) { try await typed.execute(1) }
    #expect(typedError == .disabled)
    #expect(typedError?.isDisabled == true && typedError?.isCancelled == false)
    #expect(typedError?.failure == nil)

    let untyped = Command(enabledIf: enabled) { (value: Int) throws -> Int in value }
    let untypedError = await #expect(throws: CommandError<any Error>.self) { try await untyped.execute(1) }
    #expect(untypedError?.kind == .disabled)
    #expect(untypedError?.isDisabled == true)
    #expect(untypedError?.anyFailure == nil)
  }

  @Test("the run was cancelled: kind == .cancelled, isCancelled, no failure")
  func cancelled() async {
    let command = Command { (_: Int) -> Int in throw CancellationError() }
    let error = await #expect(throws: CommandError<any Error>.self) { try await command.execute(1) }
    #expect(error?.kind == .cancelled)
    #expect(error?.isCancelled == true && error?.isDisabled == false)
    #expect(error?.failure == nil)
  }

  @Test("the run's sequence sent nothing: == .noValue, kind == .noValue, isNoValue, no failure")
  func noValue() async {
    let typed = Command.signal { (_: Int) in Signal<Int, TestError>.empty }
    let typedError = await #expect(throws: CommandError<TestError>.self) { try await typed.execute(1) }
    #expect(typedError == .noValue)
    #expect(typedError?.isNoValue == true && typedError?.isCancelled == false && typedError?.isDisabled == false)
    #expect(typedError?.failure == nil)

    let untyped = Command.signal { (_: Int) in Signal<Int, any Error>.empty }
    let untypedError = await #expect(throws: CommandError<any Error>.self) { try await untyped.execute(1) }
    #expect(untypedError?.kind == .noValue)
    #expect(untypedError?.anyFailure == nil)
  }

  @Test("the work failed: == .failed(error) when the failure is Equatable, failure otherwise")
  func failed() async {
    let typed = Command { (value: Int) throws(TestError) -> Int in throw TestError(code: value) }
    let typedError = await #expect(throws: CommandError<TestError>.self) { try await typed.execute(3) }
    #expect(typedError == .failed(TestError(code: 3)))
    #expect(typedError?.failure == TestError(code: 3))
    #expect(typedError?.kind == .failed)

    let untyped = Command { (value: Int) -> Int in throw TestError(code: value) }
    let untypedError = await #expect(throws: CommandError<any Error>.self) { try await untyped.execute(4) }
    #expect(untypedError?.kind == .failed)
    #expect(untypedError?.failure as? TestError == TestError(code: 4))
  }

  @Test("a handler that does not know the failure type recognises every command's error")
  func anyCommandError() {
    func describe(_ error: any Error) -> String {
      guard let commandError = error as? any AnyCommandError else { return "other" }
      if let failure = commandError.anyFailure { return "\(commandError.kind): \(failure)" }
      return commandError.kind.description
    }
    #expect(describe(CommandError<TestError>.disabled) == "disabled")
    #expect(describe(CommandError<any Error>.cancelled) == "cancelled")
    #expect(describe(CommandError<Never>.cancelled) == "cancelled")
    #expect(describe(CommandError<Never>.noValue) == "noValue")
    #expect(describe(CommandError<TestError>.failed(TestError(code: 5))) == "failed: TestError(code: 5)")
    #expect(describe(TestError(code: 6)) == "other")
  }

  @Test("kind is Hashable: errors can be counted by kind")
  func kindsCount() {
    let errors: [CommandError<any Error>] = [.disabled, .cancelled, .disabled, .failed(TestError(code: 1)), .noValue]
    let counts = Dictionary(grouping: errors, by: \.kind).mapValues(\.count)
    #expect(counts == [.disabled: 2, .cancelled: 1, .failed: 1, .noValue: 1])
  }
}
