/// The sample(on:) rule: keeps the base's latest element and emits it at the trigger's next element, once.
///
/// Input 0 is the base, input 1 the trigger. As in RxSwift, the base's end is delivered at the next trigger
/// element (after the last pending element, if any). Unlike RxSwift, the trigger's end also ends the result, after
/// the pending element: without a trigger nothing could be emitted any more (RxSwift would then wait forever).
@usableFromInline struct SampleRule<Value: Sendable>: TriggeredRule {
  @usableFromInline static var operatorName: String { "sample(on:)" }

  @usableFromInline typealias Output = Value

  /// The base's latest element not sampled yet.
  @usableFromInline var pending: Value?
  @usableFromInline var baseFinished = false
  /// Whether the node replays its current value (both inputs have one): a fresh subscription then samples the base's
  /// current value at once, so each base element becomes what a consumer that joins is given.
  @usableFromInline let tracksCurrent: Bool

  @inlinable init() { tracksCurrent = false }

  @inlinable init(tracksCurrent: Bool) { self.tracksCurrent = tracksCurrent }

  /// The base produced `value`: it replaces any pending element and emits nothing by itself.
  @inlinable mutating func receive(_ value: Value) -> NaryStep<Value> {
    pending = value
    return tracksCurrent ? .replaceCurrent(value) : .none
  }

  /// The trigger produced an element: emit the pending element, if any; end if the base has finished.
  @inlinable mutating func triggered() -> NaryStep<Value> {
    let value = pending
    pending = nil
    switch (value, baseFinished) {
    case (let value?, false): return .emit(value)
    case (let value?, true): return .emitThenFinish(value)
    case (nil, false): return .none
    case (nil, true): return .finish
    }
  }

  /// The base's end waits for the next trigger element; the trigger's end emits the pending element and ends.
  @inlinable mutating func inputFinished(_ index: Int) -> NaryStep<Value> {
    if index == Self.baseIndex {
      baseFinished = true
      return .none
    }
    let value = pending
    pending = nil
    return value.map { .emitThenFinish($0) } ?? .finish
  }
}
