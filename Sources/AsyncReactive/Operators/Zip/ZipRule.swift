/// The zip rule: pairs the n-th elements of every input; an input that runs ahead is buffered.
///
/// `Buffers` holds one ``ZipBuffer`` per input (a tuple, or an array for the array form); the typed front
/// appends to an input's buffer and takes the oldest element of each to build an output.
@usableFromInline struct ZipRule<Buffers: Sendable, Output: Sendable>: NaryRule {
  @usableFromInline static var operatorName: String { "zip" }

  @usableFromInline var buffers: Buffers
  @usableFromInline let takeOutput: @Sendable (inout Buffers) -> Output
  /// How many elements each input has buffered.
  @usableFromInline var buffered: [Int]
  /// Which inputs have finished.
  @usableFromInline var hasFinished: [Bool]
  /// How many inputs have nothing buffered; an output is made when none is empty.
  @usableFromInline var emptyInputs: Int
  /// An input finished with nothing buffered: no output can be made again, so later elements are not kept.
  /// The result still ends only when every input has ended (or one fails), as RxSwift's zip does.
  @usableFromInline var exhausted = false
  /// How many inputs have finished.
  @usableFromInline var finishedCount = 0
  /// RxSwift's rule for a collection of inputs (`zip([…])`): an element that makes no output while every other
  /// input has finished finishes the result. The fixed arities do not (RxSwift's `zip(a, b)` does not either).
  @usableFromInline let finishesWhenOthersFinished: Bool

  /// - Parameters:
  ///   - inputCount: the number of inputs.
  ///   - empty: one empty buffer per input.
  ///   - takeOutput: removes the oldest element of every buffer (all non-empty) and builds the output.
  ///   - finishesWhenOthersFinished: the collection rule (see ``finishesWhenOthersFinished``).
  @inlinable init(
    inputCount: Int, empty: Buffers, finishesWhenOthersFinished: Bool = false,
    takeOutput: @escaping @Sendable (inout Buffers) -> Output
  ) {
    buffers = empty
    self.finishesWhenOthersFinished = finishesWhenOthersFinished
    self.takeOutput = takeOutput
    buffered = Array(repeating: 0, count: inputCount)
    hasFinished = Array(repeating: false, count: inputCount)
    emptyInputs = inputCount
  }

  /// Input `index` produced an element, which `append` adds to its buffer.
  @inlinable mutating func receive(from index: Int, _ append: (inout Buffers) -> Void) -> NaryStep<Output> {
    guard !exhausted || finishesWhenOthersFinished else { return .none }
    append(&buffers)
    buffered[index] += 1
    if buffered[index] == 1 { emptyInputs -= 1 }
    guard emptyInputs == 0 else {
      return finishesWhenOthersFinished && finishedCount == hasFinished.count - 1 ? .finish : .none
    }
    let output = takeOutput(&buffers)
    for input in buffered.indices {
      buffered[input] -= 1
      if buffered[input] == 0 {
        emptyInputs += 1
        if hasFinished[input] { exhausted = true }
      }
    }
    return .emit(output)
  }

  /// An input's end never ends the result by itself: the result finishes when every input has finished (the
  /// inputs' node counts them), even if an input that ended first left nothing to pair, so an error from a
  /// running input still fails it. This is RxSwift's rule.
  @inlinable mutating func inputFinished(_ index: Int) -> NaryStep<Output> {
    if !hasFinished[index] { finishedCount += 1 }
    hasFinished[index] = true
    if buffered[index] == 0 { exhausted = true }
    return .none
  }
}
