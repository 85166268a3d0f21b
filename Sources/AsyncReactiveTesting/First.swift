import AsyncReactive
import Testing

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// The first value of this sequence, `nil` if it finishes first: RxBlocking's `toBlocking().first()`, which fails
  /// the test instead of hanging when nothing comes.
  ///
  /// It records the sequence on `clock` (as a ``Recorder`` does) until the first value or the end, then stops.
  /// **Inside `withVirtualTime`** it moves the clock to get there, deadline by deadline (as ``TestClock/run()``
  /// would, stopping at the first value): when nothing is left to run and nothing came (or after 100 000
  /// deadlines), it fails the test at once, saying what it saw. **Outside**, it waits for `timeout` of real time,
  /// then fails the test the same way.
  ///
  /// **Throws:** the sequence's failure, when it fails before sending a value.
  ///
  /// ```swift
  /// await clock.withVirtualTime {
  ///   let title = try await viewModel.title.first(clock: clock)
  ///   #expect(title == "Inbox")
  ///   #expect(try await Signal.timer(after: .seconds(5), clock: clock).first(clock: clock) == 1)  // at 5 s
  /// }
  /// ```
  /// - Parameters:
  ///   - clock: the test clock the sequence's time runs on; it stamps nothing here, but it is the one moved.
  ///   - timeout: outside virtual time, how long (real time) to wait before failing; positive.
  ///   - fileID: the file of the location where a failure is reported; the caller's by default.
  ///   - filePath: the path of that file; the caller's by default.
  ///   - line: the line of that location; the caller's by default.
  ///   - column: the column of that location; the caller's by default.
  /// - Returns: the first value; `nil` if the sequence finished without one, or if the test failed for want of one.
  public func first(
    clock: TestClock,
    timeout: Duration = .seconds(60),
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async throws(Failure) -> Element? {
    checkTimeout(timeout, of: "first(clock:)")
    let recorder = Recorder(self, clock: clock)
    defer { recorder.cancel() }
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let sawSomething = { !recorder.values.isEmpty || recorder.end != nil }
    if clock.runsVirtualTime {
      await clock.settle()
      var steps = 0
      while !sawSomething() {
        guard let next = clock.sleeperDeadlines.first, steps < firstStepLimit else {
          let why = steps < firstStepLimit ? "nothing is left to run" : "\(steps) deadlines went by"
          Issue.record(
            Comment(
              rawValue: "first(clock:): the sequence sent nothing and has not ended, and \(why): "
                + TestClock.describe(now: clock.now, deadlines: clock.sleeperDeadlines)),
            sourceLocation: location)
          return nil
        }
        await clock.advance(to: next)
        steps += 1
      }
    } else if await !recorder.waitForFirstEvent(timeout: timeout) {
      recordTimeout(
        "first(clock:) timed out after \(timeout.secondsDescription): the sequence sent nothing and has not ended; "
          + TestClock.describe(now: clock.now, deadlines: clock.sleeperDeadlines),
        sourceLocation: location)
      return nil
    }
    if let first = recorder.values.first { return first.value }
    if case .failed(let failure)? = recorder.end?.value { throw failure }
    return nil
  }
}

/// How many deadlines `first(clock:)` moves the clock through at most, as `TestClock.run()` does.
private let firstStepLimit = 100_000
