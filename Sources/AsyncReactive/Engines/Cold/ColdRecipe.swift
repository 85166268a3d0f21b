/// How a cold ``Signal`` runs: each run builds its push graph anew (ReactiveSwift's `SignalProducer`, which lifts
/// `Signal`'s operators).
///
/// A run happens in one of two places. A `for await` loop over the signal reads a run of its own (``pull()``); an
/// operator that uses the signal as one of its inputs (a `combineLatest` input, a `flatMap` inner, a `share()`
/// connection) asks ``makeNode`` for a node of its graph instead, and observes it.
///
/// Both are closures made where the signal was made, by inlinable code: what they run, per run and per element, is
/// specialised for the signal's types (a recipe reached through an existential would run the library's generic
/// code, which looks types up at run time on every call).
@usableFromInline package struct ColdRecipe<Element: Sendable, Failure: Error>: Sendable {
  /// How a run reaches the operators that use it.
  @usableFromInline enum Kind: Sendable {
    /// A graph: one run is a node built for it (an operator applied to a cold signal, a body's emitter, a foreign
    /// sequence's pump).
    case graph(@Sendable (ColdStart) -> Node<Element, Failure>)
    /// A source that delivers to one observer directly, one event at a time, nothing after its end, and nothing
    /// that starts after its stop returns (a future's operation, a timer): an operator that observes it needs no
    /// node in between. A graph that needs a node gets one that the source feeds.
    case source(ColdObserve<Element, Failure>)
  }

  /// How a consumer that iterates a run reads it.
  @usableFromInline enum Reader: Sendable {
    /// It observes a node of the run (see ``observing(_:)``).
    case observing
    /// It reads the run one element at a time, without suspending (a synchronous sequence, and the transforms over
    /// one).
    case synchronous(@Sendable () -> ColdSyncNext<Element, Failure>)
    /// It reads the run with a pull of the recipe's; `drivable` when that pull needs nothing but the consumer's task
    /// (a foreign sequence's iterator, and the transforms over one), so that a graph the consumer drives (see
    /// ``ColdStart/drive``) is fed by it instead of by a pump.
    case asynchronous(@Sendable () -> ColdPull<Element, Failure>, drivable: Bool)
  }

  @usableFromInline let kind: Kind
  @usableFromInline let reader: Reader

  /// A recipe whose runs are graphs: `makeNode` builds one run's last node; its sources start producing when the node
  /// gets its first observer, and stop when its last one leaves. Nothing runs before. A consumer reads a run with
  /// `makePull`'s pull when there is one, and observes a node otherwise.
  @inlinable package init(
    node makeNode: @escaping @Sendable (ColdStart) -> Node<Element, Failure>,
    pull makePull: (@Sendable () -> ColdPull<Element, Failure>)? = nil,
    drivable: Bool = false
  ) {
    self.kind = .graph(makeNode)
    self.reader = makePull.map { .asynchronous($0, drivable: drivable) } ?? .observing
  }

  /// A recipe whose runs are graphs (see ``init(node:pull:drivable:)``) and that a consumer reads one element at a
  /// time, without suspending.
  @inlinable package init(
    node makeNode: @escaping @Sendable (ColdStart) -> Node<Element, Failure>,
    synchronousNext makeNext: @escaping @Sendable () -> ColdSyncNext<Element, Failure>
  ) {
    self.kind = .graph(makeNode)
    self.reader = .synchronous(makeNext)
  }

  /// A recipe whose runs are a source that delivers to its one observer directly (see ``Kind/source(_:)``).
  @inlinable package init(
    observe: @escaping ColdObserve<Element, Failure>,
    pull makePull: @escaping @Sendable () -> ColdPull<Element, Failure>
  ) {
    self.kind = .source(observe)
    self.reader = .asynchronous(makePull, drivable: false)
  }

  /// What makes a run's synchronous reader, when a consumer reads a run without suspending.
  @inlinable package var makeSynchronousNext: (@Sendable () -> ColdSyncNext<Element, Failure>)? {
    if case .synchronous(let make) = reader { return make }
    return nil
  }

  /// Whether a run can be read by its consumer's task alone (see ``Reader``).
  @inlinable package var drivable: Bool {
    switch reader {
    case .observing: return false
    case .synchronous: return true
    case .asynchronous(_, let drivable): return drivable
    }
  }

  /// One run as a node of a push graph: its sources start producing when the node gets its first observer, and stop
  /// when its last one leaves.
  @inlinable package func makeNode(_ start: ColdStart) -> Node<Element, Failure> {
    if let drive = start.drive {
      switch reader {
      case .synchronous(let makeNext): return Self.driven(synchronouslyBy: makeNext(), through: drive)
      case .asynchronous(let makePull, true): return Self.driven(by: makePull(), through: drive)
      default: break
      }
    }
    switch kind {
    case .graph(let makeNode):
      return makeNode(start)
    case .source(let observe):
      return .source(start) { outlet in
        observe(start, { outlet.node.send($0) }, { outlet.node.terminate($0) })
      }
    }
  }

  /// Starts one run for one observer: `onValue` and `onEnd` are called one event at a time, nothing after the end;
  /// the returned closure stops the run (an event being delivered on another thread may finish, and the observer
  /// ignores what comes after it stopped). A source delivers directly; a graph through its last node.
  @inlinable package func observe(
    _ start: ColdStart,
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Termination<Failure>) -> Void
  ) -> @Sendable () -> Void {
    observeRun(start, onValue: onValue, onEnd: onEnd).stop
  }

  /// ``observe(_:onValue:onEnd:)``, which also gives the run's last node (`nil` for a source observed directly), for
  /// a graph dump; `owner` is the node that observes it, which the dump names as its observer.
  @inlinable package func observeRun(
    _ start: ColdStart, owner: (any AnyObject & Sendable)? = nil,
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Termination<Failure>) -> Void
  ) -> (stop: @Sendable () -> Void, node: (any AnyObject & Sendable)?) {
    switch kind {
    case .source(let observe):
      return (observe(start, onValue, onEnd), nil)
    case .graph(let makeNode):
      let node = makeNode(start)
      let sink = node.addSink(owner: owner, onValue: onValue, onEnd: onEnd)
      return ({ node.removeSink(sink) }, node)
    }
  }

  /// A node that the consumer driving the graph fills: each time it finds its channel empty it reads the run once with
  /// `pull` and sends what it read into the node, where the graph evaluates it at once.
  @inlinable static func driven(
    by pull: sending @escaping ColdPull<Element, Failure>, through drive: ColdDrive
  ) -> Node<Element, Failure> {
    let node = Node<Element, Failure>(replay: .none, origin: NodeOrigin(.drivenSource))
    let batch = ClosureState<[Element]>([])
    drive.offer(asynchronous: {
      do {
        try await pull(&batch.value)
        // A source that ends because its consumer was cancelled has not ended: the consumer stopped (its run reports
        // that, and its operators see a stop, not an end).
        if batch.value.isEmpty {
          if !Task.isCancelled { node.terminate(.finished) }
          return
        }
        for element in batch.value { node.send(element) }
        batch.value.removeAll(keepingCapacity: true)
      } catch {
        if !Task.isCancelled { node.terminate(.failed(rethrow(error, as: Failure.self))) }
      }
    })
    return node
  }

  /// ``driven(by:through:)`` for a run read without suspending: each read sends one element, in one synchronous call.
  @inlinable static func driven(
    synchronouslyBy next: sending @escaping ColdSyncNext<Element, Failure>, through drive: ColdDrive
  ) -> Node<Element, Failure> {
    let node = Node<Element, Failure>(replay: .none, origin: NodeOrigin(.drivenSource))
    drive.offer(synchronous: {
      do throws(Failure) {
        if let element = try next() { node.send(element) } else { node.terminate(.finished) }
      } catch {
        node.terminate(.failed(error))
      }
    })
    return node
  }

  /// A fresh run for a consumer that iterates the signal.
  @inlinable package func pull() -> ColdPull<Element, Failure> {
    switch reader {
    case .observing:
      return Self.observing(makeNode)
    case .synchronous(let makeNext):
      let next = makeNext()
      return { batch in
        if let element = try next() { batch.append(element) }
      }
    case .asynchronous(let makePull, _):
      return makePull()
    }
  }

  /// A run that builds the graph now (a foreign source makes its own iterator then, so that a subject it wraps
  /// registers the consumer at once) and observes the graph's last node into a channel of its own from the first
  /// pull on, which starts the graph's work. When the graph's one foreign source left a driver, the consumer drives
  /// it: each pull that finds the channel empty reads the source once, so the chain runs in the consumer's own task.
  @inlinable package static func observing(
    _ makeNode: (ColdStart) -> Node<Element, Failure>
  ) -> ColdPull<Element, Failure> {
    let observer = NodeObserver<Element, Failure>()
    let drive = ColdDrive()
    observer.node = ColdRunPreparation.building { makeNode(ColdStart(pacer: observer.channel, drive: drive)) }
    observer.driver = drive.take()
    return observer.pull(into:)
  }
}

