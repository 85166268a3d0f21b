import Synchronization

/// One connection of a hot node with several inputs (combineLatest, zip, merge, withLatestFrom): it takes the
/// inputs' events one at a time, in the order its lock admits them, runs the operator's pure rule on each (the
/// operator's ``NaryRule``), and hands what the rule produced to the node outside the lock, one
/// event at a time.
///
/// Inputs may send from different threads at once, and an observer downstream may send to an input again while
/// an event is being delivered: the event is queued, and the thread already delivering delivers it next (the
/// sink outbox rule), so outputs leave in the order the rule produced them and nothing recurses.
///
/// `Output` is what the node holds: the rule's output as it is (combineLatest, zip, merge) or made by the user's
/// closure (withLatestFrom's `combine`), which runs on the delivering thread, outside the lock.
@usableFromInline final class NaryConnection<Rule: NaryRule, Output: Sendable, Failure: Error>: Sendable {
  @usableFromInline typealias Step = Rule.Output

  /// What the node is given.
  @usableFromInline enum Delivery: Sendable {
    /// A value the rule produced on an event of input `input`.
    case value(Step, input: Int)
    case end(Termination<Failure>)
    /// Input `input` ended: a node that replays each input's value forgets its value (see ``NaryConnection/replaysInput``).
    case forget(input: Int)
    /// The rule let go of input `input`: it is detached now (see ``NaryStep/release(input:)``).
    case release(input: Int)
    /// The rule let go of every input but `keep` (see ``NaryStep/emitReleasingOthers(_:)``).
    case releaseOthers(keep: Int)
    /// The node's current value becomes what it holds for this, unsent (see ``NaryStep/replaceCurrent(_:)``).
    case current(Step)
  }

  @usableFromInline struct State: Sendable {
    @usableFromInline var rule: Rule
    /// How many inputs finished normally.
    @usableFromInline var finished = 0
    /// The result ended: later input events are ignored.
    @usableFromInline var ended = false
    /// What waits for the delivering thread (the one with ``NaryConnection/turn``), in the order the rule produced it.
    @usableFromInline var outbox: [Delivery] = []
    /// The runs of cold inputs this connection observes, by input, for a graph dump.
    @usableFromInline var runs: [any AnyObject & Sendable] = []

    @inlinable init(rule: Rule) {
      self.rule = rule
    }

    /// Turns a rule's step into deliveries. When nobody is delivering, returns them for the caller to deliver at
    /// once (the caller took `turn`); otherwise queues them for the thread that has it.
    @inlinable mutating func admit(
      _ step: NaryStep<Step>, input: Int, turn: borrowing Atomic<Int>
    ) -> (Delivery?, Delivery?) {
      let first: Delivery?
      var second: Delivery?
      switch step {
      case .none: return (nil, nil)
      case .emit(let output): first = .value(output, input: input)
      case .emitThenFinish(let output):
        first = .value(output, input: input)
        second = .end(.finished)
        ended = true
      case .finish:
        first = .end(.finished)
        ended = true
      case .release(let released): first = .release(input: released)
      case .emitReleasingOthers(let output):
        first = .value(output, input: input)
        second = .releaseOthers(keep: input)
      case .replaceCurrent(let output): first = .current(output)
      }
      return admit(first, second, turn: turn)
    }

    @inlinable mutating func admit(
      _ first: Delivery?, _ second: Delivery?, turn: borrowing Atomic<Int>
    ) -> (Delivery?, Delivery?) {
      if DeliveryTurn.claim(turn) { return (first, second) }
      if let first { outbox.append(first) }
      if let second { outbox.append(second) }
      return (nil, nil)
    }
  }

  @usableFromInline let state: Locked<State>

  /// How to stop observing each input: apart from ``State``, which every event goes through, as only a released
  /// input and the connection's end use it.
  @usableFromInline struct Detaches: Sendable {
    /// Each input's detach, once attached; an entry is taken when it is used (a released input, then the
    /// connection's end), so that nothing detaches twice.
    @usableFromInline var byInput: [(@Sendable () -> Void)?] = []
    /// Inputs the rule released while they were being attached, before their detach was known.
    @usableFromInline var releasedEarly: [Int] = []

    @inlinable init() {}
  }

