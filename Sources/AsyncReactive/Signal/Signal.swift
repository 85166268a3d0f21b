/// A cold sequence: **every iteration runs its work anew**.
///
/// `Signal` is AsyncReactive's counterpart of RACSignal's `createSignal:`, RxSwift's `Observable.create` and
/// ReactiveSwift's `SignalProducer`. Nothing happens until a consumer iterates; each `for await` loop gets
/// its own run of the work, which is what lets ``ReiterableAsyncSequence/retry(_:)`` try a failed request again. An
/// `AsyncStream` can be iterated once; a `Signal` as often as you like.
///
/// It is also the named type eraser: `Signal(anyAsyncSequence)` or `sequence.eraseToSignal()`.
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
///   emitter.send(try await api.fetchUser())
/// }
/// for try await user in user { print(user.name) }   // runs fetchUser()
/// for try await user in user { print(user.name) }   // runs it again
/// ```
public struct Signal<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  /// Starts a run of the signal's work; `nil` for an immediate signal, whose runs `immediate` describes.
  @usableFromInline let makeRun: (@Sendable () -> SignalRun<Element, Failure>)?
  /// What every run does at once, without suspending, for ``just(_:)``, ``empty`` and ``fail(_:)``; `nil` for
  /// every other signal. Operators may then deliver it in place instead of iterating it or starting a task
  /// for it (flatMap does), which is the cost of a one-value inner.
  @usableFromInline package let immediate: ImmediateOutcome<Element, Failure>?

  package init(makeRun: @escaping @Sendable () -> SignalRun<Element, Failure>) {
    self.immediate = nil
    self.makeRun = makeRun
  }

  /// A signal whose every run does `immediate` at once. It stores the outcome and no closure, and it is
  /// inlinable, so that ``just(_:)`` in a client (a flatMap transform returning `.just(x)`) is specialised for
  /// its element type: no allocation and no generic-metadata look-up per signal made.
  @inlinable package init(immediate: ImmediateOutcome<Element, Failure>) {
    self.immediate = immediate
    self.makeRun = nil
  }

  /// Starts a new run of the signal's work.
  ///
  /// Inlinable, so that it is specialised where it is called (`retry` makes a new iterator per attempt): in an
  /// unspecialised body, looking at `immediate` costs a generic-metadata look-up per call.
  @inlinable public func makeAsyncIterator() -> Iterator {
    if let makeRun { return Iterator(run: makeRun()) }
    switch immediate {
    case .value(let value): return Iterator(run: ImmediateRun(value: value))
    case .failed(let failure): return Iterator(run: ImmediateRun(value: nil, failure: failure))
    case .finished, nil: return Iterator(run: ImmediateRun(value: nil))
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

/// The state of one iteration of a ``Signal``; each way of making a signal subclasses it. A class, so that
/// its `deinit` can stop the work when the consumer drops its iterator.
@usableFromInline package class SignalRun<Element: Sendable, Failure: Error> {
  package init() {}

  package func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    preconditionFailure("Internal inconsistency: SignalRun.next must be overridden")
  }
}

/// A run that forwards to an iterator of another async sequence.
package final class IteratorRun<Base: AsyncIteratorProtocol>: SignalRun<Base.Element, Base.Failure>
where Base.Element: Sendable {
  private var base: Base

  package init(_ base: Base) {
    self.base = base
  }

  override package func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Base.Element? {
    try await base.next(isolation: actor)
  }
}

/// A run over a synchronous sequence: no task, no lock.
package final class SequenceRun<Base: IteratorProtocol, Failure: Error>: SignalRun<Base.Element, Failure>
where Base.Element: Sendable {
  private var base: Base
  private let failure: Failure?

  /// Yields `base`'s elements, then throws `failure` if there is one.
  package init(_ base: Base, then failure: Failure? = nil) {
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
