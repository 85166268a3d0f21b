// The hot forms of `take(until:)`: evaluated inside the sends of both inputs, so that the result ends at the very
// send of the trigger's first element and nothing sent after it passes (RxSwift, ReactiveSwift). The same five
// failure-type overloads as the stream forms, with `Self: HotSequence` and `Trigger: HotSequence`: for hot inputs
// each one is more specific than its stream counterpart. Then the same five for a cold trigger (a `Signal`, a
// timer): still hot, the trigger iterated by a pump task per connection. A cold base keeps the stream form. Edit
// them together.

extension HotSequence {
  /// The node under every hot `take(until:)`: it observes the trigger, then this sequence (as RxSwift subscribes,
  /// so a trigger with a current value ends the result before any element), through the shared
  /// ``TakeUntilRule``.
  @inlinable func hotTake<Trigger: AsyncSequence & Sendable, ResultFailure: Error>(
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
    let replay: SubjectStorage<Element, ResultFailure>.Replay = replaysCurrent ? .latest(1) : .none
    return HotSignal(node: Inputs.node(inputs, replay: replay) { Rule() })
  }
}

extension HotSequence {
  /// Mirrors this sequence until `trigger` produces its first element, then finishes, deciding inside the sends
  /// (RxSwift `take(until:)`, RAC `takeUntil:`, ReactiveSwift `take(until:)`): the lifecycle idiom
  /// `values.take(until: viewWillDisappear)`.
  ///
  /// The trigger's element itself is not emitted. If the trigger finishes without an element, nothing changes:
  /// the result goes on mirroring this sequence. A trigger with a current value (an ``AsyncCurrentValueSubject``, a
  /// ``Property``) ends the result as soon as it is observed, before any element, as in RxSwift.
  ///
  /// **Finishes:** inside the `send` of the trigger's first element, or when this sequence finishes.
  ///
  /// **Throws:** nothing: neither sequence can fail.
  ///
  /// **Cancellation:** when the last consumer stops, neither sequence is observed any more.
  ///
  /// ```swift
  /// let positions = AsyncPassthroughSubject<Int, Never>()
  /// let viewWillDisappear = AsyncPassthroughSubject<Void, Never>()
  /// let shown = positions.take(until: viewWillDisappear)   // HotSignal<Int, Never>
  /// viewWillDisappear.send()                              // `shown` has finished when this returns
  /// ```
  /// - Parameter trigger: the sequence whose first element ends the result.
  /// - Returns: a ``HotSignal`` of this sequence's elements.
  @inlinable public func take<Trigger: HotSequence>(
    until trigger: Trigger
  ) -> HotSignal<Element, Never> where Failure == Never, Trigger.Failure == Never {
    hotTake(until: trigger, baseFailure: neverFailure, triggerFailure: neverFailure)
  }