  @usableFromInline let detaches = Locked(Detaches())
  /// Who delivers to the node now; see ``DeliveryTurn``.
  @usableFromInline let turn = Atomic<Int>(DeliveryTurn.idle)
  /// The node the outputs go to; held while connected (the inputs' sinks hold this connection).
  @usableFromInline let node: Node<Output, Failure>
  @usableFromInline let inputCount: Int
  /// Makes what the node holds from the rule's output; not called when ``outputIsStep``.
  @usableFromInline let output: @Sendable (Step) -> Output
  /// The node holds the rule's output itself (`Output == Step`: combineLatest, zip, merge): each event then makes
  /// no call for it. (A flag beside a non-optional closure rather than an optional closure: unwrapping the optional
  /// retained and released the closure's context on every event.)
  @usableFromInline let outputIsStep: Bool
  /// For a node that replays each input's latest value (a `merge` over current values,
  /// ``Node/Replay/eachInput(replays:)``), which inputs have a current value: each of their values goes to the node
  /// with the input it came from; empty for every other node.
  @usableFromInline let replaysInput: [Bool]

  /// `output` may be `nil` only when `Output == Step`.
  @inlinable init(
    rule: Rule, node: Node<Output, Failure>, inputCount: Int, output: (@Sendable (Step) -> Output)?
  ) {
    self.state = Locked(State(rule: rule))
    self.node = node
    self.inputCount = inputCount
    self.output = output ?? { $0 as! Output }
    self.outputIsStep = output == nil
    if case .eachInput(let replays) = node.replay { self.replaysInput = replays } else { self.replaysInput = [] }
  }

  /// Input `input` produced an element, which `apply` stores in the rule (under the lock: `apply` is the library's
  /// own code, never a user closure). Inlined into each input's observer, so that `apply` is not a call of its own.
  @inline(__always) @inlinable func receive(from input: Int, _ apply: (inout Rule) -> NaryStep<Step>) {
    let (first, second) = state.withLock { state -> (Delivery?, Delivery?) in
      guard !state.ended else { return (nil, nil) }
      let step = apply(&state.rule)
      if node.trace != nil, case .none = step {
        node.trace?.record(.described(state.rule.traceOfNothingSent(afterInput: input)))
      }
      return state.admit(step, input: input, turn: turn)
    }
    if first != nil || second != nil { deliver(first, second) }
  }

  /// Input `index` finished normally.
  @inlinable func finish(_ index: Int) {
    let (first, second) = state.withLock { state -> (Delivery?, Delivery?) in
      guard !state.ended else { return (nil, nil) }
      state.finished += 1
      var step = state.rule.inputFinished(index)
      if !replaysInput.isEmpty && replaysInput[index] && state.finished < inputCount {
        // Queued in order with the values: what the input gave before its end stays replayed until then.
        return state.admit(.forget(input: index), nil, turn: turn)
      }
      if state.finished == inputCount {
        // The last input: the result ends, after what the rule still emits (`sample(on:)`'s pending element when
        // the trigger finishes last).
        switch step {
        case .none: step = .finish
        case .emit(let output): step = .emitThenFinish(output)
        case .emitThenFinish, .finish: break
        case .release: step = .finish
        case .emitReleasingOthers(let output): step = .emitThenFinish(output)
        case .replaceCurrent: step = .finish
        }
      }
      return state.admit(step, input: index, turn: turn)
    }
    if first != nil || second != nil { deliver(first, second) }
  }

  /// An input failed: the result fails at once.
  @inlinable func fail(_ failure: Failure) {
    let (first, second) = state.withLock { state -> (Delivery?, Delivery?) in
      guard !state.ended else { return (nil, nil) }
      state.ended = true
      return state.admit(.end(.failed(failure)), nil, turn: turn)
    }
    if first != nil || second != nil { deliver(first, second) }
  }

  /// Delivers, then whatever was queued meanwhile, until nothing waits; only the delivering thread calls it.
  @inlinable func deliver(_ first: Delivery?, _ second: Delivery?) {
    if let first { perform(first) }
    if let second { perform(second) }
    if !DeliveryTurn.leave(turn) { deliverQueued() }
  }

  /// What was queued while this thread delivered, until nothing waits. Apart from ``deliver(_:_:)`` so that the
  /// common case (nothing queued) has no array to release.
  @inlinable func deliverQueued() {
    var batch: [Delivery] = []
    repeat {
      state.withLock { state in
        swap(&batch, &state.outbox)
        DeliveryTurn.resume(turn)
      }
      for delivery in batch { perform(delivery) }
      batch.removeAll(keepingCapacity: true)
    } while !DeliveryTurn.leave(turn)
  }

