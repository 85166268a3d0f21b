extension AsyncSequence where Element: Equatable & Sendable {
  /// Skips values equal to the one before (RxSwift `distinctUntilChanged`, RAC `distinctUntilChanged`,
  /// Combine `removeDuplicates`).
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// for await text in searchText.removeDuplicates() { search(text) }   // "a", "a", "ab" → "a", "ab"
  /// ```
  @inlinable
  public func removeDuplicates() -> AsyncRemoveDuplicatesSequence<Self> {
    AsyncRemoveDuplicatesSequence(self) { $0 == $1 }
  }
}

extension AsyncSequence {
  /// Skips values that `areDuplicates` says equal the one before.
  ///
  /// ```swift
  /// let changes = positions.removeDuplicates { abs($0 - $1) < 0.5 }
  /// ```
  /// - Parameter areDuplicates: compares the previous value (first) with the new one (second).
  @inlinable
  public func removeDuplicates(
    by areDuplicates: @escaping @Sendable (Element, Element) -> Bool
  ) -> AsyncRemoveDuplicatesSequence<Self> {
    AsyncRemoveDuplicatesSequence(self, areDuplicates: areDuplicates)
  }

  /// Skips values whose property at `keyPath` equals the previous value's.
  ///
  /// ```swift
  /// let userChanges = session.removeDuplicates(by: \.user.id)
  /// ```
  @inlinable
  public func removeDuplicates<Key: Equatable & Sendable>(
    by keyPath: any KeyPath<Element, Key> & Sendable
  ) -> AsyncRemoveDuplicatesSequence<Self> {
    AsyncRemoveDuplicatesSequence(self) { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
  }
}

/// An async sequence that skips consecutive duplicates; see ``_Concurrency/AsyncSequence/removeDuplicates()``.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
public struct AsyncRemoveDuplicatesSequence<Base: AsyncSequence>: AsyncSequence {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let areDuplicates: @Sendable (Element, Element) -> Bool

  @inlinable
  init(_ base: Base, areDuplicates: @escaping @Sendable (Element, Element) -> Bool) {
    self.base = base
    self.areDuplicates = areDuplicates
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), areDuplicates: areDuplicates)
  }

  /// The iterator of an ``AsyncRemoveDuplicatesSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let areDuplicates: @Sendable (Element, Element) -> Bool
    @usableFromInline var previous: Element?

    @inlinable
    init(base: Base.AsyncIterator, areDuplicates: @escaping @Sendable (Element, Element) -> Bool) {
      self.base = base
      self.areDuplicates = areDuplicates
    }

    /// The next value that differs from the previous one.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      while let element = try await base.next(isolation: actor) {
        if let previous, areDuplicates(previous, element) { continue }
        previous = element
        return element
      }
      return nil
    }

    /// The next value that differs from the previous one.
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncRemoveDuplicatesSequence: Sendable where Base: Sendable {}

/// Each iteration iterates the upstream anew, so `retry` works through it.
extension AsyncRemoveDuplicatesSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncRemoveDuplicatesSequence: ReactiveSequence {}

// MARK: Hot

extension HotSequence where Element: Equatable {
  /// Skips values equal to the one before, deciding inside the upstream's `send`; all consumers share the
  /// comparison (RxSwift `distinctUntilChanged`, ReactiveSwift `skipRepeats`).
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// let queries = searchText.removeDuplicates()   // HotSignal<String, Never>: "a", "a", "ab" → "a", "ab"
  /// ```
  @inlinable public func removeDuplicates() -> HotSignal<Element, Failure> {
    removeDuplicates(by: ==)
  }
}

extension HotSequence {
  /// Skips values that `areDuplicates` says equal the one before, inside the upstream's `send`.
  ///
  /// ```swift
  /// let moves = positions.removeDuplicates { abs($0 - $1) < 0.5 }   // HotSignal<Double, Never>
  /// ```
  /// - Parameter areDuplicates: compares the previous value (first) with the new one (second).
  @inlinable public func removeDuplicates(
    by areDuplicates: @escaping @Sendable (Element, Element) -> Bool
  ) -> HotSignal<Element, Failure> {
    HotSignal(
      node: .observing(hotSignal.node) { node in
        let previous = ConnectionState<Element?>(nil)
        return { value in
          if let last = previous.value, areDuplicates(last, value) { return }
          previous.value = value
          node.send(value)
        }
      } onEnd: { node, termination in
        node.terminate(termination)
      })
  }

  /// Skips values whose property at `keyPath` equals the previous value's, inside the upstream's `send`.
  ///
  /// ```swift
  /// let userChanges = session.removeDuplicates(by: \.user.id)   // HotSignal<Session, Never>
  /// ```
  @inlinable public func removeDuplicates<Key: Equatable & Sendable>(
    by keyPath: any KeyPath<Element, Key> & Sendable
  ) -> HotSignal<Element, Failure> {
    removeDuplicates { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
  }
}
