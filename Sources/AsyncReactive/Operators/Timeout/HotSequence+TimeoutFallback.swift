// `timeout(_:clock:fallback:)` on hot sequences, with the five failure-type overloads of the form on any sequence
// (both `Never`, a shared type, one side `Never`, `any Error`). After a timeout the fallback runs as a flatten's
// inner sequence does: an immediate `Signal` in place, a hot one observed, a cold one started at once.

extension HotSequence {
  /// Switches to `fallback` if the next value, or the end, is not sent within `interval` (RxSwift
  /// `timeout(_:other:scheduler:)` on a shared source).
  ///
  /// The operator on any sequence, typed as a ``HotSignal``: it runs inside the upstream's `send`, once for all
  /// of its consumers, and observes the upstream from its first consumer to its last.
  ///
  /// ```swift
  /// let readings = sensor.readings.timeout(.seconds(5), fallback: Signal.just(.unavailable))
  /// readings.sink(in: lifetime) { show($0) }   // HotSignal<Reading, Never>
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  ///   - fallback: the sequence to continue with after a timeout.
  /// - Returns: a ``HotSignal`` of the upstream's values, then after a timeout the fallback's.
  @inlinable package func hotTimeout<C: Clock, Fallback: AsyncSequence & Sendable>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fallback: Fallback,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Never>
  where C.Duration == Duration, Fallback.Element == Element, Failure == Never, Fallback.Failure == Never {
    hotTimeout(
      fileID: fileID, line: line, interval, clock: clock, fallback: fallback, baseFailure: neverFailure,
      fallbackFailure: neverFailure)
  }

  /// Switches to `fallback` if the next value, or the end, is not sent within `interval`; both sequences fail
  /// with the same type, which the result keeps.
  ///
  /// ```swift
  /// let prices = livePrices.timeout(.seconds(2), fallback: Signal.future { try await api.lastPrices() })
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  ///   - fallback: the sequence to continue with after a timeout.
  /// - Returns: a ``HotSignal`` of the upstream's values, then after a timeout the fallback's.
  @inlinable package func hotTimeout<C: Clock, Fallback: AsyncSequence & Sendable>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fallback: Fallback,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure>
  where C.Duration == Duration, Fallback.Element == Element, Fallback.Failure == Failure {
    hotTimeout(
      fileID: fileID, line: line, interval, clock: clock, fallback: fallback, baseFailure: { $0 },
      fallbackFailure: { $0 })
  }

  /// Switches to `fallback` if the next value, or the end, is not sent within `interval`; only the fallback can
  /// fail, and the result keeps its failure type.
  ///
  /// ```swift
  /// let prices = livePrices.timeout(.seconds(2), fallback: Signal.future { try await api.lastPrices() })
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  ///   - fallback: the sequence to continue with after a timeout.
  /// - Returns: a ``HotSignal`` of the upstream's values, then after a timeout the fallback's.
  @inlinable package func hotTimeout<C: Clock, Fallback: AsyncSequence & Sendable>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fallback: Fallback,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Fallback.Failure>
  where C.Duration == Duration, Fallback.Element == Element, Failure == Never {
    hotTimeout(
      fileID: fileID, line: line, interval, clock: clock, fallback: fallback, baseFailure: neverFailure,
      fallbackFailure: { $0 })
  }

  /// Switches to `fallback` if the next value, or the end, is not sent within `interval`; the fallback cannot
  /// fail, and the result keeps the upstream's failure type.
  ///
  /// ```swift
  /// let profile = profileUpdates.timeout(.seconds(5), fallback: Signal.just(cache.profile))
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  ///   - fallback: the sequence to continue with after a timeout.
  /// - Returns: a ``HotSignal`` of the upstream's values, then after a timeout the fallback's.
  @inlinable package func hotTimeout<C: Clock, Fallback: AsyncSequence & Sendable>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fallback: Fallback,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure>
  where C.Duration == Duration, Fallback.Element == Element, Fallback.Failure == Never {
    hotTimeout(
      fileID: fileID, line: line, interval, clock: clock, fallback: fallback, baseFailure: { $0 },
      fallbackFailure: neverFailure)
  }

