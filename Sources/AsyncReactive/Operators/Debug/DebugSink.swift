#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where ``_Concurrency/AsyncSequence/debug(_:clock:sink:fileID:line:)`` writes its lines:
/// standard error by default, standard output, or any closure (a logger, or a list that a test reads).
///
/// A sink receives one complete line per event, without the trailing newline, on the task that caused the
/// event (the consumer's, or the one that released the iterator). It may be called from several tasks at once
/// when several iterations run, so it must be thread-safe.
///
/// ```swift
/// let lines = Mutex<[String]>([])  // any thread-safe store (Synchronization's Mutex here)
/// let search = query.debug("search", sink: DebugSink { line in lines.withLock { $0.append(line) } })
/// let logged = query.debug("search", sink: DebugSink { logger.debug("\($0)") })
/// ```
public struct DebugSink: Sendable {
  @usableFromInline let handleLine: @Sendable (String) -> Void

  /// A sink that hands each line to `write`.
  ///
  /// ```swift
  /// let sink = DebugSink { line in logger.debug("\(line)") }
  /// ```
  /// - Parameter write: called once per event with the formatted line (no trailing newline).
  public init(_ write: @escaping @Sendable (String) -> Void) {
    self.handleLine = write
  }

  /// Writes each line to the standard error stream, unbuffered, in one `write` call per line so that lines of
  /// concurrent iterations do not interleave mid-line. The default sink.
  ///
  /// ```swift
  /// for await value in query.debug("query", sink: .standardError) { … }
  /// ```
  public static var standardError: DebugSink {
    DebugSink { line in writeFully(line + "\n", to: 2) }
  }

  /// Writes each line to the standard output stream with `print`.
  ///
  /// ```swift
  /// for await value in query.debug("query", sink: .standardOutput) { … }
  /// ```
  public static var standardOutput: DebugSink {
    DebugSink { line in print(line) }
  }

  /// Writes all of `text` to the file descriptor, retrying after a partial write or an interruption, and giving
  /// up silently on any other error (a debugging aid must never crash the program it observes).
  private static func writeFully(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }
}
