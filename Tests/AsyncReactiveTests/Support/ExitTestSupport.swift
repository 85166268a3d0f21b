import Testing

/// Whether this build prints the message of a failed `precondition`. Optimised builds (`swift test -c release`)
/// trap without it, so exit tests check the message only where the build keeps it; the exit status (a failure)
/// is checked in every build by `#expect(processExitsWith: .failure)` itself.
#if DEBUG
  let buildKeepsTrapMessages = true
#else
  let buildKeepsTrapMessages = false
#endif

/// Expects a trapped child process to have printed `fragment` on its standard error, in builds that keep
/// precondition messages (see ``buildKeepsTrapMessages``); in optimised builds there is no message to read.
func expectTrapMessage(
  _ result: ExitTest.Result,
  _ fragment: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard buildKeepsTrapMessages else { return }
  let message = String(decoding: result.standardErrorContent, as: UTF8.self)
  #expect(
    message.contains(fragment),
    "the trap's message does not name the call: \(message.suffix(300))",
    sourceLocation: sourceLocation
  )
}
