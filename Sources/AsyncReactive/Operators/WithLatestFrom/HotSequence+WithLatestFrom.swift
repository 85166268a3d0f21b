// The hot forms of `withLatestFrom`: evaluated inside the sends of both inputs, so that each element of this
// sequence is paired with the other input's latest element *at the moment it was sent* (RxSwift, ReactiveSwift).
// The node builders the operator on any sequence (AsyncSequence+WithLatestFrom.swift) runs: `other` is observed as
// what its value is (a property read at each send, a hot one inside its sends, a cold one run per connection).

extension HotSequence {
  /// The node under every hot `withLatestFrom`: it observes `other` before this sequence (so that a current
  /// value is there for the first element) and pairs through the shared ``WithLatestFromRule``.
  @inlinable func hotWithLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable, ResultFailure: Error>(
    origin: NodeOrigin = NodeOrigin(.withLatestFrom),
    _ other: Other,
    combine: @escaping @Sendable (Element, Other.Element) -> Output,
    baseFailure: @escaping @Sendable (Failure) -> ResultFailure,
    otherFailure: @escaping @Sendable (Other.Failure) -> ResultFailure
  ) -> HotSignal<Output, ResultFailure> where Other.Element: Sendable {
    // A property (a derived `Property`, a current-value subject that cannot fail) is read, not observed: its value
    // at this sequence's send, computed from its sources' current values. Decided once, from the value.
    if let property = (other as? any PropertyProtocol<Other.Element>)?.property {
      return hotWithLatestValue(origin: origin, property, combine: combine, failure: baseFailure)
    }
    typealias Rule = WithLatestFromRule<Element, Other.Element>
    typealias Inputs = NaryConnection<Rule, Output, ResultFailure>
    let inputs: [Inputs.Attach] = [
      Inputs.attach(any: other, index: Rule.otherIndex, failure: otherFailure) { rule, latest in
        rule.receiveLatest(latest)
      },
      Inputs.attach(self, index: Rule.baseIndex, failure: baseFailure) { rule, value in rule.receive(value) },
    ]
    let replay: Node<Output, ResultFailure>.Replay = replaysCurrent ? .current : .none
    let inputNodes = NodeInputs([hotSignal.node, graphInput(other)].compactMap { $0 })
    return HotSignal(
      node: Inputs.node(
        inputs, replay: replay, origin: origin, inputNodes: inputNodes, output: { combine($0.0, $0.1) }
      ) { Rule() })
  }

  /// The node under the property forms: the property's value is read inside this sequence's `send`.
  @inlinable func hotWithLatestValue<Source: PropertyProtocol, Output: Sendable, ResultFailure: Error>(
    origin: NodeOrigin = NodeOrigin(.withLatestFrom),
    _ property: Source, combine: @escaping @Sendable (Element, Source.Value) -> Output,
    failure: @escaping @Sendable (Failure) -> ResultFailure
  ) -> HotSignal<Output, ResultFailure> {
    HotSignal(
      node: .observing(hotSignal.node, origin: origin, inputs: .many([hotSignal.node, property.hotSignal.node])) {
        node in
        { value in node.send(combine(value, property.value)) }
      } onEnd: { node, termination in
        node.terminate(mapTermination(termination, failure))
      })
  }
}
