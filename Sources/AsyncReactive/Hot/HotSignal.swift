/// A hot sequence, erased: what a view model stores to expose a hot chain, made with
/// ``HotSequence/eraseToHotSignal()`` or ``init(_:)`` (ReactiveSwift's `Signal`, RxCocoa's `Signal` and `Driver`).
/// Operators return a ``Signal``, hot when their input is; a `HotSignal` is that chain with a type that says it is
/// hot.
///
/// A `HotSignal` is one shared node of a graph that is evaluated inside `send`: all of its consumers share one
/// evaluation (a `map` closure runs once per event however many loops iterate it), and it observes its inputs
/// from its first consumer to its last. Iterating it registers a consumer at `makeAsyncIterator()` (or at
/// ``subscribe(bufferingPolicy:)``); the consumer's own task is the only task. A consumer that joins a running node
/// is given first what a fresh subscription would be given at once: the output of its inputs' current values (a
/// `map` over an ``AsyncCurrentValueSubject`` or a ``Property`` gives the mapped current value; a `merge`, each
/// input's), except where the operator says otherwise (`dropFirst`, `zip`, `flatMap` and the time operators give
/// nothing). A consumer that joins after the end is given only the end.
///
/// **Finishes:** when its inputs end as the operator says (a `map` when its upstream finishes); a node that
/// ended stays ended.
///
/// **Throws:** `Failure`, to every consumer, after the values buffered for it.
///
/// **Cancellation:** a consumer that stops is removed at once; when the last one goes, the node stops
/// observing its inputs.
///
/// ```swift
/// let query = AsyncPassthroughSubject<String, Never>()
/// let trimmed: HotSignal<String, Never> = query.map { $0.lowercased() }.filter { !$0.isEmpty }.eraseToHotSignal()
/// for await text in trimmed { print(text) }
/// ```
public struct HotSignal<Element: Sendable, Failure: Error>: HotSequence {
  /// The node: its consumers' queues, its synchronous observers, and how it reaches its inputs.
  @usableFromInline package let node: Node<Element, Failure>

  @inlinable package init(node: Node<Element, Failure>) {
    self.node = node
  }

  /// This signal.
  @inlinable public var hotSignal: HotSignal<Element, Failure> { self }

  /// Registers a consumer now and returns it: every value produced from here on is buffered for it under
  /// `bufferingPolicy`, even before its loop starts.
  ///
  /// ```swift
  /// let results = viewModel.results.subscribe()
  /// viewModel.query.send("swift")                  // its result is buffered for `results`
  /// for await result in results { show(result) }
  /// ```
  @inlinable public func subscribe(bufferingPolicy: BufferingPolicy = .unbounded) -> SubjectSubscription<
    Element, Failure
  > {
    SubjectSubscription(storage: node, policy: bufferingPolicy)
  }

  /// Registers a consumer (unbounded buffer) and starts iterating: `for await value in signal`.
  @inlinable public func makeAsyncIterator() -> SubjectSubscription<Element, Failure>.Iterator {
    subscribe().makeAsyncIterator()
  }

  /// Calls `onValue` synchronously for each value, and `onEnd` once when the signal ends (`nil` when it
  /// finished, the error when it failed), while `lifetime` lasts: no task. Delivery follows
  /// ``SubjectProtocol/sink(in:onValue:onEnd:)``: on the sending thread, inside `send`, one event at a time.
  ///
  /// ```swift
  /// let lifetime = Lifetime()
  /// viewModel.isValid.sink(in: lifetime, onValue: { button.isEnabled = $0 }, onEnd: { _ in })
  /// ```
  public func sink(
    in lifetime: Lifetime, onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Failure?) -> Void
  ) {
    node.sink(in: lifetime, onValue: onValue, onEnd: onEnd)
  }

  /// Calls `onValue` synchronously for each value while `lifetime` lasts; see
  /// ``sink(in:onValue:onEnd:)``.
  ///
  /// ```swift
  /// viewModel.title.sink(in: lifetime) { label.text = $0 }
  /// ```
  public func sink(in lifetime: Lifetime, _ onValue: @escaping @Sendable (Element) -> Void) {
    node.sink(in: lifetime, onValue: onValue, onEnd: { _ in })
  }

  /// How many consumers and observers this node has now (a downstream operator that observes it counts as
  /// one).
  ///
  /// ```swift
  /// #expect(viewModel.results.consumerCount == 0)   // the view stopped observing
  /// ```
  public var consumerCount: Int { node.consumerCount }
}

// MARK: The engine: a node fed by other nodes

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
