extension AsyncSequence {
  /// Pairs each value with the one before it (ReactiveSwift's `combinePrevious()`, RxSwift's `pairwise` in
  /// RxSwiftExt): the first value only becomes the previous of the second, so `1, 2, 3` gives `(1, 2), (2, 3)`.
  ///
  /// **Finishes:** when the upstream finishes (a single value gives nothing). **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// for await (old, new) in scrollOffset.combinePrevious() {
  ///   header.isHidden = new > old   // hide while scrolling down
  /// }
  /// ```
  /// - Returns: an ``AsyncCombinePreviousSequence`` of `(previous, current)` pairs.
  @inlinable
  public func combinePrevious() -> AsyncCombinePreviousSequence<Self> {
    AsyncCombinePreviousSequence(self, initial: nil)
  }

  /// Pairs each value with the one before it, the first value with `initial` (ReactiveSwift's
  /// `combinePrevious(_:)`): `1, 2, 3` with `initial` 0 gives `(0, 1), (1, 2), (2, 3)`.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// for await (old, new) in selectedTab.combinePrevious(.home) {
  ///   analytics.log("tab \(old) → \(new)")
  /// }
  /// ```
  /// - Parameter initial: the "previous" value of the first one.
  /// - Returns: an ``AsyncCombinePreviousSequence`` of `(previous, current)` pairs, one per value.
  @inlinable
  public func combinePrevious(_ initial: Element) -> AsyncCombinePreviousSequence<Self> {
    AsyncCombinePreviousSequence(self, initial: initial)
  }
}

/// An async sequence of each value paired with the one before it; see
/// ``_Concurrency/AsyncSequence/combinePrevious()`` and ``_Concurrency/AsyncSequence/combinePrevious(_:)``.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
public struct AsyncCombinePreviousSequence<Base: AsyncSequence>: AsyncSequence {
  public typealias Element = (Base.Element, Base.Element)
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let initial: Base.Element?

  @inlinable
  init(_ base: Base, initial: Base.Element?) {
    self.base = base
    self.initial = initial
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), previous: initial)
  }

  /// The iterator of an ``AsyncCombinePreviousSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    /// The value to pair the next one with; `nil` only before the first value when there is no initial one.
    @usableFromInline var previous: Base.Element?

    @inlinable
    init(base: Base.AsyncIterator, previous: Base.Element?) {
      self.base = base
      self.previous = previous
    }

    /// The next upstream value, paired with the one before it.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      while let element = try await base.next(isolation: actor) {
        defer { previous = element }
        if let previous { return (previous, element) }
      }
      return nil
    }

    /// The next upstream value, paired with the one before it.
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncCombinePreviousSequence: Sendable where Base: Sendable, Base.Element: Sendable {}

/// Each iteration iterates the upstream anew, so `retry` works through it.
extension AsyncCombinePreviousSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncCombinePreviousSequence: ReactiveSequence {}

// MARK: Hot

extension HotSequence {
  /// Pairs each value with the one before it, inside the upstream's `send` (ReactiveSwift's
  /// `Signal.combinePrevious()`): the first value only becomes the previous of the second.
  ///
  /// The previous value is the node's, shared by its consumers, and starts afresh when the node connects (its
  /// first consumer arrived). Over a current-value source, the current value at that moment is the first value:
  /// the first pair comes with the first change.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// let moves = position.combinePrevious()   // HotSignal<(Point, Point), Never>: (from, to) per change
  /// ```
  /// - Returns: a ``HotSignal`` of `(previous, current)` pairs.
  @inlinable public func combinePrevious() -> HotSignal<(Element, Element), Failure> {
    hotCombinePrevious(initial: nil)
  }

  /// Pairs each value with the one before it, the first value with `initial`, inside the upstream's `send`
  /// (ReactiveSwift's `Signal.combinePrevious(_:)`).
  ///
  /// The previous value is the node's, shared by its consumers, and starts at `initial` each time the node
  /// connects. Over a current-value source, the first pair is `(initial, current value)`.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// let transitions = screenState.combinePrevious(.idle)   // HotSignal<(State, State), Never>
  /// ```
  /// - Parameter initial: the "previous" value of the first one.
  /// - Returns: a ``HotSignal`` of `(previous, current)` pairs, one per value.
  @inlinable public func combinePrevious(_ initial: Element) -> HotSignal<(Element, Element), Failure> {
    hotCombinePrevious(initial: initial)
  }

  @inlinable func hotCombinePrevious(initial: Element?) -> HotSignal<(Element, Element), Failure> {
    HotSignal(
      node: .observing(hotSignal.node) { node in
        let previous = ConnectionState(initial)
        return { value in
          defer { previous.value = value }
          if let before = previous.value { node.send((before, value)) }
        }
      } onEnd: { node, termination in
        node.terminate(termination)
      })
  }
}
