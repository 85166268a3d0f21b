import Synchronization

extension Signal {
  /// The producer's handle on one run of a ``Signal``: send values, finish or fail.
  ///
  /// In an `async` body, `await emitter.send(value)` hands the value on and, when the consumer of this run is
  /// 128 values behind, waits until it has taken them: a fast producer feeding a slow consumer
  /// holds at most that many values (back-pressure). A run that feeds a hot node (a `share()`, a hot operator's
  /// input) never waits: hot nodes never slow their sources. The synchronous `send` never waits; it is what a callback
  /// calls (``create(_:)``). After the run ended (finished, failed, or the consumer stopped) sends are ignored.
  ///
  /// Which `send` a body calls depends on whether its closure is `async`, which Swift decides from its spelling:
  /// `emitter in` (the body's type comes from the initializer: `async`) needs `await emitter.send(x)`, the waiting
  /// send; a closure with an explicit signature and no `async` (`(emitter) throws(E) in`) that awaits nothing is
  /// synchronous, so `emitter.send(x)` compiles without `await` and is the non-waiting send. Spell the typed form
  /// `(emitter) async throws(E) in` to keep back-pressure.
  ///
  /// ```swift
  /// Signal<Int, Never> { emitter in
  ///   for i in 1...3 { await emitter.send(i) }
  /// }
  /// ```
  public struct Emitter: Sendable {
    @usableFromInline let target: Target

    /// Where an emitter's values go.
    @usableFromInline enum Target: Sendable {
      /// The channel of the run's one consumer, which is also its pacer.
      case channel(SignalChannel<Element, Failure>)
      /// The source node of a run that is part of a graph.
      case node(SourceOutlet<Element, Failure>)
    }

    @inlinable package init(channel: SignalChannel<Element, Failure>) {
      self.target = .channel(channel)
    }

    @inlinable package init(outlet: SourceOutlet<Element, Failure>) {
      self.target = .node(outlet)
    }

    /// Sends `value` to the consumer of this run without waiting: what a callback calls.
    ///
    /// ```swift
    /// api.onUpdate { update in emitter.send(update) }
    /// ```
    @inlinable public func send(_ value: Element) {
      switch target {
      case .channel(let channel): channel.send(value)
      case .node(let outlet): outlet.node.send(value)
      }
    }

    /// Sends `value` to the consumer of this run, then waits while that consumer is 128 values
    /// behind (back-pressure); returns at once when the run feeds a hot node or has ended.
    ///
    /// ```swift
    /// for line in lines { await emitter.send(line) }
    /// ```
    @inlinable public func send(_ value: Element) async {
      let pacer: (any ColdPacer)?
      switch target {
      case .channel(let channel):
        channel.send(value)
        pacer = channel
      case .node(let outlet):
        outlet.node.send(value)
        pacer = outlet.pacer
      }
      if let pacer, pacer.isFull { await pacer.waitForRoom() }
    }

    /// Ends the run normally. With the async-body initializer, returning from the body does this.
    ///
    /// ```swift
    /// emitter.finish()
    /// ```
    @inlinable public func finish() { end(.finished) }

    /// Ends the run with `error`. With the async-body initializer, throwing from the body does this.
    ///
    /// ```swift
    /// emitter.fail(NetworkError(code: 502))
    /// ```
    @inlinable public func fail(_ error: Failure) { end(.failed(error)) }

    @inlinable func end(_ termination: Termination<Failure>) {
      switch target {
      case .channel(let channel): channel.terminate(termination)
      case .node(let outlet): outlet.node.terminate(termination)
      }
    }

    /// `false` once the run ended or its consumer stopped: a long-running producer can check it.
    ///
    /// ```swift
    /// while emitter.isActive { await emitter.send(await nextReading()) }
    /// ```
    @inlinable public var isActive: Bool {
      switch target {
      case .channel(let channel): return channel.isActive
      case .node(let outlet): return !outlet.stopped.load(ordering: .relaxed) && !outlet.node.isTerminated
      }
    }
  }
}

/// The source node of a cold run that is part of a graph, as its producer sees it.
@usableFromInline package final class SourceOutlet<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline let node: Node<Element, Failure>
  /// The consumer the run's producers wait for, if it has one.
  @usableFromInline let pacer: (any ColdPacer)?
  /// Set when the node stopped observing (its last observer left).
  @usableFromInline let stopped = Atomic<Bool>(false)

  @inlinable package init(node: Node<Element, Failure>, pacer: (any ColdPacer)?) {
    self.node = node
    self.pacer = pacer
  }
}

extension Node {
  /// The source node of a cold run: `produce` starts the producer with the node's outlet when the node gets its
  /// first observer, and returns what stops it; that runs when the last observer leaves (or the node ended).
  @inlinable package static func source(
    _ start: ColdStart, origin: NodeOrigin = NodeOrigin(.coldRun),
    produce: @escaping @Sendable (SourceOutlet<Element, Failure>) -> @Sendable () -> Void
  ) -> Node {
    Node(replay: .none, origin: origin) { node in
      let outlet = SourceOutlet(node: node, pacer: start.pacer)
      let stop = produce(outlet)
      return {
        outlet.stopped.store(true, ordering: .relaxed)
        stop()
      }
    }
  }
}

// MARK: Bodies and callbacks

extension ColdRecipe {
  /// ``Signal/init(_:)-(Signal.Emitter)async throws(Failure)->Void``: each run runs the body in a task of its own.
  @inlinable package static func body(
    _ body: @escaping @Sendable (Signal<Element, Failure>.Emitter) async throws(Failure) -> Void
  ) -> ColdRecipe {
    ColdRecipe { start in
      .source(start, origin: NodeOrigin(.emitter)) { outlet in
        let task = runBody(body, Signal.Emitter(outlet: outlet), immediately: true)
        return { task.cancel() }
      }
    } pull: {
      let reader = ChannelReader<Element, Failure> { emitter, channel in
        let task = runBody(body, emitter)
        channel.onStop { task.cancel() }
      }
      return reader.pull(into:)
    }
  }

