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
    case hot(SubjectStorage<Element, Failure>)
    /// What every run of ``just(_:)``, ``empty`` and ``fail(_:)`` does at once, without suspending. Stored as it is
    /// (no closure), so that operators may deliver it in place instead of starting a run for it (flatMap does).
    case immediate(ImmediateOutcome<Element, Failure>)
    /// A cold recipe: each run builds its graph anew.
    case cold(any ColdRecipe<Element, Failure>)
  }

  @inlinable package init(core: Core) {
    self.core = core
  }

  /// A signal over a hot node.
  @inlinable package init(hot node: SubjectStorage<Element, Failure>) {
    self.core = .hot(node)
  }

  /// A signal whose every run does `immediate` at once. It stores the outcome and no closure, and it is
  /// inlinable, so that ``just(_:)`` in a client (a flatMap transform returning `.just(x)`) is specialised for
  /// its element type: no allocation and no generic-metadata look-up per signal made.
  @inlinable package init(immediate: ImmediateOutcome<Element, Failure>) {
    self.core = .immediate(immediate)
  }

  /// A cold signal made by `recipe`.
  @inlinable package init(cold recipe: some ColdRecipe<Element, Failure>) {
    self.core = .cold(recipe)
  }

  /// The immediate outcome, for ``just(_:)``, ``empty`` and ``fail(_:)``; `nil` for every other signal.
  @inlinable package var immediate: ImmediateOutcome<Element, Failure>? {
    if case .immediate(let outcome) = core { return outcome }
    return nil
  }

  /// The hot node this signal erases; `nil` for a cold one.
  @inlinable package var hotNode: SubjectStorage<Element, Failure>? {
    if case .hot(let node) = core { return node }
    return nil
  }

  /// Starts a new run of the signal's work (a hot signal registers a consumer now, as a subject does).
  ///
  /// Inlinable, so that it is specialised where it is called (`retry` makes a new iterator per attempt): in an
  /// unspecialised body, looking at the core costs a generic-metadata look-up per call.
  @inlinable public func makeAsyncIterator() -> Iterator {
    switch core {
    case .immediate(.value(let value)): return Iterator(run: ImmediateRun(value: value))
    case .immediate(.failed(let failure)): return Iterator(run: ImmediateRun(value: nil, failure: failure))
    case .immediate(.finished): return Iterator(run: ImmediateRun(value: nil))
    case .cold(let recipe): return Iterator(run: recipe.makeRun())
    case .hot(let node): return Iterator(run: SubscriptionRun(SubjectSubscription(storage: node, policy: .unbounded)))
    }
  }

  /// One run of a ``Signal``'s work.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let run: SignalRun<Element, Failure>

    @usableFromInline init(run: SignalRun<Element, Failure>) {
      self.run = run
    }

    /// The next value of this run, `nil` once it finished.
    ///
    /// **Throws:** the run's failure, once.
    public mutating func next() async throws(Failure) -> Element? {
      try await run.next(isolation: nil)
    }

    /// The next value of this run, running on the caller's actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      try await run.next(isolation: actor)
    }
  }
}

extension Signal {
  /// This signal as a node of a graph that is being started: a hot signal's own node; for a cold one, the graph of
  /// a fresh run, whose sources start when the node gets its first observer and stop when its last one leaves.
  @inlinable package func node(_ start: ColdStart) -> SubjectStorage<Element, Failure> {
    switch core {
    case .hot(let node): return node
    case .immediate(let outcome): return SubjectStorage.immediate(outcome)
    case .cold(let recipe): return recipe.node(start)
    }
  }

  /// Whether this signal erases a hot node.
  @inlinable package var isHot: Bool { hotNode != nil }
}

extension SubjectStorage {
  /// A node that gives every observer `outcome` when it registers: the value then the end, or only the end.
  @inlinable package static func immediate(_ outcome: ImmediateOutcome<Element, Failure>) -> SubjectStorage {
    switch outcome {
    case .value(let value):
      let node = SubjectStorage(replay: .latest(1), initial: value)
      node.terminate(.finished)
      return node
    case .finished:
      let node = SubjectStorage(replay: .none)
      node.terminate(.finished)
      return node
    case .failed(let failure):
      let node = SubjectStorage(replay: .none)
      node.terminate(.failed(failure))
      return node
    }
  }
}

/// The state of one iteration of a ``Signal``; each way of running a signal subclasses it. A class, so that
/// its `deinit` can stop the work when the consumer drops its iterator.
@usableFromInline package class SignalRun<Element: Sendable, Failure: Error> {
  @usableFromInline package init() {}

  @usableFromInline package func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    preconditionFailure("Internal inconsistency: SignalRun.next must be overridden")
  }
}

/// A run that forwards to an iterator of another async sequence.
@usableFromInline package final class IteratorRun<Base: AsyncIteratorProtocol>: SignalRun<Base.Element, Base.Failure>
where Base.Element: Sendable {
  private var base: Base

  @usableFromInline package init(_ base: Base) {
    self.base = base
  }

  override package func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Base.Element? {
    try await base.next(isolation: actor)
  }
}

/// The run of a hot signal: a consumer of its node, registered when the iterator was made.
@usableFromInline package final class SubscriptionRun<Element: Sendable, Failure: Error>: SignalRun<Element, Failure> {
  @usableFromInline var base: SubjectSubscription<Element, Failure>.Iterator

  @inlinable package init(_ subscription: SubjectSubscription<Element, Failure>) {
    self.base = subscription.makeAsyncIterator()
  }

  override package func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    try await base.next(isolation: actor)
  }
}

/// A run over a synchronous sequence: no task, no lock.
@usableFromInline
package final class SequenceRun<Base: IteratorProtocol, Failure: Error>: SignalRun<Base.Element, Failure>
where Base.Element: Sendable {
  private var base: Base
  private let failure: Failure?

  /// Yields `base`'s elements, then throws `failure` if there is one.
  @usableFromInline package init(_ base: Base, then failure: Failure? = nil) {
    self.base = base
    self.failure = failure
  }

  private var failed = false

  override package func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Base.Element? {
    if let element = base.next() { return element }
    if let failure, !failed {
      failed = true
      throw failure
    }
    return nil
  }
}

/// What an immediate signal (``Signal/just(_:)``, ``Signal/empty``, ``Signal/fail(_:)``) does in each run.
@usableFromInline package enum ImmediateOutcome<Element: Sendable, Failure: Error>: Sendable {
  /// Sends the value, then finishes.
  case value(Element)
  /// Finishes without a value.
  case finished
  /// Fails without a value.
  case failed(Failure)
}

/// The run of an immediate signal: at most one value, then the end or a failure; no task, no lock, and no
/// generic sequence underneath (an unspecialised `CollectionOfOne` iterator costs metadata look-ups per call).
@usableFromInline package final class ImmediateRun<Element: Sendable, Failure: Error>: SignalRun<Element, Failure> {
  private var value: Element?
  private var failure: Failure?

  @usableFromInline package init(value: Element?, failure: Failure? = nil) {
    self.value = value
    self.failure = failure
  }

  override package func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    if let value = value.take() { return value }
    if let failure = failure.take() { throw failure }
    return nil
  }
}

extension Signal: ReactiveSequence {}
