#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One run of a cold signal used as an operator's input, built before it is observed: its foreign sources register
/// their consumer when the run is built (a subject wrapped in a sequence of the user's, an RxTest-style source), and
/// start producing when it is observed.
///
/// A consumer that iterates a cold signal builds the run's graph in `makeAsyncIterator()` and connects it at its
/// first `next()` (nothing runs for an iterator that is never read). The operators that observe their inputs only
/// when they connect (several inputs, a flatten's outer) prepare those inputs' runs while the consumer builds the
/// graph (see ``ColdRunPreparation``), so that a value sent between `makeAsyncIterator()` and the first `next()`
/// reaches the run, as it reaches `Signal(foreign)` and a single-input operator over it.
@usableFromInline package struct PreparedRun<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline let signal: Signal<Element, Failure>
  @usableFromInline let start: ColdStart
  /// A cold graph's last node, built when the run was prepared; taken by the first observer. A later one (a node that
  /// connects again) observes a fresh run.
  @usableFromInline let built: Handoff<Node<Element, Failure>>?

  @inlinable init(signal: Signal<Element, Failure>, start: ColdStart, built: Handoff<Node<Element, Failure>>?) {
    self.signal = signal
    self.start = start
    self.built = built
  }

  /// Observes the run (see ``Signal/observeRun(_:owner:onValue:onEnd:)``).
  @inlinable package func observeRun(
    owner: (any AnyObject & Sendable)?,
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Termination<Failure>) -> Void
  ) -> (stop: @Sendable () -> Void, node: (any AnyObject & Sendable)?) {
    if let node = built?.take() {
      let sink = node.addSink(owner: owner, onValue: onValue, onEnd: onEnd)
      return ({ node.removeSink(sink) }, node)
    }
    return signal.observeRun(start, owner: owner, onValue: onValue, onEnd: onEnd)
  }

  /// Observes the run without naming its observer (see ``Signal/observe(_:onValue:onEnd:)``).
  @inlinable package func observe(
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Termination<Failure>) -> Void
  ) -> @Sendable () -> Void {
    observeRun(owner: nil, onValue: onValue, onEnd: onEnd).stop
  }
}

extension Signal {
  /// A run of this signal for an input of a node being built for a consumer's run (see ``PreparedRun``): a cold
  /// graph is built now when ``ColdRunPreparation/isActive``; a hot signal, an immediate one and a source observed
  /// directly (a future, a timer) are observed as they are, later.
  @inlinable package func prepareRun(_ start: ColdStart) -> PreparedRun<Element, Failure> {
    guard case .cold(let recipe) = core, case .graph = recipe.kind, ColdRunPreparation.isActive else {
      return PreparedRun(signal: self, start: start, built: nil)
    }
    return PreparedRun(signal: self, start: start, built: Handoff(recipe.makeNode(start)))
  }
}

/// Whether this thread is building the graph of a run that a consumer connects to later (a `for await` loop's
/// iterator, a recording): the nodes built meanwhile prepare the runs of their cold inputs (see ``PreparedRun``).
///
/// A thread-specific flag set around the (synchronous) build, as ``CreationRank`` marks a connection: the operators
/// that build nodes are not told which kind of run they build for, and a node built for a hot graph must not prepare
/// a run (each of its connections runs its cold inputs anew, and nothing may register before its first consumer).
@usableFromInline package enum ColdRunPreparation {
  static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "AsyncReactive: no thread-specific key left for the runs being built")
    return key
  }()

  /// Whether a consumer's run is being built on this thread.
  @usableFromInline package static var isActive: Bool { pthread_getspecific(key) != nil }

  /// Builds a consumer's run with `build`, marked as such on this thread.
  @usableFromInline package static func building<Result>(_ build: () -> Result) -> Result {
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
    defer { pthread_setspecific(key, previous) }
    return build()
  }
}
