/// Each element of a base sequence combined with the latest element of another sequence: what
/// `withLatestFrom(_:)` and `withLatestFrom(_:_:)` return.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// Only the base's elements produce output; the other sequence's elements are remembered, not emitted. Base
/// elements that arrive before the other sequence has produced anything are dropped. For RxSwift's one-argument
/// form, which emits the other sequence's element alone, write `withLatestFrom(other) { $1 }`.
///
/// **Finishes:** when the base finishes (the other sequence is cancelled). The other sequence's end changes
/// nothing: its latest element keeps being used, and if it ended without producing any, every base element is
/// dropped until the base ends (as in RxSwift).
///
/// **Throws:** as soon as either sequence fails (the other one is cancelled), after the values produced before.
///
/// **Cancellation:** cancelling the consuming task, breaking out of the loop or dropping the iterator cancels both
/// sequences.
///
/// **Timing:** making the iterator subscribes to both sequences; the first `next()` starts one task for each,
/// which pull elements as fast as they come. An element of the other sequence counts from the moment its task has
/// taken it: if the two sequences produce at the same instant (say, two subjects sent to one after the other,
/// synchronously), the base element may still see the previous latest value. Values wait for the consumer in an
/// unbounded buffer that it drains in batches.
///
/// ```swift
/// for await (_, form) in submitTaps.withLatestFrom(formState) {
///   viewModel.submit.trigger(form)
/// }
/// ```
public struct AsyncWithLatestFromSequence<
  Base: AsyncSequence & Sendable, Other: AsyncSequence & Sendable, Element: Sendable, Failure: Error
>: AsyncSequence, Sendable
where
  Base.Element: Sendable,
  Other.Element: Sendable
{
  @usableFromInline typealias Rule = WithLatestFromRule<Base.Element, Other.Element>
  @usableFromInline typealias Pair = (Base.Element, Other.Element)

  @usableFromInline let base: Base
  @usableFromInline let other: Other
  @usableFromInline let combine: @Sendable (Base.Element, Other.Element) -> Element
  @usableFromInline let baseFailure: @Sendable (Base.Failure) -> Failure
  @usableFromInline let otherFailure: @Sendable (Other.Failure) -> Failure

  @inlinable init(
    _ base: Base,
    _ other: Other,
    combine: @escaping @Sendable (Base.Element, Other.Element) -> Element,
    baseFailure: @escaping @Sendable (Base.Failure) -> Failure,
    otherFailure: @escaping @Sendable (Other.Failure) -> Failure
  ) {
    self.base = base
    self.other = other
    self.combine = combine
    self.baseFailure = baseFailure
    self.otherFailure = otherFailure
  }

  /// Subscribes to both sequences now; they are pumped from the first `next()`.
  @inlinable public func makeAsyncIterator() -> Iterator {
    let rule = NaryRuleCell(Rule())
    let storage = NaryStorage<Pair, Failure>(inputs: [
      .subscribe(base, index: Rule.baseIndex, failure: baseFailure, rule: rule) { rule, value in
        rule.receive(value)
      },
      .subscribe(other, index: Rule.otherIndex, failure: otherFailure, rule: rule) { rule, latest in
        rule.receiveLatest(latest)
      },
    ])
    return Iterator(base: NaryIterator(storage), combine: combine)
  }

  /// The iterator of an ``AsyncWithLatestFromSequence``; dropping it cancels both sequences.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: NaryIterator<Pair, Failure>
    @usableFromInline let combine: @Sendable (Base.Element, Other.Element) -> Element

    @inlinable init(
      base: NaryIterator<Pair, Failure>, combine: @escaping @Sendable (Base.Element, Other.Element) -> Element
    ) {
      self.base = base
      self.combine = combine
    }

    /// The next base element combined with the other sequence's latest, `nil` once the base finished (or the
    /// consumer was cancelled).
    ///
    /// **Throws:** the first failure of either sequence, once.
    @inlinable public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// The next combined element, running on the caller's actor.
    ///
    /// **Throws:** the first failure of either sequence, once.
    @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      // The combining closure runs here, in the consumer's task, outside the storage's lock.
      guard let (value, latest) = try await base.next(isolation: actor) else { return nil }
      return combine(value, latest)
    }
  }
}

extension AsyncWithLatestFromSequence: ReiterableAsyncSequence
where Base: ReiterableAsyncSequence, Other: ReiterableAsyncSequence {}

extension AsyncWithLatestFromSequence: ReactiveSequence {}
