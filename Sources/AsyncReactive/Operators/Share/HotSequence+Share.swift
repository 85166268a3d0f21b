// `share()` on a hot sequence: it is shared already (every consumer of a hot node shares one evaluation), so a
// ported `.share()` keeps the chain as it is. On a cold sequence (Signal+Share.swift) it makes one run for everyone.

extension HotSequence {
  /// This hot sequence, shared as it already is, optionally replaying its latest `replay` values to a consumer
  /// that joins while it is observed (RxSwift `share(replay:scope: .whileConnected)` on a hot source).
  ///
  /// The operator on any sequence, typed as a ``HotSignal``: it runs inside the upstream's `send`, once for all
  /// of its consumers, and observes the upstream from its first consumer to its last.
  ///
  /// ```swift
  /// let prices = ticker.share(replay: 1)          // HotSignal<Price, Never>
  /// prices.sink(in: lifetime) { chart.append($0) }
  /// ticker.send(price)
  /// for await price in prices { label.show(price) }   // the latest price first
  /// ```
  /// - Parameter replay: how many of the latest values a consumer that joins receives first; 0 (the default) for
  ///   none. Must not be negative.
  /// - Returns: a ``HotSignal`` with this sequence's elements and failure.
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
