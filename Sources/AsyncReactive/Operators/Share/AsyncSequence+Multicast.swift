// RxSwift's connectable operators: `publish()`, `replay(_:)`, `replayAll()` and the two `multicast` forms, each
// making a `ConnectableSignal` (ConnectableSignal.swift) whose consumers share one subscription to this sequence,
// made by `connect()` or `refCount()`. `share(replay:)` (Signal+Share.swift) is `publish().refCount()` and
// `replay(n).refCount()` in one call.

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Shares one subscription to this sequence among consumers, from ``ConnectableSignal/connect()`` on (RxSwift
  /// `publish()`, RAC `publish`): each connection feeds a new ``AsyncPassthroughSubject``.
  ///
  /// Consumers that join before the connection miss nothing; a consumer that joins after the connection ended
  /// waits for the next one.
  ///
  /// ```swift
  /// let events = socket.messages.publish()
  /// events.observe(in: lifetime) { log($0) }
  /// events.observe(in: lifetime) { handle($0) }
  /// events.connect()   // one socket reading for both
  /// ```
  /// - Returns: a ``ConnectableSignal``.
  @inlinable public func publish() -> ConnectableSignal<Element, Failure> {
    multicast(makeSubject: { AsyncPassthroughSubject<Element, Failure>() })
  }

  /// Shares one subscription to this sequence among consumers, from ``ConnectableSignal/connect()`` on, replaying
  /// the latest `count` values to a consumer that joins a running connection (RxSwift `replay(_:)`): each connection
  /// feeds a new ``AsyncReplaySubject``.
  ///
  /// ```swift
  /// let prices = ticker.replay(1)
  /// prices.connect()
  /// for await price in prices { show(price) }   // the latest price first
  /// ```
  /// - Parameter count: how many of the latest values a joining consumer receives first; not negative.
  /// - Returns: a ``ConnectableSignal``.
  @inlinable public func replay(_ count: Int) -> ConnectableSignal<Element, Failure> {
    precondition(count >= 0, "replay(_:) needs a count of 0 or more, not \(count)")
    return multicast(makeSubject: { AsyncReplaySubject<Element, Failure>(bufferSize: count) })
  }

  /// Shares one subscription to this sequence among consumers, from ``ConnectableSignal/connect()`` on, replaying
  /// everything the connection delivered to a consumer that joins it (RxSwift `replayAll()`).
  ///
  /// ```swift
  /// let log = events.replayAll()
  /// log.connect()
  /// ```
  /// - Returns: a ``ConnectableSignal``.
  @inlinable public func replayAll() -> ConnectableSignal<Element, Failure> {
    multicast(makeSubject: { AsyncReplaySubject<Element, Failure>(bufferSize: .max) })
  }

  /// Shares one subscription to this sequence among consumers, through `subject`, from
  /// ``ConnectableSignal/connect()`` on (RxSwift `multicast(_:)`): every connection feeds the same subject, which
  /// keeps what it replays and its end across connections.
  ///
  /// ```swift
  /// let last = AsyncReplaySubject<Int, Never>(bufferSize: 1)
  /// let shared = numbers.multicast(last)
  /// shared.connect()
  /// ```
  /// - Parameter subject: the subject every consumer observes and every connection sends to.
  /// - Returns: a ``ConnectableSignal``.
  @inlinable public func multicast<Subject: SubjectProtocol>(
    _ subject: Subject
  ) -> ConnectableSignal<Element, Failure> where Subject.Element == Element, Subject.Failure == Failure {
    ConnectableSignal(source: Signal(self), subjectPerConnection: false) { (subject.hotSignal.node, subject) }
  }

  /// Shares one subscription to this sequence among consumers, from ``ConnectableSignal/connect()`` on, through a
  /// subject `makeSubject` makes per connection (RxSwift `multicast(makeSubject:)`): the subject is made when the
  /// first consumer joins or the connection is made, and dropped when the connection ends.
  ///
  /// ```swift
  /// let shared = numbers.multicast(makeSubject: { AsyncReplaySubject<Int, Never>(bufferSize: 2) })
  /// ```
  /// - Parameter makeSubject: makes the subject of a connection.
  /// - Returns: a ``ConnectableSignal``.
  @inlinable public func multicast<Subject: SubjectProtocol>(
    makeSubject: @escaping @Sendable () -> Subject
  ) -> ConnectableSignal<Element, Failure> where Subject.Element == Element, Subject.Failure == Failure {
    ConnectableSignal(source: Signal(self), subjectPerConnection: true) {
      let subject = makeSubject()
      return (subject.hotSignal.node, subject)
    }
  }
}
