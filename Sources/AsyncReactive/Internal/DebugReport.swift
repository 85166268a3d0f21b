#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where the library reports, in debug builds, a use that is legal but almost certainly not what was meant: an
/// observer that registered with a subject after the subject was released gets only the end.
package enum DebugReport {
  /// Receives the reports instead of standard error, for the task that sets it (a test).
  @TaskLocal package static var handler: (@Sendable (String) -> Void)?

  /// Hands `message` to ``handler``, or writes it to standard error.
  package static func emit(_ message: String) {
    if let handler {
      handler(message)
    } else {
      // File descriptor 2 rather than `stderr`, a global the compiler cannot prove safe to share.
      let line = message + "\n"
      _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
  }
}