  @inlinable func perform(_ delivery: Delivery) {
    switch delivery {
    case .value(let step, let input):
      if !replaysInput.isEmpty && replaysInput[input] {
        // Only merge replays per input, and its node holds the rule's output as it is.
        node.send(step as! Output, fromInput: input)
      } else if outputIsStep {
        // Only when `Output == Step` (see ``node(_:replay:rule:)``): in specialised code this cast is no instruction.
        node.send(step as! Output)
      } else {
        node.send(output(step))
      }
    case .end(let termination): node.terminate(termination)
    case .forget(let input): node.forgetInput(input)
    case .release(let input): release(input)
    case .releaseOthers(let keep):
      for input in 0..<inputCount where input != keep { release(input) }
    case .current(let step):
      node.replaceCurrent(outputIsStep ? step as! Output : output(step))
    }
  }

  /// Stops observing input `index` now, or as soon as its attach returns when the rule let go of it during the
  /// attach (a trigger with a current value).
  @inlinable func release(_ index: Int) {
    let detach = detaches.withLock { detaches -> (@Sendable () -> Void)? in
      guard index < detaches.byInput.count else {
        detaches.releasedEarly.append(index)
        return nil
      }
      defer { detaches.byInput[index] = nil }
      return detaches.byInput[index]
    }
    detach?()
  }

  /// Keeps how to stop observing each input (by the input's position for the rule), once all are attached; detaches
  /// at once those the rule released during the attach.
  @inlinable func attached(_ attached: [@Sendable () -> Void]) {
    let early = detaches.withLock { detaches -> [@Sendable () -> Void] in
      detaches.byInput = attached
      defer { for index in detaches.releasedEarly { detaches.byInput[index] = nil } }
      return detaches.releasedEarly.map { attached[$0] }
    }
    for detach in early { detach() }
  }

  /// How to stop observing the inputs still observed, taken once: the connection's end.
  @inlinable func takeDetaches() -> [@Sendable () -> Void] {
    detaches.withLock { detaches in
      defer { detaches.byInput = [] }
      return detaches.byInput.compactMap { $0 }
    }
  }
}

extension NaryConnection {
  /// How one input of a node is observed during one connection: registers with the input and returns how to
  /// stop.
  @usableFromInline struct Attach: Sendable {
    @usableFromInline let connect: @Sendable (NaryConnection, _ index: Int) -> @Sendable () -> Void
    /// For a cold input: the same over a run of it built now (see ``PreparedRun``), for a node built for a
    /// consumer's run; `nil` for a hot one.
    @usableFromInline let prepare: (@Sendable (_ index: Int) -> Attach)?
    /// The input's position for the rule when it is not its place in the attach order (see
    /// ``attach(any:index:failure:store:)``).
    @usableFromInline let fixedIndex: Int?

    @inlinable init(
      fixedIndex: Int?,
      connect: @escaping @Sendable (NaryConnection, _ index: Int) -> @Sendable () -> Void,
      prepare: (@Sendable (_ index: Int) -> Attach)?
    ) {
      self.fixedIndex = fixedIndex
      self.connect = connect
      self.prepare = prepare
    }

    /// Observes the input for one connection of `inputs`, as input `index`; returns how to stop.
    @inlinable func callAsFunction(_ inputs: NaryConnection, _ index: Int) -> @Sendable () -> Void {
      connect(inputs, index)
    }
  }

  /// Observes `input` for the rule: `store` puts an element in the rule (a tuple slot, a zip buffer) and
  /// returns the rule's step; the input's failure becomes the node's through `failure`.
  ///
  /// `index` fixes the input's position for the rule when inputs are attached in another order (withLatestFrom
  /// observes its other input before its base, so that the base's first element finds the other's value).
  @inlinable static func attach<Input: HotSequence>(
    _ input: Input,
    index fixedIndex: Int? = nil,
    failure: @escaping @Sendable (Input.Failure) -> Failure,
    store: @escaping @Sendable (inout Rule, Input.Element) -> NaryStep<Step>
  ) -> Attach {
    attach(node: input.hotSignal.node, index: fixedIndex, failure: failure, store: store)
  }

  /// Observes the node of a hot input; see ``attach(_:index:failure:store:)``. Generic over the element and
  /// failure only, so that ``attach(any:index:failure:store:)``, which finds the node through an existential,
  /// still gets the per-element closure specialised for its types.
  @inlinable static func attach<InputElement: Sendable, InputFailure: Error>(
    node upstream: Node<InputElement, InputFailure>,
    index fixedIndex: Int? = nil,
    failure: @escaping @Sendable (InputFailure) -> Failure,
    store: @escaping @Sendable (inout Rule, InputElement) -> NaryStep<Step>
  ) -> Attach {
    attach(signal: Signal(hot: upstream), index: fixedIndex, failure: failure, store: store)
  }

