/// The shared state of one iteration of an ``AsyncTimeoutSequence``: the lock around its state machine, the
/// task that pumps the upstream and the timer task that enforces the deadline.
///
/// One timer task serves the whole iteration: it sleeps until the deadline and, if a value moved the deadline
/// meanwhile, sleeps again until the new one. Continuations are resumed and tasks cancelled after the lock is
/// released.
final class TimeoutStorage<Element: Sendable, Failure: Error, C: Clock>: ConsumerQueueHost {
  private typealias StateMachine = TimeoutStateMachine<Element, Failure, C.Instant>

  private let state: Locked<StateMachine>
  private let clock: C

  /// The first deadline is one interval after now.
  init(interval: C.Duration, timedOut: Failure, clock: C) {
    state = Locked(StateMachine(interval: interval, start: clock.now, timedOut: timedOut))
    self.clock = clock
  }

  /// Starts the pump on `upstream` (an iterator made by the consumer's `makeAsyncIterator()`, so that a subject
  /// is subscribed from that moment) and the timer.
  func start<Upstream: AsyncIteratorProtocol & SendableMetatype>(
    upstream: sending Upstream,
    mapFailure: @escaping @Sendable (Upstream.Failure) -> Failure
  ) where Upstream.Element == Element {
    let pump = Task {
      var upstream = upstream
      do throws(Upstream.Failure) {
        while let element = try await upstream.next(isolation: nil) {
          let now = clock.now
          let (effects, goOn) = state.withLock { $0.received(element, at: now) }
          perform(effects)
          guard goOn else { return }
        }
        let now = clock.now
        perform(state.withLock { $0.upstreamFinished(at: now) })
      } catch {
        let failure = mapFailure(error)
        let now = clock.now
        perform(state.withLock { $0.upstreamFailed(failure, at: now) })
      }
    }
    let timer = Task { await runTimer() }
    if !state.withLock({ $0.started(upstream: pump, timer: timer) }) {
      pump.cancel()
      timer.cancel()
    }
  }

  private func runTimer() async {
    var action = state.withLock { $0.timerStarts() }
    while case .sleep(let deadline) = action {
      do {
        try await clock.sleep(until: deadline, tolerance: nil)
      } catch {
        return  // cancelled: the operator ended
      }
      let (effects, next) = state.withLock { $0.timerFired(at: deadline) }
      perform(effects)
      action = next
    }
  }

  private func perform(_ effects: StateMachine.Effects) {
    effects.cancelUpstream?.cancel()
    effects.cancelTimer?.cancel()
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
