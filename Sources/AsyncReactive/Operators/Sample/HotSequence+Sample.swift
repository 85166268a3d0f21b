// The hot forms of `sample(on:)`: evaluated inside the sends of both inputs, so that each trigger element takes the
// element of this sequence that was latest *at that moment* (RxSwift `sample`). Five failure-type overloads, with
// `Self: HotSequence`: the trigger is observed as what its value is (a hot one inside its sends, a cold one run per
// connection). The same operator on any sequence is in AsyncSequence+Sample.swift. Edit them together.

extension HotSequence {
  /// The node under every hot `sample(on:)`: it observes this sequence, then the trigger (as RxSwift subscribes),
  /// through the shared ``SampleRule``.
  @inlinable func hotSample<Trigger: AsyncSequence & Sendable, ResultFailure: Error>(
    fileID: StaticString = "", line: UInt = 0,
    on trigger: Trigger,
    baseFailure: @escaping @Sendable (Failure) -> ResultFailure,
    triggerFailure: @escaping @Sendable (Trigger.Failure) -> ResultFailure
  ) -> HotSignal<Element, ResultFailure> where Trigger.Element: Sendable {
    typealias Rule = SampleRule<Element>
    typealias Inputs = HotInputs<Rule, Element, ResultFailure>
    let inputs: [Inputs.Attach] = [
      Inputs.attach(self, index: Rule.baseIndex, failure: baseFailure) { rule, value in rule.receive(value) },
      Inputs.attach(any: trigger, index: Rule.triggerIndex, failure: triggerFailure) { rule, _ in rule.triggered() },
    ]
    let replay: SubjectStorage<Element, ResultFailure>.Replay = combinedReplay([
      replaysCurrent, inputReplaysCurrent(trigger),
    ])
    return HotSignal(
      node: Inputs.node(
        inputs, replay: replay, origin: NodeOrigin(.sample, fileID: fileID, line: line),
        inputNodes: NodeInputs([hotSignal.node, graphInput(trigger)].compactMap { $0 })
      ) { Rule() })
  }
}

extension HotSequence {
  /// Emits the element of this sequence that is latest at each element of `trigger`, if a new one arrived since the
  /// last sample, inside the sends (RxSwift `sample`, ReactiveSwift `sample(on:)`).
  ///
  /// The operator on any sequence, typed as a ``HotSignal``: it runs inside the upstream's `send`, once for all
  /// of its consumers, and observes the upstream from its first consumer to its last.
  ///
  /// ```swift
  /// let shown = positions.sample(on: Signal.timer(every: .milliseconds(16), clock: clock))   // HotSignal<Double, Never>
  /// ```
  /// - Parameter trigger: the sequence whose elements take the samples.
  /// - Returns: a ``HotSignal`` of this sequence's elements.
  @inlinable package func hotSample<Trigger: AsyncSequence & Sendable>(
    on trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Never> where Trigger.Element: Sendable, Failure == Never, Trigger.Failure == Never {
    hotSample(fileID: fileID, line: line, on: trigger, baseFailure: neverFailure, triggerFailure: neverFailure)
  }

  /// Emits the element of this sequence that is latest at each element of `trigger`.
  ///
  /// **Throws:** the sequences' common `Failure`, as soon as either fails.
  ///
  /// ```swift
  /// let shown = quotes.sample(on: refreshTimer)   // HotSignal<Quote, Failure>, the timer a Signal
  /// ```
  @inlinable package func hotSample<Trigger: AsyncSequence & Sendable>(
    on trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> where Trigger.Element: Sendable, Trigger.Failure == Failure {
    hotSample(fileID: fileID, line: line, on: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }

  /// Emits the element of this sequence that is latest at each element of `trigger`.
  ///
  /// **Throws:** the trigger's `Failure`, as soon as it fails; this sequence cannot fail.
  ///
  /// ```swift
  /// let shown = quotes.sample(on: refreshTimer)   // HotSignal<Quote, Trigger.Failure>, the timer a Signal
  /// ```
  @inlinable package func hotSample<Trigger: AsyncSequence & Sendable>(
    on trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Trigger.Failure> where Trigger.Element: Sendable, Failure == Never {
    hotSample(fileID: fileID, line: line, on: trigger, baseFailure: neverFailure, triggerFailure: { $0 })
  }

  /// Emits the element of this sequence that is latest at each element of `trigger`.
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails; the trigger cannot fail.
  ///
  /// ```swift
  /// let shown = quotes.sample(on: refreshTimer)   // HotSignal<Quote, Failure>, the timer a Signal
  /// ```
  @inlinable package func hotSample<Trigger: AsyncSequence & Sendable>(
    on trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> where Trigger.Element: Sendable, Trigger.Failure == Never {
    hotSample(fileID: fileID, line: line, on: trigger, baseFailure: { $0 }, triggerFailure: neverFailure)
  }

  /// Emits the element of this sequence that is latest at each element of `trigger`.
  ///
  /// **Throws:** the first failure of either sequence, as `any Error` (for sequences whose failure types differ).
  ///
  /// ```swift
  /// let shown = quotes.sample(on: refreshTimer)   // HotSignal<Quote, any Error>, the timer a Signal
  /// ```
  @inlinable package func hotSample<Trigger: AsyncSequence & Sendable>(
    on trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, any Error> where Trigger.Element: Sendable {
    hotSample(fileID: fileID, line: line, on: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }

}
