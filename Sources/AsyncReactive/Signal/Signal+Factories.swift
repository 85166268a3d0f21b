extension Signal {
  /// A signal that sends `value`, then finishes (RACSignal `return:`, `Observable.just`).
  ///
  /// ```swift
  /// for await value in Signal<Int, Never>.just(42) { print(value) }   // 42
  /// ```
  @inlinable
  public static func just(_ value: Element) -> Signal {
    Signal(immediate: .value(value))
  }

  /// A signal that finishes at once without a value (RACSignal `empty`, `Observable.empty()`).
  ///
  /// ```swift
  /// let nothing = Signal<Int, Never>.empty
  /// ```
  @inlinable
  public static var empty: Signal {
    Signal(immediate: .finished)
  }

  /// A signal that never sends and never finishes; its iteration ends only when the consumer is cancelled
  /// (RACSignal `never`, `Observable.never()`).
  ///
  /// ```swift
  /// let forever = Signal<Int, Never>.never
  /// ```
  public static var never: Signal {
    Signal(makeRun: { ChannelRun(start: { _ in }) })
  }

  /// A signal that fails at once with `error` (RACSignal `error:`, `Observable.error`).
  ///
  /// ```swift
  /// let failing = Signal<Int, NetworkError>.fail(NetworkError(code: 502))
  /// ```
  @inlinable
  public static func fail(_ error: Failure) -> Signal {
    Signal(immediate: .failed(error))
  }

  /// A signal that sends the elements of `sequence`, then finishes.
  ///
  /// ```swift
  /// for await value in Signal<Int, Never>([1, 2, 3]) { print(value) }
  /// ```
  public init<S: Sequence & Sendable>(_ sequence: S) where S.Element == Element {
    self.init(makeRun: { SequenceRun(sequence.makeIterator()) })
  }

  /// Erases any async sequence to a `Signal` with the same element and failure types.
  ///
  /// Iterating the signal iterates `sequence` once more: a `Signal` made from a single-pass sequence such as
  /// an `AsyncStream` is single-pass too; use ``deferred(_:)`` to build a fresh stream per iteration.
  ///
  /// ```swift
  /// let signal = Signal(someAsyncSequence)
  /// ```
  public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element, S.Failure == Failure {
    if let signal = sequence as? Signal {
      self = signal
    } else {
      self.init(makeRun: { IteratorRun(sequence.makeAsyncIterator()) })
    }
  }

  /// A signal that builds a new sequence for each iteration: this makes a single-pass sequence (an
  /// `AsyncStream`, say) re-iterable, and so retryable.
  ///
  /// ```swift
  /// let ticks = Signal.deferred {
  ///   AsyncStream<Int> { continuation in
  ///     continuation.yield(1)
  ///     continuation.finish()
  ///   }
  /// }
  /// ```
  public static func deferred<S: AsyncSequence & SendableMetatype>(
    _ makeSequence: @escaping @Sendable () -> S
  ) -> Signal where S.Element == Element, S.Failure == Failure {
    Signal(makeRun: { IteratorRun(makeSequence().makeAsyncIterator()) })
  }

  /// A signal that calls `operation` once per iteration and sends its result (a one-value request).
  ///
  /// The operation runs in the consumer's task, so cancelling the consumer cancels it. For a typed failure,
  /// annotate the closure: `Signal<User, APIError>.future { () throws(APIError) in try await api.user() }`.
  ///
  /// ```swift
  /// let wallet = Signal.future { try await api.wallet(for: user) }
  /// ```
  public static func future(_ operation: @escaping @Sendable () async throws(Failure) -> Element) -> Signal {
    Signal(makeRun: { FutureRun(operation) })
  }
}

extension Signal where Failure == any Error {
  /// A signal that calls a throwing `operation` once per iteration and sends its result.
  ///
  /// ```swift
  /// let user = Signal.future { try await api.fetchUser() }
  /// for try await user in user.retry(2) { print(user) }
  /// ```
  public static func future(_ operation: @escaping @Sendable () async throws -> Element) -> Signal {
    Signal(makeRun: { FutureRun(operation) })
  }
}

extension Signal where Failure == Never {
  /// A signal that calls a non-throwing `operation` once per iteration and sends its result.
  ///
  /// ```swift
  /// let now = Signal.future { await clockService.now() }
  /// ```
  public static func future(_ operation: @escaping @Sendable () async -> Element) -> Signal {
    Signal(makeRun: { FutureRun(operation) })
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Erases this sequence to a ``Signal`` with the same element and failure types.
  ///
  /// ```swift
  /// let signal: Signal<String, Never> = textField.changes.map(\.trimmed).eraseToSignal()
  /// ```
  public func eraseToSignal() -> Signal<Element, Failure> {
    Signal(self)
  }
}

/// A run that awaits one operation in the consumer's own task.
private final class FutureRun<Element: Sendable, Failure: Error>: SignalRun<Element, Failure> {
  private var operation: (@Sendable () async throws(Failure) -> Element)?

  init(_ operation: @escaping @Sendable () async throws(Failure) -> Element) {
    self.operation = operation
  }

  override func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    guard let operation else { return nil }
    self.operation = nil
    return try await operation()
  }
}
