/// An observation of a hot source that keeps no task while idle: a sink on the source's node queues each event,
/// and a drain task exists only while events wait (the first queued event starts it, it ends when the queue is
/// empty). So an idle observation costs what a ``HotSignal/sink(in:onValue:onEnd:)`` costs, plus this object.
///
/// Events are handled one at a time, in send order, by one drain at a time; the drain runs isolated to
/// `isolation` (the caller's actor; none for a caller that has none). When the lifetime ends or
/// ``cancel()`` is called, the sink is removed, queued events are dropped (a lifetime that ended delivers nothing
/// more, ReactiveSwift's `bindingFromSignal_tearsDownWhenDisposed`), and a drain in progress is cancelled.
@usableFromInline package final class HotObserver<Element: Sendable, Failure: Error>: ObservationControl {
  @usableFromInline package struct State: Sendable {
    /// Events waiting for the drain, in send order.
    var pending: [Element] = []
    /// How the source ended, once it did; handled after `pending`.
    var end: Termination<Failure>?
    /// A drain task runs (or is about to), and the task itself once it is known.
    var draining = false
    var drain: Task<Void, Never>?
    /// Cancelled, or the source's end was taken by the drain: nothing more is delivered.
    var stopped = false
    /// The sink on the source's node, to remove it; `nil` before it is registered and once it is gone.
    var source: (node: Node<Element, Failure>, sink: Node<Element, Failure>.Sink)?
    package var ending = ObservationEnding()
  }

  package let state = Locked(State())
  package let slot: Lifetime.Slot
  package let resourceScope: ResourceScope?
  /// Where the drain runs.
  let isolation: (any Actor)?
  /// Handles one value, on `isolation`; `false` ends the observation (its target is gone).
  let onValue: IsolatedHandler<Element>
  /// Handles the source's end, on `isolation`, after every value; not called when the observation was cancelled.
  let onEnd: IsolatedHandler<Termination<Failure>>?
  /// The call that made it and where (its name is the drain task's name).
  let origin: ConsumerOrigin

  init(
    _ origin: ConsumerOrigin, lifetime: Lifetime, isolation: (any Actor)?,
    onEnd: IsolatedHandler<Termination<Failure>>? = nil,
    onValue: IsolatedHandler<Element>
  ) {
    self.origin = origin
    self.isolation = isolation
    self.onValue = onValue
    self.onEnd = onEnd
    self.slot = lifetime.reserve()
    self.resourceScope = ResourceCounters.acquireConsumer()
  }

  /// Observes `node` until the source ends, `lifetime` ends or ``cancel()`` is called.
  func start(observing node: Node<Element, Failure>, in lifetime: Lifetime) -> ObservationHandle {
    resourceScope?.noteConsumer(self, kind: "an observation (\(origin.description))", of: node)
    let sink = node.addSink(owner: self) { [self] value in
      receive(value)
    } onEnd: { [self] termination in
      receive(termination)
    }
    let keep = state.withLock { state -> Bool in
      guard !state.stopped else { return false }
      state.source = (node, sink)
      return true
    }
    if !keep { node.removeSink(sink) }
    return handle(in: lifetime)
  }

  private func receive(_ value: Element) {
    let start = state.withLock { state -> Bool in
      guard !state.stopped else { return false }
      state.pending.append(value)
      return Self.claimDrain(&state)
    }
    if start { startDrain() }
  }

  private func receive(_ termination: Termination<Failure>) {
    let start = state.withLock { state -> Bool in
      guard !state.stopped else { return false }
      state.end = termination
      state.source = nil  // the node dropped its sinks as it ended
      return Self.claimDrain(&state)
    }
    if start { startDrain() }
  }

  private static func claimDrain(_ state: inout State) -> Bool {
    if state.draining { return false }
    state.draining = true
    return true
  }

  private func startDrain() {
    let task = Task(named: origin.kind.name) { [self] in await drain(isolation) }
    let cancelNow = state.withLock { state -> Bool in
      // The drain may have ended already (it clears `draining`); then there is nothing to keep.
      if state.draining && state.drain == nil { state.drain = task }
      return state.stopped
    }
    if cancelNow { task.cancel() }
  }

  /// Delivers what waits, then whatever arrives meanwhile, until nothing does. A cancellation (the lifetime
  /// ended) stops it before the next value, even one of the batch it took.
  private func drain(_ actor: isolated (any Actor)?) async {
    var batch: [Element] = []
    while true {
      let step = state.withLock { state -> DrainStep in
        if state.stopped || state.pending.isEmpty && state.end == nil {
          // Decided under the lock that queues: a value queued after this starts a new drain.
          state.draining = false
          state.drain = nil
          return .done(stopped: state.stopped)
        }
        if !state.pending.isEmpty {
          swap(&batch, &state.pending)
          return .values
        }
        state.stopped = true
        return .end(state.end!)
      }
      switch step {
      case .done(let stopped):
        if stopped { finish() }
        return
      case .end(let end):
        if !Task.isCancelled, let onEnd { _ = await onEnd.handle(end, on: actor) }
        state.withLock { state in
          state.draining = false
          state.drain = nil
        }
        finish()
        return
      case .values:
        for value in batch {
          guard !Task.isCancelled else { break }
          if await !onValue.handle(value, on: actor) {
            // The target is gone: the observation ends. (`cancel()` finishes it once this drain is marked over.)
            state.withLock { state in
              state.draining = false
              state.drain = nil
            }
            cancel()
            return
          }
        }
        batch.removeAll(keepingCapacity: true)
      }
    }
  }

  private enum DrainStep {
    case values
    case end(Termination<Failure>)
    case done(stopped: Bool)
  }

  /// Ends the observation: no value is delivered from now on, and a drain in progress is cancelled.
  package func cancel() {
    let (source, drain, idle) = state.withLock { state in
      state.stopped = true
      state.pending = []
      defer { state.source = nil }
      return (state.source, state.drain, !state.draining)
    }
    if let source { source.node.removeSink(source.sink) }
    drain?.cancel()
    if idle { finish() }
  }
}

