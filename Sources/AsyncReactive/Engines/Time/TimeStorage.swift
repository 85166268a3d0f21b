/// One iteration of a time operator: the lock around its ``TimeStateMachine``, the task that pumps the upstream,
/// and the one timer task that serves the whole iteration.
///
/// The timer sleeps until the rule's deadline, tells the machine, and parks while the rule has no deadline (no
/// task per value or window). Continuations are resumed and tasks cancelled after the lock is released.
@usableFromInline final class TimeStorage<Rule: TimeRule, C: Clock>: ConsumerQueueHost where C.Instant == Rule.Instant {
  @usableFromInline typealias Element = Rule.Output
  @usableFromInline typealias Failure = Rule.Failure
  @usableFromInline typealias Machine = TimeStateMachine<Rule>

  @usableFromInline let state: Locked<Machine>
  @usableFromInline let clock: C

  @inlinable init(rule: Rule, clock: C) {
    state = Locked(Machine(rule: rule))
    self.clock = clock
  }

  /// Starts the work (the consumer's first `next()`): the rule's clock starts now, then the pump on `upstream`
  /// (an iterator made by the consumer's `makeAsyncIterator()`, so that a subject is subscribed from that moment)
  /// and the timer.
  /// - Parameter mapFailure: turns the upstream's failure into the operator's.
  @inlinable func start<Upstream: AsyncSequence & SendableMetatype>(
    upstream: sending Upstream.AsyncIterator,
    of _: Upstream.Type,
    mapFailure: @escaping @Sendable (Upstream.Failure) -> Failure
  ) where Upstream.Element == Rule.Input {
    let now = clock.now
    state.withLock { $0.started(at: now) }
    let pump = Task(named: "\(Rule.operatorName) upstream") { [self] in
      var upstream = upstream
      do throws(Upstream.Failure) {
        while let element = try await upstream.next(isolation: nil) {
          let now = clock.now
          guard let effects = state.withLock({ $0.received(element, at: now) }) else { return }
          let ended = effects.terminal != nil
          perform(effects)
          if ended { return }
        }
        let now = clock.now
        perform(state.withLock { $0.upstreamFinished(at: now) })
      } catch {
        let failure = mapFailure(error)
        let now = clock.now
        perform(state.withLock { $0.upstreamFailed(failure, at: now) })
      }
    }
    let timer = Task(named: "\(Rule.operatorName) timer") { [self] in await runTimer() }
    if !state.withLock({ $0.started(upstream: pump, timer: timer) }) {
      pump.cancel()
      timer.cancel()
    }
  }

  @inlinable func runTimer() async {
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

  /// Waits for the rule to have a deadline. No cancellation handler: whoever ends the operator resumes the
  /// parked timer.
  @inlinable func nextDeadline() async -> Machine.TimerAction {
    await withUnsafeContinuation { (timer: Machine.Timer) in
      if let action = state.withLock({ $0.timerWaits(timer) }) { timer.resume(returning: action) }
    }
  }

  @inlinable func perform(_ effects: Machine.Effects) {
    effects.cancelUpstream?.cancel()
    effects.cancelTimer?.cancel()
    if let (timer, action) = effects.timer { timer.resume(returning: action) }
    if let (waiter, output) = effects.consumer {
      if let output { waiter.resume(returning: .element(output)) } else { waiter.resume(returning: .recheck) }
    }
    if let terminal = effects.terminal {
      state.withLock { $0.terminate(terminal) }?.resume(returning: .recheck)
    }
  }

  // MARK: ConsumerQueueHost

  @inlinable func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R {
    state.withLock { body(&$0.outbox.queue) }
  }

  @inlinable func removeConsumer(_ id: Int) {
    perform(state.withLock { $0.consumerStopped() })
  }
}
