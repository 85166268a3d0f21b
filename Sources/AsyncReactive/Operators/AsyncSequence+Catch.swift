extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// On failure, continues with the sequence that `handler` makes from the error (RAC `catch:`, RxSwift
  /// `catch`, Combine `catch`).
  ///
  /// The elements delivered before the failure stay delivered; then the fallback's elements follow. The
  /// result's failure type is the fallback's: a fallback that cannot fail makes a sequence that cannot fail. The
  /// fallback runs where it can: an immediate ``Signal`` (`.just`, `.empty`) in place, a hot one observed, any
  /// other started at once.
  ///
  /// **Finishes:** when this sequence finishes, or after a failure when the fallback finishes.
  ///
  /// **Throws:** the fallback's failure, if it fails too.
  ///
  /// **Cancellation:** stopping the consumer stops this sequence or the running fallback.
  ///
  /// ```swift
  /// let orders = api.orders.catch { error in
  ///   Signal<[Order], Never>.just(cache.orders)
  /// }
  /// for await list in orders { show(list) }
  /// ```
  /// - Parameter handler: makes the sequence to continue with from the failure.
  /// - Returns: a ``Signal`` of this sequence's elements, then after a failure the fallback's; hot when this
  ///   sequence is.
  @inlinable public func `catch`<Fallback: AsyncSequence & Sendable>(
    _ handler: @escaping @Sendable (Failure) -> Fallback
  ) -> Signal<Element, Fallback.Failure> where Fallback.Element == Element {
    Signal(self).lift(synchronous: false) { $0.hotCatch(handler) }
  }

  /// On failure, continues with the sequence that the `async` `handler` makes from the error.
  ///
  /// ```swift
  /// let orders = api.orders.catch { _ in await cache.ordersSignal() }
  /// ```
  @_disfavoredOverload @inlinable public func `catch`<Fallback: AsyncSequence & Sendable>(
    _ handler: @escaping @Sendable (Failure) async -> Fallback
  ) -> Signal<Element, Fallback.Failure> where Fallback.Element == Element {
    Signal(self).lift(synchronous: false) { upstream in
      upstream.hotCatch { error in Signal.awaiting { Signal(await handler(error)) } }
    }
  }
}

// MARK: Hot

extension HotSequence {
  /// On failure, continues with the sequence that `handler` makes from the error, deciding inside the upstream's
  /// `send` (RAC `catch:`, RxSwift `catch`, ReactiveSwift `flatMapError`), once for all consumers.
  @inlinable package func hotCatch<Fallback: AsyncSequence & Sendable>(
    _ handler: @escaping @Sendable (Failure) -> Fallback
  ) -> HotSignal<Element, Fallback.Failure> where Fallback.Element == Element {
    let upstream = hotSignal.node
    return HotSignal(
      node: Node(
        replay: Node.replay(following: upstream), restarts: upstream.restarts,
        origin: NodeOrigin(.catchError), inputs: .one(upstream)
      ) { node in
        // The fallback is the one inner of a flatten connection: it gets the flatten's ways of running an inner
        // (in place, observed, or in a counted task stopped on disconnect).
        let fallback = FlattenConnection<Fallback, Fallback.Failure>(
          node: node, strategy: .concat, innerFailure: { $0 }, taskName: "catch fallback")
        let sink = upstream.addSink { value in
          node.send(value)
        } onEnd: { termination in
          if case .failed(let error) = termination {
            let replacement = handler(error)
            // What the failed input gave is no longer current: a consumer that joins from now on is given what the
            // fallback gives a new observer (its current value, if it has one), not the failed input's last value.
            node.switchReplay(keepsCurrent: inputReplaysCurrent(replacement))
            fallback.outerValue(replacement)
          }
          fallback.outerEnded(.finished)
        }
        return {
          upstream.removeSink(sink)
          fallback.stopAll()
        }
      })
  }
}