/// A source's run for one observer (see ``ColdRecipe/Kind/source(_:)``): starts it with the observer's closures and
/// returns what stops it.
@usableFromInline package typealias ColdObserve<Element, Failure: Error> =
  @Sendable (
    ColdStart, _ onValue: @escaping @Sendable (Element) -> Void,
    _ onEnd: @escaping @Sendable (Termination<Failure>) -> Void
  ) -> @Sendable () -> Void

/// How one run of a cold signal is started: whom its producers wait for, and whether its consumer drives its
/// source.
@usableFromInline package struct ColdStart: Sendable {
  /// The channel of the run's one consumer (a `for await` loop): a body's `await emitter.send(_:)` waits while
  /// that consumer is behind. `nil` in a graph that a hot node started (`share()`, a hot operator's cold input):
  /// hot nodes never slow their sources.
  @usableFromInline package let pacer: (any ColdPacer)?
  /// Where the run's one foreign source leaves its driver for the consumer, when only operators that produce
  /// synchronously stand between them (`map`, `scan`, `removeDuplicates`, …): the consumer's own `next()` then
  /// reads the source and pushes the element through the graph, with no task. `nil` when the source must pump
  /// itself (an operator with several inputs, timers or inner sequences stands between them).
  @usableFromInline package let drive: ColdDrive?

  /// What the task that pumps a foreign source is called: which operator's input it serves.
  @usableFromInline package let pumpName: String

  @inlinable package init(pacer: (any ColdPacer)?, drive: ColdDrive?, pumpName: String = "Signal source") {
    self.pacer = pacer
    self.drive = drive
    self.pumpName = pumpName
  }

  /// How a hot node starts a cold run: no pacing, no driving consumer.
  @inlinable package static var shared: ColdStart { ColdStart(pacer: nil, drive: nil) }

  /// This start for an operator's input that must pump itself.
  @inlinable package var undriven: ColdStart { ColdStart(pacer: pacer, drive: nil, pumpName: pumpName) }

  /// This start for an input of the operator `name` that must pump itself: its pump is called `name`.
  @inlinable package func input(of name: String) -> ColdStart { ColdStart(pacer: pacer, drive: nil, pumpName: name) }
}

