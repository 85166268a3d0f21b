import Synchronization

/// One run of an operator that splits its input into hot subgroups (`groupBy(_:)`'s
/// groups, `window(timeSpan:count:clock:)`'s windows).
///
/// Each subgroup is a node of its own, with no replay (RxSwift's `PublishSubject`). The input is observed while the
/// outer consumer is there or any subgroup has a consumer (RxSwift's `RefCountDisposable`): a consumer of a group
/// keeps receiving after the outer consumer stopped, and the input is let go when the last of them leaves.
final class SubgroupRun<Element: Sendable, Failure: Error>: Sendable {
  struct State: Sendable {
    /// The outer consumer is still there.
    var outerLive = true
    /// Subgroups that have a consumer now.
    var observedSubgroups = 0
    /// Stops observing the input; `nil` before the observation is made and after it was stopped.
    var stop: (@Sendable () -> Void)?
    /// Nothing observes the run any more: an observation made afterwards is stopped at once.
    var released = false
    /// What else the run lets go when it is released (a window's timer).
    var onRelease: (@Sendable () -> Void)?
  }
  let state = Mutex(State())

  init() {}

  /// A new subgroup's node: its first consumer counts it in, its last one leaving counts it out.
  func makeSubgroup(origin: NodeOrigin) -> Node<Element, Failure> {
    Node(replay: .none, origin: origin) { [weak self] _ in
      self?.subgroupObserved()
      return { [weak self] in self?.subgroupLeft() }
    }
  }

  /// Whether the run let its input go: nothing is to start any more.
  var isReleased: Bool { state.withLock { $0.released } }

  /// Calls `body` when the run lets its input go (at once if it has).
  func whenReleased(_ body: @escaping @Sendable () -> Void) {
    let released = state.withLock { state -> Bool in
      if !state.released { state.onRelease = body }
      return state.released
    }
    if released { body() }
  }

  /// The observation of the input was made: `stop` ends it (at once when nothing observes the run any more).
  func started(_ stop: @escaping @Sendable () -> Void) {
    let released = state.withLock { state -> Bool in
      if state.released { return true }
      state.stop = stop
      return false
    }
    if released { stop() }
  }

  /// The outer consumer stopped (or the outer run ended).
  func outerLeft() {
    let stop = state.withLock { state -> (@Sendable () -> Void)? in
      state.outerLive = false
      return state.observedSubgroups == 0 ? release(&state) : nil
    }
    stop?()
  }

  /// The run ended (its input ended, or a closure failed it): the input is let go whoever still observes.
  func ended() {
    let stop = state.withLock { state in release(&state) }
    stop?()
  }

  private func subgroupObserved() {
    state.withLock { $0.observedSubgroups += 1 }
  }

  private func subgroupLeft() {
    let stop = state.withLock { state -> (@Sendable () -> Void)? in
      state.observedSubgroups -= 1
      return state.observedSubgroups == 0 && !state.outerLive ? release(&state) : nil
    }
    stop?()
  }

  /// Marks the run released; returns what stops its input and what else it lets go, to call after the lock.
  private func release(_ state: inout State) -> (@Sendable () -> Void)? {
    guard !state.released else { return nil }
    state.released = true
    let (stop, onRelease) = (state.stop, state.onRelease)
    state.stop = nil
    state.onRelease = nil
    return {
      stop?()
      onRelease?()
    }
  }
}

/// What a subgrouping run handles, one at a time and in order, on whichever thread brings it (see
/// ``PublicationQueue``): the input's values and end, and a window's timer ticks.
enum SubgroupEvent<Element: Sendable, Failure: Error>: Sendable {
  case value(Element)
  case end(Termination<Failure>)
  /// The timer of the window `id` fired.
  case tick(id: Int)
}
