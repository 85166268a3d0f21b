/// The deliberate, documented ways the library differs from RxSwift 6, which the reference model follows when it
/// predicts the library (and leaves out when it predicts RxSwift, for a report).
enum DocumentedDifference: Hashable, Sendable, CaseIterable {
  /// A hot node is one evaluation for all its consumers, connected once, with one state (the `scan` accumulator,
  /// the `dropFirst` count, the timers), where RxSwift runs the chain anew per subscription. Documented in
  /// APIContracts.md ("Hot operators run inside send": "once for all of its consumers"; "What a hot operator keeps
  /// … belongs to its connection") and in the README ("What this changes for someone porting RxSwift").
  case sharedHotNodes
  /// The observers of one source are called in the order they were created, an operator taking its place when
  /// the operator was made, where RxSwift calls them in subscription order. Documented in APIContracts.md
  /// ("Observers of one source run in creation order") and in the README ("Order and ends, as RxTest records
  /// them": "One deliberate difference").
  case creationOrderSiblings
  /// A consumer that joins a connected node over a current value gets that node's output of the current value
  /// (for the stateless chains the model generates late consumers for, what a fresh RxSwift subscription would
  /// compute too). Documented in the README ("What this changes for someone porting RxSwift": "a node over a
  /// current value … gives a new consumer the output of that value first").
  case lateConsumerGetsCurrentOutput
  /// `throttle(latest: true)` emits the held value at the window's end and does not delay the finish, unlike
  /// RxSwift: the model only generates `latest: false`, whose timeline is RxSwift's. Documented in
  /// Operators/ThrottleOperator.md ("Where `latest: true` differs from RxSwift").
  case throttleLatestWindows
  /// An event must reach `timeout` strictly before its deadline: one arriving at the deadline, before the timeout's
  /// timer has run (its own timer was scheduled earlier), times out, where RxSwift, running the work due at one
  /// instant in scheduling order, forwards it and re-arms. Documented in Operators/TimeoutOperator.md ("an event
  /// must arrive strictly before its deadline").
  case timeoutStrictDeadline
  /// A hot node that ended stays ended: a consumer that joins it later receives its end at once, where RxSwift
  /// subscribes anew and runs the operator afresh. Documented in the README ("One engine: operators run inside
  /// `send`": "a node that ended stays ended").
  case endedNodesStayEnded
}

/// The reference model: runs a ``ModelProgram`` on a small simulation of RxSwift 6 under RxTest's `TestScheduler`
/// and returns what each recorder records.
///
/// Each operator is a state machine written from RxSwift 6's sinks (`ZipSink`, `CombineLatestSink`, `DelaySink`,
/// `DebounceSink`, `ThrottleSink`, `TimeoutSink`, `SwitchSink`, `MergeSink`, `CatchSink`), delivering synchronously
/// and depth first. Time is integer ticks: at a tick, the timers due then fire first, in the order they were
/// scheduled, then that tick's sends, in program order. With `differences` empty it predicts RxSwift; with
/// ``DocumentedDifference/allCases`` it predicts the library.
struct ReferenceModel {
  var differences: Set<DocumentedDifference>

  /// The library's documented behaviour.
  static let library = ReferenceModel(differences: Set(DocumentedDifference.allCases))
  /// RxSwift 6 itself.
  static let rxSwift = ReferenceModel(differences: [])

  /// What the recorders record: the one attached at tick 0, and the late one (empty when there is none).
  struct Output: Hashable, Sendable {
    var main: [TickedEvent]
    var late: [TickedEvent]
    /// Set when the program asks for something the model cannot predict (a late consumer of a stateful node under
    /// shared nodes); the generator never makes such programs.
    var unmodelled: Bool
  }

  func run(_ program: ModelProgram) -> Output {
    let simulation = Simulation(program: program, differences: differences)
    return simulation.run()
  }
}

