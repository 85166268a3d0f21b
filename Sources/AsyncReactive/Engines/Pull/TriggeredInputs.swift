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
  /// The position of the base among the n-ary inputs.
  @inlinable static var baseIndex: Int { 0 }
  /// The position of the trigger among the n-ary inputs.
  @inlinable static var triggerIndex: Int { 1 }
}

/// The two inputs of an operator gated by a second sequence, and how each one's failure becomes the result's:
/// what ``AsyncSampleSequence`` and ``AsyncTakeUntilSequence`` hold, which differ only in their rule.
@usableFromInline
struct TriggeredInputs<
  Base: AsyncSequence & Sendable, Trigger: AsyncSequence & Sendable, Failure: Error
>: Sendable
where
  Base.Element: Sendable, Base.AsyncIterator: SendableMetatype,
  Trigger.Element: Sendable, Trigger.AsyncIterator: SendableMetatype
{
  @usableFromInline let base: Base
  @usableFromInline let trigger: Trigger
  @usableFromInline let baseFailure: @Sendable (Base.Failure) -> Failure
  @usableFromInline let triggerFailure: @Sendable (Trigger.Failure) -> Failure

  @inlinable init(
    _ base: Base,
    _ trigger: Trigger,
    baseFailure: @escaping @Sendable (Base.Failure) -> Failure,
    triggerFailure: @escaping @Sendable (Trigger.Failure) -> Failure
  ) {
    self.base = base
    self.trigger = trigger
    self.baseFailure = baseFailure
    self.triggerFailure = triggerFailure
  }

  /// Subscribes to both sequences now, under a fresh `Rule`; they are pumped from the first `next()`.
  @inlinable func makeIterator<Rule: TriggeredRule>(
    _ rule: Rule.Type
  ) -> AsyncNaryIterator<Base.Element, Failure> where Rule.Output == Base.Element {
    let cell = NaryRuleCell(Rule())
    let storage = NaryStorage<Base.Element, Failure>(inputs: [
      .subscribe(base, index: Rule.baseIndex, failure: baseFailure, rule: cell) { rule, value in
        rule.receive(value)
      },
      .subscribe(trigger, index: Rule.triggerIndex, failure: triggerFailure, rule: cell) { rule, _ in
        rule.triggered()
      },
    ])
    return AsyncNaryIterator(base: NaryIterator(storage))
  }
}