/// A binding that runs inside the source's `send`: a sink that hands each value on synchronously (to a subject,
/// to a command's `trigger`), with no task at all.
@usableFromInline package final class SinkObserver<Element: Sendable, Failure: Error>: ObservationControl {
  @usableFromInline package struct State: Sendable {
    /// The sink on the source's node, to remove it; `nil` before it is registered and once it is gone.
    var source: (node: Node<Element, Failure>, sink: Node<Element, Failure>.Sink)?
    package var ending = ObservationEnding()
  }

  package let state = Locked(State())
  package let slot: Lifetime.Slot
  package let resourceScope: ResourceScope?
  /// The call that made it and where.
  let origin: ConsumerOrigin

  init(_ origin: ConsumerOrigin, lifetime: Lifetime) {
    self.origin = origin
    slot = lifetime.reserve()
    resourceScope = ResourceCounters.acquireConsumer()
  }

  /// Calls `onValue` inside each of the source's sends until the source ends, `lifetime` ends or ``cancel()``
  /// is called; `onValue` returns `false` to end the observation (its target is gone).
  func start(
    observing node: Node<Element, Failure>, in lifetime: Lifetime,
    _ onValue: @escaping @Sendable (Element) -> Bool
  ) -> ObservationHandle {
    resourceScope?.noteConsumer(self, kind: "a binding (\(origin.description))", of: node)
    let sink = node.addSink(owner: self) { [self] value in
      if !onValue(value) { cancel() }
    } onEnd: { [self] _ in
      state.withLock { $0.source = nil }
      finish()
    }
    let keep = state.withLock { state -> Bool in
      guard !state.ending.isOver else { return false }
      state.source = (node, sink)
      return true
    }
    if !keep { node.removeSink(sink) }
    return handle(in: lifetime)
  }

  package func cancel() {
    let source = state.withLock { state in
      defer { state.source = nil }
      return state.source
    }
    if let source { source.node.removeSink(source.sink) }
    finish()
  }
}

/// Whether an observation is over, and who waits for that (``ObservationHandle/value``).
package struct ObservationEnding: Sendable {
  var isOver = false
  var waiters: [UnsafeContinuation<Void, Never>] = []
}

/// What every observation of a hot source shares: its place in its lifetime (the lifetime cancels it when it
/// ends; it leaves the lifetime when it ends by itself, and never keeps the lifetime alive), its count as a live
/// consumer for `expectNoLeaks`, and the waiters of its end. One object and one lock per observation.
package protocol ObservationControl: LifetimeMember {
  associatedtype State: Sendable
  var state: Locked<State> { get }
  var slot: Lifetime.Slot { get }
  var resourceScope: ResourceScope? { get }
  /// Where the state keeps the ending.
  static var ending: WritableKeyPath<State, ObservationEnding> { get }
  func cancel()
}

extension HotObserver {
  package static var ending: WritableKeyPath<State, ObservationEnding> { \.ending }
  package var observedNode: (any AnyObject & Sendable)? { state.withLock { $0.source?.node } }
}

extension SinkObserver {
  package static var ending: WritableKeyPath<State, ObservationEnding> { \.ending }
  package var observedNode: (any AnyObject & Sendable)? { state.withLock { $0.source?.node } }
}

extension HotObserver: DumpableConsumer {
  package func consumerDescription() -> String {
    state.withLock { state in
      var text = origin.description
      if state.draining { text += " (drain task running, \(state.pending.count) pending)" }
      return text
    }
  }
}

extension SinkObserver: DumpableConsumer {
  package func consumerDescription() -> String { origin.description }
}

extension ObservationControl {
  /// The handle of this observation; `lifetime` cancels it when it ends (at once if it has ended).
  func handle(in lifetime: Lifetime) -> ObservationHandle {
    // Held strongly: the lifetime lets go of it when the observation ends first (`slot.done()`).
    lifetime.adopt(self, in: slot)
    return ObservationHandle(control: self)
  }

