/// How a cold ``Signal`` runs: each run builds its push graph anew (ReactiveSwift's `SignalProducer`, which lifts
/// `Signal`'s operators).
///
/// A run happens in one of two places. A `for await` loop over the signal asks ``makeRun()`` for a run of its own;
/// an operator that uses the signal as one of its inputs (a `combineLatest` input, a `flatMap` inner, a `share()`
/// connection) asks ``node(_:)`` for a node of its graph instead, and observes it.
@usableFromInline package protocol ColdRecipe<Element, Failure>: Sendable {
  associatedtype Element: Sendable
  associatedtype Failure: Error

  /// One run for one consumer that iterates the signal.
  func makeRun() -> SignalRun<Element, Failure>

  /// One run as a node of a push graph: its sources start producing when the node gets its first observer, and
  /// stop when its last one leaves. Nothing runs before.
  func node(_ start: ColdStart) -> SubjectStorage<Element, Failure>
}

extension ColdRecipe {
  /// By default a consumer runs the graph and takes what its last node produces.
  @usableFromInline package func makeRun() -> SignalRun<Element, Failure> { NodeRun(self) }
}

/// How one run of a cold signal is started: whom its producers wait for, and whether its consumer drives its
/// source.
@usableFromInline package struct ColdStart: Sendable {
  /// The channel of the run's one consumer (a `for await` loop): a body's `await emitter.send(_:)` waits while
  /// that consumer is behind. `nil` in a graph that a hot node started (`share()`, a hot operator's cold input):
  /// hot nodes never slow their sources.
  @usableFromInline package let pacer: (any ColdPacer)?
  /// Where the run's one foreign source leaves its puller for the consumer, when only operators that produce
  /// synchronously stand between them (`map`, `scan`, `removeDuplicates`, …): the consumer's own `next()` then
  /// pulls the source and pushes the element through the graph, with no task. `nil` when the source must pump
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

/// What a foreign source hands to the consumer that drives it: one pull reads one element of the source and
/// sends it (or the source's end) into the source's node, where the graph evaluates it at once.
@usableFromInline package protocol ColdPuller: AnyObject {
  func pull(isolation actor: isolated (any Actor)?) async
}

/// The slot through which a run's one foreign source gives its puller to the consumer (see
/// ``ColdStart/drive``). Filled and emptied by the thread that builds the run, never contended.
@usableFromInline package final class ColdDrive: Sendable {
  private let puller = Locked<Handoff<any ColdPuller>?>(nil)

  @usableFromInline package init() {}

  /// Leaves `puller` for the consumer.
  @usableFromInline package func offer(_ puller: sending any ColdPuller) {
    let handoff = Handoff(puller)
    self.puller.withLock { $0 = handoff }
  }

  /// The puller a source left, once.
  @usableFromInline package func take() -> sending (any ColdPuller)? {
    puller.withLock { $0.take() }?.take()
  }
}

/// The run of a consumer that iterates a cold graph: it builds the graph when the consumer makes its iterator (a
/// foreign source makes its own iterator then, so a subject it wraps registers the consumer at once), and observes
/// the graph's last node into a channel of its own at the first `next()`, which starts the graph's work. When the
/// graph's one foreign source left a puller, `next()` drives it: it pulls the source whenever the channel is empty,
/// so the chain runs in the consumer's own task.
package final class NodeRun<Recipe: ColdRecipe>: SignalRun<Recipe.Element, Recipe.Failure> {
  package typealias Element = Recipe.Element
  package typealias Failure = Recipe.Failure

  private let channel = SignalChannel<Element, Failure>()
  private var cursor: ConsumerCursor<SignalChannel<Element, Failure>>
  /// The graph's last node until the first `next()` observes it.
  private var node: SubjectStorage<Element, Failure>?
  private var puller: (any ColdPuller)?

  package init(_ recipe: Recipe) {
    self.cursor = ConsumerCursor(host: channel, id: 0)
    let drive = ColdDrive()
    self.node = recipe.node(ColdStart(pacer: channel, drive: drive))
    super.init()
    puller = drive.take()
  }

  override package func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    if let node {
      self.node = nil
      // A consumer cancelled before it asked for anything gets no run: starting one would do cold work for nobody.
      if Task.isCancelled {
        channel.removeConsumer(0)
        return nil
      }
      let channel = self.channel
      let sink = node.addSink { value in
        channel.send(value)
      } onEnd: { termination in
        channel.terminate(termination)
      }
      channel.onStop { node.removeSink(sink) }
    }
    guard let puller else { return try await cursor.next(isolation: actor) }
    while true {
      switch try cursor.poll() {
      case .element(let element): return element
      case .ended: return nil
      case .empty:
        await puller.pull(isolation: actor)
        if Task.isCancelled {
          channel.removeConsumer(0)
          return nil
        }
      }
    }
  }

  deinit { channel.removeConsumer(0) }
}

