/// What an event of an n-ary operator's rule (combineLatest, zip, merge) produces.
@usableFromInline enum NaryStep<Output: Sendable> {
  /// Nothing to deliver yet.
  case none
  /// Deliver `output`.
  case emit(Output)
  /// Deliver `output`, then end the result (zip: an input that had finished ran dry).
  case emitThenFinish(Output)
  /// End the result now, before the other inputs finish (combineLatest: an input finished without a value).
  case finish
  /// Stop observing input `input` (its run is cancelled, its subscription ends); nothing is delivered
  /// (`skip(until:)`: the trigger's first element opens the gate, and the trigger is let go, as in RxSwift).
  case release(input: Int)
  /// Deliver `output` and stop observing every input but the one whose event this is (`amb`: the first input to
  /// produce wins). No input index in the payload: a step is as large as its largest case, and every event returns
  /// one.
  case emitReleasingOthers(Output)
  /// Deliver nothing, but make `output` the node's current value, what a consumer that joins now is given: an input
  /// changed what a fresh subscription would compute (`withLatestFrom`'s other input, `sample(on:)`'s base). Only
  /// from a rule whose node replays its current value.
  case replaceCurrent(Output)
}

/// The part that tells combineLatest, zip and merge apart: what an input's elements and end produce.
///
/// Elements do not go through the protocol: each input's observer gets a typed closure that stores its element in
/// the rule (a tuple slot, a zip buffer) and returns the step. Rules are pure values.
@usableFromInline protocol NaryRule: Sendable {
  associatedtype Output: Sendable
  /// The operator's name, for its input tasks' names ("combineLatest input 2").
  static var operatorName: String { get }
  /// Input `index` finished normally; `.finish` ends the result before the other inputs do.
  mutating func inputFinished(_ index: Int) -> NaryStep<Output>
  /// Why an element of input `index` sent nothing, for a traced node's graph dump (see `AsyncReactiveDebug`).
  func traceOfNothingSent(afterInput index: Int) -> String
}

extension NaryRule {
  @inlinable func traceOfNothingSent(afterInput index: Int) -> String {
    "received from input \(index + 1), sent nothing (\(Self.operatorName))"
  }
}

/// A rule for an operator gated by a second sequence (`sample(on:)`, `take(until:)`): input 0 is the base, whose
/// elements the rule receives, input 1 the trigger, whose elements only say "now".
@usableFromInline protocol TriggeredRule: NaryRule {
  init()
  /// The base produced `value`.
  mutating func receive(_ value: Output) -> NaryStep<Output>
  /// The trigger produced an element.
  mutating func triggered() -> NaryStep<Output>
}

extension TriggeredRule {
  /// The position of the base among the inputs.
  @inlinable static var baseIndex: Int { 0 }
  /// The position of the trigger among the inputs.
  @inlinable static var triggerIndex: Int { 1 }
}

extension HotSequence {
  /// The node of an operator gated by a trigger (`take(until:)`, `skip(until:)`, `sample(on:)`): this sequence is
  /// the rule's base, `trigger` its trigger, observed in the order RxSwift subscribes them (`triggerFirst` for
  /// `take(until:)`, whose trigger with a current value ends the result before any element).
  @inlinable func hotGated<Rule: TriggeredRule, Trigger: AsyncSequence & Sendable, ResultFailure: Error>(
    _ rule: @escaping @Sendable () -> Rule,
    by trigger: Trigger, triggerFirst: Bool = false,
    replay: Node<Element, ResultFailure>.Replay, origin: NodeOrigin,
    baseFailure: @escaping @Sendable (Failure) -> ResultFailure,
    triggerFailure: @escaping @Sendable (Trigger.Failure) -> ResultFailure
  ) -> HotSignal<Element, ResultFailure> where Rule.Output == Element, Trigger.Element: Sendable {
    typealias Inputs = NaryConnection<Rule, Element, ResultFailure>
    let base = Inputs.attach(self, index: Rule.baseIndex, failure: baseFailure) { rule, value in rule.receive(value) }
    let gate = Inputs.attach(any: trigger, index: Rule.triggerIndex, failure: triggerFailure) { rule, _ in
      rule.triggered()
    }
    return HotSignal(
      node: Inputs.node(
        triggerFirst ? [gate, base] : [base, gate], replay: replay, origin: origin,
        inputNodes: NodeInputs([hotSignal.node, graphInput(trigger)].compactMap { $0 }), rule: rule))
  }
}
