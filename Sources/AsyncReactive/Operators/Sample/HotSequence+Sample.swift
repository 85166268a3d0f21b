// The hot forms of `sample(on:)`: evaluated inside the sends of both inputs, so that each trigger element takes the
// element of this sequence that was latest *at that moment* (RxSwift `sample`). The same five failure-type overloads
// as the stream forms, with `Self: HotSequence` and `Trigger: HotSequence`: for hot inputs each one is more
// specific than its stream counterpart. Then the same five for a cold trigger (a `Signal`, a timer): still hot,
// the trigger iterated by a pump task per connection. A cold base keeps the stream form. Edit them together.

extension HotSequence {
  /// The node under every hot `sample(on:)`: it observes this sequence, then the trigger (as RxSwift subscribes),
  /// through the shared ``SampleRule``.
  @inlinable func hotSample<Trigger: AsyncSequence & Sendable, ResultFailure: Error>(
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
    return HotSignal(node: Inputs.node(inputs, replay: replay) { Rule() })
  }
}

extension HotSequence {
  /// Emits the element of this sequence that is latest at each element of `trigger`, if a new one arrived since
  /// the last sample, deciding inside the trigger's `send` (RxSwift `sample(_:)`; ReactiveSwift's `sample(on:)`
  /// repeats the latest value at every tick instead).
  ///
  /// A trigger element with nothing new emits nothing: the same element is never emitted twice. The trigger's
  /// elements themselves are not emitted. The pending element belongs to the node's connection, shared by all its
  /// consumers: it starts empty when the first consumer arrives.
  ///
  /// **Finishes:** at the first trigger element after this sequence finished, right after the last pending element
  /// (as in RxSwift); also when the trigger finishes, right after the pending element, if any.
  ///
  /// **Throws:** nothing: neither sequence can fail.
  ///
  /// **Cancellation:** when the last consumer stops, neither sequence is observed any more.
  ///
  /// ```swift
  /// let positions = AsyncPassthroughSubject<Double, Never>()
  /// let frames = AsyncPassthroughSubject<Void, Never>()
  /// let shown = positions.sample(on: frames)   // HotSignal<Double, Never>
  /// positions.send(0.25)
  /// frames.send()                              // `shown` has produced 0.25 when this returns
  /// ```
  /// - Parameter trigger: the sequence whose elements take the samples.
  /// - Returns: a ``HotSignal`` of this sequence's elements.
  @inlinable public func sample<Trigger: HotSequence>(
    on trigger: Trigger
  ) -> HotSignal<Element, Never> where Failure == Never, Trigger.Failure == Never {
    hotSample(on: trigger, baseFailure: neverFailure, triggerFailure: neverFailure)
  }

