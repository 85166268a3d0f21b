extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// Fails with ``TimeoutError`` if the next value, or the end, does not arrive within `interval` (RxSwift
  /// `timeout`; Combine's `timeout` finishes instead unless given a custom error).
  ///
  /// The first event is due `interval` after the run starts (its first `next()`; for a hot upstream, its first
  /// consumer), each next one `interval` after the previous value arrived. Each event is taken when the upstream
  /// produces it, so the interval measures the upstream, not the consumer: a slow consumer never causes a
  /// timeout. An event must arrive strictly before its deadline. With `interval` 200 ms:
  ///
  /// | time   | upstream              | output                      |
  /// |--------|-----------------------|-----------------------------|
  /// | 0 ms   | (iteration starts)    |                             |
  /// | 150 ms | `a`                   | `a`                         |
  /// | 300 ms | `b`                   | `b`                         |
  /// | 500 ms |                       | fails with ``TimeoutError`` |
  ///
  /// **Finishes:** when the upstream finishes in time.
  ///
  /// **Throws:** ``TimeoutError`` when the deadline passes; the upstream is cancelled.
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels the upstream and the
  /// timer's sleep.
  ///
  /// ```swift
  /// do {
  ///   for try await reading in sensor.readings.timeout(.seconds(5)) { show(reading) }
  /// } catch {
  ///   showOffline()  // error is TimeoutError
  /// }
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  /// - Returns: the upstream's values, failing with ``TimeoutError`` on a timeout.
  public func timeout<C: Clock>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, TimeoutError> where C.Duration == Duration {
    precondition(interval > .zero, "timeout(\(interval)): the interval must be positive")
    return Signal(self).lift(synchronous: false, input: "timeout upstream") {
      $0.hotTimeout(fileID: fileID, line: line, interval, clock: clock, timedOut: TimeoutError(), failure: neverFailure)
    }
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == any Error {
  /// Fails with ``TimeoutError`` if the next value, or the end, does not arrive within `interval`; the upstream's
  /// own errors pass through unchanged.
  ///
  /// **Throws:** ``TimeoutError`` when the deadline passes (the upstream is cancelled), or the upstream's error.
  ///
  /// ```swift
  /// do {
  ///   for try await page in Signal.future({ try await api.page(1) }).timeout(.seconds(10)) { show(page) }
  /// } catch is TimeoutError {
  ///   showSlowNetworkHint()
  /// }
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  /// - Returns: the upstream's values, failing with ``TimeoutError`` on a timeout.
  public func timeout<C: Clock>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, any Error> where C.Duration == Duration {
    precondition(interval > .zero, "timeout(\(interval)): the interval must be positive")
    return Signal(self).lift(synchronous: false, input: "timeout upstream") {
      $0.hotTimeout(fileID: fileID, line: line, interval, clock: clock, timedOut: TimeoutError(), failure: { $0 })
    }
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Fails with ``TimeoutFailure/timedOut`` if the next value, or the end, does not arrive within `interval`;
  /// the upstream's typed failure arrives as ``TimeoutFailure/upstream(_:)``.
  ///
  /// **Throws:** ``TimeoutFailure/timedOut`` when the deadline passes (the upstream is cancelled), or
  /// ``TimeoutFailure/upstream(_:)`` with the upstream's failure.
  ///
  /// ```swift
  /// do throws(TimeoutFailure<APIError>) {
  ///   for try await page in pages.timeout(.seconds(10)) { show(page) }
  /// } catch .timedOut {
  ///   showSlowNetworkHint()
  /// } catch .upstream(let error) {
  ///   show(error)
  /// }
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  /// - Returns: the upstream's values, failing with a ``TimeoutFailure``.
  public func timeout<C: Clock>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, TimeoutFailure<Failure>> where C.Duration == Duration {
    precondition(interval > .zero, "timeout(\(interval)): the interval must be positive")
    return Signal(self).lift(synchronous: false, input: "timeout upstream") {
      $0.hotTimeout(fileID: fileID, line: line, interval, clock: clock, timedOut: .timedOut, failure: { .upstream($0) })
    }
  }
}
