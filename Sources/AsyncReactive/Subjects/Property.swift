import Synchronization

/// A read-only current value: what a view model exposes so that views can read and observe state but never
/// write it. ReactiveSwift's `Property`; RxSwift's `Driver` / read-only `BehaviorRelay`.
///
/// Reading ``value`` is synchronous and always up to date: a property over an ``AsyncCurrentValueSubject`` reads
/// the subject, and a derived property (``PropertyProtocol/map(_:fileID:line:)``, `combineLatest(_:_:)` of properties,
/// ``PropertyProtocol/removeDuplicates(fileID:line:)``, ``PropertyProtocol/flatMapLatest(_:fileID:line:)``) computes its value from
/// its sources' current values at the moment it is read, never through a task. After
/// `username.value = "tom"`, `isValid.value` reflects it on the very next line, from any thread.
///
/// Iterating yields the value at the moment of `makeAsyncIterator()` (or ``subscribe(bufferingPolicy:)``) first,
/// then every change in order, none merged away, until the source finishes (its subject finished or was
/// released). A property is a ``HotSequence``: a derived property's iteration is evaluated inside the sources'
/// `send` (no task inside it), and its consumers share that one evaluation.
///
/// **Observation:** reading ``value`` (derived too) inside `withObservationTracking`, `Observations { }` or
/// a SwiftUI `body` is tracked through the subjects it reads, and a change of any of them fires the tracking.
///
/// **Lifetime:** a property keeps its sources alive; its consumers do not. When the last subject and
/// property that can reach a state are released, the consumers of that state (derived ones too) finish.
///
/// ```swift
/// actor SignupViewModel {
///   nonisolated let username = AsyncCurrentValueSubject<String, Never>("")
///   nonisolated let password = AsyncCurrentValueSubject<String, Never>("")
///   nonisolated let isValid: Property<Bool>
///   init() {
///     isValid = combineLatest(username, password).map { $0.count >= 3 && $1.count >= 8 }
///   }
/// }
/// // In the view:
/// for await valid in viewModel.isValid { button.isEnabled = valid }
/// ```
public struct Property<Value: Sendable>: PropertyProtocol {
  public typealias Element = Value
  public typealias Failure = Never
  /// A consumer of a property that is registered already; iterate it once.
  ///
  /// ```swift
  /// let states = viewModel.isLoading.subscribe()
  /// for await loading in states { spinner.isHidden = !loading }
  /// ```
  public typealias Subscription = SubjectSubscription<Value, Never>
  /// The iterator of a ``Property``: the current value, then each change.
  public typealias Iterator = SubjectSubscription<Value, Never>.Iterator

  @usableFromInline enum Source: Sendable {
    /// A view of a subject: reads and iterates it.
    case subject(AsyncCurrentValueSubject<Value, Never>)
    /// Never changes.
    case constant(Value)
    /// Computed from other properties.
    case derived(DerivedProperty<Value>)
  }

  @usableFromInline let source: Source
  /// Reads the current value straight from the source: no switch over `source`, whose payload copy costs a
  /// retain and a release per read.
  @usableFromInline let reader: @Sendable () -> Value

  /// A read-only view of `subject`: it reflects every value sent to it, and keeps it alive.
  ///
  /// ```swift
  /// let isLoading = Property(isLoadingSubject)
  /// ```
  @inlinable public init(_ subject: AsyncCurrentValueSubject<Value, Never>) {
    source = .subject(subject)
    reader = { subject.value }
  }

  /// A property that never changes: iterating yields `value` and finishes (ReactiveSwift's
  /// `Property(value:)`).
  ///
  /// ```swift
  /// let title = Property(value: "Orders")
  /// ```
  @inlinable public init(value: Value) {
    source = .constant(value)
    reader = { value }
  }

  @inlinable init(derived: DerivedProperty<Value>) {
    source = .derived(derived)
    reader = derived.read
  }

  /// A derived property: `read` computes its value from the sources' current values, `changes` is the hot node
  /// that its consumers iterate (it must replay the current value).
  @inlinable init(read: @escaping @Sendable () -> Value, changes: HotSignal<Value, Never>, owner: (any Sendable)? = nil)
  {
    self.init(derived: DerivedProperty(read: read, node: changes.node, owner: owner))
  }

