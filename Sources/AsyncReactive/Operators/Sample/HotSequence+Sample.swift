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
    let replay: Node<Element, ResultFailure>.Replay = combinedReplay([replaysCurrent, inputReplaysCurrent(trigger)])
    let tracksCurrent = replay.keepsCurrent
    return hotGated(
      { SampleRule(tracksCurrent: tracksCurrent) }, by: trigger,
      replay: replay,
      origin: NodeOrigin(.sample, fileID: fileID, line: line), baseFailure: baseFailure,
      triggerFailure: triggerFailure)
  }
}