/// The mutable world of one model run: the virtual scheduler, the sources, the node instances.
private final class Simulation {
  let program: ModelProgram
  let differences: Set<DocumentedDifference>
  var now = 0
  var nextSequence = 0
  var timers: [Int: (due: Int, sequence: Int, action: () -> Void)] = [:]
  var nextTimerID = 0
  var nextObserverID = 0
  var sources: [SimNode] = []
  /// Under shared nodes, the one instance of each node.
  var shared: [Int: SimNode] = [:]
  /// Every instance made (kept alive here: observers hold them unowned).
  var instances: [SimNode] = []
  var mainEvents: [TickedEvent] = []
  var lateEvents: [TickedEvent] = []
  var unmodelled = false
  /// The creation rank of the recorders: after every operator.
  var recorderKey: Int { program.nodes.count }

  init(program: ModelProgram, differences: Set<DocumentedDifference>) {
    self.program = program
    self.differences = differences
  }

  func run() -> ReferenceModel.Output {
    sources = program.sources.enumerated().map { SimNode(simulation: self, source: $0.element, key: -1) }
    subscribe(program.recorded, key: recorderKey) { [unowned self] event in
      mainEvents.append(TickedEvent(tick: now, event: event))
    }
    let lastTick = max(program.sends.last?.tick ?? 0, program.late?.tick ?? 0)
    for tick in 1...max(1, lastTick) {
      fireTimers(through: tick)
      now = tick
      if let late = program.late, late.tick == tick {
        subscribe(late.ref, key: recorderKey + 1) { [unowned self] event in
          lateEvents.append(TickedEvent(tick: now, event: event))
        }
      }
      for send in program.sends where send.tick == tick {
        sources[send.source].sourceReceive(send.action)
      }
    }
    fireTimers(through: ModelProgram.finalTick)
    return .init(main: mainEvents, late: lateEvents, unmodelled: unmodelled)
  }

  /// Runs the timers due by `tick`, earliest first, those due together in the order they were scheduled.
  func fireTimers(through tick: Int) {
    while let (id, timer) = timers.filter({ $0.value.due <= tick }).min(by: {
      ($0.value.due, $0.value.sequence) < ($1.value.due, $1.value.sequence)
    }) {
      timers[id] = nil
      now = timer.due
      timer.action()
    }
    now = tick
  }

  func schedule(after ticks: Int, _ action: @escaping () -> Void) -> Int {
    precondition(ticks > 0)
    defer {
      nextTimerID += 1
      nextSequence += 1
    }
    timers[nextTimerID] = (now + ticks, nextSequence, action)
    return nextTimerID
  }

  func cancel(_ timer: Int?) {
    if let timer { timers[timer] = nil }
  }

  /// Registers an observer of `ref` whose creation rank is `key`, connecting what it needs.
  /// Returns the instance observed and the observer's id there, to leave it later.
  @discardableResult
  func subscribe(_ ref: ModelRef, key: Int, _ sink: @escaping (ModelEvent) -> Void) -> (SimNode, Int) {
    let node: SimNode
    switch ref {
    case .source(let index):
      node = sources[index]
    case .node(let index):
      if differences.contains(.sharedHotNodes) {
        node = shared[index] ?? SimNode(simulation: self, node: program.nodes[index], key: index)
        shared[index] = node
      } else {
        node = SimNode(simulation: self, node: program.nodes[index], key: index)
      }
      instances.append(node)
    }
    return (node, node.addObserver(key: key, sink))
  }

