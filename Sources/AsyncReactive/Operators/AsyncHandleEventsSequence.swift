import Synchronization

extension AsyncSequence {
  /// Runs side effects on each event without changing the values: for logging and debugging where a value
  /// comes from (RAC `doNext:` / `doCompleted:` / `doError:`, RxSwift `do(onNext:…)`, Combine
  /// `handleEvents`).
  ///
  /// Each iteration reports its own events: `onStart` when iteration starts (`makeAsyncIterator()`), then
  /// `onValue` per value and exactly one of `onFinish`, `onFailure` or `onCancel` (the consumer stopped
  /// first: its task was cancelled, it broke out of the loop or dropped the iterator).
  ///
  /// ```swift
  /// let logged = api.orders.handleEvents(
  ///   onStart: { print("orders: requested") },
  ///   onValue: { print("orders: \($0.count) received") },
  ///   onFailure: { print("orders: failed \($0)") }
  /// )
  /// ```
  @inlinable
  public func handleEvents(
    onStart: (@Sendable () -> Void)? = nil,
    onValue: (@Sendable (Element) -> Void)? = nil,
    onFinish: (@Sendable () -> Void)? = nil,
    onFailure: (@Sendable (Failure) -> Void)? = nil,
    onCancel: (@Sendable () -> Void)? = nil
  ) -> AsyncHandleEventsSequence<Self> {
    AsyncHandleEventsSequence(
      self,
      handlers: .init(onStart: onStart, onValue: onValue, onFinish: onFinish, onFailure: onFailure, onCancel: onCancel)
    )
  }
}

/// An async sequence that reports its events to side-effect closures; see
/// ``_Concurrency/AsyncSequence/handleEvents(onStart:onValue:onFinish:onFailure:onCancel:)``.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
public struct AsyncHandleEventsSequence<Base: AsyncSequence>: AsyncSequence {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  @usableFromInline
  struct Handlers: Sendable {
    @usableFromInline let onStart: (@Sendable () -> Void)?
    @usableFromInline let onValue: (@Sendable (Element) -> Void)?
    @usableFromInline let onFinish: (@Sendable () -> Void)?
    @usableFromInline let onFailure: (@Sendable (Failure) -> Void)?
    @usableFromInline let onCancel: (@Sendable () -> Void)?

    @inlinable
    init(
      onStart: (@Sendable () -> Void)?,
      onValue: (@Sendable (Element) -> Void)?,
      onFinish: (@Sendable () -> Void)?,
      onFailure: (@Sendable (Failure) -> Void)?,
      onCancel: (@Sendable () -> Void)?
    ) {
      self.onStart = onStart
      self.onValue = onValue
      self.onFinish = onFinish
      self.onFailure = onFailure
      self.onCancel = onCancel
    }
  }

  @usableFromInline let base: Base
  @usableFromInline let handlers: Handlers

  @inlinable
  init(_ base: Base, handlers: Handlers) {
    self.base = base
    self.handlers = handlers
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    handlers.onStart?()
    return Iterator(base: base.makeAsyncIterator(), handlers: handlers)
  }

  /// The iterator of an ``AsyncHandleEventsSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let handlers: Handlers
    @usableFromInline let tracker: Tracker

    @inlinable
    init(base: Base.AsyncIterator, handlers: Handlers) {
      self.base = base
      self.handlers = handlers
      self.tracker = Tracker(onCancel: handlers.onCancel)
    }

    /// The next upstream value, after reporting it.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      guard !tracker.ended else { return try await base.next(isolation: actor) }
      do throws(Failure) {
        if let element = try await base.next(isolation: actor) {
          handlers.onValue?(element)
          return element
        }
        tracker.ended = true
        if Task.isCancelled { handlers.onCancel?() } else { handlers.onFinish?() }
        return nil
      } catch {
        tracker.ended = true
        if error is CancellationError { handlers.onCancel?() } else { handlers.onFailure?(error) }
        throw error
      }
    }

    /// The next upstream value, after reporting it.
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }
  }

  /// Reports `onCancel` when an iterator that has not ended is dropped.
  @usableFromInline
  final class Tracker {
    @usableFromInline var ended = false
    @usableFromInline let onCancel: (@Sendable () -> Void)?

    @inlinable
    init(onCancel: (@Sendable () -> Void)?) {
      self.onCancel = onCancel
    }

    deinit { if !ended { onCancel?() } }
  }
}

extension AsyncHandleEventsSequence: Sendable where Base: Sendable {}

/// Each iteration iterates the upstream anew, so `retry` works through it.
extension AsyncHandleEventsSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncHandleEventsSequence: ReactiveSequence {}

// MARK: Hot

extension HotSequence {
  /// Runs side effects on each event inside the upstream's `send`, once for all consumers (RxSwift
  /// `do(onNext:…)` on a shared chain, ReactiveSwift `on(value:…)`).
  ///
  /// The node reports its own connection: `onStart` when it starts observing the upstream (its first
  /// consumer arrived), then `onValue` per value and exactly one of `onFinish`, `onFailure` or `onCancel` (its
  /// last consumer left before the upstream ended). A node that connects again reports a new round.
  ///
  /// ```swift
  /// let logged = viewModel.query.handleEvents(onValue: { print("query:", $0) })   // HotSignal<String, Never>
  /// ```
  @inlinable public func handleEvents(
    onStart: (@Sendable () -> Void)? = nil,
    onValue: (@Sendable (Element) -> Void)? = nil,
    onFinish: (@Sendable () -> Void)? = nil,
    onFailure: (@Sendable (Failure) -> Void)? = nil,
    onCancel: (@Sendable () -> Void)? = nil
  ) -> HotSignal<Element, Failure> {
    let upstream = hotSignal.node
    return HotSignal(
      node: SubjectStorage(replay: SubjectStorage.replay(following: upstream)) { node in
        onStart?()
        let ending = HotEnding()
        let sink = upstream.addSink { value in
          onValue?(value)
          node.send(value)
        } onEnd: { termination in
          if ending.claim() {
            switch termination {
            case .finished: onFinish?()
            case .failed(let error): onFailure?(error)
            }
          }
          node.terminate(termination)
        }
        return {
          upstream.removeSink(sink)
          if ending.claim() { onCancel?() }
        }
      })
  }
}

/// Which of a connection's two ways of ending came first: the upstream's end or the disconnection.
@usableFromInline final class HotEnding: Sendable {
  @usableFromInline let ended = Atomic<Bool>(false)

  @inlinable init() {}

  /// `true` for the first caller only.
  @inlinable func claim() -> Bool { !ended.exchange(true, ordering: .acquiringAndReleasing) }
}
