/// The buffer between one run of a push-style ``Signal`` (its body or callback) and its consumer.
package final class SignalChannel<Element: Sendable, Failure: Error>: ConsumerQueueHost {
  package typealias Waiter = ConsumerQueue<Element, Failure>.Waiter

  private struct State: Sendable {
    /// `nil` once the consumer stopped.
    var queue: ConsumerQueue<Element, Failure>? = ConsumerQueue(policy: .unbounded)
    /// What stops the producer (cancel its task, or the callback API's cancellation handler); runs once.
    var stop: (@Sendable () -> Void)?
    /// Set when the run ended (either side), so that a stop handler installed late runs at once.
    var ended = false

    /// Marks the run ended and hands out the stop handler, at most once.
    mutating func end() -> (@Sendable () -> Void)? {
      ended = true
      defer { stop = nil }
      return stop
    }
  }

  private let state = Locked(State())

  package init() {}

  package func send(_ element: Element) {
    let waiter = state.withLock { $0.queue?.enqueue(element) }
    waiter?.resume(returning: .element(element))
  }

  package func terminate(_ termination: Termination<Failure>) {
    let (waiter, stop) = state.withLock { state -> (Waiter?, (@Sendable () -> Void)?) in
      let waiter = state.queue?.terminate(termination)
      return (waiter, state.end())
    }
    waiter?.resume(returning: .recheck)
    stop?()
  }

  /// Whether the consumer still listens and the run has not ended.
  package var isActive: Bool { state.withLock { !$0.ended } }

  /// Installs what stops the producer; runs it at once if the run already ended.
  package func onStop(_ stop: @escaping @Sendable () -> Void) {
    let runNow = state.withLock { state -> Bool in
      guard !state.ended else { return true }
      state.stop = stop
      return false
    }
    if runNow { stop() }
  }

  package func withQueue<R>(_ id: Int, _ body: (inout ConsumerQueue<Element, Failure>?) -> R) -> R {
    state.withLock { body(&$0.queue) }
  }

  package func removeConsumer(_ id: Int) {
    let (waiter, stop) = state.withLock { state -> (Waiter?, (@Sendable () -> Void)?) in
      let waiter = state.queue?.cancel()
      state.queue = nil
      return (waiter, state.end())
    }
    waiter?.resume(returning: .recheck)
    stop?()
  }
}

/// A run fed by a producer through a ``SignalChannel``; the producer starts on the first `next()`.
package final class ChannelRun<Element: Sendable, Failure: Error>: SignalRun<Element, Failure> {
  private let channel = SignalChannel<Element, Failure>()
  private var cursor: ConsumerCursor<SignalChannel<Element, Failure>>
  private var start: (@Sendable (Signal<Element, Failure>.Emitter) -> Void)?

  package init(start: @escaping @Sendable (Signal<Element, Failure>.Emitter) -> Void) {
    self.cursor = ConsumerCursor(host: channel, id: 0)
    self.start = start
  }

  override package func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    if let start {
      self.start = nil
      // A consumer cancelled before it asked for anything gets no run: starting one would do cold work (in a
      // task of its own) for nobody, possibly after the consumer has returned.
      if Task.isCancelled {
        channel.removeConsumer(0)
        return nil
      }
      start(Signal.Emitter(channel: channel))
    }
    return try await cursor.next(isolation: actor)
  }

  deinit { channel.removeConsumer(0) }
}

extension Signal {
  /// The producer's handle on one run of a ``Signal``: send values, finish or fail.
  ///
  /// Sending is synchronous and safe from any thread or callback; values are buffered (unbounded) until the
  /// consumer takes them. After the run ended (finished, failed, or the consumer stopped) sends are ignored.
  ///
  /// ```swift
  /// Signal<Int, Never> { emitter in
  ///   for i in 1...3 { emitter.send(i) }
  /// }
  /// ```
  public struct Emitter: Sendable {
    fileprivate let channel: SignalChannel<Element, Failure>

