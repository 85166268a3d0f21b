/// One connection of a hot flatten node (`flatMap`, `flatMapLatest`, `flatMapFirst`, `concatMap` on a hot outer
/// sequence, and `catch`'s fallback): the transform runs inside the outer `send`, once for all consumers; each inner
/// sequence then runs
/// where it can: in place when it is an immediate ``Signal`` (`.just`, `.empty`, `.fail`), observed synchronously
/// when it is hot, and otherwise in one task of its own (the cold pump), cancelled when it is switched away from
/// or when the node disconnects.
///
/// Every delivery goes through one outbox, admitted under the lock with the check that its inner still runs, and
/// delivered by one thread at a time: a switched-away inner never delivers after the switch, and nothing recurses.
@usableFromInline final class HotFlatten<Inner: AsyncSequence & Sendable, Failure: Error>: Sendable
where Inner.Element: Sendable {
  @usableFromInline typealias Element = Inner.Element

  @usableFromInline enum Delivery: Sendable {
    case value(Element)
    case end(Termination<Failure>)
  }

  /// Where a running inner sequence runs, so that it can be stopped.
  @usableFromInline enum Runner: Sendable {
    /// Being started (its task or sink is not registered yet), or running in place.
    case starting
    case task(Task<Void, Never>)
    case sink(@Sendable () -> Void)

    @inlinable func stop() {
      switch self {
      case .starting: break
      case .task(let task): task.cancel()
      case .sink(let detach): detach()
      }
    }
  }

  /// What an outer value does, decided under the lock.
  @usableFromInline enum Admission {
    case start(Int, stop: [Runner])
    case none
  }

  /// What an inner's end leads to, decided under the lock.
  @usableFromInline enum Next {
    case none
    case start(Inner, id: Int)
    case deliver
  }

  @usableFromInline struct State: Sendable {
    @usableFromInline var nextID = 0
    @usableFromInline var running: [Int: Runner] = [:]
    /// Inner sequences waiting for a slot (`concatMap`, a concurrency limit), oldest first.
    @usableFromInline var waiting: [(id: Int, inner: Inner)] = []
    @usableFromInline var outerFinished = false
    @usableFromInline var ended = false

    @inlinable init() {}

    /// Ends the result with `termination`; returns the runners to stop and whether the caller must deliver.
    @inlinable mutating func end(
      _ termination: Termination<Failure>, into outbox: PublicationQueue<Delivery>
    ) -> (stop: [Runner], deliver: Bool) {
      ended = true
      let stop = Array(running.values)
      running = [:]
      waiting = []
      outbox.enqueue(.end(termination))
      return (stop, true)
    }

    @inlinable var isIdle: Bool { running.isEmpty && waiting.isEmpty }
  }

  @usableFromInline let state = Locked(State())
  /// What goes to the node, queued under `state`'s lock (with the check that its inner still counts) and
  /// delivered after it.
  @usableFromInline let outbox = PublicationQueue<Delivery>()
  @usableFromInline let node: SubjectStorage<Element, Failure>
  @usableFromInline let kind: FlattenStrategy.Kind
  @usableFromInline let innerFailure: @Sendable (Inner.Failure) -> Failure
  /// The name of the task a cold inner runs in: what the operator calls it (`catch`'s and `timeout`'s fallbacks
  /// run here too).
  @usableFromInline let taskName: String

  @inlinable init(
    node: SubjectStorage<Element, Failure>, strategy: FlattenStrategy,
    innerFailure: @escaping @Sendable (Inner.Failure) -> Failure,
    taskName: String = "flatMap inner"
  ) {
    self.node = node
    self.kind = strategy.kind
    self.innerFailure = innerFailure
    self.taskName = taskName
  }

  /// Whether an outer value would be dropped without calling the transform (`flatMapFirst` while an inner
  /// runs). Only `.first` asks the lock; the other strategies call the transform, and `outerValue` drops what
  /// comes after the end.
  @inlinable var ignoresOuterValue: Bool {
    guard case .first = kind else { return false }
    return state.withLock { $0.ended || !$0.running.isEmpty }
  }

  /// The transform made `inner` from an outer value: start it, queue it or drop it, as the strategy says.
  @inlinable func outerValue(_ inner: Inner) {
    let admission = state.withLock { state -> Admission in
      guard !state.ended else { return .none }
      let id = state.nextID
      state.nextID += 1
      switch kind {
      case .first:
        guard state.running.isEmpty else { return .none }
        state.running[id] = .starting
        return .start(id, stop: [])
      case .latest:
        let replaced = Array(state.running.values)
        state.running = [id: .starting]
        return .start(id, stop: replaced)
      case .concurrent(let limit):
        guard state.running.count < limit else {
          state.waiting.append((id, inner))
          return .none
        }
        state.running[id] = .starting
        return .start(id, stop: [])
      }
    }
    guard case .start(let id, let stop) = admission else { return }
    for runner in stop { runner.stop() }
    start(inner, id: id)
  }

  @inlinable func start(_ inner: Inner, id: Int) {
    if let immediate = (inner as? Signal<Element, Inner.Failure>)?.immediate {
      switch immediate {
      case .value(let element):
        admit(.value(element), from: id)
        innerFinished(id)
      case .finished:
        innerFinished(id)
      case .failed(let error):
        innerFailed(innerFailure(error), id: id)
      }
      return
    }
    let runner: Runner
    if let hot = inner as? any HotSequence<Element, Inner.Failure> {
      let upstream = hot.hotSignal.node
      let sink = upstream.addSink { [self] element in
        admit(.value(element), from: id)
      } onEnd: { [self] termination in
        switch termination {
        case .finished: innerFinished(id)
        case .failed(let error): innerFailed(innerFailure(error), id: id)
        }
      }
      runner = .sink { upstream.removeSink(sink) }
    } else {
      runner = .task(
        Task(named: taskName) { [self] in
          var iterator = inner.makeAsyncIterator()
          do throws(Inner.Failure) {
            while let element = try await iterator.next(isolation: nil) { admit(.value(element), from: id) }
            innerFinished(id)
          } catch {
            innerFailed(innerFailure(error), id: id)
          }
        })
    }
    let kept = state.withLock { state -> Bool in
      guard state.running[id] != nil else { return false }
      state.running[id] = runner
      return true
    }
    if !kept { runner.stop() }
  }

  /// Queues a value of inner `id` unless that inner stopped running.
  @inlinable func admit(_ delivery: Delivery, from id: Int) {
    let deliver = state.withLock { state -> Bool in
      guard !state.ended, state.running[id] != nil else { return false }
      outbox.enqueue(delivery)
      return true
    }
    if deliver { drain() }
  }

  @inlinable func innerFinished(_ id: Int) {
    let next = state.withLock { state -> Next in
      guard !state.ended, state.running.removeValue(forKey: id) != nil else { return .none }
      if !state.waiting.isEmpty {
        let (nextID, inner) = state.waiting.removeFirst()
        state.running[nextID] = .starting
        return .start(inner, id: nextID)
      }
      guard state.running.isEmpty, state.outerFinished else { return .none }
      return state.end(.finished, into: outbox).deliver ? .deliver : .none
    }
    switch next {
    case .none: break
    case .start(let inner, let nextID): start(inner, id: nextID)
    case .deliver: drain()
    }
  }

  @inlinable func innerFailed(_ failure: Failure, id: Int) {
    let (stop, deliver) = state.withLock { state -> ([Runner], Bool) in
      guard !state.ended, state.running[id] != nil else { return ([], false) }
      state.running[id] = nil
      return state.end(.failed(failure), into: outbox)
    }
    for runner in stop { runner.stop() }
    if deliver { drain() }
  }

  /// The outer sequence ended (or the transform threw: `.failed`).
  @inlinable func outerEnded(_ termination: Termination<Failure>) {
    let (stop, deliver) = state.withLock { state -> ([Runner], Bool) in
      guard !state.ended else { return ([], false) }
      if case .finished = termination {
        state.outerFinished = true
        guard state.isIdle else { return ([], false) }
      }
      return state.end(termination, into: outbox)
    }
    for runner in stop { runner.stop() }
    if deliver { drain() }
  }

  /// The node disconnected: every inner stops.
  @inlinable func stopAll() {
    let stop = state.withLock { state -> [Runner] in
      state.ended = true
      defer {
        state.running = [:]
        state.waiting = []
      }
      return Array(state.running.values)
    }
    for runner in stop { runner.stop() }
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

extension HotSequence {
  /// The node under every hot flatten operator.
  @inlinable func hotFlatten<Inner: AsyncSequence & Sendable, ResultFailure: Error>(
    _ strategy: FlattenStrategy,
    transform: @escaping @Sendable (Element) throws -> Inner,
    outerFailure: @escaping @Sendable (Failure) -> ResultFailure,
    innerFailure: @escaping @Sendable (Inner.Failure) -> ResultFailure,
    transformFailure: @escaping @Sendable (any Error) -> ResultFailure
  ) -> HotSignal<Inner.Element, ResultFailure> where Inner.Element: Sendable {
    let outer = hotSignal.node
    return HotSignal(
      node: SubjectStorage(replay: .none) { node in
        let connection = HotFlatten<Inner, ResultFailure>(node: node, strategy: strategy, innerFailure: innerFailure)
        let sink = outer.addSink { value in
          guard !connection.ignoresOuterValue else { return }
          let inner: Inner
          do {
            inner = try transform(value)
          } catch {
            connection.outerEnded(.failed(transformFailure(error)))
            return
          }
          connection.outerValue(inner)
        } onEnd: { termination in
          connection.outerEnded(mapTermination(termination, outerFailure))
        }
        return {
          outer.removeSink(sink)
          connection.stopAll()
        }
      })
  }
}