  /// What a consumer joining the connected node `ref` receives at once: the API contracts' rule for late consumers,
  /// what a fresh subscription would be given, computed from the inputs' current values, with each stateful
  /// operator's documented answer (`scan` its accumulation, `flatMapLatest` the current inner's latest value) and the
  /// documented exceptions for ended inputs (`combineLatest`, `withLatestFrom` keep their last element). The shapes
  /// the contracts list as limits (a node after a `filter`, a `merge`, a switch, a `withLatestFrom`) are left out by
  /// ``ProgramGenerator/isInScope(_:options:)``.
  func replay(of ref: ModelRef) -> [ModelEvent] {
    switch ref {
    case .source(let index):
      return sources[index].sourceReplay()
    case .node(let index):
      let node = program.nodes[index]
      if let end = shared[index]?.ended { return [end] }
      // A hot node replays nothing of what passthrough sources sent.
      if !replaysCurrent(ref) { return [] }
      if node.op.isStateless {
        return values(of: node.input).compactMap { SimNode.stateless(node.op, $0).map(ModelEvent.value) }
      }
      guard let instance = shared[index] else {
        unmodelled = true
        return []
      }
      switch node.op {
      case .scan:
        return instance.received ? [.value(instance.accumulator)] : []
      case .removeDuplicates:
        return values(of: node.input).last.map { [.value($0)] } ?? []
      case .prefix:
        return values(of: node.input).map(ModelEvent.value)
      case .merge(let other):
        // Each input's current values, in input order; nothing of an input that ended.
        return (values(of: node.input) + values(of: other)).map(ModelEvent.value)
      case .combineLatest(let other):
        // An input that finished keeps its last element in the combinations (the documented exception).
        let first = instance.done[0] ? instance.latest[0] : values(of: node.input).last
        let second = instance.done[1] ? instance.latest[1] : values(of: other).last
        guard let first, let second else { return [] }
        return [.value(ModelClosures.pair(first, second))]
      case .withLatestFrom(let other):
        // The other input's last element stays in use after it finished (the documented exception).
        let second = instance.done[1] ? instance.latest[1] : values(of: other).last
        guard let first = values(of: node.input).last, let second else { return [] }
        return [.value(ModelClosures.pair(first, second))]
      case .flatMapLatest:
        // The current inner's latest value (its guide): nothing since the last switch until the inner emits.
        return instance.latestInnerValue.map { [.value($0)] } ?? []
      case .catchJust:
        // Before the failure, the input's current values; after it, the `just` has ended the node.
        return values(of: node.input).map(ModelEvent.value)
      case .dropFirst, .zip, .delay, .debounce, .throttle, .timeout, .flatMapMerge:
        return []
      case .map, .filter, .compactMap:
        preconditionFailure("stateless operators are handled above")
      }
    }
  }

  /// The values `ref` gives a consumer that joins now (an end replayed by an input that ended gives none).
  func values(of ref: ModelRef) -> [Int] {
    replay(of: ref).compactMap { event in
      guard case .value(let value) = event else { return nil }
      return value
    }
  }

  /// Whether `ref`'s node keeps something to give a consumer that joins (the library's replay is not `.none`): a
  /// current-value source, and what keeps its input's (a single-input operator, a `flatMapLatest`), a `merge` of
  /// which an input does, a `combineLatest` or `withLatestFrom` whose inputs all do; never `dropFirst`, `zip`, the
  /// time operators or `flatMap`.
  func replaysCurrent(_ ref: ModelRef) -> Bool {
    switch ref {
    case .source(let index):
      if case .currentValue = program.sources[index] { return true }
      return false
    case .node(let index):
      let node = program.nodes[index]
      switch node.op {
      case .map, .filter, .compactMap, .scan, .removeDuplicates, .prefix, .catchJust, .flatMapLatest:
        return replaysCurrent(node.input)
      case .merge(let other):
        return replaysCurrent(node.input) || replaysCurrent(other)
      case .combineLatest(let other), .withLatestFrom(let other):
        return replaysCurrent(node.input) && replaysCurrent(other)
      case .dropFirst, .zip, .delay, .debounce, .throttle, .timeout, .flatMapMerge:
        return false
      }
    }
  }
}

