/// The skip(until:) rule: the base's elements are dropped until the trigger's first element, then pass; that
/// element lets the trigger go.
///
/// Input 0 is the base (its end ends the result, open or not), input 1 the trigger (its first element opens the
/// gate and releases it; its end without an element leaves the gate shut).
@usableFromInline struct SkipUntilRule<Value: Sendable>: TriggeredRule {
  @usableFromInline static var operatorName: String { "skip(until:)" }

  @usableFromInline typealias Output = Value

  /// The trigger produced an element: the base's elements pass.
  @usableFromInline var open = false

  @inlinable init() {}

  /// The base produced `value`: it passes once the gate is open.
  @inlinable mutating func receive(_ value: Value) -> NaryStep<Value> {
    open ? .emit(value) : .none
  }

  /// The trigger's first element opens the gate and lets the trigger go (RxSwift disposes it there).
  @inlinable mutating func triggered() -> NaryStep<Value> {
    guard !open else { return .none }
    open = true
    return .release(input: Self.triggerIndex)
  }

  /// The base's end ends the result; the trigger's end without an element does not (the gate stays shut).
  @inlinable mutating func inputFinished(_ index: Int) -> NaryStep<Value> {
    index == Self.baseIndex ? .finish : .none
  }

  @inlinable func traceOfNothingSent(afterInput index: Int) -> String {
    "received from input \(index + 1), sent nothing (skip(until:): \(open ? "the trigger" : "the gate is shut"))"
  }
}
