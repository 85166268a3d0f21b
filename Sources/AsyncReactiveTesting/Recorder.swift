import AsyncReactive
import Testing

/// Iterates a sequence in the background and records each value with the ``TestClock`` instant at which it
/// arrived, plus how the sequence ended.
///
/// The consumer is registered when the recorder is created (the sequence's iterator is made before the
/// recording task starts), so a subject's values sent right after `init` are not missed. Waiting for values
/// or for the end is a handshake resumed by the recording itself: no polling.
///
/// **Hot sources** (subjects, properties, `HotSignal`s and every operator over them) are recorded inside `send`,
/// with no task: each value is stamped with the clock's `now` at the send, and an assertion right after the send
/// needs no `await`; "nothing was emitted" is exact.
///
/// ```swift
/// let recorder = Recorder(viewModel.isSignupEnabled, clock: clock)
/// viewModel.password.send("hunter22")
/// #expect(recorder.values.map(\.value) == [false, true])   // no await
/// viewModel.password.send("hunter22")
/// #expect(recorder.values.count == 2)                      // exact: nothing else was emitted
/// ```
///
/// **Cold `Signal`s** (a `Signal` and every chain of the library's operators over one) are recorded the same way: the
/// recorder starts a run when it subscribes and observes it inside the run's sends, with no task of its own, as
/// RxTest's observer does. A value sent at the instant of a cancellation scheduled after it is recorded; one that a
/// task of the run produces (a timer's tick, a foreign input's element) is stamped when that task sends it.
///
/// Any other sequence (an `AsyncStream`, a sequence of your own) is iterated by a recording task. A value is stamped when that task receives it, so wait for
/// the values due at the current time
/// (``waitForValues(count:timeout:fileID:filePath:line:column:)``) before advancing the clock again.
///
/// **Subscribing later:** `Recorder(clock:)` makes a recorder that records nothing until ``subscribe(to:)`` (RxTest's
/// `createObserver`), and `Recorder(_:clock:subscribed:disposed:)` one that subscribes and cancels at given instants;
/// `TestClock.start(created:subscribed:disposed:_:)` is RxTest's `scheduler.start`.
///
/// **Cancellation:** ``cancel()``, or releasing the recorder, cancels the recording task, which stops the
/// sequence's work.
///
/// ```swift
/// let clock = TestClock()
/// let ticks = AsyncPassthroughSubject<Int, Never>()
/// let recorder = Recorder(ticks, clock: clock)
/// ticks.send(1)
/// _ = await recorder.waitForValues(count: 1)  // stamped t=0s before time moves on
/// await clock.advance(by: .seconds(1))
/// ticks.send(2)
/// ticks.finish()
/// await recorder.waitForEnd()
/// #expect(recorder.values == [Timed(1, at: .zero), Timed(2, at: .seconds(1))])
/// ```
public final class Recorder<Element: Sendable, Failure: Error>: Sendable {
  /// How the recorded sequence ended.
  ///
  /// ```swift
  /// #expect(await recorder.waitForEnd() == Timed(.failed(.timedOut), at: .seconds(5)))
  /// ```
  public enum End: Sendable {
    /// The sequence finished normally (also what ``Recorder/waitForEnd(timeout:fileID:filePath:line:column:)``
    /// returns once a ``Recorder/cancel()`` stopped the recording).
    case finished
    /// The sequence threw `Failure`.
    case failed(Failure)
  }

  /// What records a subscription: the task of a cold one, the observer of a hot one.
  private struct Reading: Sendable {
    /// The recording task of a cold sequence; `nil` for a hot one, which is observed synchronously.
    var task: Task<Void, Never>?
    /// Where the synchronous observer of a hot sequence lives.
    var lifetime: Lifetime?
    /// The node recorded, when the recorded sequence is hot (for ``debugGraph()``).
    var node: (any AnyObject & Sendable)?
    /// The last node of the run a `Signal`'s recording reads, while that run lives (for ``debugGraph()``).
    weak var runNode: (any AnyObject & Sendable)?
  }

  /// Where the recorder is in its life: made, subscribed, or cancelled (with what it read, for ``debugGraph()``).
  private enum Phase: Sendable {
    case waiting
    case recording(Reading)
    case cancelled(Reading?)

    var reading: Reading? {
      switch self {
      case .waiting: nil
      case .recording(let reading): reading
      case .cancelled(let reading): reading
      }
    }
  }

  private let storage = Storage()
  private let phase = Locked(Phase.waiting)
  private let clock: TestClock

