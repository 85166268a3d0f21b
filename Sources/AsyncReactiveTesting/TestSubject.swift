import AsyncReactive
import Testing

/// A hot sequence for tests whose `send` returns once every consumer has *handled* the value: taken it and come
/// back for the next one. The handshake for code that takes an input and shows nothing for it.
///
/// **When you need it:** rarely. An operator over a subject handles a value inside the subject's `send`, so after an
/// `AsyncPassthroughSubject.send` returns the graph has taken it; and inside `TestClock.withVirtualTime`,
/// `settle()` waits for everything the value started (tasks on the test executor and the main actor). A test
/// subject is for what neither covers: code that iterates its input in a task of its own outside virtual time (a
/// `for await` loop of the code under test, a pull consumer), where only the consumer's next `next()` says it has
/// handled the value.
///
/// Such code may take a value without emitting anything or starting a timer (holding it, dropping a repeat). A
/// test that sends it to an `AsyncPassthroughSubject` cannot know when the loop has taken it, so it cannot know
/// when it is safe to move the clock. With a test subject it awaits `send`: once it returns, each consumer has
/// taken the value and asked for the next one, and the test can advance the clock.
///
/// Like an `AsyncPassthroughSubject`, each consumer gets the values sent after it subscribed (at
/// `makeAsyncIterator()`), in order, buffered without limit; after ``finish(timeout:fileID:filePath:line:column:)`` or
/// ``fail(_:timeout:fileID:filePath:line:column:)`` every consumer, current or later, receives the end after the values
/// buffered for it, and later events are ignored. Use an `AsyncPassthroughSubject` when a test must send without
/// waiting (a consumer that is meant to stall).
///
/// **What "handled" means:** a consumer handles a value when it calls `next()` again after receiving it (or
/// stops iterating). An operator that iterates its upstream in a loop of its own (throttle, debounce, delay,
/// timeout, combineLatest, …) has then applied the value to its state. A consumer that holds on to a value
/// while it waits for something else (a `flatMap` running an inner sequence) handles it only afterwards, so
/// `send` waits until then.
///
/// **Timeout:** a `send` (or `finish`, `fail`, ``waitForConsumers(_:timeout:fileID:filePath:line:column:)``) that is not
/// handled within its `timeout` of real time records a test failure naming the consumers that did not handle it
/// (by subscription order: consumer 1 subscribed first) and what they took, then returns.
///
/// **Cancellation:** a consumer whose task is cancelled, or that releases its iterator, stops at once and no
/// longer holds up a `send`. A cancelled `send` returns at once, without a failure (the value stays sent).
///
/// ```swift
/// let clock = TestClock()
/// let offsets = TestSubject<Int, Never>()
/// let throttled = Recorder(offsets.throttle(for: .milliseconds(300), clock: clock, latest: true), clock: clock)
/// await offsets.send(1)  // emitted at once; the window ends at 300 ms
/// await clock.advance(by: .milliseconds(100))
/// await offsets.send(2)  // held for the window's end: no output, no new timer, but send returns once taken
/// await clock.waitForSleeper(until: TestClock.Instant(offset: .milliseconds(300)))  // the window's timer
/// await clock.advance(by: .milliseconds(200))
/// #expect(await throttled.waitForValues(count: 2) == [Timed(1, at: .zero), Timed(2, at: .milliseconds(300))])
/// ```
public final class TestSubject<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  private typealias Delivery = TestSubjectDelivery<Element, Failure>
  private typealias Consumer = CheckedContinuation<Delivery?, Never>
  private typealias Sender = CheckedContinuation<Void, Never>
  private typealias StateMachine = TestSubjectStateMachine<Element, Failure, Consumer, Sender>

  private let state = Locked(StateMachine())

  /// Creates a subject with no consumers.
  ///
  /// ```swift
  /// let query = TestSubject<String, Never>()
  /// ```
  public init() {}

  /// The number of consumers subscribed now: iterators made and not yet stopped or ended.
  ///
  /// ```swift
  /// let recorder = Recorder(query.removeDuplicates(), clock: clock)
  /// #expect(query.consumerCount == 1)
  /// ```
  public var consumerCount: Int { state.withLock { $0.consumerCount } }

  /// Sends `value` to every current consumer and returns once each has handled it (taken it and come back for
  /// the next value, or stopped).
  ///
  /// Returns at once if there are no consumers (the value is lost, as with an `AsyncPassthroughSubject`) or the
  /// subject has ended (the value is ignored).
  ///
  /// **Timeout:** if some consumer does not handle the value within `timeout` of real time, records a test
  /// failure that names it and what it took, and returns (the value stays in that consumer's buffer).
  ///
  /// **Cancellation:** returns at once, without a failure, if the sending task is cancelled.
  ///
  /// ```swift
  /// await query.send("sw")  // the debounce has restarted its timer when this returns
  /// await clock.waitForSleeper(until: clock.now + .milliseconds(300))
  /// ```
  /// - Parameters:
  ///   - value: the value to send.
  ///   - timeout: how long (real time) to wait before failing; positive.
  ///   - fileID: the file of the location where a failure is reported; the caller's by default.
  ///   - filePath: the path of that file; the caller's by default.
  ///   - line: the line of that location; the caller's by default.
  ///   - column: the column of that location; the caller's by default.
  public func send(
    _ value: Element,
    timeout: Duration = .seconds(60),
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    await deliver(
      .value(value), named: "send(\(value))", timeout: timeout,
      sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { state, sender, id in
      state.send(value, sender: sender, id: id)
    }
  }

  /// Finishes the subject and returns once every consumer has received the end (after the values buffered for
  /// it) or stopped.
  ///
  /// Later sends are ignored, and later consumers finish at once. Does nothing more if the subject has ended.
  ///
  /// **Timeout:** if some consumer does not receive the end within `timeout` of real time, records a test
  /// failure that names it, and returns.
  ///
  /// **Cancellation:** returns at once, without a failure, if the calling task is cancelled.
  ///
  /// ```swift
  /// await query.finish()
  /// #expect(await recorder.waitForEnd() == Timed(.finished, at: .zero))
  /// ```
  /// - Parameters:
  ///   - timeout: how long (real time) to wait before failing; positive.
  ///   - fileID: the file of the location where a failure is reported; the caller's by default.
  ///   - filePath: the path of that file; the caller's by default.
  ///   - line: the line of that location; the caller's by default.
  ///   - column: the column of that location; the caller's by default.
  public func finish(
    timeout: Duration = .seconds(60),
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    await deliver(
      .finished, named: "finish()", timeout: timeout,
      sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { state, sender, id in
      state.terminate(.finished, sender: sender, id: id)
    }
  }

  /// Fails the subject with `failure` and returns once every consumer has received it (after the values
  /// buffered for it) or stopped.
  ///
  /// Later sends are ignored, and later consumers fail at once. Does nothing more if the subject has ended.
  ///
  /// **Timeout:** if some consumer does not receive the failure within `timeout` of real time, records a test
  /// failure that names it, and returns.
  ///
  /// **Cancellation:** returns at once, without a failure, if the calling task is cancelled.
  ///
  /// ```swift
  /// await requests.fail(APIError.offline)
  /// #expect(await recorder.waitForEnd()?.value == .failed(.offline))
  /// ```
  /// - Parameters:
  ///   - failure: the error every consumer throws.
  ///   - timeout: how long (real time) to wait before failing; positive.
  ///   - fileID: the file of the location where a failure is reported; the caller's by default.
  ///   - filePath: the path of that file; the caller's by default.
  ///   - line: the line of that location; the caller's by default.
  ///   - column: the column of that location; the caller's by default.
  public func fail(
    _ failure: Failure,
    timeout: Duration = .seconds(60),
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    await deliver(
      .failed(failure), named: "fail(\(failure))", timeout: timeout,
      sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { state, sender, id in
      state.terminate(.failed(failure), sender: sender, id: id)
    }
  }

  /// Returns once at least `count` consumers are subscribed, or fails the test after `timeout`.
  ///
  /// For code that subscribes later than the test can see, such as a view model observing the subject from a
  /// task of its own; sending before that would reach nobody.
  ///
  /// **Timeout:** if the consumers do not come within `timeout` of real time, records a test failure that says
  /// how many there are, and returns.
  ///
  /// **Cancellation:** returns early, without a failure, if the waiting task is cancelled.
  ///
  /// ```swift
  /// let viewModel = SearchViewModel(queries: query, clock: clock)  // subscribes from a task
  /// await query.waitForConsumers(1)
  /// await query.send("swift")
  /// ```
  /// - Parameters:
  ///   - count: the number of consumers to wait for.
  ///   - timeout: how long (real time) to wait before failing; positive.
  ///   - fileID: the file of the location where a failure is reported; the caller's by default.
  ///   - filePath: the path of that file; the caller's by default.
  ///   - line: the line of that location; the caller's by default.
  ///   - column: the column of that location; the caller's by default.
  public func waitForConsumers(
    _ count: Int = 1,
    timeout: Duration = .seconds(60),
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    let name = "TestSubject.waitForConsumers(\(count))"
    checkTimeout(timeout, of: name)
    if consumerCount >= count { return }
    let watched = await watch(timeout: timeout) { [state] in
      guard let id = state.withLock({ $0.consumerCount >= count ? nil : $0.makeID() }) else { return true }
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          state.withLock {
            $0.waitForConsumers(count, waiter: continuation, id: id, isCancelled: Task.isCancelled)
          }?.resume()
        }
      } onCancel: {
        state.withLock { $0.cancelConsumerWaiter(id: id) }?.resume()
      }
      return state.withLock { $0.consumerCount >= count }
    }
    if watched.expired && !watched.value {
      let count = consumerCount
      recordTimeout(
        "\(name) timed out after \(timeout.secondsDescription): "
          + (count == 1 ? "1 consumer is subscribed" : "\(count) consumers are subscribed"),
        sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      )
    }
  }

  /// Registers a consumer: it receives what is sent from now on.
  public func makeAsyncIterator() -> Iterator {
    let (id, waiters) = state.withLock { state in
      let id = state.makeID()
      return (id, state.subscribe(id: id))
    }
    for waiter in waiters { waiter.resume() }
    return Iterator(subscription: Subscription(subject: self, id: id))
  }

  /// The iterator of a ``TestSubject``; releasing it stops the consumer.
  public struct Iterator: AsyncIteratorProtocol {
    private let subscription: Subscription

    fileprivate init(subscription: Subscription) {
      self.subscription = subscription
    }

    /// The next value sent, `nil` once the subject finished (or the consumer's task was cancelled).
    ///
    /// **Throws:** the subject's failure.
    public mutating func next() async throws(Failure) -> Element? {
      try await subscription.subject.next(id: subscription.id)
    }

    /// The next value sent, `nil` once the subject finished (or the consumer's task was cancelled).
    ///
    /// **Throws:** the subject's failure.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      try await subscription.subject.next(id: subscription.id)
    }
  }

  /// Stops the consumer when its iterator is released.
  fileprivate final class Subscription: Sendable {
    let subject: TestSubject
    let id: Int

    init(subject: TestSubject, id: Int) {
      self.subject = subject
      self.id = id
    }

    deinit { subject.stop(id: id) }
  }

  fileprivate func next(id: Int) async throws(Failure) -> Element? {
    let delivery = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Delivery?, Never>) in
        let (action, senders) = state.withLock {
          $0.next(id: id, consumer: continuation, isCancelled: Task.isCancelled)
        }
        for sender in senders { sender.resume() }
        if case .deliver(let delivery) = action { continuation.resume(returning: delivery) }
      }
    } onCancel: {
      stop(id: id)
    }
    switch delivery {
    case .value(let element): return element
    case .failed(let failure): throw failure
    case .finished, nil: return nil
    }
  }

  fileprivate func stop(id: Int) {
    let (consumer, senders) = state.withLock { $0.stop(id: id) }
    for sender in senders { sender.resume() }
    consumer?.resume(returning: nil)
  }

  /// Applies an event with `apply`, resumes the parked consumers with `delivery`, and waits, under a watchdog,
  /// for the consumers to handle it.
  private func deliver(
    _ delivery: Delivery,
    named name: String,
    timeout: Duration,
    sourceLocation: SourceLocation,
    _ apply: @escaping @Sendable (inout StateMachine, Sender, Int) -> (consumers: [Consumer], senders: [Sender])
  ) async {
    checkTimeout(timeout, of: "TestSubject.\(name)")
    let id = state.withLock { $0.makeID() }
    let watched = await watch(timeout: timeout) { [state] in
      // The consumers that had not handled the event when the wait was given up, described.
      let pending = Locked<[String]>([])
      await withTaskCancellationHandler {
        await withCheckedContinuation { (sender: CheckedContinuation<Void, Never>) in
          let (consumers, senders) = state.withLock { state in
            var (consumers, senders) = apply(&state, sender, id)
            // The event is sent either way; a cancelled sender just does not wait for it to be handled.
            if Task.isCancelled, state.isWaiting(sender: id) {
              pending.withLock { $0 = state.describePending(sender: id) }
              if let sender = state.cancelSender(id: id) { senders.append(sender) }
            }
            return (consumers, senders)
          }
          for consumer in consumers { consumer.resume(returning: delivery) }
          for sender in senders { sender.resume() }
        }
      } onCancel: {
        let sender = state.withLock { state in
          pending.withLock { $0 = state.describePending(sender: id) }
          return state.cancelSender(id: id)
        }
        sender?.resume()
      }
      return pending.withLock { $0 }
    }
    if watched.expired && !watched.value.isEmpty {
      recordTimeout(
        "TestSubject.\(name) timed out after \(timeout.secondsDescription): "
          + watched.value.joined(separator: "; "),
        sourceLocation: sourceLocation
      )
    }
  }
}

extension TestSubject: ReactiveSequence {}