  /// Emits the element of this sequence that is latest at each element of `trigger`, inside the trigger's `send`.
  ///
  /// Works as ``HotSequence/sample(on:)-43yzh`` does; only what differs is written here.
  ///
  /// **Throws:** the sequences' common `Failure`, as soon as either fails.
  ///
  /// ```swift
  /// let prices = quotes.sample(on: refreshTaps)   // HotSignal<Price, QuoteError>
  /// ```
  @inlinable public func sample<Trigger: HotSequence>(
    on trigger: Trigger
  ) -> HotSignal<Element, Failure> where Trigger.Failure == Failure {
    hotSample(on: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }

  /// Emits the element of this sequence that is latest at each element of `trigger`, inside the trigger's `send`.
  ///
  /// Works as ``HotSequence/sample(on:)-43yzh`` does; only what differs is written here.
  ///
  /// **Throws:** the trigger's `Failure`, as soon as it fails; this sequence cannot fail.
  ///
  /// ```swift
  /// let prices = quotes.sample(on: refreshTaps)   // HotSignal<Price, Trigger.Failure>
  /// ```
  @inlinable public func sample<Trigger: HotSequence>(
    on trigger: Trigger
  ) -> HotSignal<Element, Trigger.Failure> where Failure == Never {
    hotSample(on: trigger, baseFailure: neverFailure, triggerFailure: { $0 })
  }

  /// Emits the element of this sequence that is latest at each element of `trigger`, inside the trigger's `send`.
  ///
  /// Works as ``HotSequence/sample(on:)-43yzh`` does; only what differs is written here.
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails; the trigger cannot fail.
  ///
  /// ```swift
  /// let prices = quotes.sample(on: refreshTaps)   // HotSignal<Price, QuoteError>
  /// ```
  @inlinable public func sample<Trigger: HotSequence>(
    on trigger: Trigger
  ) -> HotSignal<Element, Failure> where Trigger.Failure == Never {
    hotSample(on: trigger, baseFailure: { $0 }, triggerFailure: neverFailure)
  }

  /// Emits the element of this sequence that is latest at each element of `trigger`, inside the trigger's `send`.
  ///
  /// Works as ``HotSequence/sample(on:)-43yzh`` does; only what differs is written here.
  ///
  /// **Throws:** the first failure of either sequence, as `any Error` (for sequences whose failure types differ).
  ///
  /// ```swift
  /// let prices = quotes.sample(on: refreshTaps)   // HotSignal<Price, any Error>
  /// ```
  @inlinable public func sample<Trigger: HotSequence>(
    on trigger: Trigger
  ) -> HotSignal<Element, any Error> {
    hotSample(on: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }
}

// MARK: A cold trigger

extension HotSequence {
  /// Emits the element of this sequence that is latest at each element of a cold `trigger` (a ``Signal``, a
  /// timer), if a new one arrived since the last sample.
  ///
  /// The result is hot, as with a hot trigger (``HotSequence/sample(on:)-43yzh``): this sequence is observed inside its
  /// sends, and `trigger` is iterated by one pump task from the result's first consumer to its last (a later
  /// connection runs it anew); each of its elements takes the sample when its pump hands it over.
  ///
  /// **Finishes:** at the first trigger element after this sequence finished, right after the last pending element;
  /// also when the trigger finishes, right after the pending element, if any.
  ///
  /// **Throws:** nothing: neither sequence can fail.
  ///
  /// ```swift
  /// let shown = positions.sample(on: Signal.timer(every: .milliseconds(16), clock: clock))   // HotSignal<Double, Never>
  /// ```
  /// - Parameter trigger: the cold sequence whose elements take the samples.
  /// - Returns: a ``HotSignal`` of this sequence's elements.
  @inlinable public func sample<Trigger: AsyncSequence & Sendable>(
    on trigger: Trigger
  ) -> HotSignal<Element, Never> where Trigger.Element: Sendable, Failure == Never, Trigger.Failure == Never {
    hotSample(on: trigger, baseFailure: neverFailure, triggerFailure: neverFailure)
  }

  /// Emits the element of this sequence that is latest at each element of a cold `trigger`.
  ///
  /// Works as ``HotSequence/sample(on:)-53zga`` does.
  ///
  /// **Throws:** the sequences' common `Failure`, as soon as either fails.
  ///
  /// ```swift
  /// let shown = quotes.sample(on: refreshTimer)   // HotSignal<Quote, Failure>, the timer a Signal
  /// ```
  @inlinable public func sample<Trigger: AsyncSequence & Sendable>(
    on trigger: Trigger
  ) -> HotSignal<Element, Failure> where Trigger.Element: Sendable, Trigger.Failure == Failure {
    hotSample(on: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }

  /// Emits the element of this sequence that is latest at each element of a cold `trigger`.
  ///
  /// Works as ``HotSequence/sample(on:)-53zga`` does.
  ///
  /// **Throws:** the trigger's `Failure`, as soon as it fails; this sequence cannot fail.
  ///
  /// ```swift
  /// let shown = quotes.sample(on: refreshTimer)   // HotSignal<Quote, Trigger.Failure>, the timer a Signal
  /// ```
  @inlinable public func sample<Trigger: AsyncSequence & Sendable>(
    on trigger: Trigger
  ) -> HotSignal<Element, Trigger.Failure> where Trigger.Element: Sendable, Failure == Never {
    hotSample(on: trigger, baseFailure: neverFailure, triggerFailure: { $0 })
  }

  /// Emits the element of this sequence that is latest at each element of a cold `trigger`.
  ///
  /// Works as ``HotSequence/sample(on:)-53zga`` does.
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails; the trigger cannot fail.
  ///
  /// ```swift
  /// let shown = quotes.sample(on: refreshTimer)   // HotSignal<Quote, Failure>, the timer a Signal
  /// ```
  @inlinable public func sample<Trigger: AsyncSequence & Sendable>(
    on trigger: Trigger
  ) -> HotSignal<Element, Failure> where Trigger.Element: Sendable, Trigger.Failure == Never {
    hotSample(on: trigger, baseFailure: { $0 }, triggerFailure: neverFailure)
  }

  /// Emits the element of this sequence that is latest at each element of a cold `trigger`.
  ///
  /// Works as ``HotSequence/sample(on:)-53zga`` does.
  ///
  /// **Throws:** the first failure of either sequence, as `any Error` (for sequences whose failure types differ).
  ///
  /// ```swift
  /// let shown = quotes.sample(on: refreshTimer)   // HotSignal<Quote, any Error>, the timer a Signal
  /// ```
  @inlinable public func sample<Trigger: AsyncSequence & Sendable>(
    on trigger: Trigger
  ) -> HotSignal<Element, any Error> where Trigger.Element: Sendable {
    hotSample(on: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }

}