  /// Mirrors this sequence until `trigger` produces its first element, then finishes, deciding inside the sends.
  ///
  /// Works as ``HotSequence/take(until:)-7pqu9`` does; only what differs is written here.
  ///
  /// **Throws:** the sequences' common `Failure`, as soon as either fails.
  ///
  /// ```swift
  /// let shown = quotes.take(until: logOut)   // HotSignal<Quote, QuoteError>
  /// ```
  @inlinable public func take<Trigger: HotSequence>(
    until trigger: Trigger
  ) -> HotSignal<Element, Failure> where Trigger.Failure == Failure {
    hotTake(until: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }

  /// Mirrors this sequence until `trigger` produces its first element, then finishes, deciding inside the sends.
  ///
  /// Works as ``HotSequence/take(until:)-7pqu9`` does; only what differs is written here.
  ///
  /// **Throws:** the trigger's `Failure`, as soon as it fails; this sequence cannot fail.
  ///
  /// ```swift
  /// let shown = quotes.take(until: logOut)   // HotSignal<Quote, Trigger.Failure>
  /// ```
  @inlinable public func take<Trigger: HotSequence>(
    until trigger: Trigger
  ) -> HotSignal<Element, Trigger.Failure> where Failure == Never {
    hotTake(until: trigger, baseFailure: neverFailure, triggerFailure: { $0 })
  }

  /// Mirrors this sequence until `trigger` produces its first element, then finishes, deciding inside the sends.
  ///
  /// Works as ``HotSequence/take(until:)-7pqu9`` does; only what differs is written here.
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails; the trigger cannot fail.
  ///
  /// ```swift
  /// let shown = quotes.take(until: logOut)   // HotSignal<Quote, QuoteError>
  /// ```
  @inlinable public func take<Trigger: HotSequence>(
    until trigger: Trigger
  ) -> HotSignal<Element, Failure> where Trigger.Failure == Never {
    hotTake(until: trigger, baseFailure: { $0 }, triggerFailure: neverFailure)
  }

  /// Mirrors this sequence until `trigger` produces its first element, then finishes, deciding inside the sends.
  ///
  /// Works as ``HotSequence/take(until:)-7pqu9`` does; only what differs is written here.
  ///
  /// **Throws:** the first failure of either sequence, as `any Error` (for sequences whose failure types differ).
  ///
  /// ```swift
  /// let shown = quotes.take(until: logOut)   // HotSignal<Quote, any Error>
  /// ```
  @inlinable public func take<Trigger: HotSequence>(
    until trigger: Trigger
  ) -> HotSignal<Element, any Error> {
    hotTake(until: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }
}

// MARK: A cold trigger

extension HotSequence {
  /// Mirrors this sequence until a cold `trigger` (a ``Signal``, a timer) produces its first element, then finishes.
  ///
  /// The result is hot, as with a hot trigger (``HotSequence/take(until:)-7pqu9``): this sequence is observed inside its
  /// sends, and `trigger` is iterated by one pump task from the result's first consumer to its last (a later
  /// connection runs it anew); the result finishes when that pump hands over the trigger's first element.
  ///
  /// **Finishes:** at the trigger's first element, or when this sequence finishes.
  ///
  /// **Throws:** nothing: neither sequence can fail.
  ///
  /// ```swift
  /// let firstMinute = positions.take(until: Signal.timer(after: .seconds(60), clock: clock))   // HotSignal<Int, Never>
  /// ```
  /// - Parameter trigger: the cold sequence whose first element ends the result.
  /// - Returns: a ``HotSignal`` of this sequence's elements.
  @inlinable public func take<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger
  ) -> HotSignal<Element, Never> where Trigger.Element: Sendable, Failure == Never, Trigger.Failure == Never {
    hotTake(until: trigger, baseFailure: neverFailure, triggerFailure: neverFailure)
  }

  /// Mirrors this sequence until a cold `trigger` produces its first element, then finishes.
  ///
  /// Works as ``HotSequence/take(until:)-4700u`` does.
  ///
  /// **Throws:** the sequences' common `Failure`, as soon as either fails.
  ///
  /// ```swift
  /// let shown = quotes.take(until: sessionExpiry)   // HotSignal<Quote, Failure>, the expiry a Signal
  /// ```
  @inlinable public func take<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger
  ) -> HotSignal<Element, Failure> where Trigger.Element: Sendable, Trigger.Failure == Failure {
    hotTake(until: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }

  /// Mirrors this sequence until a cold `trigger` produces its first element, then finishes.
  ///
  /// Works as ``HotSequence/take(until:)-4700u`` does.
  ///
  /// **Throws:** the trigger's `Failure`, as soon as it fails; this sequence cannot fail.
  ///
  /// ```swift
  /// let shown = quotes.take(until: sessionExpiry)   // HotSignal<Quote, Trigger.Failure>, the expiry a Signal
  /// ```
  @inlinable public func take<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger
  ) -> HotSignal<Element, Trigger.Failure> where Trigger.Element: Sendable, Failure == Never {
    hotTake(until: trigger, baseFailure: neverFailure, triggerFailure: { $0 })
  }

  /// Mirrors this sequence until a cold `trigger` produces its first element, then finishes.
  ///
  /// Works as ``HotSequence/take(until:)-4700u`` does.
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails; the trigger cannot fail.
  ///
  /// ```swift
  /// let shown = quotes.take(until: sessionExpiry)   // HotSignal<Quote, Failure>, the expiry a Signal
  /// ```
  @inlinable public func take<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger
  ) -> HotSignal<Element, Failure> where Trigger.Element: Sendable, Trigger.Failure == Never {
    hotTake(until: trigger, baseFailure: { $0 }, triggerFailure: neverFailure)
  }

  /// Mirrors this sequence until a cold `trigger` produces its first element, then finishes.
  ///
  /// Works as ``HotSequence/take(until:)-4700u`` does.
  ///
  /// **Throws:** the first failure of either sequence, as `any Error` (for sequences whose failure types differ).
  ///
  /// ```swift
  /// let shown = quotes.take(until: sessionExpiry)   // HotSignal<Quote, any Error>, the expiry a Signal
  /// ```
  @inlinable public func take<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger
  ) -> HotSignal<Element, any Error> where Trigger.Element: Sendable {
    hotTake(until: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
  }

}
