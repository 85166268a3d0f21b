import AsyncReactive
import AsyncReactiveTesting
import Testing

/// `offset` milliseconds after time zero on a ``TestClock``.
func instant(_ milliseconds: Int) -> TestClock.Instant {
  TestClock.Instant(offset: .milliseconds(milliseconds))
}

/// Drives a time operator's rule by hand, as the engine does, and returns what each event emitted.
///
/// Like the engine, ``fire(at:)`` calls the rule only once its deadline has come (and returns `nil` otherwise).
struct RuleDriver<Rule: TimeRule> where Rule.Instant == TestClock.Instant {
  var rule: Rule
  var outbox = TimeOutbox<Rule.Output, Rule.Failure>()

  init(_ rule: Rule) {
    self.rule = rule
  }

  /// When the timer would wake next.
  var deadline: TestClock.Instant? { rule.deadline }

  /// The end the rule decided on, if any.
  var end: Termination<Rule.Failure>? { outbox.end }

  var hasFinished: Bool {
    if case .finished = outbox.end { return true }
    return false
  }

  var failure: Rule.Failure? {
    if case .failed(let failure) = outbox.end { return failure }
    return nil
  }

  /// What the rule emitted since the last look.
  mutating func takeEmitted() -> [Rule.Output] {
    defer { outbox.emitted = [] }
    return outbox.emitted
  }

  mutating func receive(_ input: Rule.Input, at milliseconds: Int) -> [Rule.Output] {
    rule.received(input, at: instant(milliseconds), into: &outbox)
    return takeEmitted()
  }

  mutating func finish(at milliseconds: Int) -> [Rule.Output] {
    rule.upstreamFinished(at: instant(milliseconds), into: &outbox)
    return takeEmitted()
  }

  mutating func fail(_ failure: Rule.Failure, at milliseconds: Int) -> [Rule.Output] {
    rule.upstreamFailed(failure, at: instant(milliseconds), into: &outbox)
    return takeEmitted()
  }

  /// The timer wakes at `milliseconds`: what the rule emits, or `nil` if its deadline has not come.
  mutating func fire(at milliseconds: Int) -> [Rule.Output]? {
    guard let deadline = rule.deadline, deadline <= instant(milliseconds) else { return nil }
    rule.timerFired(at: instant(milliseconds), into: &outbox)
    return takeEmitted()
  }
}

/// Runs `body` with a scope that counts the library's tasks it starts (and the tasks those start): the timer
/// tasks of a hot time node are started inside the `send` that gives the rule a deadline.
func withTaskScope<Result>(_ body: (ResourceScope) async throws -> Result) async rethrows -> Result {
  let scope = ResourceScope()
  return try await ResourceScope.$current.withValue(scope) { try await body(scope) }
}

/// The library's tasks alive in `scope`, by name: `["task 'debounce timer'": 1]`.
func tasks(_ scope: ResourceScope) -> [String: Int] {
  scope.live.filter { $0.key.hasPrefix("task") }
}

/// Returns once at most `count` of the library's tasks are alive in `scope`: a timer that its rule restarted
/// (debounce, timeout: a new timer per value, registered after what the value delivered) was cancelled and ends
/// once it runs again.
func waitForTasks(_ scope: ResourceScope, atMost count: Int) async {
  let others = scope.live.filter { !$0.key.hasPrefix("task") }.values.reduce(0, +)
  await scope.waitUntil(atMost: others + count)
}

/// A cold upstream that counts its runs (`runs`), sends `1` and then waits until it is cancelled: what a test
/// gives an operator to see whether it started the upstream's work.
func countedRuns(_ runs: Counter) -> Signal<Int, TestError> {
  Signal<Int, TestError> { (emitter) throws(TestError) in
    runs.increment()
    emitter.send(1)
    await waitForCancellation()
  }
}

/// An upstream that a test feeds one event at a time: `send`, `finish` and `fail` return once the operator has
/// handled the event, that is when it asks for the next value or, after a terminal event, when it has stopped
/// iterating. So after `await feed.send(x)` the operator's state reflects `x` and the test can move the clock.
///
/// Single pass. ``cancelled`` opens when the operator stops iterating before the feed ended it (its consumer
/// was cancelled, its iterator dropped, or it gave up on the feed as a timeout does).
final class Feed<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  enum Event: Sendable {
    case value(Element)
    case finish
    case fail(Failure)

