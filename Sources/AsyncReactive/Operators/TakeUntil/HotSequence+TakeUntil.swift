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
    hotGated(
      TakeUntilRule.init, by: trigger, triggerFirst: true, replay: replaysCurrent ? .current : .none,
      origin: NodeOrigin(.takeUntil, fileID: fileID, line: line), baseFailure: baseFailure,
      triggerFailure: triggerFailure)
  }
}
