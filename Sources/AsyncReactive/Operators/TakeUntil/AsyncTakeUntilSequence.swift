/// The elements of a base sequence until a trigger sequence produces its first element: what `take(until:)` returns.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// **Finishes:** at the trigger's first element (the base is cancelled) or when the base finishes (the trigger
/// is cancelled). The trigger finishing without an element changes nothing.
///
/// **Throws:** as soon as either sequence fails (the other one is cancelled), after the elements before it.
///
/// **Cancellation:** cancelling the consuming task, breaking out of the loop or dropping the iterator cancels both
/// sequences.
///
/// **Buffering:** making the iterator subscribes to both sequences; the first `next()` starts one task for each.
/// Elements wait for the consumer in an unbounded buffer that it drains in batches.
///
/// ```swift
/// let shown: AsyncTakeUntilSequence<SubjectSubscription<Int, Never>, AsyncPassthroughSubject<Void, Never>, Never> =
///   positions.subscribe().take(until: viewWillDisappear)
/// ```
public struct AsyncTakeUntilSequence<
  Base: AsyncSequence & Sendable, Trigger: AsyncSequence & Sendable, Failure: Error
>: AsyncSequence, Sendable
where
  Base.Element: Sendable, Base.AsyncIterator: SendableMetatype,
  Trigger.Element: Sendable, Trigger.AsyncIterator: SendableMetatype
{
  /// This sequence's elements.
  public typealias Element = Base.Element

  @usableFromInline let inputs: TriggeredInputs<Base, Trigger, Failure>

  @inlinable init(_ inputs: TriggeredInputs<Base, Trigger, Failure>) {
    self.inputs = inputs
  }

  /// Subscribes to both sequences now; they are pumped from the first `next()`.
  @inlinable public func makeAsyncIterator() -> Iterator {
    inputs.makeIterator(TakeUntilRule<Element>.self)
  }

  /// The iterator: ``AsyncNaryIterator``; dropping it cancels every input.
  public typealias Iterator = AsyncNaryIterator<Element, Failure>
}

/// Each iteration subscribes to both sequences anew, so `retry` works through it when both can run again.
extension AsyncTakeUntilSequence: ReiterableAsyncSequence
where Base: ReiterableAsyncSequence, Trigger: ReiterableAsyncSequence {}

extension AsyncTakeUntilSequence: ReactiveSequence {}
