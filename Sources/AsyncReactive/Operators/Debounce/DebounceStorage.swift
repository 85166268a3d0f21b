/// The shared state of one iteration of an ``AsyncDebounceSequence``: the lock around its state machine, the
/// task that pumps the upstream and the timer task that emits a value once its quiet period is over.
///
/// One timer task serves the whole iteration (no task per value): it sleeps until the pending value's deadline
/// and, if a newer value moved the deadline meanwhile, sleeps again until the new one. Continuations are
/// resumed and tasks cancelled after the lock is released.
final class DebounceStorage<Element: Sendable, Failure: Error, C: Clock>: ConsumerQueueHost {
  private typealias StateMachine = DebounceStateMachine<Element, Failure, C.Instant>

  private let state: Locked<StateMachine>
  private let clock: C

  init(dueTime: C.Duration, clock: C) {
    state = Locked(StateMachine(dueTime: dueTime))
    self.clock = clock
  }

  /// Starts the pump on `upstream` (an iterator made by the consumer's `makeAsyncIterator()`, so that a subject
  /// is subscribed from that moment) and the timer.
  func start<Upstream: AsyncIteratorProtocol & SendableMetatype>(upstream: sending Upstream)
  where Upstream.Element == Element, Upstream.Failure == Failure {
    let pump = Task {
      var upstream = upstream
      do throws(Failure) {
        while let element = try await upstream.next(isolation: nil) {
          let now = clock.now
          guard let effects = state.withLock({ $0.received(element, at: now) }) else { return }
          perform(effects)
        }
        perform(state.withLock { $0.upstreamFinished() })
      } catch {
        perform(state.withLock { $0.upstreamFailed(error) })
      }
    }
    let timer = Task { await runTimer() }
    if !state.withLock({ $0.started(upstream: pump, timer: timer) }) {
      pump.cancel()
      timer.cancel()
    }
  }

  private func runTimer() async {
    var action = await nextDeadline()
    while case .sleep(let deadline) = action {
      do {
        try await clock.sleep(until: deadline, tolerance: nil)
      } catch {
        return  // cancelled: the operator ended
      }
      let (effects, next) = state.withLock { $0.timerFired(at: deadline) }
      perform(effects)
      if let next { action = next } else { action = await nextDeadline() }
    }
  }

  /// Waits for a pending value's deadline. No cancellation handler: whoever ends the operator resumes the
  /// parked timer.
  private func nextDeadline() async -> StateMachine.TimerAction {
    await withUnsafeContinuation { (timer: StateMachine.Timer) in
      if let action = state.withLock({ $0.timerWaits(timer) }) { timer.resume(returning: action) }
    }
  }

  private func perform(_ effects: StateMachine.Effects) {
    effects.cancelUpstream?.cancel()
    effects.cancelTimer?.cancel()
    if let (timer, action) = effects.timer { timer.resume(returning: action) }
    if let (waiter, element) = effects.consumer {
      if let element { waiter.resume(returning: .element(element)) } else { waiter.resume(returning: .recheck) }
    }
    if let terminal = effects.terminal {
      state.withLock { $0.terminate(terminal) }?.resume(returning: .recheck)
    }
  }

  // MARK: ConsumerQueueHost

  func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R {
    state.withLock { body(&$0.queue) }
  }

  func removeConsumer(_ id: Int) {
    perform(state.withLock { $0.consumerStopped() })
  }
}
