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

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Shares one subscription to this sequence among the parts of the sequence `selector` builds over it, for one
  /// run of the result (RxSwift `multicast(_:selector:)`): each run makes a subject with `makeSubject`, gives it
  /// to `selector` as a ``Signal``, observes what `selector` returns, then connects the subject to this sequence.
  ///
  /// So a chain that reads this sequence twice (`zip(shared, shared.dropFirst())`) runs it once per run of the
  /// result, and nothing is missed: the parts observe the subject before the connection. The connection ends with
  /// the run (when the result ends, fails, or its consumer stops). When the shared sequence is a subject or a hot
  /// chain already, `selector` can read it directly; this is for a cold one (a request, a file's lines).
  ///
  /// With `xs.multicast(makeSubject: { AsyncPassthroughSubject() }) { shared in zip(shared, shared) { $0 + $1 } }`:
  ///
  /// | xs     | result |
  /// |--------|--------|
  /// | 3      | 6      |
  /// | 4      | 8      |
  /// | finish | finish |
  ///
  /// **Finishes:** when the sequence `selector` returns finishes.
  ///
  /// **Throws:** what `makeSubject` or `selector` throws, at once and without observing this sequence; the failure
  /// of the sequence `selector` returns (this sequence's failure, if it passes it on).
  ///
  /// ```swift
  /// let pairs = lines.multicast(makeSubject: { AsyncPassthroughSubject<String, any Error>() }) { shared in
  ///   zip(shared, shared.dropFirst())   // one read of the file for both
  /// }
  /// ```
  /// - Parameters:
  ///   - makeSubject: makes the subject of a run.
  ///   - selector: builds the result over the shared subject, as a signal.
  /// - Returns: a cold ``Signal``; each run shares one subscription to this sequence.
  public func multicast<Subject: SubjectProtocol, Result: AsyncSequence & Sendable>(
    makeSubject: @escaping @Sendable () throws(Failure) -> Subject,
    selector: @escaping @Sendable (Signal<Element, Failure>) throws(Failure) -> Result
  ) -> Signal<Result.Element, Failure>
  where Subject.Element == Element, Subject.Failure == Failure, Result.Failure == Failure, Result.Element: Sendable {
    let source = self
    return .create { emitter in
      let connectable: ConnectableSignal<Element, Failure>
      let result: Signal<Result.Element, Failure>
      do throws(Failure) {
        let subject = try makeSubject()
        connectable = source.multicast(subject)
        result = Signal(try selector(Signal(subject)))
      } catch {
        emitter.fail(error)
        return {}
      }
      let stop = result.observe(ColdStart.shared.input(of: "multicast(makeSubject:selector:)")) { value in
        emitter.send(value)
      } onEnd: { termination in
        switch termination {
        case .finished: emitter.finish()
        case .failed(let error): emitter.fail(error)
        }
      }
      let connection = connectable.connect()
      return {
        stop()
        connection.cancel()
      }
    }
  }
}
