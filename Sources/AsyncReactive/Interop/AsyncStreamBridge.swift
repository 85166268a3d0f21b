extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// Hands this sequence out as an `AsyncStream`, for APIs that want one.
  ///
  /// The consumer is registered now (a subject's later values are not missed); a task forwards the values.
  /// Terminating the stream (its consumer stops) cancels that task and with it the upstream work.
  ///
  /// ```swift
  /// let stream: AsyncStream<Bool> = command.executing.asAsyncStream()
  /// ```
  public func asAsyncStream(
    bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
  ) -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
    let iterator = makeAsyncIterator()
    let task = Task(named: "asAsyncStream") {
      var iterator = iterator
      while let value = await iterator.next(isolation: nil) {
        continuation.yield(value)
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Hands this sequence out as an `AsyncThrowingStream`, for APIs that want one.
  ///
  /// The consumer is registered now; a task forwards values and the failure. Terminating the stream cancels
  /// that task and with it the upstream work.
  ///
  /// ```swift
  /// let stream: AsyncThrowingStream<User, any Error> = userSignal.asAsyncThrowingStream()
  /// ```
  public func asAsyncThrowingStream(
    bufferingPolicy: AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy = .unbounded
  ) -> AsyncThrowingStream<Element, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: Element.self,
      throwing: (any Error).self,
      bufferingPolicy: bufferingPolicy
    )
    let iterator = makeAsyncIterator()
    let task = Task(named: "asAsyncThrowingStream") {
      var iterator = iterator
      do throws(Failure) {
        while let value = try await iterator.next(isolation: nil) {
          continuation.yield(value)
        }
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }
}
