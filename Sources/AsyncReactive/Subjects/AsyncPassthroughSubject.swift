/// A hot subject with no memory: consumers receive the values sent after they subscribed.
///
/// The counterpart of RACSubject, RxSwift's `PublishSubject`, ReactiveSwift's `Signal.pipe()` and Combine's
/// `PassthroughSubject` (named apart from Combine's, so a SwiftUI file can name both unqualified).
/// `send`, `finish` and `fail` are synchronous and callable from any thread, task or completion handler.
///
/// **Finishes:** when ``finish()`` is called or the subject is released (nobody can send any more);
/// consumers first receive every value buffered for them.
///
/// **Throws:** the error passed to ``fail(_:)``, to current and later consumers.
///
/// **Cancellation:** a consumer whose task is cancelled, or that breaks out of its loop, is removed at once.
///
/// ```swift
/// let orders = AsyncPassthroughSubject<[Order], any Error>()
/// api.requestOrders { result in
///   switch result {
///   case .success(let list): orders.send(list); orders.finish()
///   case .failure(let error): orders.fail(error)
///   }
/// }
/// for try await list in orders { show(list) }
/// ```
public final class AsyncPassthroughSubject<Element: Sendable, Failure: Error>: SubjectProtocol {
  @usableFromInline let storage = Node<Element, Failure>(
    replay: .none, origin: NodeOrigin(.passthroughSubject))

  /// Creates a subject with no consumers.
  @inlinable public init() {}

  /// Delivers `value` to every current consumer; ignored after ``finish()`` or ``fail(_:)``.
  ///
  /// ```swift
  /// subject.send(42)
  /// ```
  @inlinable public func send(_ value: Element) { storage.send(value) }

  /// Ends every current and later consumer normally; later sends are ignored.
  ///
  /// ```swift
  /// subject.finish()
  /// ```
  @inlinable public func finish() { storage.terminate(.finished) }

  /// Ends every current and later consumer with `error`; later sends are ignored.
  ///
  /// ```swift
  /// subject.fail(NetworkError(code: 502))
  /// ```
  @inlinable public func fail(_ error: Failure) { storage.terminate(.failed(error)) }

  /// Registers a consumer now; values sent from here on are buffered for it under `bufferingPolicy`.
  ///
  /// ```swift
  /// let latestOnly = subject.subscribe(bufferingPolicy: .bufferingNewest(1))
  /// ```
  @inlinable public func subscribe(bufferingPolicy: BufferingPolicy) -> SubjectSubscription<Element, Failure> {
    SubjectSubscription(storage: storage, policy: bufferingPolicy)
  }

  /// Registers a consumer (unbounded buffer) and starts iterating: `for await value in subject`.
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

extension AsyncPassthroughSubject: ReactiveSequence {}
