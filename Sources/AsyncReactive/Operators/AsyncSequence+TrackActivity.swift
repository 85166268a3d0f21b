extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Counts each run of this sequence as activity of `tracker`, from its first `next()` until it finishes, fails,
  /// or its consumer is cancelled or drops the iterator (RxSwift's `trackActivity`).
  ///
  /// Values, finish and failure pass through unchanged. Each run of a cold sequence is tracked on its own, so
  /// several consumers count as several activities, and under ``ReiterableAsyncSequence/retry(_:)`` each attempt
  /// is one: `signal.trackActivity(tracker).retry(2)` turns `false` between attempts, while
  /// `signal.retry(2).trackActivity(tracker)` stays `true` across them. A hot sequence is one activity for all
  /// of its consumers: from the moment its first consumer arrives until it finishes or fails, or its last consumer
  /// leaves.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// **Cancellation:** the activity ends when the consumer stops (cancelled, `break`, iterator dropped).
  ///
  /// ```swift
  /// let loading = ActivityTracker()
  /// let repositories = query.subscribe()
  ///   .flatMapLatest { text in Signal.future { try await api.search(text) }.trackActivity(loading) }
  /// loading.observe(in: lifetime) { spinner.isAnimating = $0 }
  /// ```
  /// - Parameter tracker: the tracker to count this sequence's iterations in.
  /// - Returns: a ``Signal`` with this sequence's elements; hot when this sequence is.
  @inlinable public func trackActivity(
    _ tracker: ActivityTracker, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> {
    Signal(self).lift(synchronous: true) { $0.hotTrackActivity(tracker, fileID: fileID, line: line) }
  }
}

// MARK: Hot

extension HotSequence {
  /// Counts this node's observation of its upstream as one activity of `tracker`: from the moment its first
  /// consumer arrives until the upstream finishes or fails, or its last consumer leaves (RxSwift's `trackActivity`
  /// on a shared chain).
  @inlinable package func hotTrackActivity(
    _ tracker: ActivityTracker, fileID: StaticString = #fileID, line: UInt = #line
  )
    -> HotSignal<Element, Failure>
  {
    let upstream = hotSignal.node
    return HotSignal(
      node: Node(
        replay: Node.replay(following: upstream), restarts: upstream.restarts,
        origin: NodeOrigin(.trackActivity, fileID: fileID, line: line), inputs: .one(upstream)
      ) { node in
        let activity = tracker.begin()
        let sink = upstream.addSink { value in
          node.send(value)
        } onEnd: { termination in
          activity.end()
          node.terminate(termination)
        }
        return {
          upstream.removeSink(sink)
          activity.end()
        }
      })
  }
}
