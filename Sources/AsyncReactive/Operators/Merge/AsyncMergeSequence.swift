/// The elements of several sequences, interleaved as they are produced: what `merge(_:_:)` (2 to 8 inputs)
/// and `merge(_:)` (an array of inputs) return.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// Each input's elements keep their order; elements of different inputs come in the order they arrived.
///
/// **Finishes:** when every input has finished. Without inputs, at once without a value.
///
/// **Throws:** as soon as any input fails (the other inputs are cancelled), after the values produced before
/// it. `Failure` is the inputs' common failure type: `Never` when none can fail, so the result is iterated
/// with plain `for await`; `any Error` when the inputs' failure types differ.
///
/// **Cancellation:** cancelling the consuming task, breaking out of the loop or dropping the iterator cancels
/// every input.
///
/// **Buffering:** making the iterator subscribes to every input (a subject's later values are not missed);
/// the first `next()` starts one task per input, which pulls elements as fast as the input produces them.
/// Values wait for the consumer in an unbounded buffer that it drains in batches.
///
/// ```swift
/// for await _ in merge(viewWillAppear, pullToRefresh, retryTaps) {
///   viewModel.refresh.trigger()
/// }
/// ```
public struct AsyncMergeSequence<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  @usableFromInline let subscribe: @Sendable () -> NaryStorage<Element, Failure>

  @inlinable init(subscribe: @escaping @Sendable () -> NaryStorage<Element, Failure>) {
    self.subscribe = subscribe
  }

  /// Subscribes to every input now; they are pumped from the first `next()`.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(base: NaryIterator(subscribe()))
  }

  /// The iterator: ``AsyncNaryIterator``; dropping it cancels every input.
  public typealias Iterator = AsyncNaryIterator<Element, Failure>
}

/// Interleaves the elements of an array of sequences as they are produced.
///
/// **Finishes:** when every input has finished; at once for an empty array.
///
/// **Throws:** the inputs' `Failure`, as soon as any input fails (the others are cancelled).
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// let feeds = sources.map { $0.updates }   // [Signal<Update, Never>]
/// for await update in merge(feeds) { apply(update) }
/// ```
/// - Parameter bases: the inputs.
/// - Returns: an ``AsyncMergeSequence`` of their elements.
@inlinable public func merge<Base: AsyncSequence & Sendable>(
  _ bases: [Base]
) -> AsyncMergeSequence<Base.Element, Base.Failure>
where Base.Element: Sendable {
  AsyncMergeSequence {
    NaryStorage(inputs: bases.map { .forwarding($0, failure: { $0 }) })
  }
}

/// Interleaves the elements of an array of sequences as they are produced, again on every iteration.
///
/// For inputs that can all be iterated again (``ReiterableAsyncSequence``): like
/// ``merge(_:)->AsyncMergeSequence<Base.Element,Base.Failure>``, and the result is a ``ReiterableInputs``, so
/// ``ReiterableAsyncSequence/retry(_:)`` applies: each iteration subscribes to every input anew.
///
/// ```swift
/// let feeds = sources.map { source in Signal.future { try await source.latest() } }
/// for try await update in merge(feeds).retry(2) {   // a failure asks every source again
///   apply(update)
/// }
/// ```
/// - Parameter bases: the inputs.
/// - Returns: a ``ReiterableInputs`` wrapping an ``AsyncMergeSequence`` of their elements.
@inlinable public func merge<Base: ReiterableAsyncSequence & Sendable>(
  _ bases: [Base]
) -> ReiterableInputs<AsyncMergeSequence<Base.Element, Base.Failure>>
where Base.Element: Sendable {
  let plain: AsyncMergeSequence<Base.Element, Base.Failure> = merge(bases)
  return ReiterableInputs(plain)
}

extension AsyncMergeSequence: ReactiveSequence {}

// MARK: Hot inputs

/// Interleaves the elements of an array of hot sequences inside their sends: a ``HotSignal`` that finishes when
/// every input has finished and fails on the first failure. An empty array gives a signal that has finished.
///
/// ```swift
/// let anyTap = merge(buttons.map(\.taps))   // HotSignal<Void, Never>
/// ```
/// - Parameter bases: the inputs.
/// - Returns: a ``HotSignal`` of the inputs' elements.
@inlinable public func merge<Base: HotSequence>(_ bases: [Base]) -> HotSignal<Base.Element, Base.Failure> {
  typealias Inputs = HotInputs<MergeRule<Base.Element>, Base.Element, Base.Failure>
  let inputs: [Inputs.Attach] = bases.map { base in
    Inputs.attach(base, failure: { $0 }) { _, element in .emit(element) }
  }
  return HotSignal(node: Inputs.node(inputs, replay: .none) { MergeRule() })
}