  /// A recorder that records nothing until ``subscribe(to:)``: RxTest's `scheduler.createObserver(Int.self)`, for a
  /// test that subscribes it later, at an instant of its choice.
  ///
  /// ```swift
  /// let recorder = Recorder<Int, Never>(clock: clock)
  /// clock.schedule(at: .seconds(300)) { recorder.subscribe(to: xs) }
  /// clock.schedule(at: .seconds(400)) { recorder.cancel() }
  /// await clock.run()
  /// ```
  /// - Parameter clock: the clock whose `now` stamps values and the end.
  public init(clock: TestClock) {
    self.clock = clock
  }

  /// Starts recording `base`, time-stamping each value with `clock.now` when it is received. A cold run starts in
  /// place: what a synchronous source (`Signal.just`, an array) sends is recorded, with its end, when this returns.
  ///
  /// ```swift
  /// let recorder = Recorder(viewModel.results, clock: clock)
  /// ```
  /// - Parameters:
  ///   - base: the sequence to record; its iterator is created before this returns.
  ///   - clock: the clock whose `now` stamps values and the end.
  public convenience init<Base: AsyncSequence & Sendable>(_ base: Base, clock: TestClock)
  where Base.Element == Element, Base.Failure == Failure {
    self.init(clock: clock)
    subscribe(to: base)
  }

  /// Starts recording the hot sequence `base` inside its sends: each value is recorded, stamped with `clock.now`,
  /// before the `send` that produced it returns.
  ///
  /// ```swift
  /// let recorder = Recorder(viewModel.results, clock: clock)
  /// viewModel.query.send("swift")
  /// #expect(recorder.values.map(\.value) == [["AsyncReactive"]])
  /// ```
  /// - Parameters:
  ///   - base: the hot sequence to record; observed before this returns.
  ///   - clock: the clock whose `now` stamps values and the end.
  public convenience init<Base: HotSequence>(_ base: Base, clock: TestClock)
  where Base.Element == Element, Base.Failure == Failure {
    self.init(clock: clock)
    start { record(base.hotSignal) }
  }

  /// A recorder that subscribes to `base` when the clock reaches `subscribed` and, if `disposed` is given,
  /// cancels there: RxTest's observer subscribed and disposed with `scheduler.scheduleAt`. Both are scheduled
  /// now, with ``TestClock/schedule(at:_:)-(Duration,_)``: at their instants they come after the work
  /// scheduled before this call. Use it inside `withVirtualTime`.
  ///
  /// ```swift
  /// let late = Recorder(subject, clock: clock, subscribed: .seconds(300), disposed: .seconds(400))
  /// await clock.run()
  /// #expect(late.events == [.value(4, at: .seconds(340))])
  /// ```
  /// - Parameters:
  ///   - base: the sequence to record from `subscribed` on.
  ///   - clock: the clock whose `now` stamps values, and which runs the subscription and the cancellation.
  ///   - subscribed: when to subscribe, after time zero.
  ///   - disposed: when to cancel the recording, after time zero; `nil` to keep recording.
  public convenience init<Base: AsyncSequence & Sendable>(
    _ base: Base, clock: TestClock, subscribed: Duration, disposed: Duration? = nil
  ) where Base.Element == Element, Base.Failure == Failure {
    self.init(clock: clock)
    clock.schedule(at: subscribed) { [self] in subscribe(to: base) }
    if let disposed { clock.schedule(at: disposed) { [self] in cancel() } }
  }

  /// Starts recording `base` now, as `Recorder(base, clock:)` does: RxTest's `xs.subscribe(observer)`. A recorder
  /// records one subscription: it traps if it was subscribed already, and does nothing once cancelled.
  ///
  /// ```swift
  /// let recorder = Recorder<Int, Never>(clock: clock)
  /// clock.schedule(at: .seconds(300)) { recorder.subscribe(to: xs) }
  /// ```
  /// - Parameter base: the sequence to record; its iterator is created (a cold run started) before this returns.
  public func subscribe<Base: AsyncSequence & Sendable>(to base: Base)
  where Base.Element == Element, Base.Failure == Failure {
    start {
      // What the value is decides, not its static type: a hot one (a `Signal` that erases a subject, say) is
      // recorded inside its sends, as the hot initialiser does.
      let signal = Signal(base)
      if let node = signal.hotNode { return record(HotSignal(node: node)) }
      // A signal's run is built with a node per operator, so that `debugGraph()` can draw it while it runs.
      if base is Signal<Element, Failure> || base is any SignalBacked<Element, Failure> {
        // Recorded inside the run's sends too, as RxTest's observer: a value sent at the instant of a cancellation
        // scheduled after it is recorded. The run's last node is kept weakly, for `debugGraph()` while it lives. The
        // tasks the run starts (a cold input's pump) prefer the clock's executor, so that `settle()` waits for them.
        let executor = TaskExecutorContext.preferred(for: clock)
        return TaskExecutorContext.$preferred.withValue(executor) {
          var reading = record(HotSignal(node: signal.node(.shared)))
          reading.runNode = reading.node
          reading.node = nil
          return reading
        }
      }
      return Reading(task: Self.startReading(base.makeAsyncIterator(), into: storage, clock: clock))
    }
  }

