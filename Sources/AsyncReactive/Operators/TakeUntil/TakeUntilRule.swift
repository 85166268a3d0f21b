/// The take(until:) rule: the base's elements pass; the trigger's first element ends the result.
///
/// Input 0 is the base (its end ends the result), input 1 the trigger (its elements end the result; its end
/// without an element changes nothing, as in RxSwift). Stateless: every decision follows from the event alone.
@usableFromInline struct TakeUntilRule<Value: Sendable>: TriggeredRule {
  @usableFromInline static var operatorName: String { "take(until:)" }

  @usableFromInline typealias Output = Value

  @inlinable init() {}

  /// The base produced `value`: it passes.
  @inlinable mutating func receive(_ value: Value) -> NaryStep<Value> {
    .emit(value)
  }

  /// The trigger produced an element: the result finishes (the base is cancelled).
  @inlinable mutating func triggered() -> NaryStep<Value> {
    .finish
  }

  /// The base's end ends the result; the trigger's end without an element does not (RxSwift `take(until:)`
  /// stops listening to it and goes on mirroring the base).
  @inlinable mutating func inputFinished(_ index: Int) -> NaryStep<Value> {
    index == Self.baseIndex ? .finish : .none
  }
}
