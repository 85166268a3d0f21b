import Synchronization

/// A consumer of a subject that is registered already: every value sent from the moment
/// `subscribe()` returned is buffered for it, even before its loop starts.
///
/// Iterate it once. Dropping it (or its iterator), breaking out of the loop or cancelling the consuming task
/// removes the consumer from the subject at once.
///
/// ```swift
/// let subject = AsyncPassthroughSubject<Int, Never>()
/// let values = subject.subscribe()   // registered now
/// subject.send(1)                    // buffered for `values`
/// for await value in values { print(value) }   // prints 1 first
/// ```
public struct SubjectSubscription<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  @usableFromInline let registration: Registration

  @inlinable package init(storage: Node<Element, Failure>, policy: BufferingPolicy) {
    registration = Registration(
      storage: storage, id: storage.register(policy: policy), unbounded: policy.isUnbounded)
  }

  /// Starts consuming. A subscription has one consumer: a second call traps.
  @inlinable public func makeAsyncIterator() -> Iterator {
    let alreadyIterated = registration.iterated.exchange(true, ordering: .relaxed)
    precondition(
      !alreadyIterated,
      "SubjectSubscription was iterated twice: call subscribe() (or iterate the subject) once per consumer"
    )
    return Iterator(registration: registration)
  }

  /// The iterator of a ``SubjectSubscription``: returns buffered values in send order, then the terminal event.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let consumer: Consumer
    @usableFromInline var cursor: ConsumerCursor<Node<Element, Failure>>

    @inlinable init(registration: Registration) {
      self.consumer = Consumer(registration: registration)
      self.cursor = ConsumerCursor(
        host: registration.storage, id: registration.id, unbounded: registration.unbounded)
    }

    /// The next value, `nil` after the subject finished (or the consumer was cancelled).
    ///
    /// **Throws:** the subject's failure, once, after every value sent before it.
    @inlinable public mutating func next() async throws(Failure) -> Element? {
      defer { if cursor.ended { consumer.removed = true } }
      return try await cursor.next(isolation: nil)
    }

    /// The next value, running on the caller's actor so that a buffered value costs no executor hop.
    @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      defer { if cursor.ended { consumer.removed = true } }
      return try await cursor.next(isolation: actor)
    }

    /// Appends the values taken from the subject already and not returned yet (a run that hands them over in one
    /// batch).
    @inlinable mutating func takeBuffered(into batch: inout [Element]) {
      cursor.takeBuffered(into: &batch)
    }
  }

  /// Removes the consumer when its iterator is dropped (a `break` out of the loop), even if the
  /// subscription value itself is still held.
  @usableFromInline final class Consumer {
    /// Kept so that the consumer stays counted in ``LiveCounts`` while the iterator lives.
    @usableFromInline let registration: Registration

    /// Set once the cursor removed the consumer itself (it saw the end, or was cancelled): no second removal.
    @usableFromInline var removed = false

    @inlinable init(registration: Registration) {
      self.registration = registration
    }

    deinit { if !removed { registration.storage.removeConsumer(registration.id) } }
  }

  /// Keeps the consumer registered while the subscription lives and has not been iterated.
  @usableFromInline final class Registration: Sendable {
    @usableFromInline let storage: Node<Element, Failure>
    @usableFromInline let id: Int
    /// Whether the consumer's buffer drops nothing (it may then pace a burst; see `ConsumerCursor`).
    @usableFromInline let unbounded: Bool
    @usableFromInline let iterated = Atomic<Bool>(false)
    /// Where this consumer is counted (``LiveCounts``, and the test's scope if any).
    @usableFromInline let resourceScope: ResourceScope?

    @inlinable init(storage: Node<Element, Failure>, id: Int, unbounded: Bool) {
      self.storage = storage
      self.id = id
      self.unbounded = unbounded
      self.resourceScope = ResourceCounters.acquireConsumer()
      resourceScope?.noteConsumer(self, kind: "an iterator (subscribe or for await)", of: storage)
    }

    // Once iterated, the iterator's `Consumer` owns the registration and removes the consumer.
    deinit {
      if !iterated.load(ordering: .relaxed) { storage.removeConsumer(id) }
      resourceScope?.forgetConsumer(self)
      ResourceCounters.releaseConsumer(in: resourceScope)
    }
  }
}

extension SubjectSubscription: ReactiveSequence {}

extension SubjectSubscription {
  /// Makes the subscription's consumer an observer of the subject, when its buffer drops nothing: what it buffered,
  /// then everything the subject sends, reaches `onValue` and `onEnd` from inside the subject's `send`, the way a hot
  /// operator observes a subject, with no value lost or reordered (one critical section). Returns what stops
  /// observing. Like the subscription, it can be started once. `nil` for a bounded buffer, whose policy a consumer's
  /// pace decides: that one is read as it is.
  @inlinable package func adopt(
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Termination<Failure>) -> Void
  ) -> (@Sendable () -> Void)? {
    let registration = self.registration
    guard registration.unbounded else { return nil }
    let alreadyIterated = registration.iterated.exchange(true, ordering: .relaxed)
    precondition(
      !alreadyIterated,
      "SubjectSubscription was iterated twice: call subscribe() (or iterate the subject) once per consumer"
    )
    let storage = registration.storage
    let sink = storage.adoptConsumer(registration.id, onValue: onValue, onEnd: onEnd)
    // The registration stays with the observer: it keeps the consumer counted while it observes the subject.
    return { withExtendedLifetime(registration) { storage.removeSink(sink) } }
  }
}
