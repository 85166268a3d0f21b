/// Why a ``Command``'s ``Command/execute(_:)`` produced no output: the command refused the call, the run was
/// cancelled, or the work failed (ReactiveSwift's `ActionError<Error>`, RxSwift Action's `ActionError`).
///
/// `execute` throws exactly this type, so a `catch` sees the work's own `Failure` without a cast. A command
/// whose work cannot fail is a `Command<Input, Output, Never>`: its `failed` case cannot be built, and a
/// `switch` over its errors needs only ``disabled`` and ``cancelled``.
///
/// ```swift
/// do {
///   let token = try await viewModel.logIn.execute()  // Command<Void, Token, LoginError>
///   show(token)
/// } catch {
///   switch error {
///   case .disabled: break  // the button should not have been enabled
///   case .cancelled: break  // the screen went away
///   case .failed(.wrongPassword): showWrongPassword()
///   case .failed(let failure): showAlert(failure)
///   }
/// }
/// ```
public enum CommandError<Failure: Error>: Error {
  /// The command was disabled when `execute` was called: its `enabledIf` property was `false`, its
  /// ``CommandPolicy`` does not allow another run now (`.reject` while a run is in flight,
  /// `.concurrent(limit:)` at its limit), or the command was released. The work did not start; one event
  /// went to ``Command/disabledErrors``.
  case disabled

  /// The run was cancelled before it produced its output: the calling task was cancelled, ``Command/cancel()``
  /// was called, a later call replaced it under `.cancelPrevious`, the command was released, the work threw
  /// `CancellationError`, or (for `Command(owner:)`) the owner was gone. Whatever the work returned is
  /// dropped; nothing went to ``Command/values`` or ``Command/errors``.
  case cancelled

  /// The work threw `failure`, which also went to ``Command/errors``.
  case failed(Failure)
}

extension CommandError: Equatable where Failure: Equatable {}

extension CommandError: Hashable where Failure: Hashable {}
