/// A signal: cold (**every iteration runs its work anew**) unless it erases a hot sequence, which it keeps hot.
///
/// `Signal` is AsyncReactive's counterpart of RACSignal's `createSignal:`, RxSwift's `Observable.create` and
/// ReactiveSwift's `SignalProducer`. Nothing happens until a consumer iterates; each `for await` loop gets
/// its own run of the work, which is what lets ``ReiterableAsyncSequence/retry(_:)`` try a failed request again. An
/// `AsyncStream` can be iterated once; a `Signal` as often as you like.
///
/// A cold signal is a recipe: each run builds the chain of operators applied to it and starts it, the way
/// ReactiveSwift's `SignalProducer` starts a `Signal`. The operators are the same ones that run inside a subject's
/// `send`; only where the values come from differs.
///
/// It is also the named type eraser: `Signal(anyAsyncSequence)` or `sequence.eraseToSignal()`. What the erased
/// value is decides what the signal does, never its static type: erasing a subject, a ``Property``, a ``HotSignal``
/// or an operator chain over them gives a signal that is hot and shared (every consumer sees the same evaluation,
/// done inside the subject's `send`), and operators applied to it stay hot; erasing a cold signal or a foreign
/// sequence (an `AsyncStream`, `Observations`) gives a cold one.
///
/// **Finishes:** when the work returns (or calls `finish()` on its emitter).
///
/// **Throws:** the work's typed `Failure`. A `Signal<_, Never>` is iterated with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task, breaking out of the loop or dropping the iterator cancels
/// that iteration's work.
///
/// ```swift
/// let user = Signal<User, any Error> { emitter in
///   await emitter.send(try await api.fetchUser())
/// }
/// for try await user in user { print(user.name) }   // runs fetchUser()
/// for try await user in user { print(user.name) }   // runs it again
/// ```
public struct Signal<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  /// What the signal is: a hot node, an immediate outcome, or the recipe of a cold run.
  @usableFromInline package let core: Core

  /// What a ``Signal`` holds.
  @usableFromInline package enum Core: Sendable {
    /// A hot, shared node (an erased subject, property or hot chain): every consumer observes it.
    case hot(Node<Element, Failure>)
    /// What every run of ``just(_:)``, ``empty`` and ``fail(_:)`` does at once, without suspending. Stored as it is
    /// (no closure), so that operators may deliver it in place instead of starting a run for it (flatMap does).
    case immediate(ImmediateOutcome<Element, Failure>)
    /// A cold recipe: each run builds its graph anew.
    case cold(ColdRecipe<Element, Failure>)
  }

  @inlinable package init(core: Core) {
    self.core = core
  }

  /// A signal over a hot node.
  @inlinable package init(hot node: Node<Element, Failure>) {
    self.core = .hot(node)
  }

  /// A signal whose every run does `immediate` at once. It stores the outcome and no closure, and it is
  /// inlinable, so that ``just(_:)`` in a client (a flatMap transform returning `.just(x)`) is specialised for
  /// its element type: no allocation and no generic-metadata look-up per signal made.
  @inlinable package init(immediate: ImmediateOutcome<Element, Failure>) {
    self.core = .immediate(immediate)
  }

  /// A cold signal made by `recipe`.
  @inlinable package init(cold recipe: ColdRecipe<Element, Failure>) {
    self.core = .cold(recipe)
  }

  /// The immediate outcome, for ``just(_:)``, ``empty`` and ``fail(_:)``; `nil` for every other signal.
  @inlinable package var immediate: ImmediateOutcome<Element, Failure>? {
    if case .immediate(let outcome) = core { return outcome }
    return nil
  }

  /// The hot node this signal erases; `nil` for a cold one.
  @inlinable package var hotNode: Node<Element, Failure>? {
    if case .hot(let node) = core { return node }
    return nil
  }

  /// Starts a new run of the signal's work (a hot signal registers a consumer now, as a subject does).
  ///
  /// Inlinable, so that it is specialised where it is called: the run a consumer reads is made by the recipe's
  /// closures, which were specialised where the signal was made.
  @inlinable public func makeAsyncIterator() -> Iterator {
    switch core {
    case .hot(let node):
      return Iterator(hot: SubjectSubscription(storage: node, policy: .unbounded).makeAsyncIterator())
    case .immediate(let outcome): return Iterator(immediate: outcome)
    case .cold(let recipe):
      if let makeNext = recipe.makeSynchronousNext { return Iterator(synchronousNext: makeNext()) }
      return Iterator(pull: recipe.pull())
    }
  }

  /// One run of a ``Signal``'s work.
  public struct Iterator: AsyncIteratorProtocol {
    /// A hot signal's consumer, read in place.
    @usableFromInline var hot: SubjectSubscription<Element, Failure>.Iterator?
    /// A cold run: hands over its elements in batches (see ``ColdPull``); `nil` once it ended, which releases it.
    @usableFromInline var pull: ColdPull<Element, Failure>?
    /// A cold run read without suspending (see ``ColdSyncNext``); `nil` once it ended.
    @usableFromInline var synchronousNext: ColdSyncNext<Element, Failure>?
    /// An immediate signal's outcome, until the first `next()` takes it.
    @usableFromInline var immediate: ImmediateOutcome<Element, Failure>?
    /// What the run handed over in its last batch, from `head` on: the loop takes them here, one call into the run
    /// per batch.
    @usableFromInline var buffer: [Element] = []
    @usableFromInline var head = 0

    @inlinable init(hot: SubjectSubscription<Element, Failure>.Iterator) {
      self.hot = hot
    }

    @inlinable init(pull: @escaping ColdPull<Element, Failure>) {
      self.pull = pull
    }

    @inlinable init(synchronousNext: @escaping ColdSyncNext<Element, Failure>) {
      self.synchronousNext = synchronousNext
    }

    @inlinable init(immediate: ImmediateOutcome<Element, Failure>) {
      self.immediate = immediate
    }

    /// The next value of this run, `nil` once it finished.
    ///
    /// **Throws:** the run's failure, once.
    @inlinable public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// The next value of this run, running on the caller's actor.
    ///
    /// Always inlined: a value already handed over is taken in the consumer's loop, with no call (a call would
    /// also hop to the caller's executor on entry, once per element); the run is asked for more once per batch.
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      if head < buffer.count {
        defer { head += 1 }
        return buffer[head]
      }
      if synchronousNext != nil { return try nextSynchronously() }
      return try await refill()
    }

    /// The next element of a run read without suspending: no `await`, so no async frame and no executor check per
    /// element.
    @inlinable mutating func nextSynchronously() throws(Failure) -> Element? {
      do {
        if let element = try synchronousNext!() { return element }
      } catch {
        end()
        throw error
      }
      end()
      return nil
    }

    /// Takes the run's next batch into ``buffer`` and returns its first element; `nil` once the run ended. It runs
    /// where its caller runs: no hop on entry.
    @inlinable nonisolated(nonsending) mutating func refill() async throws(Failure) -> Element? {
      buffer.removeAll(keepingCapacity: true)
      head = 0
      if hot != nil {
        guard let element = try await hot!.next(isolation: #isolation) else { return nil }
        hot!.takeBuffered(into: &buffer)
        return element
      }
      if let immediate = immediate.take() { return try immediate.take() }
      if synchronousNext != nil { return try nextSynchronously() }
      do {
        guard let pull else { return nil }
        try await pull(&buffer)
      } catch {
        end()
        throw rethrow(error, as: Failure.self)
      }
      guard !buffer.isEmpty else {
        end()
        return nil
      }
      head = 1
      return buffer[0]
    }

    /// The run ended: what it holds (a channel's consumer, an upstream's iterator) goes now.
    @inlinable mutating func end() {
      pull = nil
      synchronousNext = nil
    }

    /// Appends the next elements of this run to `batch`, which is empty (see ``ColdPull``): what is buffered here
    /// first, all of it; otherwise what the run hands over next. An operator that reads a run (a retry, a concat)
    /// forwards batches with this instead of calling `next()` per element.
    @inlinable package nonisolated(nonsending) mutating func pull(into batch: inout [Element]) async throws(Failure) {
      if head < buffer.count {
        batch.append(contentsOf: buffer[head...])
        head = buffer.count
        return
      }
      if hot != nil {
        guard let element = try await hot!.next(isolation: #isolation) else { return }
        batch.append(element)
        hot!.takeBuffered(into: &batch)
        return
      }
      if let immediate = immediate.take() {
        if let element = try immediate.take() { batch.append(element) }
        return
      }
      if synchronousNext != nil {
        if let element = try nextSynchronously() { batch.append(element) }
        return
      }
      do {
        guard let pull else { return }
        try await pull(&batch)
      } catch {
        end()
        throw rethrow(error, as: Failure.self)
      }
      if batch.isEmpty { end() }
    }
  }
}

