// `share()` on a hot sequence: it is shared already (every consumer of a hot node shares one evaluation), so a
// ported `.share()` keeps the chain as it is. On a cold sequence (Signal+Share.swift) it makes one run for everyone.

extension HotSequence {
  /// This hot sequence, shared as it already is, optionally replaying its latest `replay` values to a consumer
  /// that joins while it is observed (RxSwift `share(replay:scope: .whileConnected)` on a hot source).
  @inlinable package func hotShare(replay: Int = 0, fileID: StaticString = #fileID, line: UInt = #line) -> HotSignal<
    Element, Failure
  > {
    precondition(replay >= 0, "share(replay:) needs a replay count of 0 or more, not \(replay)")
    guard replay > 0 else { return hotSignal }
    return HotSignal(
      node: .observing(hotSignal.node, replay: .latest(replay), origin: NodeOrigin(.share, fileID: fileID, line: line))
      { node in
        { value in node.send(value) }
      } onEnd: { node, termination in
        node.forgetCurrent()
        node.terminate(termination)
      })
  }
}
