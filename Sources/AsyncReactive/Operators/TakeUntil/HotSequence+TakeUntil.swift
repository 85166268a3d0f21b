// The hot forms of `take(until:)`: evaluated inside the sends of both inputs, so that the result ends at the very
// send of the trigger's first element and nothing sent after it passes (RxSwift, ReactiveSwift). Five failure-type
// overloads, with `Self: HotSequence`: the trigger is observed as what its value is (a hot one inside its sends, a
// cold one run per connection). The same operator on any sequence is in AsyncSequence+TakeUntil.swift.

extension HotSequence {
  /// The node under every hot `take(until:)`: it observes the trigger, then this sequence (as RxSwift subscribes,
  /// so a trigger with a current value ends the result before any element), through the shared
  /// ``TakeUntilRule``.
  @inlinable func hotTake<Trigger: AsyncSequence & Sendable, ResultFailure: Error>(
    fileID: StaticString = "", line: UInt = 0,
    until trigger: Trigger,
    baseFailure: @escaping @Sendable (Failure) -> ResultFailure,
    triggerFailure: @escaping @Sendable (Trigger.Failure) -> ResultFailure
  ) -> HotSignal<Element, ResultFailure> where Trigger.Element: Sendable {
    typealias Rule = TakeUntilRule<Element>
    typealias Inputs = HotInputs<Rule, Element, ResultFailure>
    let inputs: [Inputs.Attach] = [
      Inputs.attach(any: trigger, index: Rule.triggerIndex, failure: triggerFailure) { rule, _ in rule.triggered() },
      Inputs.attach(self, index: Rule.baseIndex, failure: baseFailure) { rule, value in rule.receive(value) },
    ]
    let replay: SubjectStorage<Element, ResultFailure>.Replay = replaysCurrent ? .current : .none
    return HotSignal(
      node: Inputs.node(
        inputs, replay: replay, origin: NodeOrigin(.takeUntil, fileID: fileID, line: line),
        inputNodes: NodeInputs([hotSignal.node, graphInput(trigger)].compactMap { $0 })
      ) { Rule() })
  }
}