  /// A property that starts at `initial` and then takes each element of `values`, for as long as the
  /// property exists (ReactiveSwift's `Property(initial:then:)`).
  ///
  /// A hot `values` (a subject, another property's changes, a ``HotSignal``, also through a generic parameter or a
  /// ``Signal`` that erases one) is observed synchronously: the property holds each value as soon as it is sent,
  /// with no task. Any other sequence is taken by a task started in place: what it has ready (`Signal.just(true)`,
  /// an array) is the ``value`` before this returns; later elements arrive a moment after the sequence produced
  /// them. The sequence is subscribed before this returns. When the sequence finishes, the last value stays and the property's consumers finish.
  ///
  /// **Lifetime:** over a hot source, the property lives as long as that source (ReactiveSwift's rule): releasing
  /// the property does not end its consumers (an iteration, a `map` of it bound to a view), which keep getting the
  /// source's values until the source ends or the last of them leaves; with no consumer left, releasing it stops
  /// observing the source. Over any other sequence, releasing the property cancels the task that reads it and
  /// finishes its consumers.
  ///
  /// ```swift
  /// let isOnline = Property(initial: false, then: reachability.updates)
  /// let refresh = Command(enabledIf: isOnline) { try await api.orders() }
  /// ```
  /// - Parameters:
  ///   - initial: the value until `values` produces one.
  ///   - values: any non-failing `AsyncSequence`; registered now.
  public init<Values: AsyncSequence<Value, Never> & Sendable>(initial: Value, then values: Values) {
    // What `values` is decides, not its static type: a hot value reached through a generic parameter or a `Signal`
    // erasure is observed inside its sends as well.
    if let upstream = Signal(values).hotNode {
      self.init(initial: initial, observing: upstream)
      return
    }
    let subject = AsyncCurrentValueSubject<Value, Never>(initial)
    // A run that waits on a test clock: the task prefers that clock's executor (see `discovering`).
    let (iterator, executor) = TaskExecutorContext.discovering { values.makeAsyncIterator() }
    let task = Task(immediateNamed: "Property(initial:then:) feed", executor: executor) {
      var iterator = iterator
      while let value = await iterator.next(isolation: nil) { subject.send(value) }
      subject.finish()
    }
    self.init(feeding: subject, owner: PropertyFeed(task: task) { subject.finish() })
  }

  /// `Property(initial:then:)` over a hot source: a node that holds the current value and observes `upstream` while
  /// anything observes the node. The property itself is one of its observers (an anchor that keeps the value
  /// current), so releasing the property leaves its consumers fed for as long as the source lives
  /// (ReactiveSwift's rule: the property lives as long as its ultimate source); the last consumer leaving then stops
  /// the observation, and the source's end ends them.
  init(initial: Value, observing upstream: Node<Value, Never>) {
    let node = Node<Value, Never>(
      replay: .current, initial: initial, origin: NodeOrigin(.property), inputs: .one(upstream)
    ) { node in
      let sink = upstream.addSink(onValue: { node.send($0) }, onEnd: { node.terminate($0) })
      return { upstream.removeSink(sink) }
    }
    let anchor = node.addSink(onValue: { _ in }, onEnd: { _ in })
    self.init(
      derived: DerivedProperty(
        read: { node.latest ?? initial }, node: node, owner: PropertyAnchor(node: node, sink: anchor)))
  }

  /// A property over a subject that only its feed sends to.
  init(feeding subject: AsyncCurrentValueSubject<Value, Never>, owner: PropertyFeed) {
    self.init(derived: DerivedProperty(read: { subject.value }, node: subject.storage, owner: owner))
  }

  /// The current value.
  ///
  /// ```swift
  /// if viewModel.isValid.value { submit() }
  /// ```
  @inlinable public var value: Value { reader() }

  /// This property.
  @inlinable public var property: Property<Value> { self }

  /// This property's changes as a ``HotSignal``: the node its consumers iterate, evaluated inside its
  /// sources' `send`, starting with the current value.
  ///
  /// ```swift
  /// let labels = viewModel.count.hotSignal.map { "\($0) items" }
  /// ```
  @inlinable public var hotSignal: HotSignal<Value, Never> {
    switch source {
    case .subject(let subject): return subject.hotSignal
    case .constant(let value): return HotSignal(node: .constant(value))
    case .derived(let derived): return HotSignal(node: derived.node)
    }
  }