/// One instance of a source or an operator in the simulation: its observers, its state, its rule.
private final class SimNode {
  unowned let simulation: Simulation
  let key: Int
  let source: ModelSource?
  let node: ModelNode?
  var observers: [(id: Int, key: Int, sink: (ModelEvent) -> Void)] = []
  /// The inputs this instance observes, with its observer's id in each.
  var subscriptions: [(node: SimNode, id: Int)] = []
  var connected = false
  /// Set when the last consumer left: the instance is dropped, and a later consumer connects a new one.
  var disconnected = false
  var ended: ModelEvent?

  // The source's state.
  var current: Int?

  // The operators' state.
  var count = 0
  var accumulator = 0
  var last: Int?
  var done = [false, false]
  var latest: [Int?] = [nil, nil]
  var queues: [[Int]] = [[], []]
  var delayed: [(due: Int, event: ModelEvent)] = []
  var timer: Int?
  var lastSent: Int?
  var innerTimers: [Int] = []
  var timeoutDue = 0
  /// `scan`: whether a value came since the connection (its accumulation is then what a consumer that joins gets).
  var received = false
  /// `flatMapLatest`: the current inner's latest value, `nil` since the last switch until that inner emits.
  var latestInnerValue: Int?

  init(simulation: Simulation, source: ModelSource, key: Int) {
    self.simulation = simulation
    self.key = key
    self.source = source
    self.node = nil
    if case .currentValue(let value) = source { current = value }
    connected = true
  }

  init(simulation: Simulation, node: ModelNode, key: Int) {
    self.simulation = simulation
    self.key = key
    self.source = nil
    self.node = node
    if case .scan(let seed) = node.op { accumulator = seed }
  }

  static func stateless(_ op: ModelOperator, _ value: Int) -> Int? {
    switch op {
    case .map(let add): value + add
    case .filter(let modulus): ModelClosures.keeps(value, modulus: modulus) ? value : nil
    case .compactMap(let divisor): ModelClosures.compact(value, divisor: divisor)
    default: preconditionFailure("\(op) is not stateless")
    }
  }

  func addObserver(key: Int, _ sink: @escaping (ModelEvent) -> Void) -> Int {
    let id = simulation.nextObserverID
    simulation.nextObserverID += 1
    defer { replayOrConnect(sink) }
    if simulation.differences.contains(.creationOrderSiblings) {
      let index = observers.firstIndex { $0.key > key } ?? observers.endIndex
      observers.insert((id, key, sink), at: index)
    } else {
      observers.append((id, key, sink))
    }
    return id
  }

  /// The last consumer leaving a node disconnects it from its inputs (RxSwift disposes the subscription); a
  /// source stays.
  func removeObserver(_ id: Int) {
    observers.removeAll { $0.id == id }
    guard observers.isEmpty, source == nil, !disconnected else { return }
    if ended != nil && simulation.differences.contains(.endedNodesStayEnded) { return }
    disconnected = true
    simulation.cancel(timer)
    for inner in innerTimers { simulation.cancel(inner) }
    if simulation.shared[key] === self { simulation.shared[key] = nil }
    leaveInputs()
  }

  func leaveInputs() {
    let subscriptions = self.subscriptions
    self.subscriptions = []
    for subscription in subscriptions { subscription.node.removeObserver(subscription.id) }
  }

  private func replayOrConnect(_ sink: (ModelEvent) -> Void) {
    if source != nil {
      for event in sourceReplay() { sink(event) }
    } else if ended != nil {
      for event in simulation.replay(of: .node(key)) { sink(event) }
    } else if !connected {
      connected = true
      connect()
    } else if simulation.differences.contains(.lateConsumerGetsCurrentOutput) {
      for event in simulation.replay(of: .node(self.key)) { sink(event) }
    } else {
      simulation.unmodelled = true
    }
  }

  func sourceReplay() -> [ModelEvent] {
    if let ended { return [ended] }
    return current.map { [.value($0)] } ?? []
  }

  func sourceReceive(_ action: ModelAction) {
    guard ended == nil else { return }
    switch action {
    case .send(let value):
      if current != nil { current = value }
      emit(.value(value))
    case .finish: emit(.finished)
    case .fail(let code): emit(.failed(code))
    }
  }

