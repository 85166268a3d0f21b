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
  @usableFromInline let output: @Sendable (Latest) -> Output

  /// - Parameters:
  ///   - inputCount: the number of inputs.
  ///   - empty: the slots before any input produced.
  ///   - output: builds the output from slots that are all filled.
  @inlinable init(inputCount: Int, empty: Latest, output: @escaping @Sendable (Latest) -> Output) {
    state = .collecting(missing: inputCount)
    latest = empty
    hasValue = Array(repeating: false, count: inputCount)
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
      guard !hasValue[index] else { return .none }
      hasValue[index] = true
      guard missing == 1 else {
        state = .collecting(missing: missing - 1)
        return .none
      }
      state = .combining
      hasValue = []
      return .emit(output(latest))
    }
  }

  /// An input that finishes before producing anything ends the result at once: no combination can ever be
  /// made. After the first value the result ends when every input has ended.
  @inlinable mutating func inputFinished(_ index: Int) -> NaryStep<Output> {
    switch state {
    case .combining:
      return .none
    case .collecting:
      return hasValue[index] ? .none : .finish
    }
  }
}