  /// Switches to `fallback` if the next value, or the end, is not sent within `interval`; the two sequences fail
  /// with different types, so the result fails with `any Error`.
  ///
  /// ```swift
  /// let feed = remoteFeed.timeout(.seconds(10), fallback: diskCache.feed)   // APIError, DiskError
  /// ```
  /// - Parameters:
  ///   - interval: how long the upstream may stay silent; positive.
  ///   - clock: the clock that measures the silence; a `TestClock` in tests.
  ///   - fallback: the sequence to continue with after a timeout.
  /// - Returns: a ``HotSignal`` of the upstream's values, then after a timeout the fallback's.
  @inlinable package func hotTimeout<C: Clock, Fallback: AsyncSequence & Sendable>(
    _ interval: Duration,
    clock: C = ContinuousClock(),
    fallback: Fallback,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, any Error>
  where C.Duration == Duration, Fallback.Element == Element {
    hotTimeout(
      fileID: fileID, line: line, interval, clock: clock, fallback: fallback, baseFailure: { $0 },
      fallbackFailure: { $0 })
  }

  /// The node under every hot `timeout(_:clock:fallback:)`: a timeout node whose `.timedOut` end starts the
  /// fallback instead of failing.
  @inlinable func hotTimeout<C: Clock, Fallback: AsyncSequence & Sendable, ResultFailure: Error>(
    fileID: StaticString = "", line: UInt = 0,
    _ interval: Duration,
    clock: C,
    fallback: Fallback,
    baseFailure: @escaping @Sendable (Failure) -> ResultFailure,
    fallbackFailure: @escaping @Sendable (Fallback.Failure) -> ResultFailure
  ) -> HotSignal<Element, ResultFailure> where C.Duration == Duration, Fallback.Element == Element {
    precondition(interval > .zero, "timeout(\(interval), fallback:): the interval must be positive")
    typealias Rule = TimeoutRule<Element, TimeoutFailure<Failure>, C.Instant>
    let upstream = hotSignal.node
    return HotSignal(
      node: SubjectStorage(
        replay: .none, restarts: upstream.restarts, origin: NodeOrigin(.timeoutFallback, fileID: fileID, line: line),
        inputs: .one(upstream)
      ) { node in
        let switching = HotTimeoutFallback(fallback: fallback, node: node, fallbackFailure: fallbackFailure)
        let rule = Rule(interval: interval, start: clock.now, timedOut: .timedOut)
        let connection = HotTime<Rule, C, ResultFailure>(rule: rule, clock: clock, node: node) { termination in
          switch termination {
          case .finished: node.terminate(.finished)
          case .failed(.upstream(let error)): node.terminate(.failed(baseFailure(error)))
          case .failed(.timedOut): switching.timedOut()
          }
        }
        connection.start()
        let sink = connection.observe(upstream) { .upstream($0) }
        switching.attached { upstream.removeSink(sink) }
        return {
          switching.stop()
          connection.stop()
        }
      })
  }
}

/// The fallback side of one connection of a hot `timeout(_:clock:fallback:)`: at the timeout it stops observing
/// the upstream and runs the fallback as the one inner sequence of a ``HotFlatten``,
/// which ends the node when the fallback ends.
@usableFromInline final class HotTimeoutFallback<Fallback: AsyncSequence & Sendable, Failure: Error>: Sendable
where Fallback.Element: Sendable {
  /// Whether the upstream is observed, and how to stop.
  @usableFromInline enum Upstream: Sendable {
    /// The sink is being added.
    case attaching
    case attached(@Sendable () -> Void)
    /// The connection timed out or stopped: the sink goes (at once, if it is added later).
    case detached
  }

  @usableFromInline let fallback: Fallback
  @usableFromInline let run: HotFlatten<Fallback, Failure>
  @usableFromInline let upstream = Locked(Upstream.attaching)

  @inlinable init(
    fallback: Fallback, node: SubjectStorage<Fallback.Element, Failure>,
    fallbackFailure: @escaping @Sendable (Fallback.Failure) -> Failure
  ) {
    self.fallback = fallback
    run = HotFlatten(node: node, strategy: .merge, innerFailure: fallbackFailure, taskName: "timeout fallback")
  }

  /// The upstream's sink was added; `detach` removes it.
  @inlinable func attached(_ detach: @escaping @Sendable () -> Void) {
    let detachNow = upstream.withLock { upstream -> Bool in
      guard case .attaching = upstream else { return true }
      upstream = .attached(detach)
      return false
    }
    if detachNow { detach() }
  }

  /// The deadline passed: the upstream is no longer observed, and the fallback runs until it ends the node.
  @inlinable func timedOut() {
    detachUpstream()
    run.outerValue(fallback)
    run.outerEnded(.finished)
  }

  /// The node disconnected: the upstream is no longer observed and the fallback, if it runs, stops.
  @inlinable func stop() {
    detachUpstream()
    run.stopAll()
  }

  @inlinable func detachUpstream() {
    let detach = upstream.withLock { upstream -> (@Sendable () -> Void)? in
      defer { upstream = .detached }
      guard case .attached(let detach) = upstream else { return nil }
      return detach
    }
    detach?()
  }
}
