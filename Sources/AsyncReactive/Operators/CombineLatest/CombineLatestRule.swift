/// The combineLatest rule: keeps the latest element of each input and emits them together, once every
/// input has produced one and then on every new element.
///
/// `Latest` holds one optional slot per input (a tuple of optionals, or an array for the array form); the
/// typed front writes a slot and builds the output from full slots, so no element is type-erased.
@usableFromInline struct CombineLatestRule<Latest: Sendable, Output: Sendable>: NaryRule {
  @usableFromInline static var operatorName: String { "combineLatest" }

  @usableFromInline enum State: Sendable {
    /// Some inputs have not produced yet; `missing` counts them.
    case collecting(missing: Int)
    /// Every input has produced: each new element emits.
    case combining
  }

  @usableFromInline var state: State
  @usableFromInline var latest: Latest
  /// Which inputs have produced (only read while collecting).
  @usableFromInline var hasValue: [Bool]
  /// Which inputs have finished (only read while collecting).
  @usableFromInline var isDone: [Bool]
  @usableFromInline let output: @Sendable (Latest) -> Output

  /// - Parameters:
  ///   - inputCount: the number of inputs.
  ///   - empty: the slots before any input produced.
  ///   - output: builds the output from slots that are all filled.
  @inlinable init(inputCount: Int, empty: Latest, output: @escaping @Sendable (Latest) -> Output) {
    state = .collecting(missing: inputCount)
    latest = empty
    hasValue = Array(repeating: false, count: inputCount)
    isDone = Array(repeating: false, count: inputCount)
    self.output = output
  }

  /// Input `index` produced an element, which `store` writes into its slot. Each element after the first
  /// complete set emits exactly one output, so elements that arrive together are never merged or lost.
  @inlinable mutating func receive(from index: Int, _ store: (inout Latest) -> Void) -> NaryStep<Output> {
    store(&latest)
    switch state {
    case .combining:
      return .emit(output(latest))
    case .collecting(let missing):
      if !hasValue[index] {
        hasValue[index] = true
        guard missing == 1 else {
          state = .collecting(missing: missing - 1)
          return finishesWhileCollecting(after: index)
        }
        state = .combining
        hasValue = []
        isDone = []
        return .emit(output(latest))
      }
      return finishesWhileCollecting(after: index)
    }
  }

  /// While some input has not produced: the result finishes when input `index` delivers and every other input
  /// has already finished, since no combination can ever be made (RxSwift's rule).
  @inlinable func finishesWhileCollecting(after index: Int) -> NaryStep<Output> {
    for input in isDone.indices where input != index && !isDone[input] { return .none }
    return .finish
  }

  /// While collecting: which inputs the node waits for.
  @inlinable func traceOfNothingSent(afterInput index: Int) -> String {
    let missing = hasValue.indices.filter { !hasValue[$0] }.map { "\($0 + 1)" }
    let waiting = missing.count == 1 ? "input \(missing[0])" : "inputs \(missing.joined(separator: ", "))"
    return "received from input \(index + 1), waiting for \(waiting)"
  }

  /// An input's end never ends the result by itself: the result finishes when every input has finished (the
  /// inputs' node counts them), or earlier, when an input delivers while some input has no value yet and every
  /// other input has finished. So an input that ends before producing leaves the others running, and an error
  /// from one of them still fails the result, as in RxSwift.
  @inlinable mutating func inputFinished(_ index: Int) -> NaryStep<Output> {
    if case .collecting = state { isDone[index] = true }
    return .none
  }
}