  /// Observes `input` for the rule as what its value is, decided once, here: a hot one (a subject, a property, a
  /// ``HotSignal``, a ``Signal`` that erases one) synchronously, inside its sends; a cold one (a ``Signal``, an
  /// `AsyncStream`, any other sequence) by starting a fresh run of it per connection, as part of this graph (a
  /// foreign sequence is read by one pump task). The node's lock orders what every input hands over.
  @inlinable static func attach<Input: AsyncSequence & Sendable>(
    any input: Input,
    index: Int? = nil,
    failure: @escaping @Sendable (Input.Failure) -> Failure,
    store: @escaping @Sendable (inout Rule, Input.Element) -> NaryStep<Step>
  ) -> Attach where Input.Element: Sendable {
    attach(signal: Signal(input), index: index, failure: failure, store: store)
  }

  /// Observes one run of `signal` per connection (a hot signal's node itself); see ``attach(_:index:failure:store:)``.
  /// Generic over the element and failure only, so that the per-element closure is specialised for its types.
  @inlinable static func attach<InputElement: Sendable, InputFailure: Error>(
    signal: Signal<InputElement, InputFailure>,
    index fixedIndex: Int? = nil,
    failure: @escaping @Sendable (InputFailure) -> Failure,
    store: @escaping @Sendable (inout Rule, InputElement) -> NaryStep<Step>
  ) -> Attach {
    let runStart: @Sendable (Int) -> ColdStart = { index in
      ColdStart.shared.input(of: "\(Rule.operatorName) input \(index + 1)")
    }
    typealias Run = PreparedRun<InputElement, InputFailure>
    // Observes `prepared` when the run was prepared, a fresh run of `signal` otherwise.
    let connect: @Sendable (Run?) -> @Sendable (NaryConnection, Int) -> @Sendable () -> Void = { prepared in
      { inputs, attachIndex in
        let index = fixedIndex ?? attachIndex
        let onValue: @Sendable (InputElement) -> Void = { element in
          inputs.receive(from: index) { rule in store(&rule, element) }
        }
        let onEnd: @Sendable (Termination<InputFailure>) -> Void = { termination in
          switch termination {
          case .finished: inputs.finish(index)
          case .failed(let error): inputs.fail(failure(error))
          }
        }
        if signal.isHot { return signal.observe(.shared, onValue: onValue, onEnd: onEnd) }
        // A cold input: a run of its own, which a graph dump draws below the node.
        let run =
          prepared?.observeRun(owner: inputs.node, onValue: onValue, onEnd: onEnd)
          ?? signal.observeRun(runStart(index), owner: inputs.node, onValue: onValue, onEnd: onEnd)
        if let node = run.node { inputs.state.withLock { $0.runs.append(node) } }
        return run.stop
      }
    }
    guard !signal.isHot else { return Attach(fixedIndex: fixedIndex, connect: connect(nil), prepare: nil) }
    return Attach(fixedIndex: fixedIndex, connect: connect(nil)) { attachIndex in
      Attach(
        fixedIndex: fixedIndex, connect: connect(signal.prepareRun(runStart(fixedIndex ?? attachIndex))), prepare: nil)
    }
  }

  /// The runs of cold inputs this connection observes, for a graph dump.
  @usableFromInline var runs: [any AnyObject & Sendable] { state.withLock { $0.runs } }

  /// Ends this connection for good: what an input still hands over (a cold input's pump that was between two
  /// elements when it was cancelled, a send racing the detach) is ignored.
  @inlinable func close() {
    state.withLock { $0.ended = true }
  }