  /// Moves from waiting to recording what `subscription` starts, once.
  private func start(_ subscription: () -> Reading) {
    let proceed = phase.withLock { phase -> Bool? in
      switch phase {
      case .waiting:
        phase = .recording(Reading())
        return true
      case .recording: return nil
      case .cancelled: return false
      }
    }
    guard let proceed else {
      preconditionFailure(
        "Recorder.subscribe(to:): this recorder records a sequence already; make one per subscription")
    }
    guard proceed else { return }
    let reading = subscription()
    // A cancellation that came meanwhile (from another task) stops what was just started.
    let cancelled = phase.withLock { phase -> Bool in
      guard case .recording = phase else {
        phase = .cancelled(reading)
        return true
      }
      phase = .recording(reading)
      return false
    }
    if cancelled {
      reading.task?.cancel()
      reading.lifetime?.cancel()
    }
  }

  /// Records `signal` inside its sends, for as long as the returned lifetime lasts.
  private func record(_ signal: HotSignal<Element, Failure>) -> Reading {
    let lifetime = Lifetime()
    let (storage, clock) = (self.storage, self.clock)
    signal.sink(in: lifetime) { value in
      storage.record(value, at: clock.now)
    } onEnd: { failure in
      storage.recordEnd(failure.map { .failed($0) } ?? .finished, at: clock.now)
    }
    return Reading(lifetime: lifetime, node: signal.node)
  }

