/// Why a ``Command``'s ``Command/execute(_:)`` produced no output: the command refused the call, the run was
/// cancelled, the work failed (ReactiveSwift's `ActionError<Error>`, RxSwift Action's `ActionError`), or a
/// command whose work is a sequence saw it finish without an element.
///
/// `execute` throws exactly this type, so a `catch` sees the work's own `Failure` without a cast. A command
/// whose work cannot fail is a `Command<Input, Output, Never>`: its `failed` case cannot be built, and a
/// `switch` over its errors needs only ``disabled``, ``cancelled`` and ``noValue``.
///
/// ```swift
/// do {
///   let token = try await viewModel.logIn.execute()  // Command<Void, Token, LoginError>
///   show(token)
/// } catch {
///   switch error {
///   case .disabled: break  // the button should not have been enabled
///   case .cancelled: break  // the screen went away
///   case .noValue: break  // only a command made with `Command.signal` ends so
///   case .failed(.wrongPassword): showWrongPassword()
///   case .failed(let failure): showAlert(failure)
///   }
/// }
/// ```
///
/// In tests, three shapes. The run was refused, or cancelled, or ended without a value (``kind`` is `Equatable`
/// for every failure type, ``isDisabled``, ``isCancelled`` and ``isNoValue`` say the same), or it failed with a
/// given error (`==` when `Failure` is `Equatable`, ``failure`` otherwise):
///
/// ```swift
/// let refused = await #expect(throws: CommandError<LoginError>.self) { try await logIn.execute() }
/// #expect(refused == .disabled)          // or refused?.kind == .disabled, for any failure type
/// let cancelled = await #expect(throws: CommandError<any Error>.self) { try await upload.execute(file) }
/// #expect(cancelled?.isCancelled == true)
/// let failed = await #expect(throws: CommandError<LoginError>.self) { try await logIn.execute() }
/// #expect(failed == .failed(.wrongPassword))   // or failed?.failure == .wrongPassword
/// ```
///
/// A handler that does not know `Failure` recognises any command's error as ``AnyCommandError``.
public enum CommandError<Failure: Error>: Error {
  /// The command was disabled when `execute` was called: its `enabledIf` property was `false`, its
  /// ``CommandPolicy`` does not allow another run now (`.reject` while a run is in flight,
  /// `.concurrent(limit:)` at its limit), or the command was released. The work did not start; one event
  /// went to ``Command/disabledErrors``.
  case disabled

  /// The run was cancelled before it produced its output: the calling task was cancelled, ``Command/cancel()``
  /// was called, a later call replaced it under `.cancelPrevious`, the command was released, the work threw
  /// `CancellationError`, or (for `Command(owner:)`) the owner was gone. Whatever the work returned is
  /// dropped; nothing went to ``Command/values`` or ``Command/errors`` for the run (for a command made with
  /// ``Command/signal(policy:fileID:line:_:)``: nothing after the cancellation; the elements its sequence sent
  /// before it were published).
  case cancelled

  /// The work threw `failure`, which also went to ``Command/errors``.
  case failed(Failure)

  /// The run finished without a value: only a command whose work is a sequence can end so
  /// (``Command/signal(policy:fileID:line:_:)``), when its sequence finished without an element. Nothing went
  /// to ``Command/values`` or ``Command/errors``; a ``Command/trigger(_:)`` of such a run just ends.
  ///
  /// ```swift
  /// let progress = Command.signal { (id: Int) in api.progress(of: id) }  // Command<Int, Int, Never>
  /// do {
  ///   print("done at \(try await progress.execute(7))%")
  /// } catch {
  ///   if error == .noValue { print("the upload sent no progress") }
  /// }
  /// ```
  case noValue
}

extension CommandError: Equatable where Failure: Equatable {}

extension CommandError: Hashable where Failure: Hashable {}

