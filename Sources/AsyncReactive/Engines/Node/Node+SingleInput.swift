// The engine of every single-input hot operator (`map`, `filter`, `scan`, …): a node fed by one other node.

extension Node {
  /// What a node over `upstream` replays to a consumer that joins while it is connected: the output of the
  /// upstream's current value when the upstream has one, nothing otherwise; after the end, only the end (as a
  /// fresh RxSwift subscription to the chain over a completed `BehaviorSubject`).
  @inlinable package static func replay<Input, InputFailure>(
    following upstream: Node<Input, InputFailure>
  ) -> Replay {
    if case .none = upstream.replay { return .none }
    return .current
  }

  /// A node fed by one upstream node, observed from the node's first observer to its last.
  ///
  /// `observer` is called once per connection, without a lock, and returns what to do with each upstream
  /// value: per-connection state (a `scan`'s accumulator) lives in what it captures. Upstream values arrive
  /// one at a time (the upstream's delivery is serial), so that state needs no lock of its own.
  ///
  /// - Parameters:
  ///   - upstream: the input node; kept alive by this node.
  ///   - origin: the operator and where it was made; `inputs`: what a graph dump shows it reads (the upstream).
  ///   - observer: makes the value handler of one connection; the handler sends to the node it is given.
  ///   - onEnd: what the upstream's end does to the node (by default, the same end).
  @inlinable package static func observing<Input: Sendable, InputFailure: Error>(
    _ upstream: Node<Input, InputFailure>,
    replay: Replay? = nil,
    origin: NodeOrigin = NodeOrigin(.node),
    inputs: NodeInputs? = nil,
    observer: @escaping @Sendable (Node) -> @Sendable (Input) -> Void,
    onEnd: @escaping @Sendable (Node, Termination<InputFailure>) -> Void
  ) -> Node {
    Node(
      replay: replay ?? Self.replay(following: upstream), restarts: upstream.restarts, origin: origin,
      inputs: inputs ?? .one(upstream)
    ) { node in
      let sink = upstream.addSink(onValue: observer(node)) { termination in onEnd(node, termination) }
      return { upstream.removeSink(sink) }
    }
  }

  /// A node fed by one upstream node whose end reads what its values gathered (`reduce`'s accumulator,
  /// `takeLast`'s last values): `connection` makes both handlers of one connection, so they share its state.
  ///
  /// As with ``observing(_:replay:origin:inputs:observer:onEnd:)``, `connection` runs once per connection,
  /// without a lock, and the upstream delivers to its handlers one event at a time.
  @inlinable package static func observing<Input: Sendable, InputFailure: Error>(
    _ upstream: Node<Input, InputFailure>,
    replay: Replay? = nil,
    origin: NodeOrigin,
    connection:
      @escaping @Sendable (Node) -> (
        onValue: @Sendable (Input) -> Void, onEnd: @Sendable (Termination<InputFailure>) -> Void
      )
  ) -> Node {
    Node(
      replay: replay ?? Self.replay(following: upstream), restarts: upstream.restarts, origin: origin,
      inputs: .one(upstream)
    ) { node in
      let handlers = connection(node)
      let sink = upstream.addSink(onValue: handlers.onValue, onEnd: handlers.onEnd)
      return { upstream.removeSink(sink) }
    }
  }
}

/// The end of a node whose upstream ended with `termination`, failures mapped by `failure`.
@inlinable package func mapTermination<From: Error, To: Error>(
  _ termination: Termination<From>, _ failure: (From) -> To
) -> Termination<To> {
  switch termination {
  case .finished: return .finished
  case .failed(let error): return .failed(failure(error))
  }
}
