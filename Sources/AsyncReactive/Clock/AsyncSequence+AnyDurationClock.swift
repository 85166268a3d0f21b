// The time operators with a clock whose type is known only at run time (`any Clock<Duration>`, as apps inject
// their clock in an environment). A stream form names its clock in its result type, so Swift cannot open the
// existential for it; each form here wraps the clock in an `AnyDurationClock` and calls the generic form, which
// a concrete clock still reaches directly (no wrapper, no cost). The hot forms take the existential as it is.

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// `debounce(for:clock:)` with an injected `any Clock<Duration>`, wrapped in an ``AnyDurationClock``.
  ///
  /// ```swift
  /// let quiet = texts.debounce(for: .milliseconds(300), clock: environment.clock)
  /// ```
  @_disfavoredOverload
  public func debounce(
    for dueTime: Duration, clock: any Clock<Duration>
  ) -> AsyncDebounceSequence<Self, AnyDurationClock> {
    debounce(for: dueTime, clock: AnyDurationClock(clock))
  }

  /// `throttle(for:clock:latest:)` with an injected `any Clock<Duration>`, wrapped in an ``AnyDurationClock``.
  ///
  /// ```swift
  /// let offsets = scrolls.throttle(for: .milliseconds(100), clock: environment.clock)
  /// ```
  @_disfavoredOverload
  public func throttle(
    for interval: Duration, clock: any Clock<Duration>, latest: Bool = true
  ) -> AsyncThrottleSequence<Self, AnyDurationClock> {
    throttle(for: interval, clock: AnyDurationClock(clock), latest: latest)
  }

  /// `delay(for:clock:)` with an injected `any Clock<Duration>`, wrapped in an ``AnyDurationClock``.
  ///
  /// ```swift
  /// let later = toasts.delay(for: .seconds(2), clock: environment.clock)
  /// ```
  @_disfavoredOverload
  public func delay(for duration: Duration, clock: any Clock<Duration>) -> AsyncDelaySequence<Self, AnyDurationClock> {
    delay(for: duration, clock: AnyDurationClock(clock))
  }

  /// `buffer(every:clock:count:)` with an injected `any Clock<Duration>`, wrapped in an ``AnyDurationClock``.
  ///
  /// ```swift
  /// let batches = events.buffer(every: .seconds(1), clock: environment.clock, count: 50)
  /// ```
  @_disfavoredOverload
  public func buffer(
    every interval: Duration, clock: any Clock<Duration>, count: Int? = nil
  ) -> AsyncBufferByTimeSequence<Self, AnyDurationClock> {
    buffer(every: interval, clock: AnyDurationClock(clock), count: count)
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// `timeout(_:clock:)` with an injected `any Clock<Duration>`, wrapped in an ``AnyDurationClock``.
  ///
  /// ```swift
  /// let readings = sensor.timeout(.seconds(5), clock: environment.clock)
  /// ```
  @_disfavoredOverload
  public func timeout(
    _ interval: Duration, clock: any Clock<Duration>
  ) -> AsyncTimeoutSequence<Self, AnyDurationClock, TimeoutError> {
    timeout(interval, clock: AnyDurationClock(clock))
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == any Error {
  /// `timeout(_:clock:)` over an untyped upstream, with an injected `any Clock<Duration>`.
  ///
  /// ```swift
  /// let answer = Signal.future { try await api.search(text) }.timeout(.seconds(10), clock: environment.clock)
  /// ```
  @_disfavoredOverload
  public func timeout(
    _ interval: Duration, clock: any Clock<Duration>
  ) -> AsyncTimeoutSequence<Self, AnyDurationClock, any Error> {
    timeout(interval, clock: AnyDurationClock(clock))
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// `timeout(_:clock:)` over a typed upstream, with an injected `any Clock<Duration>`.
  ///
  /// ```swift
  /// let orders = ordersSignal.timeout(.seconds(10), clock: environment.clock)   // TimeoutFailure<APIError>
  /// ```
  @_disfavoredOverload
  public func timeout(
    _ interval: Duration, clock: any Clock<Duration>
  ) -> AsyncTimeoutSequence<Self, AnyDurationClock, TimeoutFailure<Failure>> {
    timeout(interval, clock: AnyDurationClock(clock))
  }

  /// `timeout(_:clock:fallback:)` with an injected `any Clock<Duration>`, wrapped in an ``AnyDurationClock``:
  /// the fallback takes over when this sequence stays silent. The result fails with `any Error`; for a typed
  /// failure, pass `AnyDurationClock(clock)` to the generic form.
  ///
  /// ```swift
  /// let quotes = live.timeout(.seconds(3), clock: environment.clock, fallback: cachedQuotes)
  /// ```
  @_disfavoredOverload
  public func timeout<Fallback: AsyncSequence & Sendable>(
    _ interval: Duration, clock: any Clock<Duration>, fallback: Fallback
  ) -> AsyncTimeoutFallbackSequence<Self, Fallback, AnyDurationClock, any Error>
  where Fallback.Element == Element {
    timeout(interval, clock: AnyDurationClock(clock), fallback: fallback)
  }
}
