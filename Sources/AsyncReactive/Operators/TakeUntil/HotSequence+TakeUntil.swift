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

extension HotSequence {
  /// Mirrors this sequence until `trigger` produces its first element, then finishes, inside the sends (RxSwift
  /// `take(until:)`, ReactiveSwift `take(until:)`).
  ///
  /// The operator on any sequence, typed as a ``HotSignal``: it runs inside the upstream's `send`, once for all
  /// of its consumers, and observes the upstream from its first consumer to its last.
  ///
  /// ```swift
  /// let firstMinute = positions.take(until: Signal.timer(after: .seconds(60), clock: clock))   // HotSignal<Int, Never>
  /// ```
  /// - Parameter trigger: the sequence whose first element ends the result.
  /// - Returns: a ``HotSignal`` of this sequence's elements.
  @inlinable package func hotTake<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Never> where Trigger.Element: Sendable, Failure == Never, Trigger.Failure == Never {
    hotTake(fileID: fileID, line: line, until: trigger, baseFailure: neverFailure, triggerFailure: neverFailure)
  }

  /// Mirrors this sequence until `trigger` produces its first element, then finishes.
  ///
  /// **Throws:** the sequences' common `Failure`, as soon as either fails.
  ///
  /// ```swift
  /// let shown = quotes.take(until: sessionExpiry)   // HotSignal<Quote, Failure>, the expiry a Signal
  /// ```
  @inlinable package func hotTake<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> where Trigger.Element: Sendable, Trigger.Failure == Failure {
    hotTake(fileID: fileID, line: line, until: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }

  /// Mirrors this sequence until `trigger` produces its first element, then finishes.
  ///
  /// **Throws:** the trigger's `Failure`, as soon as it fails; this sequence cannot fail.
  ///
  /// ```swift
  /// let shown = quotes.take(until: sessionExpiry)   // HotSignal<Quote, Trigger.Failure>, the expiry a Signal
  /// ```
  @inlinable package func hotTake<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Trigger.Failure> where Trigger.Element: Sendable, Failure == Never {
    hotTake(fileID: fileID, line: line, until: trigger, baseFailure: neverFailure, triggerFailure: { $0 })
  }

  /// Mirrors this sequence until `trigger` produces its first element, then finishes.
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails; the trigger cannot fail.
  ///
  /// ```swift
  /// let shown = quotes.take(until: sessionExpiry)   // HotSignal<Quote, Failure>, the expiry a Signal
  /// ```
  @inlinable package func hotTake<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> where Trigger.Element: Sendable, Trigger.Failure == Never {
    hotTake(fileID: fileID, line: line, until: trigger, baseFailure: { $0 }, triggerFailure: neverFailure)
  }

  /// Mirrors this sequence until `trigger` produces its first element, then finishes.
  ///
  /// **Throws:** the first failure of either sequence, as `any Error` (for sequences whose failure types differ).
  ///
  /// ```swift
  /// let shown = quotes.take(until: sessionExpiry)   // HotSignal<Quote, any Error>, the expiry a Signal
  /// ```
  @inlinable package func hotTake<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, any Error> where Trigger.Element: Sendable {
    hotTake(fileID: fileID, line: line, until: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }

}
