/// One connection of a hot node that follows the latest inner node (`flatMapLatest` over properties and other
/// hot inners): each outer value picks an inner node; the node stops observing the previous inner and observes
/// the new one, whose values go out until the next switch.
///
/// Outer and inner events may come from different threads: every delivery goes through one outbox, admitted under
/// the lock together with the check that its inner is still the current one, and delivered by one thread at a
/// time. So no value of a replaced inner goes out after the switch, and nothing recurses.
@usableFromInline package final class SwitchConnection<Outer: Sendable, Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline enum Delivery: Sendable {
    case value(Element)
    case end(Termination<Failure>)
  }

  @usableFromInline struct State: Sendable {
    /// Which inner is current; an inner's events carry the generation it was observed in.
    @usableFromInline var generation = 0
    /// Stops observing the current inner.
    @usableFromInline var detachInner: (@Sendable () -> Void)?
    /// The current inner has not finished.
    @usableFromInline var innerActive = false
    @usableFromInline var outerFinished = false
    @usableFromInline var ended = false

    @inlinable init() {}
  }

  @usableFromInline let state = Locked(State())
  /// What goes to the node, queued under `state`'s lock (with the check that its inner still counts) and
  /// delivered after it.
  @usableFromInline let outbox = PublicationQueue<Delivery>()
  @usableFromInline let node: Node<Element, Failure>
  /// Picks the inner node for an outer value; released once the outer node ended (see ``SwitchSelector``).
  @usableFromInline let selector: SwitchSelector<Outer, Element, Failure>
  /// The outer node restarts (a shared cold run): its end is not final, so the selector is kept for the next run.
  @usableFromInline let outerRestarts: Bool

  @inlinable init(
    node: Node<Element, Failure>, selector: SwitchSelector<Outer, Element, Failure>, outerRestarts: Bool
  ) {
    self.node = node
    self.selector = selector
    self.outerRestarts = outerRestarts
  }

  /// The outer node produced `value`: switch to the inner it selects.
  @inlinable func outerValue(_ value: Outer) {
    guard let inner = selector.select(value) else { return }
    let (generation, previous) = state.withLock { state -> (Int?, (@Sendable () -> Void)?) in
      guard !state.ended else { return (nil, nil) }
      state.generation += 1
      state.innerActive = true
      defer { state.detachInner = nil }
      return (state.generation, state.detachInner)
    }
    previous?()
    guard let generation else { return }
    // Created now, as a flatten's inner is (see `CreationRank.attachingLater`).
    let sink = CreationRank.attachingLater {
      inner.addSink { [self] element in
        admit(.value(element), generation: generation)
      } onEnd: { [self] termination in
        innerEnded(termination, generation: generation)
      }
    }
    let detach: @Sendable () -> Void = { inner.removeSink(sink) }
    let kept = state.withLock { state -> Bool in
      guard state.generation == generation, !state.ended, state.innerActive else { return false }
      state.detachInner = detach
      return true
    }
    if !kept { detach() }
  }

  @inlinable func outerEnded(_ termination: Termination<Failure>) {
    if !outerRestarts { selector.release() }
    let deliver = state.withLock { state -> Bool in
      guard !state.ended else { return false }
      switch termination {
      case .failed:
        state.ended = true
        return queue(.end(termination))
      case .finished:
        state.outerFinished = true
        guard !state.innerActive else { return false }
        state.ended = true
        return queue(.end(.finished))
      }
    }
    if deliver { drain() }
  }

  @inlinable func innerEnded(_ termination: Termination<Failure>, generation: Int) {
    let deliver = state.withLock { state -> Bool in
      guard !state.ended, state.generation == generation else { return false }
      switch termination {
      case .failed:
        state.ended = true
        return queue(.end(termination))
      case .finished:
        state.innerActive = false
        state.detachInner = nil
        guard state.outerFinished else { return false }
        state.ended = true
        return queue(.end(.finished))
      }
    }
    if deliver { drain() }
  }

  /// Queues a value of inner `generation` unless that inner was replaced meanwhile.
  @inlinable func admit(_ delivery: Delivery, generation: Int) {
    let deliver = state.withLock { state -> Bool in
      guard !state.ended, state.generation == generation else { return false }
      return queue(delivery)
    }
    if deliver { drain() }
  }

  /// Stops observing the current inner (the node disconnects).
  @inlinable func detach() {
    let detach = state.withLock { state -> (@Sendable () -> Void)? in
      state.ended = true
      defer { state.detachInner = nil }
      return state.detachInner
    }
    detach?()
  }

  /// Queues `delivery` for the node (called under `state`'s lock, which keeps the order); the caller then drains.
  @inlinable func queue(_ delivery: Delivery) -> Bool {
    outbox.enqueue(delivery)
    return true
  }

  /// Delivers what was queued, one thread at a time, outside the lock.
  @inlinable func drain() {
    outbox.flush { delivery in
      switch delivery {
      case .value(let element): node.send(element)
      case .end(let termination): node.terminate(termination)
      }
    }
  }

}

/// The user's choice of inner node, in a class of its own: the switching node's connector holds it, and each
/// connection holds it until the outer node ends; then what it captures (inner properties it picks from) is let go
/// of, so that the result ends once the outer and the current inner are gone (ReactiveSwift's flatten `.latest`).
@usableFromInline final class SwitchSelector<Outer: Sendable, Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline let choice: Locked<(@Sendable (Outer) -> Node<Element, Failure>)?>

  @inlinable init(_ select: @escaping @Sendable (Outer) -> Node<Element, Failure>) {
    self.choice = Locked(select)
  }

  /// The inner node for `value`, or `nil` once released. The user's closure runs outside the lock.
  @inlinable func select(_ value: Outer) -> Node<Element, Failure>? {
    choice.withLock { $0 }?(value)
  }

  /// Whether ``release()`` was called.
  @inlinable var isReleased: Bool { choice.withLock { $0 == nil } }

  /// Lets go of the closure and what it captures (released after the lock: it may hold the last reference to a
  /// subject, whose release ends other nodes).
  @inlinable func release() {
    let released = choice.withLock { choice in
      defer { choice = nil }
      return choice
    }
    withExtendedLifetime(released) {}
  }
}

extension Node {
  /// A node that follows the inner node `selector` picks for each value of `outer` (flatMapLatest over hot
  /// inners): it finishes once `outer` and the current inner have finished, and fails as soon as either fails.
  /// Its consumers keep it (and so `selector`) alive: a consumer of `outer.flatMapLatest { $0 }` whose property
  /// value was not kept goes on until the outer and the inner it follows are released.
  @inlinable static func switching<Outer: Sendable>(
    _ outer: Node<Outer, Failure>,
    selector: SwitchSelector<Outer, Element, Failure>
  ) -> Node {
    Node(
      replay: replay(following: outer), restarts: outer.restarts, origin: NodeOrigin(.flatMapLatest),
      inputs: .one(outer)
    ) { node in
      guard !selector.isReleased else {
        // The outer ended and the choice was let go of: the node ended with it.
        node.terminate(.finished)
        return {}
      }
      let connection = SwitchConnection(node: node, selector: selector, outerRestarts: outer.restarts)
      let sink = outer.addSink { value in
        connection.outerValue(value)
      } onEnd: { termination in
        connection.outerEnded(termination)
      }
      return {
        outer.removeSink(sink)
        connection.detach()
      }
    }
  }
}
