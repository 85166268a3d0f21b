/// One event of a sequence as a value: an element, the end, or the failure (RAC `RACEvent`, RxSwift `Event`,
/// ReactiveSwift `Signal.Event`).
///
/// ```swift
/// for await event in api.orders.materialize() {
///   switch event {
///   case .value(let list): show(list)
///   case .finished: hideSpinner()
///   case .failed(let error): showError(error)
///   }
/// }
/// ```
public enum Event<Element, Failure: Error> {
  /// An element.
  case value(Element)
  /// The sequence finished.
  case finished
  /// The sequence failed.
  case failed(Failure)
}

extension Event: Sendable where Element: Sendable {}

extension Event: Equatable where Element: Equatable, Failure: Equatable {}

extension Event: Hashable where Element: Hashable, Failure: Hashable {}

extension AsyncSequence {
  /// Turns every element and the terminal event into an ``Event`` value (RAC `materialize`, RxSwift
  /// `materialize()`): the result cannot fail, and its last element is `.finished` or `.failed(error)`.
  ///
  /// **Finishes:** right after delivering `.finished` or `.failed`.
  ///
  /// **Cancellation:** runs in the consumer's task; a cancelled upstream that ends early ends with `.finished`.
  ///
  /// ```swift
  /// let events = await Signal<Int, TestError>.fail(TestError()).materialize().collect()
  /// // [.failed(TestError())]
  /// ```
  /// - Returns: a non-failing sequence of this sequence's events.
  public func materialize() -> AsyncMaterializeSequence<Self> {
    AsyncMaterializeSequence(self)
  }
}

/// The sequence returned by `materialize()`: the base's elements and terminal event
/// as ``Event`` values. It cannot fail.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// **Finishes:** right after the terminal event.
///
/// **Cancellation:** runs in the consumer's task.
///
/// ```swift
/// let events: AsyncMaterializeSequence<Signal<Int, any Error>> = numbers.materialize()
/// ```
public struct AsyncMaterializeSequence<Base: AsyncSequence>: AsyncSequence {
  /// The base's events.
  public typealias Element = Event<Base.Element, Base.Failure>
  /// The result cannot fail.
  public typealias Failure = Never

  private let base: Base

  init(_ base: Base) {
    self.base = base
  }

  /// Starts iterating the base.
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator())
  }

  /// The iterator of an ``AsyncMaterializeSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    /// `nil` once the terminal event was delivered.
    private var base: Base.AsyncIterator?

    fileprivate init(base: Base.AsyncIterator) {
      self.base = base
    }

    /// The base's next event, `nil` after the terminal one.
    public mutating func next() async -> Element? {
      await next(isolation: nil)
    }

    /// The base's next event, running on the caller's actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
      guard base != nil else { return nil }
      do throws(Base.Failure) {
        if let element = try await base?.next(isolation: actor) { return .value(element) }
        base = nil
        return .finished
      } catch {
        base = nil
        return .failed(error)
      }
    }
  }
}

extension AsyncMaterializeSequence: Sendable where Base: Sendable {}

extension AsyncMaterializeSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncMaterializeSequence: ReactiveSequence {}

extension HotSequence {
  /// Turns every element and the end into an ``Event`` value inside the upstream's `send`; the result cannot
  /// fail, and its last element is `.finished` or `.failed(error)`. Consumers share it: `let events =
  /// taps.flatMapLatest { request }.materialize()` runs one request per tap for every output derived from it.
  ///
  /// ```swift
  /// let events = submits.materialize()                       // HotSignal<Event<Int, APIError>, Never>
  /// let errors = events.compactMap { if case .failed(let e) = $0 { e } else { nil } }
  /// ```
  @inlinable public func materialize() -> HotSignal<Event<Element, Failure>, Never> {
    HotSignal(
      node: .observing(hotSignal.node) { node in
        { value in node.send(.value(value)) }
      } onEnd: { node, termination in
        switch termination {
        case .finished: node.send(.finished)
        case .failed(let error): node.send(.failed(error))
        }
        node.terminate(.finished)
      })
  }
}