    package init(channel: SignalChannel<Element, Failure>) {
      self.channel = channel
    }

    /// Sends `value` to the consumer of this run.
    ///
    /// ```swift
    /// emitter.send(user)
    /// ```
    public func send(_ value: Element) { channel.send(value) }

    /// Ends the run normally. With the async-body initializer, returning from the body does this.
    ///
    /// ```swift
    /// emitter.finish()
    /// ```
    public func finish() { channel.terminate(.finished) }

    /// Ends the run with `error`. With the async-body initializer, throwing from the body does this.
    ///
    /// ```swift
    /// emitter.fail(NetworkError(code: 502))
    /// ```
    public func fail(_ error: Failure) { channel.terminate(.failed(error)) }

    /// `false` once the run ended or its consumer stopped: a long-running producer can check it.
    ///
    /// ```swift
    /// while emitter.isActive { emitter.send(await nextReading()) }
    /// ```
    public var isActive: Bool { channel.isActive }
  }

  /// A signal whose every iteration runs `body` in a task of its own; `body` sends through its emitter.
  ///
  /// Returning from `body` finishes the run; throwing fails it. Cancelling the consumer cancels the task.
  /// This is the general form for a typed failure, which Swift needs spelled out on the closure:
  ///
  /// ```swift
  /// let orders = Signal<[Order], APIError> { (emitter) throws(APIError) in
  ///   emitter.send(try await api.orders())
  /// }
  /// ```
  public init(_ body: @escaping @Sendable (Emitter) async throws(Failure) -> Void) {
    self = .running(body)
  }

  /// The shared implementation of the async-body initializers (one per failure spelling).
  fileprivate static func running(_ body: @escaping @Sendable (Emitter) async throws(Failure) -> Void) -> Signal {
    Signal(makeRun: {
      ChannelRun { emitter in
        let task = Task(named: "Signal body") {
          do throws(Failure) {
            try await body(emitter)
            emitter.finish()
          } catch {
            emitter.fail(error)
          }
        }
        emitter.channel.onStop { task.cancel() }
      }
    })
  }

  /// A signal that bridges a callback API: `setUp` runs once per iteration, may send from any thread or
  /// callback, and returns what cancels the underlying work.
  ///
  /// The returned handler runs **exactly once**, when the run ends for any reason: the consumer stopped
  /// (cancelled, broke out, dropped its iterator) or the producer called `finish()` / `fail(_:)`.
  ///
  /// ```swift
  /// let wallet = Signal<Wallet, any Error>.create { emitter in
  ///   let request = api.requestUserWallet { result in
  ///     switch result {
  ///     case .success(let wallet): emitter.send(wallet); emitter.finish()
  ///     case .failure(let error): emitter.fail(error)
  ///     }
  ///   }
  ///   return { request.cancel() }
  /// }
  /// ```
  public static func create(
    _ setUp: @escaping @Sendable (Emitter) -> @Sendable () -> Void
  ) -> Signal {
    Signal(makeRun: {
      ChannelRun { emitter in
        emitter.channel.onStop(setUp(emitter))
      }
    })
  }
}

extension Signal where Failure == Never {
  /// A signal whose every iteration runs the non-throwing `body` in a task of its own.
  ///
  /// ```swift
  /// let countdown = Signal<Int, Never> { emitter in
  ///   for i in (1...3).reversed() { emitter.send(i) }
  /// }
  /// for await i in countdown { print(i) }   // 3, 2, 1
  /// ```
  public init(_ body: @escaping @Sendable (Emitter) async -> Void) {
    self = .running(body)
  }
}

extension Signal where Failure == any Error {
  /// A signal whose every iteration runs the throwing `body` in a task of its own.
  ///
  /// ```swift
  /// let user = Signal<User, any Error> { emitter in
  ///   emitter.send(try await api.fetchUser())
  /// }
  /// ```
  public init(_ body: @escaping @Sendable (Emitter) async throws -> Void) {
    self = .running(body)
  }
}
