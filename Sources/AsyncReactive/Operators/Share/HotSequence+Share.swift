// `share()` on a hot sequence: it is shared already (every consumer of a hot node shares one evaluation), so a
// ported `.share()` keeps the chain on the push path instead of adding a pumping task. The stream form stays for
// cold sequences, whose every iteration would otherwise run the work anew.

extension HotSequence {
  /// This hot sequence, shared as it already is, optionally replaying its latest `replay` values to a consumer
  /// that joins while it is observed (RxSwift `share(replay:scope: .whileConnected)` on a hot source).
  ///
  /// Every consumer of a hot sequence already shares one evaluation of it, so `share()` returns it as it is (a
  /// node over a current value still gives that value to each new consumer). With `replay` above 0, the result is
  /// a node that passes every value on inside the upstream's `send` and keeps the latest `replay` of them while it
  /// observes the upstream: a consumer that joins then receives them first. The kept values are dropped when the
  /// last consumer leaves and when the upstream ends (`whileConnected`: nothing of an ended run is replayed, a late
  /// consumer gets only the end).
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// **Cancellation:** a consumer that stops is removed; the last one stops the observation of the upstream.
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
  @inlinable public func share(replay: Int = 0) -> HotSignal<Element, Failure> {
    precondition(replay >= 0, "share(replay:) needs a replay count of 0 or more, not \(replay)")
    guard replay > 0 else { return hotSignal }
    return HotSignal(
      node: .observing(hotSignal.node, replay: .latest(replay)) { node in
        { value in node.send(value) }
      } onEnd: { node, termination in
        node.forgetCurrent()
        node.terminate(termination)
      })
  }
}
