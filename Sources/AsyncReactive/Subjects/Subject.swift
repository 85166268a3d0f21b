/// A hot sequence that you push values into and that many consumers can iterate at the same time.
///
/// Conformers: ``PassthroughSubject``, ``CurrentValueSubject``, ``ReplaySubject``. Sending is
/// synchronous and safe from any thread, task or callback. Each consumer receives every value sent after it
/// subscribed, in send order; all consumers see the same order.
///
/// ```swift
/// func forward(_ value: Int, to subject: some Subject<Int, Never>) { subject.send(value) }
/// ```
public protocol Subject<Element, Failure>: AsyncSequence, Sendable
where Element: Sendable, AsyncIterator == SubjectSubscription<Element, Failure>.Iterator {
  /// Delivers `value` to every current consumer; ignored after the subject terminated.
  func send(_ value: Element)
  /// Finishes every current and later consumer (after the values buffered for it).
  func finish()
  /// Fails every current and later consumer with `error` (after the values buffered for it).
  func fail(_ error: Failure)
  /// Registers a consumer now and returns it; see ``SubjectSubscription``.
  func subscribe(bufferingPolicy: BufferingPolicy) -> SubjectSubscription<Element, Failure>
  /// How many consumers are registered now; a consumer that stopped is removed at once.
  var consumerCount: Int { get }
}

extension Subject {
  /// Whether any consumer is registered now (RxSwift's `hasObservers`).
  ///
  /// ```swift
  /// if !viewModel.results.hasConsumers { pauseUpdates() }
  /// ```
  public var hasConsumers: Bool { consumerCount > 0 }
}

extension Subject {
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

extension Subject where Element == Void {
  /// Sends `()`: lifecycle events and button taps read better this way.
  ///
  /// ```swift
  /// let viewWillAppear = PassthroughSubject<Void, Never>()
  /// viewWillAppear.send()
  /// ```
  public func send() { send(()) }
}
