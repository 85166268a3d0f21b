extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Starts with `values`, then the upstream's elements (RxSwift `startWith`, RAC `startWith:`).
  ///
  /// Each run of a cold sequence gives them first; a hot one gives them to each consumer when it registers.
  ///
  /// ```swift
  /// for await state in loads.prepend(.idle) { render(state) }
  /// ```
  /// - Parameter values: what comes first, in order.
  /// - Returns: a ``Signal`` of `values`, then this sequence's elements; hot when this sequence is.
  @inlinable public func prepend(_ values: Element...) -> Signal<Element, Failure> {
    Signal(self).lift(synchronous: true) { $0.prepend(contentsOf: values) }
  }

  /// Starts with the elements of `values`, then the upstream's.
  ///
  /// ```swift
  /// for await item in updates.prepend(contentsOf: cached) { show(item) }
  /// ```
  /// - Parameter values: what comes first, in order.
  /// - Returns: a ``Signal`` of `values`, then this sequence's elements; hot when this sequence is.
  @inlinable public func prepend(contentsOf values: some Sequence<Element>) -> Signal<Element, Failure> {
    let values = Array(values)
    return Signal(self).lift(synchronous: true) { $0.prepend(contentsOf: values) }
  }
}

// MARK: Hot

extension HotSequence {
  /// Gives each consumer `values` first, when it subscribes, then the upstream's values as they are sent
  /// (RxSwift `startWith` applied per subscription).
  ///
  /// The values belong to the subscription, not to the stream: every consumer of the result (a `for await` loop,
  /// a ``HotSignal/sink(in:onValue:onEnd:)``, an operator that observes it) receives them at the moment it
  /// registers, before anything else, even one that joins late or after the upstream ended. Then it gets what
  /// this node replays (the output of the upstream's current value, when the upstream has one) and the live values,
  /// shared with the other consumers. An operator applied after `prepend` is one consumer: it receives the values
  /// when it starts observing (its first consumer) and, being hot, passes them on to the consumers it has then;
  /// its later consumers see only what it produces after they join. So put `prepend` last, where each consumer
  /// subscribes (`results.map(render).prepend(placeholder)`), as you would put `startWith` after `share()`; for
  /// state with a starting value, ``Property/init(initial:then:)`` keeps the latest value for everyone.
  ///
  /// **Finishes:** when the upstream finishes; a consumer that registers after that receives `values`, then the end.
  ///
  /// **Throws:** the upstream's failure, after `values`.
  ///
  /// ```swift
  /// let results = AsyncPassthroughSubject<[Repo], Never>()
  /// let shown = results.prepend([])              // HotSignal<[Repo], Never>
  /// for await list in shown { render(list) }      // [] at once, then each result
  /// ```
  /// - Parameter values: what each consumer receives first, in order.
  /// - Returns: a ``HotSignal`` that starts every subscription with `values`.
  @inlinable public func prepend(_ values: Element...) -> HotSignal<Element, Failure> {
    hotPrepend(values)
  }

  /// Gives each consumer the elements of `values` first, when it subscribes, then the upstream's values.
  ///
  /// Works as ``prepend(_:)->HotSignal<Self.Element,Self.Failure>`` does.
  ///
  /// ```swift
  /// let history = liveEvents.prepend(contentsOf: savedEvents)   // HotSignal<Event, Never>
  /// ```
  /// - Parameter values: what each consumer receives first, in order; read once, now.
  /// - Returns: a ``HotSignal`` that starts every subscription with `values`.
  @inlinable public func prepend(contentsOf values: some Sequence<Element>) -> HotSignal<Element, Failure> {
    hotPrepend(Array(values))
  }

  /// The node under both forms: a pass-through node whose registrations start with `prefix`.
  @inlinable func hotPrepend(_ prefix: [Element]) -> HotSignal<Element, Failure> {
    let upstream = hotSignal.node
    return HotSignal(
      node: SubjectStorage(replay: SubjectStorage.replay(following: upstream), prefix: prefix) { node in
        let sink = upstream.addSink { value in
          node.send(value)
        } onEnd: { termination in
          node.terminate(termination)
        }
        return { upstream.removeSink(sink) }
      })
  }
}
