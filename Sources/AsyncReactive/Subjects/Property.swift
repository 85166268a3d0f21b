import Synchronization

/// A read-only current value: what a view model exposes so that views can read and observe state but never
/// write it. ReactiveSwift's `Property`; RxSwift's `Driver` / read-only `BehaviorRelay`.
///
/// Reading ``value`` is synchronous and always up to date: a property over a ``CurrentValueSubject`` reads
/// the subject, and a derived property (``PropertyProtocol/map(_:)``, `combineLatest(_:_:)` of properties,
/// ``PropertyProtocol/removeDuplicates()``, ``PropertyProtocol/flatMapLatest(_:)``) computes its value from
/// its sources' current values at the moment it is read, never through a task. After
/// `username.value = "tom"`, `isValid.value` reflects it on the very next line, from any thread.
///
/// Iterating yields the current value first, then every change, until the source finishes (its subject
/// finished or was released). Iteration hops tasks like any stream: a loop sees a change a moment after it
/// happened, while ``value`` sees it at once.
///
/// **Observation:** reading ``value`` (derived too) inside `withObservationTracking`, `Observations { }` or
/// a SwiftUI `body` is tracked through the subjects it reads, and a change of any of them fires the tracking.
///
/// **Lifetime:** a property keeps its sources alive; its consumers do not. When the last subject and
/// property that can reach a state are released, the consumers of that state (derived ones too) finish.
///
/// ```swift
/// actor SignupViewModel {
///   nonisolated let username = CurrentValueSubject<String, Never>("")
///   nonisolated let password = CurrentValueSubject<String, Never>("")
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

  @usableFromInline enum Source: Sendable {
    /// A view of a subject: reads and iterates it.
    case subject(CurrentValueSubject<Value, Never>)
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
  @inlinable public init(_ subject: CurrentValueSubject<Value, Never>) {
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

  /// A property that starts at `initial` and then takes each element of `values`, for as long as the
  /// property exists (ReactiveSwift's `Property(initial:then:)`).
  ///
  /// This is the one property that is asynchronous by nature: a task takes the elements of `values` one by
  /// one, so ``value`` changes a moment after the sequence produced an element. Prefer deriving from
  /// subjects when you can. The sequence is subscribed before this returns. When the sequence finishes,
  /// the last value stays and the property's consumers finish; releasing the property cancels the task.
  ///
  /// ```swift
  /// let isOnline = Property(initial: false, then: reachability.updates)
  /// let refresh = Command(enabledIf: isOnline) { try await api.orders() }
  /// ```
  /// - Parameters:
  ///   - initial: the value until `values` produces one.
  ///   - values: any non-failing `AsyncSequence`; registered now.
  public init<Values: AsyncSequence<Value, Never> & Sendable>(initial: Value, then values: Values) {
    let subject = CurrentValueSubject<Value, Never>(initial)
    let iterator = values.makeAsyncIterator()
    let task = Task(name: "Property(initial:then:) feed") {
      var iterator = iterator
      while let value = await iterator.next(isolation: nil) { subject.send(value) }
      subject.finish()
    }
    let feed = PropertyFeed(task: task) { subject.finish() }
    self.init(
      derived: DerivedProperty(
        read: { subject.value },
        register: { policy in DerivedRegistration(subject.subscribe(bufferingPolicy: policy)) },
        owner: feed
      )
    )
  }

  /// The current value.
  ///
  /// ```swift
  /// if viewModel.isValid.value { submit() }
  /// ```
  @inlinable public var value: Value { reader() }

  /// This property.
  @inlinable public var property: Property<Value> { self }

  /// How many consumers observe this property now: for a property over a subject, the subject's consumers;
  /// for a derived property, its own iterations that have not been dropped; for a constant, zero.
  ///
  /// ```swift
  /// #expect(viewModel.isValid.consumerCount == 0)   // the view stopped observing
  /// ```
  public var consumerCount: Int {
    switch source {
    case .subject(let subject): return subject.consumerCount
    case .constant: return 0
    case .derived(let derived): return derived.consumers.count
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
  /// `bufferingPolicy` applies to the subjects the property reads: with `.bufferingNewest(1)`, a slow
  /// consumer of a property over a subject (or a `map` of one) skips to the latest value. A combined
  /// property keeps every combination it made for its consumer.
  ///
  /// ```swift
  /// let enabled = command.isEnabled.subscribe()
  /// command.trigger()                           // the change is not missed
  /// for await isEnabled in enabled { button.isEnabled = isEnabled }
  /// ```
  public func subscribe(bufferingPolicy: BufferingPolicy = .unbounded) -> Subscription {
    switch source {
    case .subject(let subject):
      return Subscription(.subject(subject.subscribe(bufferingPolicy: bufferingPolicy)))
    case .constant(let value):
      return Subscription(.constant(value))
    case .derived(let derived):
      return Subscription(.derived(derived.register(bufferingPolicy), ConsumerToken(derived.consumers)))
    }
  }

  /// Starts iterating: the current value first, then every change until the source finishes.
  @inlinable public func makeAsyncIterator() -> Iterator {
    switch source {
    case .subject(let subject): return Iterator(subject: subject.subscribe().makeAsyncIterator())
    default: return subscribe().makeAsyncIterator()
    }
  }

  /// A consumer of a ``Property`` that is registered already; iterate it once.
  ///
  /// ```swift
  /// let states = viewModel.isLoading.subscribe()
  /// for await loading in states { spinner.isHidden = !loading }
  /// ```
  public struct Subscription: AsyncSequence, Sendable {
    public typealias Element = Value
    public typealias Failure = Never

    @usableFromInline enum Registered: Sendable {
      case subject(SubjectSubscription<Value, Never>)
      case constant(Value)
      case derived(DerivedRegistration<Value>, ConsumerToken)
    }

    @usableFromInline let registered: Registered

    @usableFromInline init(_ registered: Registered) {
      self.registered = registered
    }

    /// Starts consuming: the current value (as of the subscription) first, then every change.
    public func makeAsyncIterator() -> Iterator {
      switch registered {
      case .subject(let subscription): return Iterator(subject: subscription.makeAsyncIterator())
      case .constant(let value): return Iterator(constant: value)
      case .derived(let registration, let token): return Iterator(derived: registration.makeIterator(), token: token)
      }
    }
  }

  /// The iterator of a ``Property``: the current value, then each change.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var subject: SubjectSubscription<Value, Never>.Iterator?
    @usableFromInline var derived: DerivedNext<Value>?
    @usableFromInline var constant: Value?
    /// Counts this consumer in its derived property's ``Property/consumerCount`` while it lives.
    @usableFromInline let token: ConsumerToken?

    @inlinable init(subject: SubjectSubscription<Value, Never>.Iterator) {
      self.subject = subject
      self.token = nil
    }

    @usableFromInline init(constant: Value) {
      self.constant = constant
      self.token = nil
    }

    @usableFromInline init(derived: @escaping DerivedNext<Value>, token: ConsumerToken) {
      self.derived = derived
      self.token = token
    }

    /// The next value; `nil` once the property's source finished or the consumer was cancelled.
    @inlinable public mutating func next() async -> Value? {
      await next(isolation: nil)
    }

    /// The next value, running on the caller's actor.
    @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
      if subject != nil { return await subject!.next(isolation: actor) }
      if let next = derived {
        let value = await next()
        // Let go of the sources at once when the iteration ends (a combined property stops its input tasks).
        if value == nil { derived = nil }
        return value
      }
      defer { constant = nil }
      return constant
    }
  }
}

/// How a derived ``Property`` reads its value and registers its consumers. It keeps the sources alive (the
/// closures capture them); what `register` returns must not, so that consumers never keep a state alive.
///
/// Closures rather than existentials, on purpose: a closure made in the client's specialised code runs
/// specialised, while a call through an existential of a generic type runs the generic code (metadata look-ups
/// on every read, measured at ~1.6 µs for a combineLatest of 3 + map).
@usableFromInline final class DerivedProperty<Value: Sendable>: Sendable {
  @usableFromInline let read: @Sendable () -> Value
  @usableFromInline let register: @Sendable (BufferingPolicy) -> DerivedRegistration<Value>
  @usableFromInline let consumers = ConsumerCounter()
  /// Whatever must live as long as the property (the feed of `Property(initial:then:)`).
  let owner: (any Sendable)?

  @usableFromInline init(
    read: @escaping @Sendable () -> Value,
    register: @escaping @Sendable (BufferingPolicy) -> DerivedRegistration<Value>,
    owner: (any Sendable)? = nil
  ) {
    self.read = read
    self.register = register
    self.owner = owner
  }
}

/// The next value of a derived property's iteration.
/// `nonisolated(nonsending)`: it runs on the caller's executor, so a value costs no executor hop (a closure
/// with an `isolated` parameter hopped on every call: ~25% of a delivery in the profile).
@usableFromInline typealias DerivedNext<Value> = nonisolated(nonsending) () async -> Value?

/// A consumer of a derived property, registered with its sources; makes its iterator once.
@usableFromInline struct DerivedRegistration<Value: Sendable>: Sendable {
  @usableFromInline let makeIterator: @Sendable () -> DerivedNext<Value>

  /// Iterates `sequence` (already registered with its sources) through a closure made here, in the caller's
  /// specialised code.
  @inlinable init<Registered: AsyncSequence & Sendable>(_ sequence: Registered)
  where Registered.Element == Value, Registered.Failure == Never {
    makeIterator = {
      let cell = IteratorCell(sequence.makeAsyncIterator())
      return { await cell.next(isolation: #isolation) }
    }
  }
}

/// Holds an iterator for the closure that advances it.
@usableFromInline final class IteratorCell<Base: AsyncIteratorProtocol> where Base.Failure == Never {
  @usableFromInline var base: Base

  @inlinable init(_ base: Base) {
    self.base = base
  }

  @inlinable func next(isolation actor: isolated (any Actor)?) async -> Base.Element? {
    await base.next(isolation: actor)
  }
}

/// The live consumers of a derived property.
@usableFromInline final class ConsumerCounter: Sendable {
  let live = Atomic<Int>(0)

  @usableFromInline init() {}

  var count: Int { live.load(ordering: .relaxed) }
}

/// One consumer, counted from its registration until its subscription and iterator are gone.
@usableFromInline final class ConsumerToken: Sendable {
  let counter: ConsumerCounter

  @usableFromInline init(_ counter: ConsumerCounter) {
    self.counter = counter
    counter.live.add(1, ordering: .relaxed)
  }

  deinit { counter.live.subtract(1, ordering: .relaxed) }
}

/// The task that feeds `Property(initial:then:)`: cancelled, and the property's consumers finished, when the
/// property is released.
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
