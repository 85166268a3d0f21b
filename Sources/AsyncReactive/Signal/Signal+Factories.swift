import Synchronization

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
    Signal(cold: NeverRecipe())
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
    self.init(cold: SequenceRecipe<S, Failure>(sequence: sequence))
  }

  /// Erases any async sequence to a `Signal` with the same element and failure types.
  ///
  /// What `sequence` is decides what the signal does, once, here: a hot sequence (a subject, a ``Property``, a
  /// ``HotSignal``, a hot operator chain, a command's stream) stays hot and shared, so operators applied to the
  /// signal run inside the subject's `send` exactly as they would on the concrete type; a ``Signal`` stays what it
  /// is; any other sequence (an `AsyncStream`, `Observations`, a sequence of your own, even one that wraps a
  /// subject without conforming to ``HotSequence``) is foreign and cold: each run iterates it once more. A
  /// `Signal` made from a single-pass sequence such as an `AsyncStream` is single-pass too; use ``deferred(_:)`` to
  /// build a fresh stream per iteration.
  ///
  /// ```swift
  /// let signal = Signal(someAsyncSequence)
  /// ```
  public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element, S.Failure == Failure {
    if let signal = sequence as? Signal {
      self = signal
    } else if let hot = sequence as? any HotSequence<Element, Failure> {
      self.init(hot: hot.hotSignal.node)
    } else {
      self.init(cold: ForeignRecipe { sequence })
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
    Signal(cold: ForeignRecipe(makeSequence))
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
    Signal(cold: FutureRecipe(operation: operation))
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
    Signal(cold: FutureRecipe(operation: operation))
  }
}

extension Signal where Failure == Never {
  /// A signal that calls a non-throwing `operation` once per iteration and sends its result.
  ///
  /// ```swift
  /// let now = Signal.future { await clockService.now() }
  /// ```
  public static func future(_ operation: @escaping @Sendable () async -> Element) -> Signal {
    Signal(cold: FutureRecipe(operation: operation))
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

/// ``Signal/never``: a run that never produces; it ends only when its consumer stops.
@usableFromInline package struct NeverRecipe<Element: Sendable, Failure: Error>: ColdRecipe {
  @usableFromInline package func makeRun() -> SignalRun<Element, Failure> { ChannelRun { _, _ in } }
  @usableFromInline package func node(_ start: ColdStart) -> SubjectStorage<Element, Failure> {
    .source(start) { _ in {} }
  }
}

/// ``Signal/init(_:)-(S)``: a synchronous sequence. A consumer takes its elements one by one; in a graph, one pump
/// task sends them, or the consumer that drives the graph sends one per pull.
@usableFromInline package struct SequenceRecipe<S: Sequence & Sendable, Failure: Error>: ColdRecipe
where S.Element: Sendable {
  let sequence: S

  @usableFromInline package func makeRun() -> SignalRun<S.Element, Failure> { SequenceRun(sequence.makeIterator()) }

  @usableFromInline package func node(_ start: ColdStart) -> SubjectStorage<S.Element, Failure> {
    if let drive = start.drive {
      let node = SubjectStorage<S.Element, Failure>(replay: .none)
      drive.offer(SequencePuller(sequence.makeIterator(), into: node))
      return node
    }
    // Read by a task of its own, as a foreign sequence is: sending a long sequence inside the connection would
    // hold up every other registration with the graph until it is done.
    let sequence = self.sequence
    return .source(start) { outlet in
      let task = Task(named: start.pumpName) {
        for element in sequence {
          guard !Task.isCancelled else { return }
          outlet.node.send(element)
          if let pacer = outlet.pacer, pacer.isFull { await pacer.waitForRoom() }
        }
        outlet.node.terminate(.finished)
      }
      return { task.cancel() }
    }
  }
}

/// A synchronous sequence read by the consumer that drives it.
@usableFromInline package final class SequencePuller<Base: IteratorProtocol, Failure: Error>: ColdPuller
where Base.Element: Sendable {
  private var base: Base
  private let node: SubjectStorage<Base.Element, Failure>

  @usableFromInline package init(_ base: Base, into node: SubjectStorage<Base.Element, Failure>) {
    self.base = base
    self.node = node
  }

  @usableFromInline package func pull(isolation actor: isolated (any Actor)?) async {
    if let element = base.next() { node.send(element) } else { node.terminate(.finished) }
  }
}

/// A foreign async sequence (``Signal/init(_:)-(S)``, ``Signal/deferred(_:)``): each run iterates the sequence
/// `make` gives. A consumer iterates it directly; in a graph, one pump task per run reads it into the graph, or the
/// consumer that drives it does.
@usableFromInline package struct ForeignRecipe<S: AsyncSequence & SendableMetatype>: ColdRecipe
where S.Element: Sendable {
  let make: @Sendable () -> S

  init(_ make: @escaping @Sendable () -> S) {
    self.make = make
  }

  @usableFromInline package func makeRun() -> SignalRun<S.Element, S.Failure> {
    IteratorRun(make().makeAsyncIterator())
  }

  @usableFromInline package func node(_ start: ColdStart) -> SubjectStorage<S.Element, S.Failure> {
    if let drive = start.drive {
      let node = SubjectStorage<S.Element, S.Failure>(replay: .none)
      drive.offer(SourcePuller(make().makeAsyncIterator(), into: node))
      return node
    }
    // The iterator is made with the node (a subject's wrapper registers the consumer then, as when a consumer makes
    // its iterator); the pump reads it once the node is observed. A cold node is observed once at most.
    let iterator = Handoff(make().makeAsyncIterator())
    return .source(start) { outlet in
      let task = Task(named: start.pumpName) { await Pump<S>.run(iterator.take(), into: outlet) }
      return { task.cancel() }
    }
  }
}

/// Reads a foreign sequence into a source node, waiting for the run's consumer when it is behind.
enum Pump<S: AsyncSequence> where S.Element: Sendable {
  static func run(_ iterator: sending S.AsyncIterator?, into outlet: SourceOutlet<S.Element, S.Failure>) async {
    guard var iterator else { return }
    do throws(S.Failure) {
      while let element = try await iterator.next(isolation: nil) {
        outlet.node.send(element)
        if let pacer = outlet.pacer, pacer.isFull { await pacer.waitForRoom() }
      }
      outlet.node.terminate(.finished)
    } catch {
      outlet.node.terminate(.failed(error))
    }
  }
}

/// ``Signal/future(_:)``: each run awaits the operation once. A consumer awaits it in its own task; in a graph it
/// runs in an immediate task, which runs on the calling thread up to its first suspension (an operation that never
/// suspends costs no scheduling).
@usableFromInline package struct FutureRecipe<Element: Sendable, Failure: Error>: ColdRecipe {
  let operation: @Sendable () async throws(Failure) -> Element

  @usableFromInline package func makeRun() -> SignalRun<Element, Failure> { FutureRun(operation) }

  @usableFromInline package func node(_ start: ColdStart) -> SubjectStorage<Element, Failure> {
    let operation = self.operation
    return .source(start) { outlet in
      let task = Task<Void, Never>(immediateNamed: "Signal.future") {
        do throws(Failure) {
          let value = try await operation()
          outlet.node.send(value)
          outlet.node.terminate(.finished)
        } catch {
          outlet.node.terminate(.failed(error))
        }
      }
      return { task.cancel() }
    }
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
