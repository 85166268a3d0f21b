/// A hot sequence that you push values into and that many consumers can iterate at the same time.
///
/// Conformers: ``AsyncPassthroughSubject``, ``AsyncCurrentValueSubject``, ``AsyncReplaySubject``. Sending is
/// synchronous and safe from any thread, task or callback. Each consumer receives every value sent after it
/// subscribed, in send order; all consumers see the same order.
///
/// ```swift
/// func forward(_ value: Int, to subject: some SubjectProtocol<Int, Never>) { subject.send(value) }
/// ```
///
/// A subject is a ``HotSequence``: operators applied to it run inside ``send(_:)``.
public protocol SubjectProtocol<Element, Failure>: HotSequence
where AsyncIterator == SubjectSubscription<Element, Failure>.Iterator {
  /// Delivers `value` to every current consumer; ignored after the subject terminated.
  func send(_ value: Element)
  /// Finishes every current and later consumer (after the values buffered for it).
  func finish()
  /// Fails every current and later consumer with `error` (after the values buffered for it).
  func fail(_ error: Failure)
  /// Registers a consumer now and returns it; see ``SubjectSubscription``.
  func subscribe(bufferingPolicy: BufferingPolicy) -> SubjectSubscription<Element, Failure>
  /// How many consumers are registered now (iterating consumers and ``sink(in:onValue:onEnd:)``
  /// observers); a consumer that stopped is removed at once.
  var consumerCount: Int { get }
  /// Calls `onValue` synchronously for each value sent from now on, and `onEnd` once when the subject ends
  /// (`nil` when it finished, the error when it failed), for as long as `lifetime` lasts: RxSwift's
  /// `subscribe(onNext:)` on a subject, ReactiveSwift's `observeValues`, Combine's `sink`. No task: the
  /// observer costs a closure (a few hundred bytes where an iterating consumer keeps a parked task, ~1.8 KB).
  ///
  /// **Delivery:** on the sending thread, inside `send`, after the subject's lock is released. A replaying
  /// subject first gives the observer what it replays (an ``AsyncCurrentValueSubject`` its current value), in this
  /// call. Events reach each observer once, in send order, never two at a time: when another thread is
  /// delivering, or an observer sends to the same subject again, the event is queued and the thread already
  /// delivering hands it on after the current one (no recursion).
  ///
  /// **Keep callbacks short and non-blocking**: they run on the sender's thread and delay the next event;
  /// anything that takes time belongs in an `observe(in:)`, whose handler runs in a task of its own (started
  /// while values wait). A callback cannot touch actor-isolated state: it is `@Sendable` and synchronous.
  ///
  /// **Ends:** after `onEnd`, or when `lifetime` ends: no event starts for the observer after `cancel()`
  /// returns (one already being delivered on another thread finishes).
  ///
  /// ```swift
  /// let total = AsyncCurrentValueSubject<Int, Never>(0)
  /// price.sink(in: lifetime) { total.send($0 * quantity) } onEnd: { _ in }   // total is current after send
  /// ```
  func sink(
    in lifetime: Lifetime, onValue: @escaping @Sendable (Element) -> Void, onEnd: @escaping @Sendable (Failure?) -> Void
  )
}

extension SubjectProtocol {
  /// Whether any consumer is registered now (RxSwift's `hasObservers`).
  ///
  /// ```swift
  /// if !viewModel.results.hasConsumers { pauseUpdates() }
  /// ```
  public var hasConsumers: Bool { consumerCount > 0 }
}

extension SubjectProtocol {
  /// Registers a consumer now with the subject's default buffering policy.
  ///
  /// Use it when values may be sent between "I want to listen" and the start of the loop:
  /// ```swift
  /// let results = viewModel.results.subscribe()
  /// await viewModel.search.execute("swift")  // sends on `results`
  /// for await result in results { show(result) }  // nothing was missed
  /// ```
  public func subscribe() -> SubjectSubscription<Element, Failure> {
    subscribe(bufferingPolicy: .unbounded)
  }
}

extension SubjectProtocol {
  /// Calls `onValue` synchronously for each value sent from now on, for as long as `lifetime` lasts; see
  /// ``sink(in:onValue:onEnd:)`` for when and where it runs.
  ///
  /// ```swift
  /// let searchText = AsyncCurrentValueSubject<String, Never>("")
  /// searchText.sink(in: lifetime) { print("query:", $0) }   // prints "query: " at once
  /// searchText.send("swift")                                 // prints "query: swift" before send returns
  /// ```
  public func sink(in lifetime: Lifetime, _ onValue: @escaping @Sendable (Element) -> Void) {
    sink(in: lifetime, onValue: onValue, onEnd: { _ in })
  }
}

extension SubjectProtocol where Element == Void {
  /// Sends `()`: lifecycle events and button taps read better this way.
  ///
  /// ```swift
  /// let viewWillAppear = AsyncPassthroughSubject<Void, Never>()
  /// viewWillAppear.send()
  /// ```
  public func send() { send(()) }
}
