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
  @inlinable public static var never: Signal {
    Signal(
      cold: ColdRecipe { start in
        .source(start, origin: NodeOrigin(.never)) { _ in {} }
      } pull: {
        let run = ChannelReader<Element, Failure>()
        return run.pull(into:)
      })
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
  @inlinable public init<S: Sequence & Sendable>(_ sequence: S) where S.Element == Element {
    self.init(cold: .sequence(sequence))
  }

  /// Erases any async sequence to a `Signal` with the same element and failure types.
  ///
  /// What `sequence` is decides what the signal does, once, here: a hot sequence (a subject, a ``Property``, a
  /// ``HotSignal``, a hot operator chain, a command's stream) stays hot and shared, so operators applied to the
  /// signal run inside the subject's `send` exactly as they would on the concrete type; a ``Signal`` stays what it
  /// is; a ``SubjectSubscription`` is a cold signal that runs once: an operator that observes it (a
  /// `combineLatest`, a `flatMap`) is given what it buffered, then the subject's values, inside the subject's
  /// `send`; any other sequence (an `AsyncStream`, `Observations`, a sequence of your own, even one that wraps a
  /// subject without conforming to ``HotSequence``) is foreign and cold: each run iterates it once more. A
  /// `Signal` made from a single-pass sequence such as an `AsyncStream` is single-pass too; use ``deferred(_:)`` to
  /// build a fresh stream per iteration.
  ///
  /// ```swift
  /// let signal = Signal(someAsyncSequence)
  /// ```
  @inlinable public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element, S.Failure == Failure {
    if let signal = sequence as? Signal {
      self = signal
    } else if let hot = sequence as? any HotSequence<Element, Failure> {
      self.init(hot: hot.hotSignal.node)
    } else if let subscription = sequence as? SubjectSubscription<Element, Failure> {
      self.init(cold: .subscription(subscription))
    } else if let backed = sequence as? any SignalBacked<Element, Failure> {
      self = backed.signal
    } else {
      self.init(cold: .foreign { sequence })
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
  @inlinable public static func deferred<S: AsyncSequence & SendableMetatype>(
    _ makeSequence: @escaping @Sendable () -> S
  ) -> Signal where S.Element == Element, S.Failure == Failure {
    Signal(cold: .foreign(makeSequence))
  }

  /// A signal that calls `operation` once per iteration and sends its result (a one-value request).
  ///
  /// The operation runs in the consumer's task, so cancelling the consumer cancels it. For a typed failure,
  /// annotate the closure: `Signal<User, APIError>.future { () throws(APIError) in try await api.user() }`.
  ///
  /// ```swift
  /// let wallet = Signal.future { try await api.wallet(for: user) }
  /// ```
  @inlinable public static func future(_ operation: @escaping @Sendable () async throws(Failure) -> Element) -> Signal {
    Signal(cold: .future(operation))
  }
}

extension Signal where Failure == any Error {
  /// A signal that calls a throwing `operation` once per iteration and sends its result.
  ///
  /// ```swift
  /// let user = Signal.future { try await api.fetchUser() }
  /// for try await user in user.retry(2) { print(user) }
  /// ```
  @inlinable public static func future(_ operation: @escaping @Sendable () async throws -> Element) -> Signal {
    Signal(cold: .future(operation))
  }
}

extension Signal where Failure == Never {
  /// A signal that calls a non-throwing `operation` once per iteration and sends its result.
  ///
  /// ```swift
  /// let now = Signal.future { await clockService.now() }
  /// ```
  @inlinable public static func future(_ operation: @escaping @Sendable () async -> Element) -> Signal {
    Signal(cold: .future(operation))
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Erases this sequence to a ``Signal`` with the same element and failure types.
  ///
  /// ```swift
  /// let signal: Signal<String, Never> = textField.changes.map(\.trimmed).eraseToSignal()
  /// ```
  @inlinable public func eraseToSignal() -> Signal<Element, Failure> {
    Signal(self)
  }
}

extension ColdRecipe {
  /// ``Signal/init(_:)-(S)`` of a synchronous sequence. A consumer reads it in batches, in its own task; in a graph,
  /// one pump task sends its elements, or the consumer that drives the graph sends one per read.
  @inlinable package static func sequence<S: Sequence & Sendable>(_ sequence: S) -> ColdRecipe
  where S.Element == Element {
    // One element per read, as the consumer asks: nothing is read (and no operator's closure runs) ahead of it. In a
    // graph a pump task started in place reads it: a short sequence has been sent when the subscribing call returns;
    // a long one yields after its first elements, since sending it all inside the connection would hold up every
    // other registration with the graph until it is done.
    .synchronous(yields: false) {
      let iterator = ClosureState(sequence.makeIterator())
      return { () throws(Failure) in iterator.value.next() }
    }
  }

  /// A foreign async sequence (``Signal/init(_:)-(S)``, ``Signal/deferred(_:)``): each run iterates the sequence
  /// `make` gives. A consumer iterates it directly, one element per read; in a graph, one pump task per run reads it
  /// into the graph, or the consumer that drives it does.
  @inlinable package static func foreign<S: AsyncSequence & SendableMetatype>(
    _ make: @escaping @Sendable () -> S
  ) -> ColdRecipe where S.Element == Element, S.Failure == Failure {
    ColdRecipe(
      node: { start in
        // The iterator is made with the node (a subject's wrapper registers the consumer then, as when a consumer
        // makes its iterator); the pump reads it once the node is observed. A cold node is observed once at most.
        let iterator = Handoff(make().makeAsyncIterator())
        return .source(start, origin: NodeOrigin(.pump)) { outlet in
          let task = Task(pumpNamed: start.pumpName) { await pump(iterator.take(), into: outlet) }
          return { task.cancel() }
        }
      },
      pull: {
        let iterator = ClosureState(make().makeAsyncIterator())
        return { batch in
          if let element = try await iterator.value.next(isolation: #isolation) { batch.append(element) }
        }
      }, drivable: true)
  }

  /// A subject's consumer that is registered already (``Signal/init(_:)-(S)`` of a ``SubjectSubscription``): a
  /// consumer iterates it; a graph observes the subject through it, inside the subject's `send`. It runs once, as
  /// the subscription does.
  @inlinable package static func subscription(_ subscription: SubjectSubscription<Element, Failure>) -> ColdRecipe {
    ColdRecipe { start, onValue, onEnd in
      if let stop = subscription.adopt(onValue: onValue, onEnd: onEnd) { return stop }
      // A bounded buffer drops by its consumer's pace: the subscription is read as it is.
      return foreign { subscription }.observe(start, onValue: onValue, onEnd: onEnd)
    } pull: {
      let iterator = ClosureState(subscription.makeAsyncIterator())
      return { batch in
        guard let element = try await iterator.value.next(isolation: #isolation) else { return }
        batch.append(element)
        iterator.value.takeBuffered(into: &batch)
      }
    }
  }

  /// ``Signal/future(_:)``: each run awaits the operation once. A consumer awaits it in its own task; in a graph it
  /// runs in an immediate task, which runs on the calling thread up to its first suspension (an operation that
  /// never suspends costs no scheduling).
  @inlinable package static func future(
    _ operation: @escaping @Sendable () async throws(Failure) -> Element
  ) -> ColdRecipe {
    ColdRecipe { _, onValue, onEnd in
      let task = Task<Void, Never>(immediateNamed: "Signal.future") {
        do throws(Failure) {
          let value = try await operation()
          onValue(value)
          onEnd(.finished)
        } catch {
          onEnd(.failed(error))
        }
      }
      return { task.cancel() }
    } pull: {
      let pending = ClosureState(Optional(operation))
      return { batch in
        guard let operation = pending.value.take() else { return }
        batch.append(try await operation())
      }
    }
  }
}

/// Reads a foreign sequence's iterator into a source node, waiting for the run's consumer when it is behind.
@inlinable package func pump<Iterator: AsyncIteratorProtocol>(
  _ iterator: sending Iterator?, into outlet: SourceOutlet<Iterator.Element, Iterator.Failure>
) async where Iterator.Element: Sendable {
  guard var iterator else { return }
  do throws(Iterator.Failure) {
    while let element = try await iterator.next(isolation: nil) {
      outlet.node.send(element)
      if let pacer = outlet.pacer, pacer.isFull { await pacer.waitForRoom() }
    }
    outlet.node.terminate(.finished)
  } catch {
    outlet.node.terminate(.failed(error))
  }
}