/// A ``CommandError`` whatever its work's failure type: lets a generic error handler recognise any command's
/// error, and tell a refused call, a cancelled run, a run without a value and a failed work apart, without
/// naming `Failure`.
///
/// ```swift
/// func report(_ error: any Error) {
///   if let commandError = error as? any AnyCommandError {
///     switch commandError.kind {
///     case .disabled, .cancelled, .noValue: return  // nothing to show
///     case .failed: showAlert(commandError.anyFailure!)
///     }
///   } else {
///     showAlert(error)
///   }
/// }
/// ```
public protocol AnyCommandError: Error {
  /// Which of the four outcomes this is; always `Equatable`.
  ///
  /// ```swift
  /// #expect((error as? any AnyCommandError)?.kind == .disabled)
  /// ```
  var kind: CommandErrorKind { get }

  /// The work's error as `any Error` for a failed run, `nil` for any other outcome.
  ///
  /// ```swift
  /// if let failure = (error as? any AnyCommandError)?.anyFailure { log(failure) }
  /// ```
  var anyFailure: (any Error)? { get }
}

/// Which of ``CommandError``'s cases an error is, without its failure: `Equatable` and `Hashable` for every
/// failure type, so `#expect(error.kind == .disabled)` compiles for a `CommandError<any Error>`.
///
/// ```swift
/// let error = await #expect(throws: CommandError<any Error>.self) { try await save.execute() }
/// #expect(error?.kind == .disabled)
/// ```
public enum CommandErrorKind: Hashable, Sendable, CustomStringConvertible {
  /// ``CommandError/disabled``: the call was refused and the work did not start.
  case disabled
  /// ``CommandError/cancelled``: the run was cancelled before it produced its output.
  case cancelled
  /// ``CommandError/failed(_:)``: the work threw.
  case failed
  /// ``CommandError/noValue``: the run's sequence finished without an element.
  case noValue

  /// `disabled`, `cancelled`, `failed` or `noValue`.
  ///
  /// ```swift
  /// print(error.kind)  // "disabled"
  /// ```
  public var description: String {
    switch self {
    case .disabled: "disabled"
    case .cancelled: "cancelled"
    case .failed: "failed"
    case .noValue: "noValue"
    }
  }
}

extension CommandError: AnyCommandError {
  /// Which case this is, without the failure: `Equatable` whatever `Failure` is.
  ///
  /// ```swift
  /// do { try await upload.execute(file) } catch { #expect(error.kind == .cancelled) }
  /// ```
  public var kind: CommandErrorKind {
    switch self {
    case .disabled: .disabled
    case .cancelled: .cancelled
    case .failed: .failed
    case .noValue: .noValue
    }
  }

  /// The call was refused: the command was disabled, its policy allowed no run now, or it was released.
  ///
  /// ```swift
  /// do { try await logIn.execute() } catch { #expect(error.isDisabled) }
  /// ```
  public var isDisabled: Bool { kind == .disabled }

  /// The run was cancelled before it produced its output.
  ///
  /// ```swift
  /// do { try await search.execute("swift") } catch { #expect(error.isCancelled) }
  /// ```
  public var isCancelled: Bool { kind == .cancelled }

  /// The run finished without a value: the sequence of a command made with
  /// ``Command/signal(policy:fileID:line:_:)`` sent no element.
  ///
  /// ```swift
  /// do { try await progress.execute(7) } catch { #expect(error.isNoValue) }
  /// ```
  public var isNoValue: Bool { kind == .noValue }

  /// The work's error for a failed run, `nil` for any other outcome.
  ///
  /// ```swift
  /// do { try await logIn.execute() } catch { #expect(error.failure == .wrongPassword) }
  /// ```
  public var failure: Failure? {
    if case .failed(let failure) = self { failure } else { nil }
  }

  /// ``failure`` as `any Error`, for code that does not know `Failure`.
  ///
  /// ```swift
  /// if let failure = (error as? any AnyCommandError)?.anyFailure { log(failure) }
  /// ```
  public var anyFailure: (any Error)? { failure }
}
