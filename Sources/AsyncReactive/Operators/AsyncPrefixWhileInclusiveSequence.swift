extension AsyncSequence {
  /// Passes values on while `predicate` holds and, with `inclusive: true`, also the first value that fails it,
  /// then finishes (RxSwift's `take(while:behavior: .inclusive)`): the value that ends a run often matters most
  /// (the upload progress that reaches 100 %, the state that is final).
  ///
  /// With `inclusive: false` it is the standard library's `prefix(while:)`, which the unlabelled call keeps
  /// being: this form never changes what `prefix(while:)` does.
  ///
  /// **Finishes:** right after the first value that fails `predicate` (no further `next()` of the upstream), or
  /// when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// for await progress in upload.progress.prefix(while: { $0 < 1.0 }, inclusive: true) {
  ///   bar.progress = progress   // …, 0.8, 0.95, 1.0: the last one too
  /// }
  /// ```
  /// - Parameters:
  ///   - predicate: whether a value keeps the run going; the first `false` ends it.
  ///   - inclusive: whether the value that ends the run is passed on before finishing.
  /// - Returns: an ``AsyncPrefixWhileInclusiveSequence`` of the leading values.
  @inlinable
  public func prefix(
    while predicate: @escaping @Sendable (Element) -> Bool,
    inclusive: Bool
  ) -> AsyncPrefixWhileInclusiveSequence<Self> {
    AsyncPrefixWhileInclusiveSequence(self, predicate: predicate, inclusive: inclusive)
  }
}

/// An async sequence of the leading values that satisfy a predicate and, when inclusive, the first one that does
/// not; see ``_Concurrency/AsyncSequence/prefix(while:inclusive:)``. Named after the method, apart from the
/// standard library's `AsyncPrefixWhileSequence`, which it leaves alone.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
public struct AsyncPrefixWhileInclusiveSequence<Base: AsyncSequence>: AsyncSequence {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let predicate: @Sendable (Base.Element) -> Bool
  @usableFromInline let inclusive: Bool

  @inlinable
  init(_ base: Base, predicate: @escaping @Sendable (Base.Element) -> Bool, inclusive: Bool) {
    self.base = base
    self.predicate = predicate
    self.inclusive = inclusive
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), predicate: predicate, inclusive: inclusive)
  }

  /// The iterator of an ``AsyncPrefixWhileInclusiveSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let predicate: @Sendable (Base.Element) -> Bool
    @usableFromInline let inclusive: Bool
    @usableFromInline var ended = false

    @inlinable
    init(base: Base.AsyncIterator, predicate: @escaping @Sendable (Base.Element) -> Bool, inclusive: Bool) {
      self.base = base
      self.predicate = predicate
      self.inclusive = inclusive
    }

    /// The next upstream value while the run lasts; `nil` after the value that ended it.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      guard !ended else { return nil }
      guard let element = try await base.next(isolation: actor) else {
        ended = true
        return nil
      }
      if predicate(element) { return element }
      ended = true
      return inclusive ? element : nil
    }

    /// The next upstream value while the run lasts; `nil` after the value that ended it.
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncPrefixWhileInclusiveSequence: Sendable where Base: Sendable {}

/// Each iteration iterates the upstream anew, so `retry` works through it.
extension AsyncPrefixWhileInclusiveSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncPrefixWhileInclusiveSequence: ReactiveSequence {}

// MARK: Hot

extension HotSequence {
  /// Passes values on while `predicate` holds and, with `inclusive: true`, also the first value that fails it,
  /// then finishes, deciding inside the upstream's `send` (RxSwift's `take(while:behavior: .inclusive)`).
  ///
  /// With `inclusive: false` it is ``HotSequence/prefix(while:)``. The run is the node's, shared by its
  /// consumers: it starts when the node connects, and the node finishes inside the `send` of the value that ends
  /// it. A node that ended stays ended.
  ///
  /// **Finishes:** right after the first value that fails `predicate`, or when the upstream finishes.
  /// **Throws:** the upstream's failure, if it comes first.
  ///
  /// ```swift
  /// let progress = upload.progress.prefix(while: { $0 < 1.0 }, inclusive: true)   // …, 0.95, 1.0, finished
  /// ```
  /// - Parameters:
  ///   - predicate: whether a value keeps the run going; the first `false` ends it.
  ///   - inclusive: whether the value that ends the run is passed on before finishing.
  /// - Returns: a ``HotSignal`` of the leading values.
  @inlinable public func prefix(
    while predicate: @escaping @Sendable (Element) -> Bool,
    inclusive: Bool
  ) -> HotSignal<Element, Failure> {
    HotSignal(
      node: .observing(hotSignal.node) { node in
        { value in
          if predicate(value) {
            node.send(value)
            return
          }
          if inclusive { node.send(value) }
          node.terminate(.finished)
        }
      } onEnd: { node, termination in
        node.terminate(termination)
      })
  }
}
