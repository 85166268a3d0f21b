extension AsyncSequence {
  /// On failure, delivers `value` and finishes instead (Combine `replaceError(with:)`, RxSwift
  /// `catchAndReturn`): the result cannot fail.
  ///
  /// **Finishes:** when this sequence finishes, or right after `value` following a failure.
  ///
  /// **Cancellation:** runs in the consumer's task.
  ///
  /// ```swift
  /// for await balance in api.balance.replaceError(with: 0) { show(balance) }
  /// ```
  /// - Parameter value: the element delivered in place of the failure.
  /// - Returns: this sequence's elements, then `value` if it failed.
  public func replaceError(with value: Element) -> AsyncReplaceErrorSequence<Self> {
    AsyncReplaceErrorSequence(self, replacement: value)
  }
}

/// The sequence returned by `replaceError(with:)`: the base's elements, with a
/// failure replaced by one last element. It cannot fail.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// **Finishes:** when the base finishes, or right after the replacement element.
///
/// **Cancellation:** runs in the consumer's task.
///
/// ```swift
/// let names: AsyncReplaceErrorSequence<Signal<String, any Error>> = api.name.replaceError(with: "?")
/// ```
public struct AsyncReplaceErrorSequence<Base: AsyncSequence>: AsyncSequence {
  /// The base's elements.
  public typealias Element = Base.Element
  /// The result cannot fail.
  public typealias Failure = Never

  private let base: Base
  private let replacement: Element

  init(_ base: Base, replacement: Element) {
    self.base = base
    self.replacement = replacement
  }

  /// Starts iterating the base.
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), replacement: replacement)
  }

  /// The iterator of an ``AsyncReplaceErrorSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    private var base: Base.AsyncIterator?
    private let replacement: Element

    fileprivate init(base: Base.AsyncIterator, replacement: Element) {
      self.base = base
      self.replacement = replacement
    }

    /// The base's next element, the replacement after a failure, then `nil`.
    public mutating func next() async -> Element? {
      await next(isolation: nil)
    }

    /// The base's next element, running on the caller's actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
      do throws(Base.Failure) {
        guard let element = try await base?.next(isolation: actor) else {
          base = nil
          return nil
        }
        return element
      } catch {
        base = nil
        return replacement
      }
    }
  }
}

extension AsyncReplaceErrorSequence: Sendable where Base: Sendable, Base.Element: Sendable {}

extension AsyncReplaceErrorSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncReplaceErrorSequence: ReactiveSequence {}

// MARK: Hot

extension HotSequence {
  /// On failure, delivers `value` and finishes instead, inside the upstream's `send` (RxSwift `catchAndReturn`,
  /// Combine `replaceError(with:)`): the result cannot fail.
  ///
  /// **Finishes:** when the upstream finishes, or right after `value` following a failure. A consumer that joins
  /// after that gets what the node replays (`value`, when the upstream has a current value) and the end.
  ///
  /// ```swift
  /// let balance = balances.replaceError(with: 0)   // HotSignal<Int, Never>
  /// ```
  /// - Parameter value: the element delivered in place of the failure.
  /// - Returns: a ``HotSignal`` of this sequence's elements, then `value` if it failed.
  @inlinable public func replaceError(with value: Element) -> HotSignal<Element, Never> {
    HotSignal(
      node: .observing(hotSignal.node) { node in
        { element in node.send(element) }
      } onEnd: { node, termination in
        if case .failed = termination { node.send(value) }
        node.terminate(.finished)
      })
  }
}