/// One run of a cold signal as its consumer reads it: appends the run's next elements to `batch`, which the caller
/// passes empty: at least one, or none once the run has ended. It throws the run's failure only when it appends
/// nothing (the elements before a failure come first). A run whose elements wait in a buffer hands over all of
/// them; any other hands over what one step of its work produced, so that nothing is read ahead of the consumer.
///
/// A closure, made where the signal was made: what it runs is specialised for the signal's types, and it runs on
/// the consumer's actor. Releasing it stops the run (what it captures stops its work when released). It throws
/// untyped, though what it throws is always a `Failure` (``rethrow(_:as:)``): a closure stored in a generic type
/// with a typed `throws(Failure)` is called through a reabstraction thunk, an async frame of its own per call.
@usableFromInline package typealias ColdPull<Element, Failure: Error> =
  nonisolated(nonsending) (inout [Element])
  async throws -> Void

extension Signal {
  /// This signal as a node of a graph that is being started: a hot signal's own node; for a cold one, the graph of
  /// a fresh run, whose sources start when the node gets its first observer and stop when its last one leaves.
  @inlinable package func node(_ start: ColdStart) -> Node<Element, Failure> {
    switch core {
    case .hot(let node): return node
    case .immediate(let outcome): return Node.immediate(outcome)
    case .cold(let recipe): return recipe.makeNode(start)
    }
  }

