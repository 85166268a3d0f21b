/// The withLatestFrom rule: keeps the latest element of the other input and pairs each element of the base with
/// it; base elements that come before the other input has produced anything are dropped.
///
/// Input 0 is the base (its end ends the result), input 1 the other input (its end changes nothing: its latest
/// element stays in use). A pure value kept behind the n-ary storage's lock; `@usableFromInline` so that the
/// whole path specialises in the client's module.
@usableFromInline struct WithLatestFromRule<Value: Sendable, Latest: Sendable>: NaryRule {
  @usableFromInline static var operatorName: String { "withLatestFrom" }

  @usableFromInline typealias Output = (Value, Latest)

  /// The position of the base among the n-ary inputs.
  @inlinable static var baseIndex: Int { 0 }
  /// The position of the other input among the n-ary inputs.
  @inlinable static var otherIndex: Int { 1 }

  @usableFromInline enum State: Sendable {
    /// The other input has produced nothing yet: base elements are dropped.
    case waitingForLatest
    /// Each base element is paired with `latest`.
    case pairing(latest: Latest)
  }

  @usableFromInline var state = State.waitingForLatest
  /// Whether the node replays its current value (both inputs have one): then `baseLatest` is kept, so that a new
  /// element of the other input changes what a consumer that joins is given (the pair of both current values, what
  /// a fresh subscription computes) without emitting.
  @usableFromInline let tracksCurrent: Bool
  /// The base's latest element, kept only when `tracksCurrent`.
  @usableFromInline var baseLatest: Value?

  @inlinable init(tracksCurrent: Bool) { self.tracksCurrent = tracksCurrent }

  /// Why an element sent nothing: the other input's value is only kept; the source's is dropped until there is one.
  @inlinable func traceOfNothingSent(afterInput index: Int) -> String {
    guard index == Self.baseIndex else { return "received a value of input 2, kept for the next element of input 1" }
    return "received from input 1, dropped: input 2 has no value yet"
  }

  /// The base produced `value`: pair it with the latest element of the other input, or drop it if there is none.
  @inlinable mutating func receive(_ value: Value) -> NaryStep<Output> {
    if tracksCurrent { baseLatest = value }
    switch state {
    case .waitingForLatest:
      return .none
    case .pairing(let latest):
      return .emit((value, latest))
    }
  }

  /// The other input produced `latest`: it replaces the previous one and emits nothing by itself.
  @inlinable mutating func receiveLatest(_ latest: Latest) -> NaryStep<Output> {
    state = .pairing(latest: latest)
    guard tracksCurrent, let baseLatest else { return .none }
    return .replaceCurrent((baseLatest, latest))
  }

  /// The base's end ends the result at once; the other input's end does not (RxSwift, ReactiveSwift): its latest
  /// element keeps being paired, and if it never produced one, every base element is dropped until the base ends.
  @inlinable mutating func inputFinished(_ index: Int) -> NaryStep<Output> {
    index == Self.baseIndex ? .finish : .none
  }
}
