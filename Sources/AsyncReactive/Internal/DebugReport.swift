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
  /// Receives the reports instead of standard error.
  package final class Handler: Sendable {
    let receive: @Sendable (String) -> Void

    package init(_ receive: @escaping @Sendable (String) -> Void) { self.receive = receive }
  }

  /// The handler for the task that sets it (a test). A class rather than an optional closure: an optional closure
  /// as a task-local value crashed the runtime's task-local push in an optimised build (Swift 6.3.1).
  @TaskLocal package static var handler: Handler?

  /// Hands `message` to ``handler``, or writes it to standard error.
  package static func emit(_ message: String) {
    if let handler {
      handler.receive(message)
    } else {
      // File descriptor 2 rather than `stderr`, a global the compiler cannot prove safe to share.
      let line = message + "\n"
      _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
  }
}