  /// Observes one run of this signal (a hot signal's node itself) with `onValue` and `onEnd`, called one event at a
  /// time, nothing after the end; returns what stops observing (see ``ColdRecipe/observe(_:onValue:onEnd:)``).
  @inlinable package func observe(
    _ start: ColdStart,
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Termination<Failure>) -> Void
  ) -> @Sendable () -> Void {
    if case .cold(let recipe) = core { return recipe.observe(start, onValue: onValue, onEnd: onEnd) }
    let node = node(start)
    let sink = node.addSink(onValue: onValue, onEnd: onEnd)
    return { node.removeSink(sink) }
  }

  /// ``observe(_:onValue:onEnd:)``, which also gives the node observed (a cold run's last node, a hot signal's own;
  /// `nil` for a source observed directly), for a graph dump; `owner` is the node that observes it.
  @inlinable package func observeRun(
    _ start: ColdStart, owner: (any AnyObject & Sendable)?,
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Termination<Failure>) -> Void
  ) -> (stop: @Sendable () -> Void, node: (any AnyObject & Sendable)?) {
    if case .cold(let recipe) = core { return recipe.observeRun(start, owner: owner, onValue: onValue, onEnd: onEnd) }
    let node = node(start)
    let sink = node.addSink(owner: owner, onValue: onValue, onEnd: onEnd)
    return ({ node.removeSink(sink) }, node)
  }

  /// What makes a fresh run of this signal as its consumer reads it, taken out of the signal once: an operator that
  /// starts run after run (a retry) calls it without looking into the signal each time.
  @inlinable package var makePull: @Sendable () -> ColdPull<Element, Failure> {
    if case .cold(let recipe) = core, case .asynchronous(let makePull, _) = recipe.reader { return makePull }
    let signal = self
    return { signal.pull() }
  }

  /// A fresh run of this signal as its consumer reads it (a hot signal's run is a consumer registered now).
  @inlinable package func pull() -> ColdPull<Element, Failure> {
    switch core {
    case .cold(let recipe):
      return recipe.pull()
    default:
      let iterator = ClosureState(makeAsyncIterator())
      return { batch in try await iterator.value.pull(into: &batch) }
    }
  }

  /// Whether this signal erases a hot node.
  @inlinable package var isHot: Bool { hotNode != nil }

  /// Whether a run of this signal can be read by its consumer's task alone (see ``ColdRecipe/drivable``).
  @inlinable package var isDrivable: Bool {
    switch core {
    case .hot: return false
    case .immediate: return true
    case .cold(let recipe): return recipe.drivable
    }
  }

  /// What makes a run of this signal that its consumer reads without suspending: an immediate signal, and a cold one
  /// whose recipe reads so; `nil` otherwise.
  @inlinable package var makeSynchronousNext: (@Sendable () -> ColdSyncNext<Element, Failure>)? {
    switch core {
    case .hot: return nil
    case .cold(let recipe): return recipe.makeSynchronousNext
    case .immediate(let outcome):
      return {
        let state = ClosureState(Optional(outcome))
        return { () throws(Failure) in try state.value.take()?.take() }
      }
    }
  }
}

extension Node {
  /// A node that gives every observer `outcome` when it registers: the value then the end, or only the end.
  @inlinable package static func immediate(_ outcome: ImmediateOutcome<Element, Failure>) -> Node {
    switch outcome {
    case .value(let value):
      let node = Node(replay: .latest(1), initial: value)
      node.terminate(.finished)
      return node
    case .finished:
      let node = Node(replay: .none)
      node.terminate(.finished)
      return node
    case .failed(let failure):
      let node = Node(replay: .none)
      node.terminate(.failed(failure))
      return node
    }
  }
}

/// `error`, which a ``ColdPull`` threw, as the `Failure` that it is: a run's pull throws only its signal's failure.
@inlinable package func rethrow<Failure: Error>(_ error: any Error, as failure: Failure.Type) -> Failure {
  guard let failure = error as? Failure else {
    preconditionFailure("Internal inconsistency: a run of a Signal<_, \(Failure.self)> threw \(type(of: error))")
  }
  return failure
}

/// What an immediate signal (``Signal/just(_:)``, ``Signal/empty``, ``Signal/fail(_:)``) does in each run.
@usableFromInline package enum ImmediateOutcome<Element: Sendable, Failure: Error>: Sendable {
  /// Sends the value, then finishes.
  case value(Element)
  /// Finishes without a value.
  case finished
  /// Fails without a value.
  case failed(Failure)

  /// The value if there is one; throws the failure if there is one; `nil` when the run simply finishes.
  @inlinable package func take() throws(Failure) -> Element? {
    switch self {
    case .value(let value): return value
    case .finished: return nil
    case .failed(let failure): throw failure
    }
  }
}

extension Signal: ReactiveSequence {}