  func emit(_ event: ModelEvent) {
    guard ended == nil else { return }
    if event.isEnd {
      ended = event
      // Its last consumer may have left inside this very delivery (a `prefix` downstream that ended first): the
      // end still sticks to the node.
      if node != nil && simulation.differences.contains(.endedNodesStayEnded) && simulation.shared[key] == nil {
        simulation.shared[key] = self
      }
      simulation.cancel(timer)
      for inner in innerTimers { simulation.cancel(inner) }
    }
    for observer in observers { observer.sink(event) }
    if event.isEnd { leaveInputs() }
  }

  /// Subscribes to the inputs in RxSwift's order: `withLatestFrom` its other input first, `timeout` after arming
  /// its timer.
  func connect() {
    guard let node else { return }
    let observe = { [unowned self] (ref: ModelRef, port: Int) in
      subscriptions.append(simulation.subscribe(ref, key: key) { [unowned self] event in receive(event, port: port) })
      // Ended by what the input replayed: leave it at once, as RxSwift disposes a subscription that ended inside
      // `subscribe`.
      if ended != nil { leaveInputs() }
    }
    switch node.op {
    case .withLatestFrom(let other):
      observe(other, 1)
      observe(node.input, 0)
    case .timeout(let ticks):
      armTimeout(ticks)
      observe(node.input, 0)
    default:
      observe(node.input, 0)
      if let other = node.op.other { observe(other, 1) }
    }
  }

  func armTimeout(_ ticks: Int) {
    simulation.cancel(timer)
    // Its last consumer may have left inside the delivery of the value that re-arms it.
    guard !disconnected else { return }
    timeoutDue = simulation.now + ticks
    timer = simulation.schedule(after: ticks) { [unowned self] in
      timer = nil
      emit(.failed(ModelClosures.timeoutCode))
    }
  }

  func receive(_ event: ModelEvent, port: Int) {
    guard ended == nil, !disconnected, let node else { return }
    switch node.op {
    case .map, .filter, .compactMap:
      switch event {
      case .value(let value): if let output = Self.stateless(node.op, value) { emit(.value(output)) }
      default: emit(event)
      }
    case .scan:
      guard case .value(let value) = event else { return emit(event) }
      accumulator += value
      received = true
      emit(.value(accumulator))
    case .removeDuplicates:
      guard case .value(let value) = event else { return emit(event) }
      if last != value { emit(.value(value)) }
      last = value
    case .dropFirst(let skipped):
      guard case .value = event else { return emit(event) }
      if count < skipped {
        count += 1
      } else {
        emit(event)
      }
    case .prefix(let taken):
      guard case .value = event else { return emit(event) }
      count += 1
      emit(event)
      if count == taken { emit(.finished) }
    case .merge:
      switch event {
      case .value, .failed: emit(event)
      case .finished:
        done[port] = true
        if done[0] && done[1] { emit(.finished) }
      }
    case .combineLatest:
      combineLatest(event, port: port)
    case .zip:
      zip(event, port: port)
    case .withLatestFrom:
      switch (event, port) {
      case (.value(let value), 0): if let other = latest[1] { emit(.value(ModelClosures.pair(value, other))) }
      case (.value(let value), _): latest[1] = value
      case (.finished, 1): done[1] = true
      default: emit(event)
      }
    case .delay(let ticks):
      delay(event, ticks: ticks)
    case .debounce(let ticks):
      debounce(event, ticks: ticks)
    case .throttle(let ticks):
      guard case .value = event else { return emit(event) }
      if let lastSent, simulation.now - lastSent < ticks { return }
      lastSent = simulation.now
      emit(event)
    case .timeout(let ticks):
      if simulation.differences.contains(.timeoutStrictDeadline) && simulation.now >= timeoutDue {
        return emit(.failed(ModelClosures.timeoutCode))
      }
      guard case .value = event else { return emit(event) }
      emit(event)
      if ended == nil { armTimeout(ticks) }
    case .flatMapLatest(let ticks):
      flatten(event, ticks: ticks, latestOnly: true)
    case .flatMapMerge(let ticks):
      flatten(event, ticks: ticks, latestOnly: false)
    case .catchJust(let value):
      guard case .failed = event else { return emit(event) }
      emit(.value(value))
      emit(.finished)
    }
  }

