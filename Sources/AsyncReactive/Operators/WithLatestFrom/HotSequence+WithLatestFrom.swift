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
    // A fresh subscription pairs the base's current value with the other input's: nothing when either has none.
    let replay: Node<Output, ResultFailure>.Replay = combinedReplay([replaysCurrent, inputReplaysCurrent(other)])
    let tracksCurrent = replay.keepsCurrent
    let inputNodes = NodeInputs([hotSignal.node, graphInput(other)].compactMap { $0 })
    return HotSignal(
      node: Inputs.node(
        inputs, replay: replay, origin: origin, inputNodes: inputNodes, output: { combine($0.0, $0.1) }
      ) { Rule(tracksCurrent: tracksCurrent) })
  }

  /// The node under the property forms: the property's value is read inside this sequence's `send`.
  @inlinable func hotWithLatestValue<Source: PropertyProtocol, Output: Sendable, ResultFailure: Error>(
    origin: NodeOrigin = NodeOrigin(.withLatestFrom),
    _ property: Source, combine: @escaping @Sendable (Element, Source.Value) -> Output,
    failure: @escaping @Sendable (Failure) -> ResultFailure
  ) -> HotSignal<Output, ResultFailure> {
    let base = hotSignal.node
    let source = property.hotSignal.node
    guard Node<Output, ResultFailure>.replay(following: base).keepsCurrent else {
      // No current value to keep up to date: a consumer that joins is given nothing before the base's next element.
      return HotSignal(
        node: .observing(base, origin: origin, inputs: .many([base, source])) { node in
          { value in node.send(combine(value, property.value)) }
        } onEnd: { node, termination in
          node.terminate(mapTermination(termination, failure))
        })
    }
    // The base has a current value: a consumer that joins is given it paired with the property's value now, so a
    // change of the property alone updates what the node replays (it sends nothing).
    return HotSignal(
      node: Node(replay: .current, restarts: base.restarts, origin: origin, inputs: .many([base, source])) { node in
        // The base's latest element, and how many it has sent: a property change paired with an element that a
        // newer one replaced meanwhile (on another thread) leaves the newer pair in place.
        let latest = Locked<(value: Element, count: Int)?>(nil)
        // Observed first: its current value, given at once, finds no base element yet.
        let propertySink = source.addSink { value in
          guard let (element, count) = latest.withLock({ $0 }) else { return }
          let current = combine(element, value)
          latest.withLock { latest in
            if latest?.count == count { node.replaceCurrent(current) }
          }
        } onEnd: { _ in
        }
        let baseSink = base.addSink { value in
          latest.withLock { latest in latest = (value, (latest?.count ?? 0) &+ 1) }
          node.send(combine(value, property.value))
        } onEnd: { termination in
          node.terminate(mapTermination(termination, failure))
        }
        return {
          base.removeSink(baseSink)
          source.removeSink(propertySink)
        }
      })
  }
}
