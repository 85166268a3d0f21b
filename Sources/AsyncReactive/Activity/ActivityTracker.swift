/// Whether any tracked work is running: `true` from the moment the first tracked call or sequence starts
/// until the last one ends (RxSwift's `ActivityIndicator`, ReactiveSwift's `Action.isExecuting` across
/// several actions).
///
/// Track one async call with ``track(isolation:_:)``, every run of a ``Command`` with
/// ``track(executionsOf:)``, and a sequence with ``_Concurrency/AsyncSequence/trackActivity(_:fileID:line:)``; any number
/// of them may overlap or nest, and the tracker counts them: ``value`` is `true` while ``activeCount`` is above
/// zero. A call counts until it returns, throws or is cancelled; a command's run from its start to its end; a
/// sequence's run from its first `next()` until it finishes, fails, or its consumer is cancelled or drops the
/// iterator. Nothing can leave the count raised.
///
/// The tracker is a ``PropertyProtocol``: ``value`` is read synchronously and is up to date on the line after
/// a tracked call started, from any thread; iterating yields the current state, then each change, never the
/// same state twice in a row. So it works wherever a property does: `Command(enabledIf: tracker.not())`,
/// `combineLatest(tracker, …)`, ``PropertyProtocol/map(_:fileID:line:)``, a SwiftUI `body` (reads of ``value`` take part
/// in Observation tracking).
///
/// **Lifetime:** tracked calls and sequences keep the tracker alive while they run. When the tracker, the
/// properties derived from it and everything tracked are gone, its consumers finish.
///
/// ```swift
/// actor SignupViewModel {
///   nonisolated let username = AsyncCurrentValueSubject<String, Never>("")
///   nonisolated let loading = ActivityTracker()
///   nonisolated let usernameAvailable: Property<Bool>
///   nonisolated let signUp: Command<Void, Bool, any Error>
///
///   init(api: SignupAPI) {
///     let (username, loading) = (username, loading)
///     let checks = username.subscribe().flatMapLatest { name in
///       Signal.future { await api.isAvailable(name) }.trackActivity(loading)
///     }
///     usernameAvailable = Property(initial: false, then: checks)
///     // Disabled while a check or the sign-up itself runs.
///     signUp = Command(enabledIf: loading.not()) { try await loading.track { try await api.signUp() } }
///   }
/// }
/// // In the view:
/// viewModel.loading.observe(in: lifetime) { spinner.isAnimating = $0 }
/// ```
public final class ActivityTracker: PropertyProtocol {
  public typealias Value = Bool
  public typealias Element = Bool
  public typealias Failure = Never

  /// How many tracked calls and sequences are running. Changed only under `counter`, which keeps the
  /// subject's value equal to the count and its sends in the order of the changes.
  @usableFromInline let count = AsyncCurrentValueSubject<Int, Never>(0)
  /// The count, changed under this lock so that concurrent starts and ends never lose an update.
  let counter = Locked<Int>(0)
  /// The counts to send, queued under `counter` (in the order of the changes) and sent after it: sending runs
  /// the tracker's hot graph and observers, which may start or end tracked work again.
  let publications = PublicationQueue<Int>()

  /// The tracker as a ``Property``: `activeCount > 0`, and on iteration each change of it.
  public let property: Property<Bool>

  /// Creates a tracker with nothing running: ``value`` is `false`.
  ///
  /// ```swift
  /// nonisolated let loading = ActivityTracker()
  /// ```
  public init() {
    let count = count
    property = Property(read: { count.value > 0 }, changes: count.hotSignal.hotMap { $0 > 0 }.hotRemoveDuplicates())
  }

  /// The tracker's changes as a ``HotSignal``: the current state first, then each change, evaluated inside
  /// the change.
  ///
  /// ```swift
  /// let spinnerHidden = tracker.hotSignal.not()
  /// ```
  public var hotSignal: HotSignal<Bool, Never> { property.hotSignal }

  /// Whether any tracked work is running now, read synchronously from any thread.
  ///
  /// ```swift
  /// guard !viewModel.loading.value else { return }   // something is loading already
  /// ```
  @inlinable public var value: Bool { count.value > 0 }