    var isTerminal: Bool {
      if case .value = self { return false }
      return true
    }
  }

  private struct State {
    var started = false
    var queued: [Event] = []
    var parked: CheckedContinuation<Event?, Never>?
    /// Tests waiting for the operator to come back for more (or to stop).
    var senders: [CheckedContinuation<Void, Never>] = []
    var terminalDelivered = false
    var ended = false

    /// Marks the iteration ended; returns the senders to resume and whether it was a cancellation.
    mutating func end() -> (senders: [CheckedContinuation<Void, Never>], cancelled: Bool) {
      guard !ended else { return ([], false) }
      ended = true
      defer { senders = [] }
      return (senders, !terminalDelivered)
    }
  }

  private let state = Locked(State())
  /// Opens when the operator stopped iterating before the feed finished or failed it.
  let cancelled = Gate()

  /// Hands `value` to the operator and returns once it asked for the next one.
  func send(_ value: Element) async { await deliver(.value(value)) }

  /// Ends the upstream and returns once the operator stopped iterating.
  func finish() async { await deliver(.finish) }

  /// Fails the upstream and returns once the operator stopped iterating.
  func fail(_ failure: Failure) async { await deliver(.fail(failure)) }

  private func deliver(_ event: Event) async {
    await withCheckedContinuation { (sender: CheckedContinuation<Void, Never>) in
      let (parked, nobodyListens) = state.withLock { state -> (CheckedContinuation<Event?, Never>?, Bool) in
        guard !state.ended else { return (nil, true) }
        state.senders.append(sender)
        guard let parked = state.parked else {
          state.queued.append(event)
          return (nil, false)
        }
        state.parked = nil
        if event.isTerminal { state.terminalDelivered = true }
        return (parked, false)
      }
      if nobodyListens { sender.resume() }
      parked?.resume(returning: event)
    }
  }

  func makeAsyncIterator() -> Iterator {
    state.withLock { state in
      precondition(!state.started, "a Feed can be iterated once")
      state.started = true
    }
    return Iterator(box: IterationBox(feed: self))
  }

  struct Iterator: AsyncIteratorProtocol {
    fileprivate let box: IterationBox

    func next() async throws(Failure) -> Element? {
      try await box.feed.next()
    }

    func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      try await box.feed.next()
    }
  }

  /// Tells the feed when the operator drops its iterator.
  fileprivate final class IterationBox {
    let feed: Feed

    init(feed: Feed) {
      self.feed = feed
    }

    deinit { feed.ended() }
  }

  fileprivate func next() async throws(Failure) -> Element? {
    let event = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Event?, Never>) in
        let (immediate, senders, cancelled) = state.withLock {
          state -> (Event??, [CheckedContinuation<Void, Never>], Bool) in
          if state.ended { return (.some(nil), [], false) }
          if Task.isCancelled {
            let (senders, cancelled) = state.end()
            return (.some(nil), senders, cancelled)
          }
          if !state.queued.isEmpty {
            let event = state.queued.removeFirst()
            if event.isTerminal { state.terminalDelivered = true }
            return (.some(event), [], false)
          }
          // Back for more with nothing queued: every event sent so far has been handled.
          state.parked = continuation
          defer { state.senders = [] }
          return (nil, state.senders, false)
        }
        if cancelled { self.cancelled.open() }
        for sender in senders { sender.resume() }
        if let immediate { continuation.resume(returning: immediate) }
      }
    } onCancel: {
      let (parked, senders, cancelled) = state.withLock { state in
        defer { state.parked = nil }
        let (senders, cancelled) = state.end()
        return (state.parked, senders, cancelled)
      }
      if cancelled { self.cancelled.open() }
      for sender in senders { sender.resume() }
      parked?.resume(returning: nil)
    }
    switch event {
    case .value(let value): return value
    case .fail(let failure): throw failure
    case .finish, nil: return nil
    }
  }

  fileprivate func ended() {
    let (senders, cancelled) = state.withLock { $0.end() }
    if cancelled { self.cancelled.open() }
    for sender in senders { sender.resume() }
  }
}

/// A cold fallback on the test clock: each value `after` its delay (ms) from when its iteration started, then the
/// end (or, without `finishAfter`, nothing more until it is cancelled; with `failure`, that failure). `started`
/// counts iterations. The timeout-with-fallback tests of the stream and hot forms share it.
func coldFallback(
  _ events: [(after: Int, value: Int)], finishAfter: Int?, failure: TestError? = nil, clock: TestClock,
  started: Counter
) -> Signal<Int, TestError> {
  Signal<Int, TestError> { (emitter) throws(TestError) in
    started.increment()
    let start = clock.now
    for (after, value) in events {
      do { try await clock.sleep(until: start.advanced(by: .milliseconds(after))) } catch { return }
      emitter.send(value)
    }
    guard let finishAfter else { return await waitForCancellation() }
    do { try await clock.sleep(until: start.advanced(by: .milliseconds(finishAfter))) } catch { return }
    if let failure { throw failure }
  }
}