  /// The body's task. In a graph it is an immediate one: the body starts inside the connection and runs up to its
  /// first suspension there, as RxSwift's `Observable.create` runs inside `subscribe`, so what it sends at once (and
  /// the timers it starts) comes in place, in the order RxTest would schedule it.
  @inlinable static func runBody(
    _ body: @escaping @Sendable (Signal<Element, Failure>.Emitter) async throws(Failure) -> Void,
    _ emitter: Signal<Element, Failure>.Emitter, immediately: Bool = false
  ) -> Task<Void, Never> {
    let operation: @Sendable () async -> Void = {
      do throws(Failure) {
        try await body(emitter)
        emitter.finish()
      } catch {
        emitter.fail(error)
      }
    }
    return immediately
      ? Task(immediateNamed: "Signal body", operation: operation) : Task(named: "Signal body", operation: operation)
  }

  /// ``Signal/create(_:)``: each run calls the set-up closure; its cancellation handler runs once, when the run ends.
  @inlinable package static func create(
    _ setUp: @escaping @Sendable (Signal<Element, Failure>.Emitter) -> @Sendable () -> Void
  ) -> ColdRecipe {
    ColdRecipe { start in
      .source(start, origin: NodeOrigin(.emitter)) { outlet in
        let cancel = setUp(Signal.Emitter(outlet: outlet))
        let once = Atomic<Bool>(false)
        // The node's end (a `finish()` from inside the set-up, too) and its last observer leaving both stop it.
        return { if !once.exchange(true, ordering: .relaxed) { cancel() } }
      }
    } pull: {
      let reader = ChannelReader<Element, Failure> { emitter, channel in channel.onStop(setUp(emitter)) }
      return reader.pull(into:)
    }
  }
}

/// A consumer's run fed by a producer through a ``SignalChannel``; the producer starts on the first pull.
///
/// Its state is not checked for exclusive access at run time (`@exclusivity(unchecked)`): only the pull that owns it
/// touches it, called by one caller at a time (see ``ClosureState``).
@usableFromInline package final class ChannelReader<Element: Sendable, Failure: Error> {
  @usableFromInline let channel = SignalChannel<Element, Failure>()
  @exclusivity(unchecked) @usableFromInline var cursor: ConsumerCursor<SignalChannel<Element, Failure>>
  @exclusivity(unchecked) @usableFromInline var start:
    ((Signal<Element, Failure>.Emitter, SignalChannel<Element, Failure>) -> Void)?

  /// A run whose producer `start` starts; without one, a run that produces nothing until its consumer stops.
  @inlinable init(start: ((Signal<Element, Failure>.Emitter, SignalChannel<Element, Failure>) -> Void)? = nil) {
    self.cursor = ConsumerCursor(host: channel, id: 0)
    self.start = start
  }

  /// See ``ColdPull``: everything the channel holds, waiting for the producer when it holds nothing.
  @inlinable nonisolated(nonsending) func pull(into batch: inout [Element]) async throws {
    if let start = start.take() {
      // A consumer cancelled before it asked for anything gets no run: starting one would do cold work (in a
      // task of its own) for nobody, possibly after the consumer has returned.
      if Task.isCancelled {
        channel.removeConsumer(0)
        return
      }
      start(Signal.Emitter(channel: channel), channel)
    }
    guard let element = try await cursor.next(isolation: #isolation) else { return }
    batch.append(element)
    cursor.takeBuffered(into: &batch)
  }

  deinit { channel.removeConsumer(0) }
}

extension Signal {
  /// A signal whose every iteration runs `body` in a task of its own; `body` sends through its emitter.
  ///
  /// Returning from `body` finishes the run; throwing fails it. Cancelling the consumer cancels the task.
  /// `await emitter.send(_:)` waits while the consumer is behind (see ``Emitter``).
  /// This is the general form for a typed failure, which Swift needs spelled out on the closure, `async`
  /// included (without it, a body that awaits nothing is synchronous and its `send` never waits):
  ///
  /// ```swift
  /// let orders = Signal<[Order], APIError> { (emitter) async throws(APIError) in
  ///   await emitter.send(try await api.orders())
  /// }
  /// ```
  @inlinable public init(_ body: @escaping @Sendable (Emitter) async throws(Failure) -> Void) {
    self.init(cold: .body(body))
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
  @inlinable public static func create(
    _ setUp: @escaping @Sendable (Emitter) -> @Sendable () -> Void
  ) -> Signal {
    Signal(cold: .create(setUp))
  }
}

extension Signal where Failure == Never {
  /// A signal whose every iteration runs the non-throwing `body` in a task of its own.
  ///
  /// ```swift
  /// let countdown = Signal<Int, Never> { emitter in
  ///   for i in (1...3).reversed() { await emitter.send(i) }
  /// }
  /// for await i in countdown { print(i) }   // 3, 2, 1
  /// ```
  @inlinable public init(_ body: @escaping @Sendable (Emitter) async -> Void) {
    self.init(cold: .body(body))
  }
}

extension Signal where Failure == any Error {
  /// A signal whose every iteration runs the throwing `body` in a task of its own.
  ///
  /// ```swift
  /// let user = Signal<User, any Error> { emitter in
  ///   await emitter.send(try await api.fetchUser())
  /// }
  /// ```
  @inlinable public init(_ body: @escaping @Sendable (Emitter) async throws -> Void) {
    self.init(cold: .body(body))
  }
}
