/// The latest element of a base sequence at each element of a trigger sequence, if a new one arrived since the last
/// sample: what `sample(on:)` returns.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// **Finishes:** at the first trigger element after the base finished (after the last pending element), or when
/// the trigger finishes (after the pending element).
///
/// **Throws:** as soon as either sequence fails (the other one is cancelled); a pending element is dropped.
///
/// **Cancellation:** cancelling the consuming task, breaking out of the loop or dropping the iterator cancels both
/// sequences.
///
/// **Buffering:** only the base's latest element is kept. Making the iterator subscribes to both sequences; the
/// first `next()` starts one task for each.
///
/// ```swift
/// let frames: AsyncSampleSequence<SubjectSubscription<Double, Never>, Signal<Void, Never>, Never> =
///   positions.subscribe().sample(on: displayLink)
/// ```
public struct AsyncSampleSequence<
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
    inputs.makeIterator(SampleRule<Element>.self)
  }

  /// The iterator: ``AsyncNaryIterator``; dropping it cancels every input.
  public typealias Iterator = AsyncNaryIterator<Element, Failure>
}

/// Each iteration subscribes to both sequences anew, so `retry` works through it when both can run again.
extension AsyncSampleSequence: ReiterableAsyncSequence
where Base: ReiterableAsyncSequence, Trigger: ReiterableAsyncSequence {}

extension AsyncSampleSequence: ReactiveSequence {}