  /// The lifetime ended: the observation ends.
  package func lifetimeEnded() { cancel() }

  /// The observation is over: waiters return, the lifetime forgets it, the consumer count drops. Later calls do
  /// nothing.
  func finish() {
    let waiters = state.withLock { state -> [UnsafeContinuation<Void, Never>]? in
      guard !state[keyPath: Self.ending].isOver else { return nil }
      state[keyPath: Self.ending].isOver = true
      defer { state[keyPath: Self.ending].waiters = [] }
      return state[keyPath: Self.ending].waiters
    }
    guard let waiters else { return }
    resourceScope?.forgetConsumer(self)
    ResourceCounters.releaseConsumer(in: resourceScope)
    slot.done()
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once the observation is over.
  func waitUntilOver() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let over = state.withLock { state -> Bool in
        if state[keyPath: Self.ending].isOver { return true }
        state[keyPath: Self.ending].waiters.append(continuation)
        return false
      }
      if over { continuation.resume() }
    }
  }
}

/// What every observation and binding returns (`observe`, `bind(to:)`): it runs until its source ends, its lifetime
/// ends or ``cancel()`` is called.
///
/// One type for every source: over a hot source (a subject, a property, a hot chain) the observation keeps no task
/// while no event waits; over a cold sequence it is the one task that iterates it. Either way, ``cancel()`` ends it
/// and ``value`` waits for its end, so code that cancels or awaits an observation reads the same for both.
///
/// ```swift
/// let observation = viewModel.title.observe(in: lifetime) { print($0) }
/// observation.cancel()          // or end the lifetime
/// await observation.value       // returns once the observation is over
/// ```
public struct ObservationHandle: Sendable {
  private enum Kind: Sendable {
    /// An observation of a hot source: a sink, plus a drain task while events wait.
    case control(any ObservationControl)
    /// An observation of a cold sequence: the task that iterates it.
    case task(Task<Void, Never>)
  }

  private let kind: Kind

  package init(control: some ObservationControl) {
    kind = .control(control)
  }

  /// The handle of a cold observation: the task that iterates the sequence and calls the handlers.
  package init(task: Task<Void, Never>) {
    kind = .task(task)
  }

  /// Ends the observation now: nothing more is delivered, not even what was sent before and still waits; an
  /// `async` handler in progress is cancelled. Ending the lifetime does the same.
  ///
  /// ```swift
  /// observation.cancel()
  /// ```
  public func cancel() {
    switch kind {
    case .control(let control): control.cancel()
    case .task(let task): task.cancel()
    }
  }

  /// A picture of the live graph this observation observes (see `HotSequence.debugGraph()`): its source's node,
  /// what that node reads, and what else reads it. `nil` once the observation is over, and for an observation of a
  /// cold sequence, whose task reads a run of its own (record it with AsyncReactiveTesting's `Recorder` to draw it).
  ///
  /// ```swift
  /// let observation = viewModel.results.observe(in: lifetime) { show($0) }
  /// print(observation.debugGraph()!)
  /// ```
  public func debugGraph() -> DebugGraph? {
    guard case .control(let control) = kind, let node = control.observedNode else { return nil }
    return DebugGraph(around: node)
  }

  /// Returns once the observation is over: the source ended and its last event was handled, or the observation
  /// was cancelled (by ``cancel()`` or its lifetime) and its handler returned.
  ///
  /// ```swift
  /// await viewModel.events.observe(in: lifetime) { log($0) }.value   // the source finished
  /// ```
  public var value: Void {
    get async {
      switch kind {
      case .control(let control): await control.waitUntilOver()
      case .task(let task): await task.value
      }
    }
  }
}

/// What an observation does with each event, on the caller's actor: call the caller's closure (`observe(in:)`), or
/// write to a weakly held object (`bind(to: object, keyPath, in:)`). One object holding the caller's closure, so that
/// an idle observation keeps no wrapper around it.
// Safe (`@unchecked Sendable`): nothing here is shared. The caller's closures come in `sending` (the caller keeps no
// reference), a write is the library's and captures only an immutable key path, the target is weak; and only the
// drain calls `handle(_:on:)`, one event at a time: on the caller's actor, or with none, one drain after another.
final class IsolatedHandler<Element: Sendable>: @unchecked Sendable {
  private let body: ((Element) async -> Void)?
  private weak var target: AnyObject?
  private let write: ((AnyObject, Element) -> Void)?

  /// Calls `body` with each event.
  init(_ body: sending @escaping (Element) async -> Void) {
    self.body = body
    self.write = nil
  }

  /// Calls `write` with the target and each event, while the target exists.
  init(target: AnyObject, write: @escaping (AnyObject, Element) -> Void) {
    self.body = nil
    self.target = target
    self.write = write
  }

  /// Handles `value`, staying on `isolation`; `false` ends the observation (its target is gone).
  func handle(_ value: Element, on isolation: isolated (any Actor)?) async -> Bool {
    if let body {
      await body(value)
      return true
    }
    guard let target, let write else { return false }
    write(target, value)
    return true
  }
}