/// A foreign source read by the consumer that drives it (see ``ColdStart/drive``).
@usableFromInline package final class SourcePuller<Base: AsyncIteratorProtocol>: ColdPuller
where Base.Element: Sendable {
  private var base: Base
  private let node: SubjectStorage<Base.Element, Base.Failure>

  @usableFromInline package init(_ base: Base, into node: SubjectStorage<Base.Element, Base.Failure>) {
    self.base = base
    self.node = node
  }

  @usableFromInline package func pull(isolation actor: isolated (any Actor)?) async {
    do throws(Base.Failure) {
      if let element = try await base.next(isolation: actor) {
        node.send(element)
      } else if !Task.isCancelled {
        node.terminate(.finished)
      }
    } catch {
      // A source that ends because its consumer was cancelled has not ended: the consumer stopped (its run reports
      // that, and its operators see a stop, not an end).
      if !Task.isCancelled { node.terminate(.failed(error)) }
    }
  }
}

// MARK: Operators on cold signals

/// A cold signal with a hot operator applied to each run's graph: what every unary operator of a cold signal is.
@usableFromInline
package struct LiftedRecipe<Input: Sendable, InputFailure: Error, Element: Sendable, Failure: Error>:
  ColdRecipe
{
  @usableFromInline let upstream: Signal<Input, InputFailure>
  /// Whether the operator produces only inside its input's deliveries (no task, no timer, no other input), so
  /// that a consumer may drive the source through it.
  @usableFromInline let synchronous: Bool
  @usableFromInline let apply: @Sendable (HotSignal<Input, InputFailure>) -> HotSignal<Element, Failure>
  /// What the upstream's pump is called, when it needs one (the operator's name).
  @usableFromInline let inputName: String?

  @inlinable init(
    _ upstream: Signal<Input, InputFailure>, synchronous: Bool, inputName: String?,
    apply: @escaping @Sendable (HotSignal<Input, InputFailure>) -> HotSignal<Element, Failure>
  ) {
    self.upstream = upstream
    self.synchronous = synchronous
    self.inputName = inputName
    self.apply = apply
  }

  @inlinable package func node(_ start: ColdStart) -> SubjectStorage<Element, Failure> {
    let upstreamStart = synchronous ? start : inputName.map { start.input(of: $0) } ?? start.undriven
    return apply(HotSignal(node: upstream.node(upstreamStart))).node
  }
}

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
    return Signal<T, TF>(cold: LiftedRecipe(self, synchronous: synchronous, inputName: name, apply: apply))
  }
}

/// A cold signal's elements through a synchronous transform that may drop them (`map`, `filter` and `compactMap`
/// chained): the consumer of a run applies it as it takes each element, and a graph applies it in one node.
@usableFromInline package struct TransformedRecipe<Input: Sendable, Element: Sendable, Failure: Error>: ColdRecipe {
  @usableFromInline let upstream: Signal<Input, Failure>
  @usableFromInline let transform: @Sendable (Input) -> Element?

  @inlinable init(_ upstream: Signal<Input, Failure>, transform: @escaping @Sendable (Input) -> Element?) {
    self.upstream = upstream
    self.transform = transform
  }

  @inlinable package func makeRun() -> SignalRun<Element, Failure> {
    TransformRun(upstream.makeAsyncIterator().run, transform: transform)
  }

  @inlinable package func node(_ start: ColdStart) -> SubjectStorage<Element, Failure> {
    HotSignal(node: upstream.node(start)).compactMap(transform).node
  }
}

/// A transform chained onto a cold signal made by one already: one transform, one node.
@usableFromInline package protocol TransformedSignal<Element, Failure>: Sendable {
  associatedtype Element: Sendable
  associatedtype Failure: Error
  func appending<T: Sendable>(_ next: @escaping @Sendable (Element) -> T?) -> Signal<T, Failure>
}

extension TransformedRecipe: TransformedSignal {
  @inlinable package func appending<T: Sendable>(_ next: @escaping @Sendable (Element) -> T?) -> Signal<T, Failure> {
    let transform = self.transform
    return Signal<T, Failure>(
      cold: TransformedRecipe<Input, T, Failure>(upstream) { input in
        guard let element = transform(input) else { return nil }
        return next(element)
      })
  }
}

