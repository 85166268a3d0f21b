/// The latest elements of several sequences, combined: what `combineLatest(_:_:)` (2 to 8 inputs of any
/// element types, as tuples) and `combineLatest(_:)` (an array of inputs, as arrays) return.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// The first value comes once every input has produced; after that, every element of any input produces one
/// value with the latest element of each. Elements that arrive together are never merged or lost: each
/// produces its own value, in the order they arrived.
///
/// **Finishes:** at once if an input finishes before producing anything (the other inputs are cancelled);
/// after the first value, when every input has finished. Without inputs, at once without a value.
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
/// for await (name, password) in combineLatest(nameSubject, passwordSubject) {
///   loginEnabled.send(!name.isEmpty && password.count >= 8)
/// }
/// ```
public struct AsyncCombineLatestSequence<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
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

/// Combines the latest elements of an array of sequences into arrays: first once every input has produced,
/// then on every element of any input.
///
/// **Finishes:** at once if an input finishes before producing anything (the others are cancelled), and at
/// once without a value for an empty array; otherwise when every input has finished.
///
/// **Throws:** the inputs' `Failure`, as soon as any input fails (the others are cancelled).
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// let prices = symbols.map { ticker.price(of: $0) }   // [Signal<Double, Never>]
/// for await latest in combineLatest(prices) {
///   total.send(latest.reduce(0, +))
/// }
/// ```
/// - Parameter bases: the inputs; each output has one element per input, in this order.
/// - Returns: an ``AsyncCombineLatestSequence`` of arrays.
@inlinable public func combineLatest<Base: AsyncSequence & Sendable>(
  _ bases: [Base]
) -> AsyncCombineLatestSequence<[Base.Element], Base.Failure>
where Base.Element: Sendable {
  AsyncCombineLatestSequence {
    let empty = Array(repeating: Base.Element?.none, count: bases.count)
    let cell = NaryRuleCell(CombineLatestRule(inputCount: bases.count, empty: empty) { $0.map { $0! } })
    return NaryStorage(
      inputs: bases.enumerated().map { index, base in
        .subscribe(base, index: index, failure: { $0 }, rule: cell) { rule, element in
          rule.receive(from: index) { $0[index] = element }
        }
      }
    )
  }
}

/// Combines the latest elements of an array of sequences into arrays, again on every iteration.
///
/// For inputs that can all be iterated again (``ReiterableAsyncSequence``): like
/// ``combineLatest(_:)->AsyncCombineLatestSequence<[Base.Element],Base.Failure>``, and the result is a ``ReiterableInputs``, so
/// ``ReiterableAsyncSequence/retry(_:)`` applies: each iteration subscribes to every input anew.
///
/// ```swift
/// let prices = symbols.map { symbol in Signal.future { try await api.price(of: symbol) } }
/// for try await latest in combineLatest(prices).retry(2) {   // a failure asks for every price again
///   total.send(latest.reduce(0, +))
/// }
/// ```
/// - Parameter bases: the inputs; each output has one element per input, in this order.
/// - Returns: a ``ReiterableInputs`` wrapping an ``AsyncCombineLatestSequence`` of arrays.
@inlinable public func combineLatest<Base: ReiterableAsyncSequence & Sendable>(
  _ bases: [Base]
) -> ReiterableInputs<AsyncCombineLatestSequence<[Base.Element], Base.Failure>>
where Base.Element: Sendable {
  let plain: AsyncCombineLatestSequence<[Base.Element], Base.Failure> = combineLatest(bases)
  return ReiterableInputs(plain)
}

extension AsyncCombineLatestSequence: ReactiveSequence {}

// MARK: Hot inputs

/// Combines the latest elements of an array of hot sequences into arrays, inside their sends: a ``HotSignal``
/// with the rules of ``combineLatest(_:)->AsyncCombineLatestSequence<[Base.Element],Base.Failure>``, shared by
/// all of its consumers. An empty array gives a signal that has finished.
///
/// ```swift
/// let fields = [name, email, password].map { $0.map { !$0.isEmpty } }   // [HotSignal<Bool, Never>]
/// let allFilled = combineLatest(fields).map { $0.allSatisfy { $0 } }
/// ```
/// - Parameter bases: the inputs; each output has one element per input, in this order.
/// - Returns: a ``HotSignal`` of arrays.
@inlinable public func combineLatest<Base: HotSequence>(_ bases: [Base]) -> HotSignal<[Base.Element], Base.Failure> {
  makeHotCombineLatest(bases)
}

/// Builds the hot node of an array combineLatest (also what a combined array of properties iterates).
@inlinable func makeHotCombineLatest<Base: HotSequence>(
  _ bases: [Base]
) -> HotSignal<[Base.Element], Base.Failure> {
  typealias Rule = CombineLatestRule<[Base.Element?], [Base.Element]>
  typealias Inputs = HotInputs<Rule, [Base.Element], Base.Failure>
  let inputs: [Inputs.Attach] = bases.enumerated().map { index, base in
    Inputs.attach(base, failure: { $0 }) { rule, element in rule.receive(from: index) { $0[index] = element } }
  }
  let count = bases.count
  return HotSignal(
    node: Inputs.node(inputs, replay: combinedReplay(bases.map(\.replaysCurrent))) {
      Rule(inputCount: count, empty: Array(repeating: nil, count: count)) { $0.map { $0! } }
    })
}
