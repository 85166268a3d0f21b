/// A hot subject that replays the last `bufferSize` values to each new consumer, then sends live values.
///
/// The counterpart of RACReplaySubject and RxSwift's `ReplaySubject.create(bufferSize:)`.
///
/// **Finishes:** when ``finish()`` is called or the subject is released (nobody can send any more); a
/// consumer that subscribes later still receives the replayed values, then the end.
///
/// **Throws:** the error passed to ``fail(_:)``, after the replayed values.
///
/// **Cancellation:** a consumer whose task is cancelled, or that breaks out of its loop, is removed at once.
///
/// ```swift
/// let log = AsyncReplaySubject<String, Never>(bufferSize: 2)
/// log.send("a"); log.send("b"); log.send("c")
/// for await line in log { print(line) }   // "b", "c", then live lines
/// ```
public final class AsyncReplaySubject<Element: Sendable, Failure: Error>: SubjectProtocol {
  @usableFromInline let storage: Node<Element, Failure>

  /// Creates a subject that replays up to `bufferSize` values (0 behaves like an ``AsyncPassthroughSubject``).
  ///
  /// ```swift
  /// let lastThree = AsyncReplaySubject<Int, Never>(bufferSize: 3)
  /// ```
  @inlinable public init(bufferSize: Int) {
    precondition(bufferSize >= 0, "AsyncReplaySubject(bufferSize: \(bufferSize)): bufferSize must not be negative")
    storage = Node(replay: .latest(bufferSize), origin: NodeOrigin(.replaySubject))
  }

  /// Records `value` for replay and delivers it to every current consumer; ignored after termination.
  ///
  /// ```swift
  /// subject.send("event")
  /// ```
  @inlinable public func send(_ value: Element) { storage.send(value) }

  /// Ends every current and later consumer normally (later consumers get the replay first).
  ///
  /// ```swift
  /// subject.finish()
  /// ```
  @inlinable public func finish() { storage.terminate(.finished) }

  /// Ends every current and later consumer with `error` (later consumers get the replay first).
  ///
  /// ```swift
  /// subject.fail(error)
  /// ```
  @inlinable public func fail(_ error: Failure) { storage.terminate(.failed(error)) }

  /// Registers a consumer now, starting with the replayed values.
  ///
  /// ```swift
  /// let history = subject.subscribe(bufferingPolicy: .unbounded)
  /// ```
  @inlinable public func subscribe(bufferingPolicy: BufferingPolicy) -> SubjectSubscription<Element, Failure> {
    SubjectSubscription(storage: storage, policy: bufferingPolicy)
  }

  /// Registers a consumer and starts iterating: replayed values first.
  @inlinable public func makeAsyncIterator() -> SubjectSubscription<Element, Failure>.Iterator {
    subscribe().makeAsyncIterator()
  }

  /// How many consumers are registered now (RxSwift's `hasObservers`, as a count): each iterating loop and
  /// each ``subscribe(bufferingPolicy:)`` not yet dropped. A consumer that stopped is removed at once.
  ///
  /// ```swift
  /// #expect(subject.consumerCount == 0)   // in a test: nothing still listens
  /// ```
  @inlinable public var consumerCount: Int { storage.consumerCount }

  /// Calls `onValue` synchronously for each value, and `onEnd` when the subject ends, while `lifetime` lasts;
  /// see ``SubjectProtocol/sink(in:onValue:onEnd:)``.
  ///
  /// ```swift
  /// subject.sink(in: lifetime, onValue: { print($0) }, onEnd: { print("ended", $0 as Any) })
  /// ```
  public func sink(
    in lifetime: Lifetime,
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Failure?) -> Void
  ) {
    storage.sink(in: lifetime, onValue: onValue, onEnd: onEnd)
  }

  // Nobody can send any more: end the consumers, which never keep the subject alive (ReactiveSwift's
  // `MutableProperty` completes on deinit too). A consumer that waits forever on a released subject is a leak.
  deinit { storage.endReleased("\(Self.self)") }
}

extension AsyncReplaySubject: ReactiveSequence {}