/// A consumer's run of a ``TransformedRecipe``: the upstream's run, each element transformed as it is taken.
@usableFromInline
package final class TransformRun<Input: Sendable, Element: Sendable, Failure: Error>:
  SignalRun<Element, Failure>
{
  @usableFromInline let upstream: SignalRun<Input, Failure>
  @usableFromInline let transform: @Sendable (Input) -> Element?

  @inlinable init(_ upstream: SignalRun<Input, Failure>, transform: @escaping @Sendable (Input) -> Element?) {
    self.upstream = upstream
    self.transform = transform
  }

  override package func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    while let input = try await upstream.next(isolation: actor) {
      if let element = transform(input) { return element }
    }
    return nil
  }
}

extension Signal {
  /// `transform` applied to every element: in place on a hot signal (a hot operator), chained onto a cold one.
  @inlinable package func transformed<T: Sendable>(
    _ transform: @escaping @Sendable (Element) -> T?,
    hot: (HotSignal<Element, Failure>) -> HotSignal<T, Failure>
  ) -> Signal<T, Failure> {
    switch core {
    case .hot(let node):
      return Signal<T, Failure>(hot: hot(HotSignal(node: node)).node)
    case .cold(let recipe):
      if let transformed = recipe as? any TransformedSignal<Element, Failure> {
        return transformed.appending(transform)
      }
      return Signal<T, Failure>(cold: TransformedRecipe(self, transform: transform))
    case .immediate:
      return Signal<T, Failure>(cold: TransformedRecipe(self, transform: transform))
    }
  }
}

// MARK: Signals made by an `async` closure

/// A cold signal that each run makes by awaiting `make`, then runs: what an `async` transform or handler (a
/// `catch` handler, a `flatMap` transform) gives an operator that runs it inside a `send`.
@usableFromInline package struct AwaitingRecipe<Element: Sendable, Failure: Error>: ColdRecipe {
  @usableFromInline let make: @Sendable () async -> Signal<Element, Failure>

  @inlinable init(_ make: @escaping @Sendable () async -> Signal<Element, Failure>) {
    self.make = make
  }

  @usableFromInline package func makeRun() -> SignalRun<Element, Failure> { AwaitingRun(make) }

  @usableFromInline package func node(_ start: ColdStart) -> SubjectStorage<Element, Failure> {
    let make = self.make
    return .source(start) { outlet in
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
  }
}

/// Whether an ``AwaitingRecipe``'s node stopped, and how to stop observing the signal it made.
@usableFromInline struct AwaitingLink: Sendable {
  var stopped = false
  var detach: (@Sendable () -> Void)?

  @inlinable init() {}
}

/// A consumer's run of an ``AwaitingRecipe``: awaits the signal, then runs it.
final class AwaitingRun<Element: Sendable, Failure: Error>: SignalRun<Element, Failure> {
  private var make: (@Sendable () async -> Signal<Element, Failure>)?
  private var run: SignalRun<Element, Failure>?

  init(_ make: @escaping @Sendable () async -> Signal<Element, Failure>) {
    self.make = make
  }

  override func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    if let make {
      self.make = nil
      run = await make().makeAsyncIterator().run
    }
    return try await run?.next(isolation: actor)
  }
}

extension Signal {
  /// A cold signal that each run makes by awaiting `make`, then runs.
  @inlinable package static func awaiting(_ make: @escaping @Sendable () async -> Signal) -> Signal {
    Signal(cold: AwaitingRecipe(make))
  }
}

// MARK: Signals whose runs restart their upstream

/// A cold signal whose runs are consumer runs that `make` builds (a retry: each failure starts its upstream again).
/// A `for await` loop drives the run itself; in a graph, one task reads a run into the graph.
@usableFromInline package struct RunRecipe<Element: Sendable, Failure: Error>: ColdRecipe {
  @usableFromInline let make: @Sendable () -> SignalRun<Element, Failure>

  @inlinable init(_ make: @escaping @Sendable () -> SignalRun<Element, Failure>) {
    self.make = make
  }

  @inlinable package func makeRun() -> SignalRun<Element, Failure> { make() }

  @usableFromInline package func node(_ start: ColdStart) -> SubjectStorage<Element, Failure> {
    let make = self.make
    return .source(start) { outlet in
      let task = Task(named: start.pumpName) {
        let run = make()
        do throws(Failure) {
          while let element = try await run.next(isolation: nil) {
            outlet.node.send(element)
            if let pacer = outlet.pacer, pacer.isFull { await pacer.waitForRoom() }
          }
          outlet.node.terminate(.finished)
        } catch {
          outlet.node.terminate(.failed(error))
        }
      }
      return { task.cancel() }
    }
  }
}
