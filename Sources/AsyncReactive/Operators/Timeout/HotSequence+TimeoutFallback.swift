// The node builder under `timeout(_:clock:fallback:)` (the operator is in AsyncSequence+TimeoutFallback.swift). After
// a timeout the fallback runs as a flatten's inner sequence does: an immediate `Signal` in place, a hot one observed,
// a cold one started at once.

extension HotSequence {
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
      node: Node(
        replay: .none, restarts: upstream.restarts, origin: NodeOrigin(.timeoutFallback, fileID: fileID, line: line),
        inputs: .one(upstream)
      ) { node in
        let switching = HotTimeoutFallback(fallback: fallback, node: node, fallbackFailure: fallbackFailure)
        let rule = Rule(interval: interval, start: clock.now, timedOut: .timedOut)
        let connection = TimeConnection<Rule, C, ResultFailure>(rule: rule, clock: clock, node: node) { termination in
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
/// the upstream and runs the fallback as the one inner sequence of a ``FlattenConnection``,
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
  @usableFromInline let run: FlattenConnection<Fallback, Failure>
  @usableFromInline let upstream = Locked(Upstream.attaching)

  @inlinable init(
    fallback: Fallback, node: Node<Fallback.Element, Failure>,
    fallbackFailure: @escaping @Sendable (Fallback.Failure) -> Failure
  ) {
    self.fallback = fallback
    run = FlattenConnection(node: node, strategy: .merge, innerFailure: fallbackFailure, taskName: "timeout fallback")
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
