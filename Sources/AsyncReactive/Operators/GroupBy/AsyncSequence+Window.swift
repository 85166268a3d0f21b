import Synchronization

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Splits the values into consecutive windows, each a hot signal that finishes when it holds `count` values or
  /// `timeSpan` after it opened, whichever comes first; the next window opens at once (RxSwift
  /// `window(timeSpan:count:scheduler:)`).
  ///
  /// The first window is sent when the run starts, each next one as the previous one finishes, so a window is sent
  /// before any value goes into it: an observer that observes the window as it gets it (a `flatMap`, a sink) gets
  /// all of its values. Windows are hot and keep nothing. The input is observed while the result's consumer is there
  /// or any window has a consumer. Give only `count` for windows of a size, only `timeSpan` for windows of a
  /// duration.
  ///
  /// With `timeSpan` 70 ms and `count` 3 (windows numbered from 0):
  ///
  /// | time   | input  | result             |
  /// |--------|--------|--------------------|
  /// | 0 ms   |        | window 0           |
  /// | 5 ms   | 1      | 1 in window 0      |
  /// | 10 ms  | 2      | 2 in window 0      |
  /// | 40 ms  | 3      | 3 in window 0, window 0 finishes, window 1 |
  /// | 80 ms  | 4      | 4 in window 1      |
  /// | 110 ms |        | window 1 finishes (70 ms), window 2 |
  ///
  /// **Finishes:** when the input finishes, right after the open window finished.
  ///
  /// **Throws:** the input's failure, first to the open window, then to the result.
  ///
  /// ```swift
  /// let bursts = taps.window(timeSpan: .seconds(1), count: 10)
  ///   .flatMap { window in window.toArray() }   // at most 10 taps per second, in arrays
  /// ```
  /// - Parameters:
  ///   - timeSpan: how long a window stays open at most; positive. `nil`: as long as it takes to fill it.
  ///   - count: how many values a window holds at most; positive.
  ///   - clock: the clock the windows' time runs on; a `TestClock` in tests.
  /// - Returns: a cold ``Signal`` of the windows.
  public func window<C: Clock>(
    timeSpan: Duration? = nil, count: Int = .max, clock: C = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<HotSignal<Element, Failure>, Failure> where C.Duration == Duration {
    precondition(count > 0, "window(count: \(count)): a window must hold at least one value")
    precondition(timeSpan.map { $0 > .zero } ?? true, "window(timeSpan: \(timeSpan!)): the time span must be positive")
    precondition(timeSpan != nil || count != .max, "window(): give a time span, a count, or both")
    let input = Signal(self)
    let origin = NodeOrigin(.window, fileID: fileID, line: line)
    let timer = timeSpan.map { Signal<Int, Never>.timer(after: $0, clock: clock) }
    return .create { emitter in
      let run = WindowRun(emitter: emitter, count: count, timer: timer, origin: origin)
      run.open()
      let stop = input.observe(ColdStart.shared.input(of: "window")) { value in
        run.receive(.value(value))
      } onEnd: { termination in
        run.receive(.end(termination))
      }
      run.subgroups.started(stop)
      return { run.subgroups.outerLeft() }
    }
  }
}

/// One run of `window(timeSpan:count:clock:)`: the open window, how many
/// values it holds, and its timer, fed one event at a time.
final class WindowRun<Element: Sendable, Failure: Error>: Sendable {
  struct State: Sendable {
    /// The open window; `nil` once the run ended.
    var window: Node<Element, Failure>?
    var count = 0
    /// Names the open window's timer: a tick with an older id comes from a window that already closed.
    var id = 0
    var stopTimer: (@Sendable () -> Void)?
  }

  let emitter: Signal<HotSignal<Element, Failure>, Failure>.Emitter
  let limit: Int
  let timer: Signal<Int, Never>?
  let origin: NodeOrigin
  let subgroups = SubgroupRun<Element, Failure>()
  let events = PublicationQueue<SubgroupEvent<Element, Failure>>()
  /// Changed by the thread that delivers ``events`` (and by the first ``open()``, before anything can send); the
  /// timer is also stopped from whichever thread lets the run's input go, hence the lock.
  let state = Mutex(State())

  init(
    emitter: Signal<HotSignal<Element, Failure>, Failure>.Emitter, count: Int, timer: Signal<Int, Never>?,
    origin: NodeOrigin
  ) {
    self.emitter = emitter
    self.limit = count
    self.timer = timer
    self.origin = origin
    subgroups.whenReleased { [weak self] in self?.stopTimer() }
  }

  /// Stops the open window's timer.
  private func stopTimer() {
    state.withLock { state in
      defer { state.stopTimer = nil }
      return state.stopTimer
    }?()
  }

  func receive(_ event: SubgroupEvent<Element, Failure>) {
    events.enqueue(event)
    events.flush { handle($0) }
  }

  /// Opens the next window: sends it, then starts its timer.
  func open() {
    guard !subgroups.isReleased else { return }
    let node = subgroups.makeSubgroup(origin: origin)
    let (id, previousTimer) = state.withLock { state -> (Int, (@Sendable () -> Void)?) in
      state.window = node
      state.count = 0
      state.id &+= 1
      defer { state.stopTimer = nil }
      return (state.id, state.stopTimer)
    }
    previousTimer?()
    emitter.send(HotSignal(node: node))
    guard let timer else { return }
    let stop = timer.observe(ColdStart.shared.input(of: "window")) { [weak self] _ in
      self?.receive(.tick(id: id))
    } onEnd: { _ in
    }
    let stale = state.withLock { state -> Bool in
      guard state.id == id, state.window != nil, !subgroups.isReleased else { return true }
      state.stopTimer = stop
      return false
    }
    if stale { stop() }
  }

  private func handle(_ event: SubgroupEvent<Element, Failure>) {
    switch event {
    case .value(let value):
      let open = state.withLock { state -> (window: Node<Element, Failure>, isFull: Bool)? in
        guard let window = state.window else { return nil }
        state.count += 1
        return (window, state.count == limit)
      }
      guard let open else { return }
      open.window.send(value)
      if open.isFull { closeAndOpen(open.window) }
    case .tick(let id):
      guard let window = state.withLock({ $0.id == id ? $0.window : nil }) else { return }
      closeAndOpen(window)
    case .end(let termination):
      let (window, stopTimer) = state.withLock { state in
        defer {
          state.window = nil
          state.stopTimer = nil
        }
        return (state.window, state.stopTimer)
      }
      guard let window else { return }
      stopTimer?()
      subgroups.ended()
      window.terminate(termination)
      switch termination {
      case .finished: emitter.finish()
      case .failed(let error): emitter.fail(error)
      }
    }
  }

  private func closeAndOpen(_ window: Node<Element, Failure>) {
    window.terminate(.finished)
    open()
  }
}
