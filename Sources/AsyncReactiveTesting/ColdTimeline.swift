import AsyncReactive

/// A cold sequence that plays a fixed timeline anew for each consumer, each instant an offset from when that
/// consumer subscribed: RxTest's `createColdObservable`. Make one with `TestClock.coldTimeline(_:)`.
///
/// **When it sends:** each subscription starts a run at the clock's `now`, and that run schedules all its events
/// then, as RxTest schedules a cold observable's events when it is subscribed: at an instant it shares with other
/// work (another timeline's event, an operator's timer), its event comes before the work scheduled after the
/// subscription. Events at the same offset are sent in the order of the array (events may come in any order); an
/// offset of zero sends at once, inside the subscription. `.finished` and `.failed` end the run; without an end,
/// the run sends nothing more and lasts until its consumer stops. Two subscriptions at different instants each get
/// the whole timeline, shifted to their start. Use it inside `withVirtualTime`, for the advances to run each run's
/// sends at their instants.
///
/// It is a `Signal` underneath: operators over it treat it as one (it is retried by `retry`, started in place by
/// each subscription), and `Signal(timeline)` is that signal.
///
/// **Subscriptions:** ``subscriptions`` lists each run: when it started and when it ended (its own end, or its
/// consumer stopping): RxTest's `ys.subscriptions`.
///
/// **Cancellation:** a consumer that stops cancels its run's sleep; nothing is left sleeping on the clock.
///
/// ```swift
/// await clock.withVirtualTime {
///   let ys = clock.coldTimeline([
///     .value("a", at: .seconds(10)), .value("b", at: .seconds(20)), .finished(at: .seconds(30)),
///   ])
///   let first = Recorder(ys, clock: clock)  // a run from 0 s
///   await clock.advance(by: .seconds(5))
///   let second = Recorder(ys, clock: clock)  // a run from 5 s
///   await clock.run()
///   #expect(second.events.map(\.instant.offset) == [.seconds(15), .seconds(25), .seconds(35)])
///   print(ys.subscriptions)  // [0s-30s, 5s-35s]
/// }
/// ```
public final class ColdTimeline<Element: Sendable, Failure: Error>: ReactiveSequence, ReiterableAsyncSequence,
  SignalBacked, Sendable
{
  /// The iterator of the timeline's signal.
  ///
  /// ```swift
  /// var iterator: ColdTimeline<Int, Never>.AsyncIterator = ys.makeAsyncIterator()
  /// ```
  public typealias AsyncIterator = Signal<Element, Failure>.Iterator

  @usableFromInline package let signal: Signal<Element, Failure>
  private let log: SubscriptionLog

  init(_ events: [Recorded<Element, Failure>], clock: TestClock) {
    for event in events {
      precondition(
        event.instant.offset >= .zero,
        "TestClock.coldTimeline: \(event) is before the run's start; a cold timeline's instants are offsets from it")
    }
    let steps = TimelineStep.schedule(events)
    let log = SubscriptionLog()
    self.log = log
    signal = Signal { (emitter) throws(Failure) in
      let start = clock.now
      // Every event of the run takes its place among the work due at its instant now, at the subscription.
      let orders = clock.reserveOrders(steps.count)
      let entry = log.subscribe(at: start)
      let failure = await withTaskCancellationHandler {
        await Self.play(steps, orders: orders, from: start, clock: clock, to: emitter)
      } onCancel: {
        log.unsubscribe(entry, at: clock.now)
      }
      log.unsubscribe(entry, at: clock.now)
      if let failure { throw failure }
    }
  }

  /// Sends each step at its offset from `start`; returns the failure that ended the run, if one did.
  private static func play(
    _ steps: [TimelineStep<Element, Failure>], orders: Range<Int>, from start: TestClock.Instant, clock: TestClock,
    to emitter: Signal<Element, Failure>.Emitter
  ) async -> Failure? {
    // Without waiting for a slow consumer (the timeline's instants are fixed), as RxTest's cold observable sends.
    let send: (Element) -> Void = emitter.send
    for (step, order) in zip(steps, orders) {
      // Cancelled: the consumer stopped, and nothing more is sent.
      do { try await clock.sleep(until: start + step.instant.offset, order: order) } catch { return nil }
      for event in step.events {
        switch event {
        case .value(let value): send(value)
        case .finished: return nil
        case .failed(let error): return error
        }
      }
    }
    // No end on the timeline: the run lasts until its consumer stops (returning would finish it).
    await suspendUntilCancelled()
    return nil
  }

  /// Starts a run: `for await value in timeline`.
  ///
  /// ```swift
  /// for await value in ys { print(value) }
  /// ```
  public func makeAsyncIterator() -> AsyncIterator {
    signal.makeAsyncIterator()
  }

  /// When each run started and when it ended, in the order they started: RxTest's `ys.subscriptions`.
  ///
  /// ```swift
  /// let recorder = await clock.start { ys.retry(1) }
  /// print(ys.subscriptions)  // [200s-220s, 220s-240s]: a run, and the retry's
  /// ```
  public var subscriptions: [TimelineSubscription] { log.subscriptions }
}
