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