/// A run's next element, read without suspending (a synchronous sequence, and the transforms over one); `nil` once the
/// run ended. It throws the run's failure once.
@usableFromInline package typealias ColdSyncNext<Element, Failure: Error> = () throws(Failure) -> Element?

/// What a source hands to the consumer that drives it: one call reads the source once and sends what it read (or
/// the source's end) into the source's node, where the graph evaluates it at once.
@usableFromInline package enum ColdDriver {
  /// A read that never suspends.
  case synchronous(() -> Void)
  /// A read that may suspend, on the consumer's actor.
  case asynchronous(ColdAsyncRead)
}

/// A driver's read that may suspend (see ``ColdDriver``); it runs on the consumer's actor.
@usableFromInline package typealias ColdAsyncRead = nonisolated(nonsending) () async -> Void

/// The slot through which a run's one source gives its driver to the consumer (see ``ColdStart/drive``). Filled and
/// emptied by the thread that builds the run, never contended.
@usableFromInline package final class ColdDrive: Sendable {
  @usableFromInline let driver = Locked<Handoff<ColdDriver>?>(nil)
  @inlinable package init() {}

  /// Leaves a driver that may suspend for the consumer.
  @inlinable package func offer(asynchronous driver: sending @escaping ColdAsyncRead) {
    let handoff = Handoff(ColdDriver.asynchronous(driver))
    self.driver.withLock { $0 = handoff }
  }

  /// Leaves a driver that never suspends for the consumer.
  @inlinable package func offer(synchronous driver: sending @escaping () -> Void) {
    let handoff = Handoff(ColdDriver.synchronous(driver))
    self.driver.withLock { $0 = handoff }
  }

  /// The driver a source left, once.
  @inlinable package func take() -> sending ColdDriver? {
    driver.withLock { $0.take() }?.take()
  }
}

