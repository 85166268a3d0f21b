/// A hot subject that holds a current value: each consumer receives it first, then every later value.
///
/// The counterpart of RACBehaviorSubject, RxSwift's `BehaviorSubject` / `BehaviorRelay` and
/// ReactiveSwift's `MutableProperty`. ``value`` reads and writes synchronously from any thread: after
/// `subject.value = x` returns, every read of it, and of every ``Property`` derived from it, sees `x`.
///
/// **Observation:** reading ``value`` inside `withObservationTracking`, `Observations { }` or a SwiftUI
/// `body` is tracked, and every change fires the tracking, as for an `@Observable` property.
///
/// **Finishes:** when ``finish()`` is called, or when the subject is released (nobody can send any more).
/// Like RxSwift's `BehaviorSubject` and Combine, a consumer that subscribes after termination receives only
/// the terminal event, not the last value.
///
/// **Throws:** the error passed to ``fail(_:)``.
///
/// **Cancellation:** a consumer whose task is cancelled, or that breaks out of its loop, is removed at once.
///
/// ```swift
/// let searchText = AsyncCurrentValueSubject<String, Never>("")
/// searchText.value = "swift"          // sends "swift"
/// for await text in searchText { print(text) }   // "swift", then later edits
/// ```
public final class AsyncCurrentValueSubject<Element: Sendable, Failure: Error>: SubjectProtocol {
  @usableFromInline let storage: SubjectStorage<Element, Failure>
  @usableFromInline let observation = ValueObservation()

  /// Creates a subject holding `value`.
  ///
  /// ```swift
  /// let isLoading = AsyncCurrentValueSubject<Bool, Never>(false)
  /// ```
  @inlinable public init(_ value: Element) {
    storage = SubjectStorage(replay: .current, initial: value)
  }

  /// The current value. Setting it sends the new value to every consumer (ignored after termination, when
  /// the last value sent before termination stays readable).
  ///
  /// ```swift
  /// counter.value += 1
  /// ```
  @inlinable public var value: Element {
    // The replay buffer of a current-value storage always holds exactly one value.
    get {
      observation.access()
      return storage.latest!
    }
    set { send(newValue) }
  }

  /// Sets ``value`` and delivers it to every current consumer; ignored after termination.
  ///
  /// ```swift
  /// subject.send(3)
  /// ```
  @inlinable public func send(_ value: Element) {
    observation.mutation { storage.send(value) }
  }

  /// Ends every current and later consumer normally.
  ///
  /// ```swift
  /// subject.finish()
  /// ```
  @inlinable public func finish() { storage.terminate(.finished) }

  /// Ends every current and later consumer with `error`.
  ///
  /// ```swift
  /// subject.fail(LoadError.offline)
  /// ```
  @inlinable public func fail(_ error: Failure) { storage.terminate(.failed(error)) }

  /// Registers a consumer now, starting with the current value.
  ///
  /// ```swift
  /// let texts = searchText.subscribe(bufferingPolicy: .bufferingNewest(1))
  /// ```
  @inlinable public func subscribe(bufferingPolicy: BufferingPolicy) -> SubjectSubscription<Element, Failure> {
    SubjectSubscription(storage: storage, policy: bufferingPolicy)
  }

  /// Registers a consumer and starts iterating: the current value comes first.
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
  deinit { storage.terminate(.finished) }
}

extension AsyncCurrentValueSubject: ReactiveSequence {}
