import Synchronization

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Runs side effects on each event without changing the values: for logging and debugging where a value
  /// comes from (RAC `doNext:` / `doCompleted:` / `doError:`, RxSwift `do(onNext:…)`, Combine
  /// `handleEvents`).
  ///
  /// Each run of a cold sequence reports its own events: `onStart` when the run starts, then `onValue` per value
  /// and exactly one of `onFinish`, `onFailure` or `onCancel` (the consumer stopped first: its task was cancelled,
  /// it broke out of the loop or dropped the iterator). On a hot sequence they run inside the upstream's `send`,
  /// once for all consumers: `onStart` when the first consumer arrives, `onCancel` when the last one leaves.
  ///
  /// ```swift
  /// let logged = api.orders.handleEvents(
  ///   onStart: { print("orders: requested") },
  ///   onValue: { print("orders: \($0.count) received") },
  ///   onFailure: { print("orders: failed \($0)") }
  /// )
  /// ```
  @inlinable public func handleEvents(
    onStart: (@Sendable () -> Void)? = nil,
    onValue: (@Sendable (Element) -> Void)? = nil,
    onFinish: (@Sendable () -> Void)? = nil,
    onFailure: (@Sendable (Failure) -> Void)? = nil,
    onCancel: (@Sendable () -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> {
    Signal(self).lift(synchronous: true) {
      $0.hotHandleEvents(
        onStart: onStart, onValue: onValue, onFinish: onFinish, onFailure: onFailure, onCancel: onCancel,
        fileID: fileID, line: line)
    }
  }
}

// MARK: Hot

extension HotSequence {
  /// Runs side effects on each event inside the upstream's `send`, once for all consumers (RxSwift
  /// `do(onNext:…)` on a shared chain, ReactiveSwift `on(value:…)`).
  @inlinable package func hotHandleEvents(
    onStart: (@Sendable () -> Void)? = nil,
    onValue: (@Sendable (Element) -> Void)? = nil,
    onFinish: (@Sendable () -> Void)? = nil,
    onFailure: (@Sendable (Failure) -> Void)? = nil,
    onCancel: (@Sendable () -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> {
    let upstream = hotSignal.node
    return HotSignal(
      node: Node(
        replay: Node.replay(following: upstream), restarts: upstream.restarts,
        origin: NodeOrigin(.handleEvents, fileID: fileID, line: line), inputs: .one(upstream)
      ) { node in
        onStart?()
        let ending = HotEnding()
        let sink = upstream.addSink { value in
          onValue?(value)
          node.send(value)
        } onEnd: { termination in
          if ending.claim() {
            switch termination {
            case .finished: onFinish?()
            case .failed(let error): onFailure?(error)
            }
          }
          node.terminate(termination)
        }
        return {
          upstream.removeSink(sink)
          if ending.claim() { onCancel?() }
        }
      })
  }
}

/// Which of a connection's two ways of ending came first: the upstream's end or the disconnection.
@usableFromInline final class HotEnding: Sendable {
  @usableFromInline let ended = Atomic<Bool>(false)

  @inlinable init() {}

  /// `true` for the first caller only.
  @inlinable func claim() -> Bool { !ended.exchange(true, ordering: .acquiringAndReleasing) }
}