/// The consumer's side of a run that observes its graph's last node (``ColdRecipe/observing(_:)``): the channel
/// the node sends into, the cursor over it, and the source's driver if the consumer drives it.
///
/// Its state is not checked for exclusive access at run time (`@exclusivity(unchecked)`): only the pull that owns it
/// touches it, called by one caller at a time (see ``ClosureState``).
@usableFromInline package final class NodeObserver<Element: Sendable, Failure: Error> {
  @usableFromInline let channel = SignalChannel<Element, Failure>()
  @exclusivity(unchecked) @usableFromInline var cursor: ConsumerCursor<SignalChannel<Element, Failure>>
  /// The graph's last node until the first pull observes it.
  @exclusivity(unchecked) @usableFromInline var node: Node<Element, Failure>?
  @exclusivity(unchecked) @usableFromInline var driver: ColdDriver?

  @inlinable init() {
    cursor = ConsumerCursor(host: channel, id: 0)
  }

  /// See ``ColdPull``: what the channel holds, all of it; when it holds nothing, the driven source is read (one
  /// element per read) until something arrives, or the consumer waits for the graph.
  @inlinable nonisolated(nonsending) func pull(into batch: inout [Element]) async throws {
    if let node {
      self.node = nil
      // A consumer cancelled before it asked for anything gets no run: starting one would do cold work for nobody.
      if Task.isCancelled {
        channel.removeConsumer(0)
        return
      }
      let channel = self.channel
      let sink = node.addSink(owner: channel) { value in
        channel.send(value)
      } onEnd: { termination in
        channel.terminate(termination)
      }
      channel.onStop { node.removeSink(sink) }
    }
    guard let driver else {
      guard let element = try await cursor.next(isolation: #isolation) else { return }
      batch.append(element)
      cursor.takeBuffered(into: &batch)
      return
    }
    while true {
      switch try cursor.poll() {
      case .element(let element):
        batch.append(element)
        cursor.takeBuffered(into: &batch)
        return
      case .ended:
        return
      case .empty:
        switch driver {
        case .synchronous(let read): read()
        case .asynchronous(let read): await read()
        }
        if Task.isCancelled {
          channel.removeConsumer(0)
          return
        }
      }
    }
  }

  deinit { channel.removeConsumer(0) }
}

extension SignalChannel: DumpableConsumer {
  /// `iterator, 2 queued`: the consumer that iterates a cold run through this channel (a `for await` loop, a
  /// recording).
  package func consumerDescription() -> String {
    let queued = state.withLock { state in state.queue.map { $0.pending.count - $0.head } ?? 0 }
    return "iterator, \(queued) queued"
  }
}

// MARK: Operators on cold signals

extension Signal {
  /// Applies a hot operator: to a hot signal once, now (the result is hot and shared); to a cold one in each run's
  /// graph (the result is cold). Every operator of a signal is one of these: each operator has one implementation,
  /// the one that runs inside a subject's `send`.
  ///
  /// - Parameters:
  ///   - synchronous: the operator produces only inside its input's deliveries (`map`, `scan`, …), so that a
  ///     consumer may drive the source through it; `false` for one with timers, tasks or inner sequences.
  ///   - name: what the upstream's pump task is called when it needs one ("debounce upstream").
  ///   - apply: the hot operator.
  @inlinable package func lift<T: Sendable, TF: Error>(
    synchronous: Bool,
    input name: String? = nil,
    _ apply: @escaping @Sendable (HotSignal<Element, Failure>) -> HotSignal<T, TF>
  ) -> Signal<T, TF> {
    if case .hot(let node) = core { return Signal<T, TF>(hot: apply(HotSignal(node: node)).node) }
    let upstream = self
    return Signal<T, TF>(
      cold: ColdRecipe { start in
        let upstreamStart = synchronous ? start : name.map { start.input(of: $0) } ?? start.undriven
        return apply(HotSignal(node: upstream.node(upstreamStart))).node
      })
  }
}

// MARK: Signals made by an `async` closure

extension Signal {
  /// A cold signal that each run makes by awaiting `make`, then runs: what an `async` transform or handler (a
  /// `catch` handler, a `flatMap` transform) gives an operator that runs it inside a `send`.
  @inlinable package static func awaiting(_ make: @escaping @Sendable () async -> Signal) -> Signal {
    Signal(
      cold: ColdRecipe { start in
        .source(start) { outlet in
          let link = Locked(AwaitingLink())
          let task = Task(immediateNamed: "async transform") {
            let upstream = await make().node(start.undriven)
            let sink = upstream.addSink {
              outlet.node.send($0)
            } onEnd: {
              outlet.node.terminate($0)
            }
            let detach: @Sendable () -> Void = { upstream.removeSink(sink) }
            let kept = link.withLock { link -> Bool in
              guard !link.stopped else { return false }
              link.detach = detach
              return true
            }
            if !kept { detach() }
          }
          return {
            task.cancel()
            link.withLock { link -> (@Sendable () -> Void)? in
              link.stopped = true
              return link.detach.take()
            }?()
          }
        }
      } pull: {
        let made = ClosureState<Signal.Iterator?>(nil)
        return { batch in
          if made.value == nil { made.value = await make().makeAsyncIterator() }
          try await made.value!.pull(into: &batch)
        }
      })
  }
}

/// Whether an awaiting recipe's node stopped, and how to stop observing the signal it made.
@usableFromInline struct AwaitingLink: Sendable {
  @usableFromInline var stopped = false
  @usableFromInline var detach: (@Sendable () -> Void)?

  @inlinable init() {}
}

// MARK: Signals whose runs restart their upstream

extension Signal {
  /// A cold signal whose runs are consumer runs that `make` builds (a retry: each failure starts its upstream again).
  /// A `for await` loop drives the run itself; in a graph, one task reads a run into the graph.
  @inlinable package static func running(_ make: @escaping @Sendable () -> ColdPull<Element, Failure>) -> Signal {
    Signal(
      cold: ColdRecipe(
        node: { start in
          // The run is made with the node (its first upstream registers its consumer now, as a consumer's iterator
          // does); the task reads it once the node is observed.
          let firstRun = Handoff(make())
          return .source(start, origin: NodeOrigin(.pump)) { outlet in
            let task = Task(pumpNamed: start.pumpName) {
              let pull = firstRun.take() ?? make()
              var batch: [Element] = []
              do {
                while true {
                  try await pull(&batch)
                  if batch.isEmpty { break }
                  for element in batch { outlet.node.send(element) }
                  batch.removeAll(keepingCapacity: true)
                  if let pacer = outlet.pacer, pacer.isFull { await pacer.waitForRoom() }
                }
                outlet.node.terminate(.finished)
              } catch {
                outlet.node.terminate(.failed(rethrow(error, as: Failure.self)))
              }
            }
            return { task.cancel() }
          }
        }, pull: make))
  }
}