  /// How many consumers observe this property now: for a property over a subject, the subject's consumers;
  /// for a derived property, its own consumers and observers; for a constant, zero.
  ///
  /// ```swift
  /// #expect(viewModel.isValid.consumerCount == 0)   // the view stopped observing
  /// ```
  public var consumerCount: Int {
    switch source {
    case .subject(let subject): return subject.consumerCount
    case .constant: return 0
    case .derived(let derived): return derived.node.consumerCount
    }
  }

  /// Whether any consumer observes this property now (RxSwift's `hasObservers`).
  ///
  /// ```swift
  /// if !viewModel.results.hasConsumers { pauseUpdates() }
  /// ```
  public var hasConsumers: Bool { consumerCount > 0 }

  /// Registers a consumer now: it will receive the current value, then every change.
  ///
  /// With `.bufferingNewest(1)`, a slow consumer skips to the latest value.
  ///
  /// ```swift
  /// let enabled = command.isEnabled.subscribe()
  /// command.trigger()                           // the change is not missed
  /// for await isEnabled in enabled { button.isEnabled = isEnabled }
  /// ```
  @inlinable public func subscribe(bufferingPolicy: BufferingPolicy = .unbounded) -> Subscription {
    hotSignal.subscribe(bufferingPolicy: bufferingPolicy)
  }

  /// Starts iterating: the current value first, then every change until the source finishes.
  @inlinable public func makeAsyncIterator() -> Iterator {
    subscribe().makeAsyncIterator()
  }

  /// Calls `onValue` synchronously with the current value, then inside `send` for every change, while
  /// `lifetime` lasts; see ``HotSignal/sink(in:onValue:onEnd:)``.
  ///
  /// ```swift
  /// viewModel.isValid.sink(in: lifetime) { button.isEnabled = $0 }
  /// ```
  public func sink(in lifetime: Lifetime, _ onValue: @escaping @Sendable (Value) -> Void) {
    hotSignal.sink(in: lifetime, onValue)
  }
}

/// How a derived ``Property`` reads its value and where its consumers register. It keeps the sources alive (the
/// closure and the node capture them); its consumers never keep it alive.
///
/// `read` is a closure rather than an existential, on purpose: a closure made in the client's specialised code
/// runs specialised, while a call through an existential of a generic type runs the generic code (metadata
/// look-ups on every read, measured at ~1.6 µs for a combineLatest of 3 + map).
@usableFromInline final class DerivedProperty<Value: Sendable>: Sendable {
  @usableFromInline let read: @Sendable () -> Value
  /// The hot node its consumers iterate: it replays the current value to each new one.
  @usableFromInline let node: Node<Value, Never>
  /// Whatever must live as long as the property (the feed of `Property(initial:then:)`).
  let owner: (any Sendable)?

  @usableFromInline init(
    read: @escaping @Sendable () -> Value,
    node: Node<Value, Never>,
    owner: (any Sendable)? = nil
  ) {
    self.read = read
    self.node = node
    self.owner = owner
  }
}

extension Node {
  /// A node that has `value` and has finished: what iterating a constant gives.
  @inlinable package static func constant(_ value: Element) -> Node {
    let node = Node(replay: .latest(1), initial: value)
    node.terminate(.finished)
    return node
  }
}

/// What keeps a `Property(initial:then:)` over a hot source observing it while the property exists: its own sink on
/// the property's node, removed when the property goes (the node keeps observing while it has other consumers).
final class PropertyAnchor<Value: Sendable>: Sendable {
  let node: Node<Value, Never>
  let sink: Node<Value, Never>.Sink

  init(node: Node<Value, Never>, sink: Node<Value, Never>.Sink) {
    self.node = node
    self.sink = sink
  }

  deinit { node.removeSink(sink) }
}

/// What feeds `Property(initial:then:)` over a foreign sequence: the task that reads it. Releasing the property
/// cancels it and finishes the property's consumers (the task reads the sequence for the property, not for them).
final class PropertyFeed: Sendable {
  let task: Task<Void, Never>
  let finish: @Sendable () -> Void

  init(task: Task<Void, Never>, finish: @escaping @Sendable () -> Void) {
    self.task = task
    self.finish = finish
  }

  deinit {
    task.cancel()
    finish()
  }
}

extension Property: ReactiveSequence {}