  /// Starts the recording task that reads `iterator`.
  private static func startReading<Iterator: AsyncIteratorProtocol<Element, Failure>>(
    _ iterator: sending Iterator, into storage: Storage, clock: TestClock
  ) -> Task<Void, Never> {
    // On the clock's test executor, so that `settle()` waits for it too, even when the recorder is made outside the
    // `TestClock.withVirtualTime` body (in a suite's `init()`).
    let executor = TaskExecutorContext.preferred(for: clock)
    // Started in place, as RxSwift's `subscribe`: the run delivers what it has ready before the recorder returns.
    let operation: () async -> Void = {
      // The tasks the run starts (a cold input's pump) prefer the same executor.
      await TaskExecutorContext.$preferred.withValue(executor) {
        await Self.read(iterator, into: storage, clock: clock)
      }
    }
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      return Task.immediate(executorPreference: executor, operation: operation)
    }
    return Task(executorPreference: executor, operation: operation)
  }

  /// Reads a cold run to its end, recording each value and the end with the clock's instant.
  private static func read<Iterator: AsyncIteratorProtocol<Element, Failure>>(
    _ iterator: Iterator, into storage: Storage, clock: TestClock
  ) async {
    var iterator = iterator
    do throws(Failure) {
      while let value = try await iterator.next(isolation: nil) {
        storage.record(value, at: clock.now)
      }
      storage.recordEnd(.finished, at: clock.now)
    } catch {
      storage.recordEnd(.failed(error), at: clock.now)
    }
  }

  /// A picture of the live graph this recorder observes (see `HotSequence.debugGraph()`): the node it records, what
  /// that node reads, and what else reads it. For a cold `Signal`, the graph of the run this recorder reads, a node
  /// per operator, while the run lives. `nil` for a sequence that is not a `Signal` (an `AsyncStream`), an immediate
  /// signal (`just`, `empty`, `fail`), and a run that is over.
  ///
  /// ```swift
  /// let recorder = Recorder(viewModel.isSignupEnabled, clock: clock)
  /// print(recorder.debugGraph()!)   // "why is it still false?"
  /// ```
  public func debugGraph() -> DebugGraph? {
    guard let reading = phase.withLock({ $0.reading }) else { return nil }
    return (reading.node ?? reading.runNode).map { DebugGraph(around: $0) }
  }

  deinit {
    guard let reading = phase.withLock({ $0.reading }) else { return }
    reading.task?.cancel()
    reading.lifetime?.cancel()
  }

  /// The values recorded so far, in arrival order.
  ///
  /// ```swift
  /// await recorder.waitForEnd()
  /// #expect(recorder.values.map(\.value) == [1, 2, 3])
  /// ```
  public var values: [Timed<Element>] { storage.state.withLock { $0.values } }

  /// How and when the sequence ended, or `nil` while it is still running (and after a ``cancel()``, which records
  /// nothing).
  ///
  /// ```swift
  /// #expect(recorder.end == nil)  // still running
  /// ```
  public var end: Timed<End>? { storage.state.withLock { $0.cancelled ? nil : $0.end } }

  /// Everything recorded so far as one timeline: each value, then the end once it came, each with its instant
  /// (RxTest's `observer.events`). One `==` checks the values, the end, and that nothing else happened; it compiles
  /// for any failure type, `any Error` included (see ``Recorded`` for how failures compare). A ``cancel()`` adds
  /// nothing, as RxTest's `dispose()` does.
  ///
  /// ```swift
  /// await clock.run()
  /// #expect(recorder.events == [.value(4, at: .seconds(210)), .value(6, at: .seconds(220)), .finished(at: .seconds(300))])
  /// print(recorder.events)  // [4@210s, 6@220s, finished@300s]
  /// ```
  public var events: [Recorded<Element, Failure>] {
    let (values, end) = storage.state.withLock { ($0.values, $0.cancelled ? nil : $0.end) }
    var events = values.map { Recorded<Element, Failure>(.value($0.value), at: $0.instant) }
    if let end {
      switch end.value {
      case .finished: events.append(.finished(at: end.instant))
      case .failed(let error): events.append(.failed(error, at: end.instant))
      }
    }
    return events
  }

  /// Returns the first `count` recorded values, waiting until they have arrived, or fails the test after
  /// `timeout`.
  ///
  /// Returns fewer if the sequence ends first (so a test fails on the comparison instead of hanging).
  ///
  /// **Timeout:** if the values do not arrive within `timeout` of real time, records a test failure (a Swift
  /// Testing issue at the caller) that lists the values recorded so far and the clock's sleepers, and returns
  /// the values recorded so far; a passing test never waits that long.
  ///
  /// **Cancellation:** returns the values recorded so far, without a failure, if the waiting task is cancelled.
  ///
  /// ```swift
  /// subject.send("a")
  /// #expect(await recorder.waitForValues(count: 1) == [Timed("a", at: .zero)])
  /// ```
  /// - Parameters:
  ///   - count: how many values to wait for.
  ///   - timeout: how long (real time) to wait before failing; positive.
  ///   - fileID: the file of the location where a failure is reported; the caller's by default.
  ///   - filePath: the path of that file; the caller's by default.
  ///   - line: the line of that location; the caller's by default.
  ///   - column: the column of that location; the caller's by default.
  /// - Returns: the first `count` values (fewer if the sequence ended, the time ran out or the wait was
  ///   cancelled).
  public func waitForValues(
    count: Int,
    timeout: Duration = .seconds(60),
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async -> [Timed<Element>] {
    checkTimeout(timeout, of: "Recorder.waitForValues(count: \(count))")
    let ready = storage.state.withLock { state -> [Timed<Element>]? in
      state.values.count >= count || state.end != nil ? Array(state.values.prefix(count)) : nil
    }
    if let ready { return ready }
    let watched = await watch(timeout: timeout) { [storage] in await storage.waitForValues(count: count) }
    if watched.expired && watched.value.count < count {
      let (values, end) = storage.state.withLock { ($0.values, $0.end) }
      if end == nil {
        recordTimeout(
          "Recorder.waitForValues(count: \(count)) timed out after \(timeout.secondsDescription): "
            + "\(describe(values)), and the sequence has not ended; \(describeClock())",
          sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
      }
    }
    return watched.value
  }

  /// Waits until the sequence ends and returns how and when it ended, or fails the test after `timeout`.
  ///
  /// After a ``cancel()`` it returns once the recording has stopped (a cold sequence's recording task has let go of
  /// its run), with `.finished` at that instant, though ``end`` and ``events`` record nothing: the handshake that
  /// what the recording ran has wound down.
  ///
  /// **Timeout:** if the sequence does not end within `timeout` of real time, records a test failure that lists
  /// the values recorded so far and the clock's sleepers, and returns `nil`.
  ///
  /// **Cancellation:** returns `nil`, without a failure, if the waiting task is cancelled before the sequence
  /// ends.
  ///
  /// ```swift
  /// subject.finish()
  /// #expect(await recorder.waitForEnd() == Timed(.finished, at: .zero))
  /// ```
  /// - Parameters:
  ///   - timeout: how long (real time) to wait before failing; positive.
  ///   - fileID: the file of the location where a failure is reported; the caller's by default.
  ///   - filePath: the path of that file; the caller's by default.
  ///   - line: the line of that location; the caller's by default.
  ///   - column: the column of that location; the caller's by default.
  /// - Returns: the end, or `nil` if the time ran out or the wait was cancelled first.
  @discardableResult
  public func waitForEnd(
    timeout: Duration = .seconds(60),
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async -> Timed<End>? {
    checkTimeout(timeout, of: "Recorder.waitForEnd()")
    if let end { return end }
    let watched = await watch(timeout: timeout) { [storage] in await storage.waitForEnd() }
    if watched.expired && watched.value == nil {
      recordTimeout(
        "Recorder.waitForEnd() timed out after \(timeout.secondsDescription): the sequence has not "
          + "ended, \(describe(values)); \(describeClock())",
        sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      )
    }
    return watched.value
  }

  /// Waits until a value or the end was recorded; `false` if `timeout` of real time ran out first.
  func waitForFirstEvent(timeout: Duration) async -> Bool {
    let watched = await watch(timeout: timeout) { [storage] in await storage.waitForValues(count: 1) }
    return !watched.expired || !watched.value.isEmpty || storage.state.withLock { $0.end != nil }
  }

  /// `2 values recorded: [t=0s: a, t=0.3s: b]`, for failure messages.
  private func describe(_ values: [Timed<Element>]) -> String {
    switch values.count {
    case 0: "no value recorded"
    case 1: "1 value recorded: \(values)"
    default: "\(values.count) values recorded: \(values)"
    }
  }

  private func describeClock() -> String {
    TestClock.describe(now: clock.now, deadlines: clock.sleeperDeadlines)
  }

  /// Stops recording, and records nothing for it (RxTest's `dispose()`): cancels the task iterating the sequence,
  /// or stops observing a hot one. ``values``, ``end`` and ``events`` keep what came before; what the sequence
  /// sends later, its end included, is not recorded. ``waitForEnd(timeout:fileID:filePath:line:column:)`` returns
  /// once the recording has stopped. Cancelling a recorder that has not subscribed yet keeps it from subscribing.
  ///
  /// ```swift
  /// recorder.cancel()
  /// #expect(recorder.events == [.value(4, at: .seconds(210))])  // no end
  /// ```
  public func cancel() {
    let previous = phase.withLock { phase -> Phase in
      defer { phase = .cancelled(phase.reading) }
      return phase
    }
    switch previous {
    case .waiting:
      storage.cancel(at: clock.now, taskEnds: false)
    case .recording(let reading):
      // A recording task records the stop when it has let go of its run.
      storage.cancel(at: clock.now, taskEnds: reading.task != nil)
      reading.task?.cancel()
      reading.lifetime?.cancel()
    case .cancelled:
      break
    }
  }

  private struct ValueWaiter {
    var id: Int
    var count: Int
    var continuation: CheckedContinuation<[Timed<Element>], Never>
  }

  private struct EndWaiter {
    var id: Int
    var continuation: CheckedContinuation<Timed<End>?, Never>
  }

  private struct State {
    var values: [Timed<Element>] = []
    /// How the recording stopped: the sequence's end, or (when `cancelled`) the cancellation.
    var end: Timed<End>?
    /// The recording was cancelled before the sequence ended: nothing after it is recorded.
    var cancelled = false
    var valueWaiters: [ValueWaiter] = []
    var endWaiters: [EndWaiter] = []
    var nextID = 0

    mutating func makeID() -> Int {
      defer { nextID += 1 }
      return nextID
    }
  }

  /// Shared by the recorder and its task, so that releasing the recorder can cancel the task.
  private final class Storage: Sendable {
    let state = Locked(State())

    func record(_ value: Element, at instant: TestClock.Instant) {
      let resumptions = state.withLock { state -> [(ValueWaiter, [Timed<Element>])] in
        guard !state.cancelled, state.end == nil else { return [] }
        state.values.append(Timed(value, at: instant))
        let values = state.values
        var resumptions: [(ValueWaiter, [Timed<Element>])] = []
        state.valueWaiters.removeAll { waiter in
          guard waiter.count <= values.count else { return false }
          resumptions.append((waiter, Array(values.prefix(waiter.count))))
          return true
        }
        return resumptions
      }
      for (waiter, values) in resumptions { waiter.continuation.resume(returning: values) }
    }

    /// Suspends until `count` values arrived or the sequence ended; returns the first `count` values (those so
    /// far if the task is cancelled).
    func waitForValues(count: Int) async -> [Timed<Element>] {
      let id = state.withLock { state -> Int? in
        state.values.count >= count || state.end != nil ? nil : state.makeID()
      }
      guard let id else { return state.withLock { Array($0.values.prefix(count)) } }
      return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<[Timed<Element>], Never>) in
          let values = state.withLock { state -> [Timed<Element>]? in
            if Task.isCancelled || state.values.count >= count || state.end != nil {
              return Array(state.values.prefix(count))
            }
            state.valueWaiters.append(ValueWaiter(id: id, count: count, continuation: continuation))
            return nil
          }
          if let values { continuation.resume(returning: values) }
        }
      } onCancel: {
        let resumption = state.withLock { state -> (ValueWaiter, [Timed<Element>])? in
          guard let index = state.valueWaiters.firstIndex(where: { $0.id == id }) else { return nil }
          return (state.valueWaiters.remove(at: index), Array(state.values.prefix(count)))
        }
        if let (waiter, values) = resumption { waiter.continuation.resume(returning: values) }
      }
    }

    /// Suspends until the sequence ends and returns how; `nil` if the task is cancelled first.
    func waitForEnd() async -> Timed<End>? {
      let id = state.withLock { state -> Int? in state.end == nil ? state.makeID() : nil }
      guard let id else { return state.withLock { $0.end } }
      return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Timed<End>?, Never>) in
          let result = state.withLock { state -> Timed<End>?? in
            if let end = state.end { return .some(end) }
            if Task.isCancelled { return .some(nil) }
            state.endWaiters.append(EndWaiter(id: id, continuation: continuation))
            return nil
          }
          if let result { continuation.resume(returning: result) }
        }
      } onCancel: {
        let waiter = state.withLock { state -> EndWaiter? in
          guard let index = state.endWaiters.firstIndex(where: { $0.id == id }) else { return nil }
          return state.endWaiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: nil)
      }
    }

    /// Stops recording at `instant`, unless the sequence ended already; the stop is recorded now, or, if
    /// `taskEnds`, when the recording task has let go of its run (``recordEnd(_:at:)``).
    func cancel(at instant: TestClock.Instant, taskEnds: Bool) {
      let stopNow = state.withLock { state -> Bool in
        guard state.end == nil, !state.cancelled else { return false }
        state.cancelled = true
        return !taskEnds
      }
      if stopNow { recordEnd(.finished, at: instant) }
    }

    func recordEnd(_ end: End, at instant: TestClock.Instant) {
      let (valueWaiters, endWaiters, values, timed) = state.withLock { state in
        // The first end counts (a hot recording that was cancelled after its source ended keeps that end); after a
        // cancellation, the recording's stop.
        let timed = state.end ?? Timed(state.cancelled ? .finished : end, at: instant)
        state.end = timed
        defer {
          state.valueWaiters = []
          state.endWaiters = []
        }
        return (state.valueWaiters, state.endWaiters, state.values, timed)
      }
      for waiter in valueWaiters { waiter.continuation.resume(returning: Array(values.prefix(waiter.count))) }
      for waiter in endWaiters { waiter.continuation.resume(returning: timed) }
    }
  }
}

extension Recorder.End: Equatable {
  /// Whether two ends are the same: both finished, or both failed with matching failures, for any failure type
  /// (the rule ``Recorded`` states).
  ///
  /// ```swift
  /// #expect(recorder.end?.value == .failed(TestError.offline))
  /// ```
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.finished, .finished): true
    case (.failed(let lhs), .failed(let rhs)): failuresMatch(lhs, rhs)
    default: false
    }
  }
}

extension Recorder.End: Hashable where Failure: Hashable {
  /// Hashes the end: its case, and the failure.
  ///
  /// ```swift
  /// let ends: Set<Recorder<Int, TestError>.End> = [.finished, .failed(.offline)]
  /// ```
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .finished: hasher.combine(0)
    case .failed(let failure):
      hasher.combine(1)
      hasher.combine(failure)
    }
  }
}
