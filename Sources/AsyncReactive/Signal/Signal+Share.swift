extension Signal {
  /// The node that shares one run of this signal among everyone observing it: a hot signal's own node; for a cold
  /// one, a node that starts a run when it gets its first observer, passes every value on inside the run's sends,
  /// stops the run when its last observer leaves, and starts a new run for an observer that comes after that or
  /// after the run ended (RxSwift `share(replay:scope: .whileConnected)`).
  ///
  /// - Parameters:
  ///   - replay: how many of the latest values a consumer that joins a running run receives first.
  ///   - fileID: the file that shared the signal, for a graph dump (the library's own when omitted).
  ///   - line: the line that shared the signal, for a graph dump.
  @inlinable package func sharedNode(
    replay: Int, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Node<Element, Failure> {
    if let node = hotNode {
      return replay == 0 ? node : HotSignal(node: node).hotShare(replay: replay, fileID: fileID, line: line).node
    }
    let signal = self
    return Node(
      replay: replay > 0 ? .latest(replay) : .none, restarts: true,
      origin: NodeOrigin(.share, fileID: fileID, line: line), describesConnection: true
    ) { node in
      // This run's sends count only while it is the node's run: an old run's last value, still being delivered on
      // another thread, never reaches the consumers of the next one.
      let epoch = node.epoch
      let upstream = signal.node(.shared)
      let sink = upstream.addSink(owner: node) { value in
        node.send(value, epoch: epoch)
      } onEnd: { termination in
        // Nothing of an ended run is replayed: a consumer that joins it gets only the end.
        node.forgetCurrent()
        node.terminate(termination, epoch: epoch)
      }
      // A graph dump draws the run below the node.
      node.attachConnectionDescription(running: { (nil, [upstream]) })
      return {
        node.detachConnectionDescription()
        upstream.removeSink(sink)
      }
    }
  }

  /// This signal as a ``HotSignal``: a hot signal as it is; a cold one shared by everyone observing it (its first
  /// observer starts a run, every observer sees that run, and an observer that comes after the run ended or after
  /// everyone left starts a new one).
  ///
  /// What a view model needs when an input is declared as a ``HotSignal`` and the caller has a constant or a cold
  /// signal: `Signal.just(()).eraseToHotSignal()` gives every consumer `()`, then the end.
  ///
  /// ```swift
  /// let viewModel = PostsViewModel(trigger: Signal.just(()).eraseToHotSignal())
  /// ```
  @inlinable public func eraseToHotSignal() -> HotSignal<Element, Failure> {
    HotSignal(node: sharedNode(replay: 0))
  }
}

extension HotSignal {
  /// `signal` as a hot signal: itself when it is hot; a cold one shared by everyone observing it (see
  /// ``Signal/eraseToHotSignal()``).
  ///
  /// ```swift
  /// let refreshes = HotSignal(Signal.timer(every: .seconds(30)))   // one timer for every consumer
  /// ```
  @inlinable public init(_ signal: Signal<Element, Failure>) {
    self.init(node: signal.sharedNode(replay: 0))
  }
}

/// How long the subject behind ``_Concurrency/AsyncSequence/share(replay:scope:fileID:line:)`` lives (RxSwift's
/// `SubjectLifetimeScope`).
///
/// ```swift
/// let user = Signal.future { try await api.fetchUser() }.share(replay: 1, scope: .forever)
/// ```
public enum SharingScope: Sendable, Hashable {
  /// While someone observes: when the last consumer leaves, or the run ends, the next consumer starts a new run
  /// with nothing replayed (RxSwift's default).
  case whileConnected
  /// For ever: one subject for the life of the shared sequence. A consumer that comes after everyone left, or after
  /// the run ended, gets the latest `replay` values first (and the end, when it ended); the source is subscribed
  /// again only when it had not ended (RxSwift `.forever`, ReactiveSwift `replayLazily(upTo:)`).
  case forever
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Shares one run of this sequence among every consumer iterating at the same time (RxSwift
  /// `share(replay:scope:)`; with `scope: .forever`, ReactiveSwift's `replayLazily(upTo:)` and RAC's `replayLazily`).
  ///
  /// The first consumer starts a run; every consumer sees the same values in the same order, each evaluated once;
  /// a consumer that joins a running run first receives the latest `replay` values. With the default
  /// `.whileConnected` scope, when the last consumer leaves the run stops, and a consumer that comes after that, or
  /// after the run ended, starts a new run with nothing replayed. With `.forever`, one subject lives as long as the
  /// result: a later consumer gets the latest `replay` values of the earlier runs, then the end if the run ended
  /// (the source is not run again), or a new run's values if everyone had left. A hot sequence is shared already:
  /// with `replay` 0 and `.whileConnected` it is returned as it is.
  ///
  /// **Finishes:** when the run finishes, for every current consumer. **Throws:** the run's failure, to every
  /// current consumer.
  ///
  /// **Cancellation:** a consumer that stops leaves at once; the last one stops the run.
  ///
  /// Each run iterates this sequence anew, so a single-pass one (an `AsyncStream`) has nothing left for a second
  /// run: build it per run with ``Signal/deferred(_:)`` when consumers may come and go. Hot nodes never wait for a
  /// consumer, so a slow consumer buffers what the run produces (see ``SubjectSubscription``'s buffering policies).
  ///
  /// ```swift
  /// let user = Signal.future { try await api.fetchUser() }.share()
  /// // combineLatest observes both inputs before the request starts: one request feeds both.
  /// for try await (name, avatar) in combineLatest(user.map(\.name), user.map(\.avatarURL)) {
  ///   render(name, avatar)
  /// }
  /// ```
  /// - Parameters:
  ///   - replay: how many of the latest values a consumer joining receives first; 0 (the default) for none. Must
  ///     not be negative.
  ///   - scope: how long the shared subject lives: `.whileConnected` (the default) or `.forever`.
  /// - Returns: a ``Signal`` with this sequence's elements and failure, hot: shared by its consumers.
  @inlinable public func share(
    replay: Int = 0, scope: SharingScope = .whileConnected, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> {
    precondition(replay >= 0, "share(replay:) needs a replay count of 0 or more, not \(replay)")
    guard scope == .whileConnected else {
      // RxSwift: multicast(replay > 0 ? ReplaySubject.create(bufferSize: replay) : PublishSubject()).refCount().
      return replay > 0
        ? multicast(AsyncReplaySubject<Element, Failure>(bufferSize: replay)).refCount()
        : multicast(AsyncPassthroughSubject<Element, Failure>()).refCount()
    }
    return Signal(hot: Signal(self).sharedNode(replay: replay, fileID: fileID, line: line))
  }
}
