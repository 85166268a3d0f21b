extension AsyncSequence {
  /// On failure, continues with the sequence that `handler` makes from the error (RAC `catch:`, RxSwift
  /// `catch`, Combine `catch`).
  ///
  /// The elements delivered before the failure stay delivered; then the fallback's elements follow. The
  /// result's failure type is the fallback's: a fallback that cannot fail makes a sequence that cannot fail.
  ///
  /// **Finishes:** when this sequence finishes, or after a failure when the fallback finishes.
  ///
  /// **Throws:** the fallback's failure, if it fails too.
  ///
  /// **Cancellation:** runs in the consumer's task, like the sequences it iterates.
  ///
  /// ```swift
  /// let orders = api.orders.catch { error in
  ///   Signal<[Order], Never>.just(cache.orders)
  /// }
  /// for await list in orders { show(list) }
  /// ```
  /// - Parameter handler: makes the sequence to continue with from the failure.
  /// - Returns: this sequence's elements, then after a failure the fallback's.
  public func `catch`<Fallback: AsyncSequence>(
    _ handler: @escaping @Sendable (Failure) async -> Fallback
  ) -> AsyncCatchSequence<Self, Fallback> where Fallback.Element == Element {
    AsyncCatchSequence(self, handler: handler)
  }
}

/// The sequence returned by `catch(_:)`: the base's elements, then after a
/// failure those of a fallback sequence made from the error.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// **Finishes:** when the base finishes, or after a failure when the fallback finishes.
///
/// **Throws:** the fallback's failure.
///
/// **Cancellation:** runs in the consumer's task.
///
/// ```swift
/// let safe: AsyncCatchSequence<Signal<Int, any Error>, Signal<Int, Never>> = numbers.catch { _ in .just(0) }
/// ```
public struct AsyncCatchSequence<Base: AsyncSequence, Fallback: AsyncSequence>: AsyncSequence
where Fallback.Element == Base.Element {
  /// The elements of the base, then of the fallback.
  public typealias Element = Base.Element
  /// The fallback's failure.
  public typealias Failure = Fallback.Failure

  private let base: Base
  private let handler: @Sendable (Base.Failure) async -> Fallback

  init(_ base: Base, handler: @escaping @Sendable (Base.Failure) async -> Fallback) {
    self.base = base
    self.handler = handler
  }

  /// Starts iterating the base.
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), handler: handler)
  }

  /// The iterator of an ``AsyncCatchSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    private var base: Base.AsyncIterator?
    private var fallback: Fallback.AsyncIterator?
    private let handler: @Sendable (Base.Failure) async -> Fallback

    fileprivate init(base: Base.AsyncIterator, handler: @escaping @Sendable (Base.Failure) async -> Fallback) {
      self.base = base
      self.handler = handler
    }

    /// The next element of the base or, after its failure, of the fallback.
    ///
    /// **Throws:** the fallback's failure.
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// The next element, running on the caller's actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      if base != nil {
        do throws(Base.Failure) {
          if let element = try await base?.next(isolation: actor) { return element }
          base = nil
          return nil
        } catch {
          base = nil
          fallback = await handler(error).makeAsyncIterator()
        }
      }
      do throws(Failure) {
        guard let element = try await fallback?.next(isolation: actor) else {
          fallback = nil
          return nil
        }
        return element
      } catch {
        fallback = nil
        throw error
      }
    }
  }
}

extension AsyncCatchSequence: Sendable where Base: Sendable {}

extension AsyncCatchSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncCatchSequence: ReactiveSequence {}

// MARK: Hot

extension HotSequence {
  /// On failure, continues with the sequence that `handler` makes from the error, deciding inside the upstream's
  /// `send` (RAC `catch:`, RxSwift `catch`, ReactiveSwift `flatMapError`), once for all consumers.
  ///
  /// The values before the failure pass through as they are sent; `handler` runs once, on the thread that sent
  /// the failure, and the fallback then runs where it can: an immediate ``Signal`` (`.just`, `.empty`, `.fail`) is
  /// delivered in place, before the failing `send` returns; a hot fallback (a subject, a property) is observed
  /// synchronously; any other runs in one task of its own. The handler is synchronous: an `async` handler gets the
  /// stream form.
  ///
  /// **Finishes:** when the upstream finishes, or after a failure when the fallback finishes.
  ///
  /// **Throws:** the fallback's failure, if it fails too.
  ///
  /// **Cancellation:** when the last consumer stops, the upstream is no longer observed and a running fallback is
  /// cancelled (its task) or no longer observed (a hot one).
  ///
  /// ```swift
  /// let orders = ordersSubject.catch { _ in Signal<[Order], Never>.just(cache.orders) }   // HotSignal<[Order], Never>
  /// ordersSubject.fail(.offline)      // `orders` has produced the cached list and finished when this returns
  /// ```
  /// - Parameter handler: makes the sequence to continue with from the failure; runs on the sending thread.
  /// - Returns: a ``HotSignal`` of this sequence's elements, then after a failure the fallback's.
  @inlinable public func `catch`<Fallback: AsyncSequence & Sendable>(
    _ handler: @escaping @Sendable (Failure) -> Fallback
  ) -> HotSignal<Element, Fallback.Failure> where Fallback.Element == Element {
    let upstream = hotSignal.node
    return HotSignal(
      node: SubjectStorage(replay: SubjectStorage.replay(following: upstream)) { node in
        // The fallback is the one inner of a flatten connection: it gets the flatten's ways of running an inner
        // (in place, observed, or in a counted task stopped on disconnect).
        let fallback = HotFlatten<Fallback, Fallback.Failure>(
          node: node, strategy: .concat, innerFailure: { $0 }, taskName: "catch fallback")
        let sink = upstream.addSink { value in
          node.send(value)
        } onEnd: { termination in
          if case .failed(let error) = termination { fallback.outerValue(handler(error)) }
          fallback.outerEnded(.finished)
        }
        return {
          upstream.removeSink(sink)
          fallback.stopAll()
        }
      })
  }
}
