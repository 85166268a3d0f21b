extension Signal {
  /// Calls `onValue` synchronously for each value, and `onEnd` once when the signal ends (`nil` when it finished, the
  /// error when it failed), while `lifetime` lasts: no task of its own (RxSwift `subscribe(onNext:onError:)`,
  /// ReactiveSwift `observe`/`start`).
  ///
  /// On a hot signal (an operator chain over a subject or a property) it observes the shared node, inside the
  /// subject's `send`, as a subject's ``SubjectProtocol/sink(in:onValue:onEnd:)`` does. On a cold one it starts a run
  /// now, as RxSwift's `subscribe` does: the run's sources start producing at once and the run stops when `lifetime`
  /// ends (values come on the threads that produce them, one at a time).
  ///
  /// ```swift
  /// let lifetime = Lifetime()
  /// viewModel.isValid.map { !$0 }.sink(in: lifetime, onValue: { button.isHidden = $0 }, onEnd: { _ in })
  /// ```
  /// - Parameters:
  ///   - lifetime: how long to observe; ending it stops observing (and stops a cold run).
  ///   - onValue: called for each value.
  ///   - onEnd: called once, at the end: `nil` when the signal finished, its failure when it failed.
  public func sink(
    in lifetime: Lifetime, onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Failure?) -> Void
  ) {
    node(.shared).sink(in: lifetime, onValue: onValue, onEnd: onEnd)
  }

  /// Calls `onValue` synchronously for each value while `lifetime` lasts; see ``sink(in:onValue:onEnd:)``.
  ///
  /// ```swift
  /// viewModel.title.map { $0.uppercased() }.sink(in: lifetime) { label.text = $0 }
  /// ```
  /// - Parameters:
  ///   - lifetime: how long to observe.
  ///   - onValue: called for each value.
  public func sink(in lifetime: Lifetime, _ onValue: @escaping @Sendable (Element) -> Void) {
    sink(in: lifetime, onValue: onValue, onEnd: { _ in })
  }

  /// Registers a consumer now and returns it: every value produced from here on is buffered for it under
  /// `bufferingPolicy`, even before its loop starts. On a cold signal this starts a run now, which the returned
  /// subscription consumes (RxSwift's `subscribe`); iterating the signal itself starts a run at the first `next()`.
  ///
  /// ```swift
  /// let results = viewModel.query.map { $0.lowercased() }.subscribe()
  /// viewModel.query.send("Swift")                  // "swift" is buffered for `results`
  /// for await query in results { search(query) }
  /// ```
  /// - Parameter bufferingPolicy: what the consumer keeps while it is behind; unbounded by default.
  /// - Returns: the registered consumer, a sequence to iterate once.
  @inlinable public func subscribe(bufferingPolicy: BufferingPolicy = .unbounded) -> SubjectSubscription<
    Element, Failure
  > {
    SubjectSubscription(storage: node(.shared), policy: bufferingPolicy)
  }

  /// How many consumers and observers the node of a hot signal has now (a downstream operator that observes it
  /// counts as one); 0 for a cold signal, whose runs each have their own.
  ///
  /// ```swift
  /// #expect(viewModel.results.consumerCount == 0)   // the view stopped observing
  /// ```
  public var consumerCount: Int { hotNode?.consumerCount ?? 0 }

  /// A picture of the live graph around a hot signal (see ``DebugGraph``): its node, what it reads and what reads
  /// it. A cold signal has no live graph of its own (each run builds one; a `Recorder` of it draws the run it
  /// reads): its picture is empty, `(no nodes)`.
  ///
  /// ```swift
  /// print(viewModel.isSignupEnabled.debugGraph())
  /// ```
  public func debugGraph() -> DebugGraph {
    DebugGraph(around: hotNode.map { [$0] } ?? [])
  }
}
