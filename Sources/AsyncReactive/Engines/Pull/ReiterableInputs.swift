/// What `combineLatest`, `zip` and `merge` return when every input can be iterated again: the operator's sequence,
/// re-iterable, so that ``ReiterableAsyncSequence/retry(_:)`` applies.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// ``AsyncCombineLatestSequence``, ``AsyncZipSequence`` and ``AsyncMergeSequence`` do not name their inputs' types,
/// so they cannot say whether those inputs run anew on each iteration. The overloads for inputs that are all
/// ``ReiterableAsyncSequence``s (``Signal`` and the operators over one) wrap the result in this type instead: each
/// iteration subscribes to every input again, so a retry runs every input again. With a subject or an
/// `AsyncStream` among the inputs you get the plain sequence, and `retry` does not compile.
///
/// Iterating it is iterating the wrapped sequence (same iterator, same cost): see that type for when it finishes,
/// what it throws and what cancellation does.
///
/// ```swift
/// let screen = combineLatest(Signal.future { try await api.profile() }, Signal.future { try await api.wallet() })
/// for try await (profile, wallet) in screen.retry(2) {   // a failure runs both requests again
///   render(profile, wallet)
/// }
/// ```
///
/// Code that names the plain type still compiles: with `AsyncCombineLatestSequence<…>` as the expected type, the
/// overload that returns it is chosen; and ``base`` is the plain sequence.
public struct ReiterableInputs<Base: AsyncSequence>: AsyncSequence {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure
  public typealias AsyncIterator = Base.AsyncIterator

  /// The operator's sequence, the type the inputs would give if they were not all re-iterable.
  public let base: Base

  /// Only the n-ary operators make one, for inputs that are all re-iterable.
  @inlinable init(_ base: Base) {
    self.base = base
  }

  /// Subscribes to every input now, as the wrapped sequence does.
  @inlinable public func makeAsyncIterator() -> Base.AsyncIterator {
    base.makeAsyncIterator()
  }
}

extension ReiterableInputs: Sendable where Base: Sendable {}
extension ReiterableInputs: ReiterableAsyncSequence {}
extension ReiterableInputs: ReactiveSequence {}