  /// `CombineLatestSink`: a value with every input having one emits; a value while another input has none and
  /// every other input has completed completes; the end comes when every input completed.
  func combineLatest(_ event: ModelEvent, port: Int) {
    switch event {
    case .value(let value):
      latest[port] = value
      if let first = latest[0], let second = latest[1] {
        emit(.value(ModelClosures.pair(first, second)))
      } else if done[1 - port] {
        emit(.finished)
      }
    case .finished:
      done[port] = true
      if done[0] && done[1] { emit(.finished) }
    case .failed:
      emit(event)
    }
  }

  /// `ZipSink`: pairs the oldest buffered values; completes only when every input completed.
  func zip(_ event: ModelEvent, port: Int) {
    switch event {
    case .value(let value):
      queues[port].append(value)
      if !queues[0].isEmpty && !queues[1].isEmpty {
        emit(.value(ModelClosures.pair(queues[0].removeFirst(), queues[1].removeFirst())))
      }
    case .finished:
      done[port] = true
      if done[0] && done[1] { emit(.finished) }
    case .failed:
      emit(event)
    }
  }

  /// `DelaySink`: values and the finish are due `ticks` after they arrived and are released together when due at
  /// one tick; after a release the timer is scheduled anew for the next one; a failure goes out at once.
  func delay(_ event: ModelEvent, ticks: Int) {
    if case .failed = event {
      delayed = []
      return emit(event)
    }
    delayed.append((simulation.now + ticks, event))
    guard timer == nil else { return }
    timer = simulation.schedule(after: ticks) { [unowned self] in releaseDelayed() }
  }

  func releaseDelayed() {
    timer = nil
    while let first = delayed.first, first.due <= simulation.now {
      delayed.removeFirst()
      emit(first.event)
      if ended != nil || disconnected { return }
    }
    if let first = delayed.first {
      timer = simulation.schedule(after: first.due - simulation.now) { [unowned self] in releaseDelayed() }
    }
  }

  /// `DebounceSink`: each value replaces the waiting one and schedules a new timer; the finish emits the waiting
  /// value first; a failure drops it.
  func debounce(_ event: ModelEvent, ticks: Int) {
    switch event {
    case .value(let value):
      last = value
      simulation.cancel(timer)
      timer = simulation.schedule(after: ticks) { [unowned self] in
        timer = nil
        if let value = last {
          last = nil
          emit(.value(value))
        }
      }
    case .finished:
      if let value = last {
        last = nil
        emit(.value(value))
      }
      emit(.finished)
    case .failed:
      emit(event)
    }
  }

  /// `SwitchSink` and `MergeSink` over timer inners: each inner emits its value and completes when its timer
  /// fires; the end comes when the outer and every inner completed.
  func flatten(_ event: ModelEvent, ticks: Int, latestOnly: Bool) {
    switch event {
    case .value(let value):
      if latestOnly {
        for inner in innerTimers { simulation.cancel(inner) }
        innerTimers = []
        latestInnerValue = nil
      }
      var id = 0
      id = simulation.schedule(after: ModelClosures.innerTicks(ticks, value: value)) { [unowned self] in
        innerTimers.removeAll { $0 == id }
        if latestOnly { latestInnerValue = value }
        emit(.value(value))
        if done[0] && innerTimers.isEmpty { emit(.finished) }
      }
      innerTimers.append(id)
    case .finished:
      done[0] = true
      if innerTimers.isEmpty { emit(.finished) }
    case .failed:
      emit(event)
    }
  }
}