  /// A node over `inputs`, connected from its first observer to its last; each connection starts a fresh rule.
  /// No inputs: a node that has finished. `output` may be `nil` only when `Output == Step` (the overload below).
  @inlinable static func node(
    _ inputs: [Attach], replay: Node<Output, Failure>.Replay,
    origin: NodeOrigin? = nil, inputNodes: NodeInputs = .none,
    output: (@Sendable (Step) -> Output)?,
    rule: @escaping @Sendable () -> Rule
  ) -> Node<Output, Failure> {
    let origin = origin ?? NodeOrigin(NodeKind(operatorName: Rule.operatorName))
    guard !inputs.isEmpty else {
      let node = Node<Output, Failure>(replay: .none, origin: origin)
      node.terminate(.finished)
      return node
    }
    // Inputs that are not nodes of their own are cold: each connection runs them, and a dump draws those runs.
    let hasColdInputs = inputNodes.count < inputs.count
    // Built for a consumer's run, which connects later: the cold inputs' runs are built now (see ``PreparedRun``).
    let inputs =
      hasColdInputs && ColdRunPreparation.isActive
      ? inputs.enumerated().map { index, input in input.prepare?(index) ?? input } : inputs
    return Node(
      replay: replay, origin: origin, inputs: inputNodes, describesConnection: hasColdInputs
    ) { node in
      let connection = NaryConnection(rule: rule(), node: node, inputCount: inputs.count, output: output)
      // Each detach at the input's position for the rule, which is the one a released input is named by.
      var detaches = [@Sendable () -> Void](repeating: {}, count: inputs.count)
      for (position, attach) in inputs.enumerated() {
        detaches[attach.fixedIndex ?? position] = attach(connection, position)
      }
      connection.attached(detaches)
      if hasColdInputs { node.attachConnectionDescription(running: { (nil, connection.runs) }) }
      return {
        // Closed first: a cold input's pump that ends because it was cancelled must not end the node.
        connection.close()
        if hasColdInputs { node.detachConnectionDescription() }
        for detach in connection.takeDetaches() { detach() }
      }
    }
  }
}

extension NaryConnection where Output == Step {
  /// A node over `inputs` that holds the rule's outputs as they are.
  @inlinable static func node(
    _ inputs: [Attach], replay: Node<Output, Failure>.Replay,
    origin: NodeOrigin? = nil, inputNodes: NodeInputs = .none, rule: @escaping @Sendable () -> Rule
  ) -> Node<Output, Failure> {
    node(inputs, replay: replay, origin: origin, inputNodes: inputNodes, output: nil, rule: rule)
  }
}

/// The merge rule: every element of every input goes out as it comes; the result finishes when all inputs have.
@usableFromInline struct MergeRule<Element: Sendable>: NaryRule {
  @usableFromInline static var operatorName: String { "merge" }

  @inlinable init() {}

  @inlinable func inputFinished(_ index: Int) -> NaryStep<Element> { .none }
}

/// A replay for a node over several inputs: their combined current value when every input has one
/// (combineLatest of properties), until the node ends; nothing otherwise.
@inlinable package func combinedReplay<Output, Failure>(
  _ inputsReplay: [Bool]
) -> Node<Output, Failure>.Replay {
  !inputsReplay.isEmpty && inputsReplay.allSatisfy { $0 } ? .current : .none
}

/// A `merge`'s replay: the latest value of each input that has a current value, in input order, until the node
/// ends; nothing when no input has one.
@inlinable package func mergedReplay<Output, Failure>(
  _ inputsReplay: [Bool]
) -> Node<Output, Failure>.Replay {
  inputsReplay.contains(true) ? .eachInput(replays: inputsReplay) : .none
}

extension HotSequence {
  /// Whether this sequence's node gives a new observer a current value (a current-value subject, a property).
  @inlinable package var replaysCurrent: Bool {
    if case .none = hotSignal.node.replay { return false }
    return true
  }
}

/// Whether `input` gives a new observer a current value: a hot input that does (a current-value subject, a
/// property, a ``Signal`` that erases one); never a cold one, which has produced nothing when a consumer joins.
@inlinable package func inputReplaysCurrent<Input: AsyncSequence & Sendable>(_ input: Input) -> Bool
where Input.Element: Sendable {
  guard let node = Signal(input).hotNode else { return false }
  if case .none = node.replay { return false }
  return true
}

/// `input`'s node when its value is hot, for a graph dump (see ``DebugGraph``); `nil` for a cold input, whose runs
/// each build their own.
@inlinable package func graphInput<Input: AsyncSequence & Sendable>(_ input: Input) -> (any AnyObject & Sendable)?
where Input.Element: Sendable {
  Signal(input).hotNode
}

/// Whether `input`'s value is hot (a subject, a property, a hot chain, a ``Signal`` that erases one): decided once,
/// when an operator is applied.
@inlinable package func isHotInput<Input: AsyncSequence & Sendable>(_ input: Input) -> Bool
where Input.Element: Sendable {
  Signal(input).isHot
}

/// The ``Signal`` of an operator with several inputs: hot, built now and shared, when any input is hot; cold, built
/// anew by each run, when all are.
@inlinable package func naryResult<Element: Sendable, Failure: Error>(
  anyHot: Bool, _ build: @escaping @Sendable () -> Node<Element, Failure>
) -> Signal<Element, Failure> {
  // All cold: each run is a fresh node, whose every connection runs the inputs anew.
  anyHot ? Signal(hot: build()) : Signal(cold: ColdRecipe { _ in build() })
}
