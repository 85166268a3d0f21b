extension AsyncSequence {
  /// Transforms this sequence's failure (RAC `mapError:`, Combine `mapError`), typically to a domain error.
  ///
  /// **Finishes:** when this sequence finishes.
  ///
  /// **Throws:** `transform` of this sequence's failure.
  ///
  /// **Cancellation:** runs in the consumer's task.
  ///
  /// ```swift
  /// let orders: AsyncMapErrorSequence<Signal<[Order], any Error>, OrdersError> =
  ///   api.orders.mapError { error in OrdersError.network(error) }
  /// ```
  /// - Parameter transform: makes the new failure from the old one.
  /// - Returns: this sequence's elements, failing with the transformed failure.
  public func mapError<NewFailure: Error>(
    _ transform: @escaping @Sendable (Failure) -> NewFailure
  ) -> AsyncMapErrorSequence<Self, NewFailure> {
    AsyncMapErrorSequence(self, transform: transform)
  }
}

/// The sequence returned by `mapError(_:)`: the base's elements, failing with a
/// transformed failure.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// **Finishes:** when the base finishes.
///
/// **Throws:** the transformed failure of the base.
///
/// **Cancellation:** runs in the consumer's task.
///
/// ```swift
/// let typed = Signal<Int, any Error>.fail(URLError()).mapError { _ in AppError.offline }
/// ```
public struct AsyncMapErrorSequence<Base: AsyncSequence, Failure: Error>: AsyncSequence {
  /// The base's elements.
  public typealias Element = Base.Element

  private let base: Base
  private let transform: @Sendable (Base.Failure) -> Failure

  init(_ base: Base, transform: @escaping @Sendable (Base.Failure) -> Failure) {
    self.base = base
    self.transform = transform
  }

  /// Starts iterating the base.
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), transform: transform)
  }

  /// The iterator of an ``AsyncMapErrorSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    private var base: Base.AsyncIterator
    private let transform: @Sendable (Base.Failure) -> Failure

    fileprivate init(base: Base.AsyncIterator, transform: @escaping @Sendable (Base.Failure) -> Failure) {
      self.base = base
      self.transform = transform
    }

    /// The base's next element.
    ///
    /// **Throws:** the transformed failure of the base.
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// The base's next element, running on the caller's actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      do throws(Base.Failure) {
        return try await base.next(isolation: actor)
      } catch {
        throw transform(error)
      }
    }
  }
}

extension AsyncMapErrorSequence: Sendable where Base: Sendable {}

extension AsyncMapErrorSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncMapErrorSequence: ReactiveSequence {}

// MARK: Hot

extension HotSequence {
  /// Transforms this sequence's failure inside the upstream's `send` (RAC `mapError:`, ReactiveSwift
  /// `Signal.mapError`): values pass through unchanged, once for all consumers.
  ///
  /// **Finishes:** when the upstream finishes.
  ///
  /// **Throws:** `transform` of the upstream's failure, to every consumer; `transform` runs once per failure.
  ///
  /// ```swift
  /// let orders = ordersSubject.mapError { OrdersError.network($0) }   // HotSignal<[Order], OrdersError>
  /// ```
  /// - Parameter transform: makes the new failure from the old one; runs on the sending thread.
  /// - Returns: a ``HotSignal`` of this sequence's elements, failing with the transformed failure.
  @inlinable public func mapError<NewFailure: Error>(
    _ transform: @escaping @Sendable (Failure) -> NewFailure
  ) -> HotSignal<Element, NewFailure> {
    HotSignal(
      node: .observing(hotSignal.node) { node in
        { value in node.send(value) }
      } onEnd: { node, termination in
        node.terminate(mapTermination(termination, transform))
      })
  }
}