  /// How many tracked calls and sequences are running now (nested and concurrent ones each count).
  ///
  /// ```swift
  /// statusLabel.text = "\(uploads.activeCount) uploads running"
  /// ```
  @inlinable public var activeCount: Int { count.value }

  /// Starts iterating: the current state first, then each change (`false` → `true` → `false`, never a
  /// repeat), until the tracker is released.
  ///
  /// ```swift
  /// for await loading in tracker { spinner.isHidden = !loading }
  /// ```
  @inlinable public func makeAsyncIterator() -> Property<Bool>.Iterator {
    property.makeAsyncIterator()
  }

  /// Registers a consumer now: it receives the current state, then every change, even the ones that happen
  /// before its loop starts.
  ///
  /// ```swift
  /// let states = tracker.subscribe()
  /// async let orders = tracker.track { try await api.orders() }   // the change is not missed
  /// for await loading in states { spinner.isHidden = !loading }
  /// ```
  /// - Parameter bufferingPolicy: how many changes to keep for a slow consumer; `.bufferingNewest(1)` lets it
  ///   skip to the latest count (it may then miss a short burst of activity).
  /// - Returns: a ``Property/Subscription`` to iterate once.
  public func subscribe(bufferingPolicy: BufferingPolicy = .unbounded) -> Property<Bool>.Subscription {
    property.subscribe(bufferingPolicy: bufferingPolicy)
  }

  /// Runs `work` once and counts it as activity from the call until it returns, throws or is cancelled
  /// (RxSwift's `trackActivity` on a single request). To count every run of a command instead, use
  /// ``track(executionsOf:)``.
  ///
  /// **Throws:** what `work` throws, with its type; a `work` that cannot throw makes this call non-throwing.
  ///
  /// **Cancellation:** `work` runs in the caller's task, so cancelling the caller cancels it; the activity
  /// ends when `work` returns or throws.
  ///
  /// ```swift
  /// let orders = try await loading.track { try await api.orders() }
  /// ```
  /// - Parameters:
  ///   - isolation: the caller's actor, where `work` runs; leave the default.
  ///   - work: the call to count.
  /// - Returns: what `work` returned.
  @discardableResult
  @inlinable public func track<Result, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation,
    _ work: () async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    let token = begin()
    defer { token.end() }
    return try await work()
  }

  /// Counts one more running activity until the returned token ends (its ``ActivityToken/end()`` or its
  /// release, whichever comes first). For the library's own sources of activity (`Command`); users call
  /// ``track(isolation:_:)`` or ``_Concurrency/AsyncSequence/trackActivity(_:fileID:line:)``.
  @usableFromInline package func begin() -> ActivityToken {
    change(by: 1)
    return ActivityToken(self)
  }

  /// Adds `delta` to the count and sends the new count, in the order of the changes.
  func change(by delta: Int) {
    counter.withLock { active in
      active += delta
      precondition(active >= 0, "Internal inconsistency: ActivityTracker ended more activity than it began")
      publications.enqueue(active)
    }
    publications.flush { count.send($0) }
  }
}

extension ActivityTracker {
  /// Makes `command` feed this tracker from now on, for as long as the command exists: the tracker is active
  /// while the command executes (from the start of its first run to the end of its last; RxSwift's
  /// `trackActivity` on an `Action`'s work). A command that is executing when this is called counts at once.
  /// The command keeps the tracker; the tracker keeps nothing. (One unit of work is ``track(isolation:_:)``.)
  ///
  /// ```swift
  /// let loading = ActivityTracker()
  /// loading.track(executionsOf: viewModel.refresh)
  /// loading.track(executionsOf: viewModel.loadMore)
  /// loading.bind(to: spinner, \.isAnimating, in: lifetime)   // one spinner for both commands
  /// ```
  /// - Parameter command: the command whose runs count as activity.
  public func track<Input, Output, CommandFailure>(executionsOf command: Command<Input, Output, CommandFailure>) {
    command.storage.addTracker(self)
  }
}
