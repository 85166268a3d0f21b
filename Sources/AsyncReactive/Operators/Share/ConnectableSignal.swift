import Synchronization

/// A sequence whose consumers share one subscription to its source, started when you call ``connect()`` rather than
/// by its first consumer (RxSwift's `ConnectableObservable`, made by `publish()`, `replay(_:)` and `multicast`; RAC's
/// `RACMulticastConnection`).
///
/// Consumers iterate (or observe) a subject; ``connect()`` subscribes that subject to the source, and cancelling the
/// returned ``Connection`` unsubscribes it. A consumer that joins before ``connect()`` misses nothing; one that joins
/// later gets what the subject replays, then what the source sends from then on.
///
/// Two kinds, as in RxSwift:
/// - **A subject per connection** (``_Concurrency/AsyncSequence/publish()``,
///   ``_Concurrency/AsyncSequence/replay(_:)``, ``_Concurrency/AsyncSequence/multicast(makeSubject:)``):
///   the subject is made when the first consumer joins or ``connect()`` is called, and dropped when the connection is
///   cancelled or the source ends; a consumer that joins after that waits for the next connection, with nothing
///   replayed from the last one.
/// - **One subject for ever** (``_Concurrency/AsyncSequence/multicast(_:)``): every connection feeds the same
///   subject, which keeps its replayed values and its end.
///
/// ``refCount()`` connects for the first consumer and cancels the connection when the last one leaves.
///
/// ```swift
/// let ticks = Signal.timer(every: .seconds(1)).publish()
/// let first = Task { for await tick in ticks.prefix(3) { print("first", tick) } }
/// let second = Task { for await tick in ticks.prefix(3) { print("second", tick) } }
/// let connection = ticks.connect()   // one timer for both consumers, from here
/// _ = await (first.value, second.value)
/// connection.cancel()
/// ```
public final class ConnectableSignal<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  /// The subscription of the subject to the source that ``ConnectableSignal/connect()`` made; ``cancel()`` ends it.
  ///
  /// ```swift
  /// let connection = prices.replay(1).connect()
  /// lifetime.onEnd { connection.cancel() }   // RxSwift: connection.disposed(by: bag)
  /// ```
  public final class Connection: Sendable {
    @usableFromInline struct State: Sendable {
      /// Stops observing the source, once known (the source is observed after the connection is made).
      var stop: (@Sendable () -> Void)?
      /// The source ended (not a cancellation).
      var sourceEnded = false
      /// What to do when the source ends, before the subject hears it (a ``ConnectableSignal/refCount()`` resets its
      /// count there).
      var onSourceEnd: [@Sendable () -> Void] = []
    }

    @usableFromInline let state = Locked(State())
    /// `false` once the connection is over (cancelled, or its source ended): nothing more reaches the subject. Set
    /// under ``state``'s lock; read by every value the source sends, without it.
    let live = Atomic<Bool>(true)
    /// Held until the connection is over, when the parent lets go of it: a connection nobody cancels keeps its source
    /// observed, as RxSwift's does.
    @usableFromInline let parent: ConnectableSignal

    @usableFromInline init(parent: ConnectableSignal) {
      self.parent = parent
    }

    /// Stops observing the source: the subject gets nothing more from this connection, and a subject made per
    /// connection is dropped (the next consumer or ``ConnectableSignal/connect()`` makes a new one). Cancelling a
    /// connection that is over does nothing.
    ///
    /// ```swift
    /// connection.cancel()
    /// ```
    public func cancel() {
      let stop = state.withLock { state -> (@Sendable () -> Void)? in
        live.store(false, ordering: .releasing)
        defer { state.stop = nil }
        return state.stop
      }
      parent.connectionEnded(self)
      stop?()
    }

    /// Whether the connection is over: cancelled, or its source ended.
    ///
    /// ```swift
    /// if connection.isCancelled { connection = signal.connect() }
    /// ```
    public var isCancelled: Bool { !isLive }

    /// Keeps how to stop observing the source; stops at once when the connection was cancelled or ended meanwhile.
    func started(_ stop: @escaping @Sendable () -> Void) {
      let stopNow = state.withLock { state -> Bool in
        if !isLive { return true }
        state.stop = stop
        return false
      }
      if stopNow { stop() }
    }

    /// The source ended: this connection is over, and the parent lets go of it (and of a subject made for it)
    /// before the subject hears the end, as RxSwift does, so that a consumer that joins in that end gets a new
    /// one. Returns `false` when the connection was over already.
    func sourceEnded() -> Bool {
      let hooks = state.withLock { state -> [@Sendable () -> Void]? in
        guard isLive else { return nil }
        live.store(false, ordering: .releasing)
        state.sourceEnded = true
        state.stop = nil
        defer { state.onSourceEnd = [] }
        return state.onSourceEnd
      }
      guard let hooks else { return false }
      parent.connectionEnded(self)
      for hook in hooks { hook() }
      return true
    }

    /// Calls `hook` when the source ends, before the subject hears it; at once if it ended already.
    func whenSourceEnds(_ hook: @escaping @Sendable () -> Void) {
      let now = state.withLock { state -> Bool in
        if state.sourceEnded { return true }
        if isLive { state.onSourceEnd.append(hook) }
        return false
      }
      if now { hook() }
    }

    /// Whether the subject still takes this connection's values.
    var isLive: Bool { live.load(ordering: .acquiring) }
  }

  /// A subject's node, and the subject itself: a subject that is released finishes its node.
  @usableFromInline typealias MadeSubject = (node: Node<Element, Failure>, subject: any Sendable)

  struct State: Sendable {
    /// The subject consumers observe now; made when needed.
    var subject: MadeSubject?
    var connection: Connection?
  }

  let source: Signal<Element, Failure>
  let makeSubject: @Sendable () -> MadeSubject
  /// Whether each connection has a subject of its own (the subject is dropped with the connection).
  let subjectPerConnection: Bool
  let state = Locked(State())

  @usableFromInline init(
    source: Signal<Element, Failure>, subjectPerConnection: Bool,
    makeSubject: @escaping @Sendable () -> MadeSubject
  ) {
    self.source = source
    self.subjectPerConnection = subjectPerConnection
    self.makeSubject = makeSubject
  }

  /// The subject consumers observe now, made if there is none.
  func currentSubject() -> MadeSubject {
    state.withLock { state in
      if let subject = state.subject { return subject }
      let subject = makeSubject()
      state.subject = subject
      return subject
    }
  }

  /// `connection` is over: it is forgotten, and so is its subject when each connection has its own.
  func connectionEnded(_ connection: Connection) {
    state.withLock { state in
      guard state.connection === connection else { return }
      state.connection = nil
      if subjectPerConnection { state.subject = nil }
    }
  }

  /// Subscribes the subject to the source, unless it is subscribed already: then it returns that connection
  /// (RxSwift's `connect()`). Cancelling either handle ends the one connection.
  ///
  /// The source is observed inside this call: a hot source's next send reaches the consumers; a cold one starts a
  /// run (RxSwift subscribes it here).
  ///
  /// ```swift
  /// let shared = api.events.publish()
  /// shared.observe(in: lifetime) { log($0) }
  /// shared.observe(in: lifetime) { render($0) }
  /// let connection = shared.connect()
  /// ```
  /// - Returns: the connection; keep it to cancel it.
  @discardableResult
  public func connect() -> Connection {
    let (connection, subject, isNew) = state.withLock { state -> (Connection, Node<Element, Failure>, Bool) in
      if let connection = state.connection, let subject = state.subject { return (connection, subject.node, false) }
      let subject = state.subject ?? makeSubject()
      state.subject = subject
      let connection = Connection(parent: self)
      state.connection = connection
      return (connection, subject.node, true)
    }
    guard isNew else { return connection }
    // The source's observer holds the connection until the connection is over (then its stop, and with it this
    // observer, is let go).
    let stop = source.observe(ColdStart.shared.input(of: "connect()")) { value in
      guard connection.isLive else { return }
      subject.send(value)
    } onEnd: { termination in
      guard connection.sourceEnded() else { return }
      subject.terminate(termination)
    }
    connection.started(stop)
    return connection
  }

  /// A ``Signal`` that connects when its first consumer joins and cancels the connection when its last one leaves
  /// (RxSwift's `refCount()`): `publish().refCount()` is what `share()` does.
  ///
  /// A consumer is counted from the moment its iterator is made until it ends or is dropped. When the source ends,
  /// the count starts again from zero: a consumer that joins after that connects anew (with a subject made per
  /// connection, to a new subject). A consumer that gets the subject's end as it joins (a subject made once, that
  /// ended) does not connect.
  ///
  /// ```swift
  /// let location = locationUpdates.replay(1).refCount()   // one source while anyone listens
  /// ```
  public func refCount() -> Signal<Element, Failure> {
    Signal(RefCounted(connectable: self, counter: RefCounter()))
  }

  /// The sequence ``refCount()`` returns: each iteration registers with the subject of the moment and counts itself in.
  struct RefCounted: AsyncSequence, Sendable, ReiterableAsyncSequence {
    let connectable: ConnectableSignal
    let counter: RefCounter

    func makeAsyncIterator() -> Iterator { counter.join(connectable) }
  }

  /// The number of consumers of a ``refCount()`` and its connection.
  ///
  /// A consumer's registration with the subject, its count and the connection it makes or ends happen under one
  /// lock: a consumer that joins while the last one leaves either shares the connection the leaver is about to end
  /// (then it is not the last any more) or comes after it ended, and connects to a subject of its own connection.
  final class RefCounter: Sendable {
    struct State: Sendable {
      var count = 0
      /// Moves when the source ends: the consumers of the old connection no longer count.
      var generation = 0
      var connection: Connection?
    }
    let state = Locked(State())

    /// A consumer joins: it registers with the subject of the moment and counts itself in; the first connects.
    func join(_ connectable: ConnectableSignal) -> Iterator {
      let (iterator, connected, generation) = state.withLock { state -> (Iterator, Connection?, Int) in
        let (node, keep) = connectable.currentSubject()
        let base = SubjectSubscription(storage: node, policy: .unbounded).makeAsyncIterator()
        // Ended already (a subject made once, that ended): it replays its end, and nothing connects.
        guard !node.isTerminated else { return (Iterator(base: base, keep: keep), nil, state.generation) }
        state.count += 1
        let membership = Membership(counter: self, generation: state.generation)
        guard state.count == 1 else { return (Iterator(base: base, keep: keep, membership: membership), nil, 0) }
        let connection = connectable.connect()
        state.connection = connection
        return (Iterator(base: base, keep: keep, membership: membership), connection, state.generation)
      }
      // Outside the lock: a source that ended inside connect() calls back at once.
      connected?.whenSourceEnds { [weak self] in self?.sourceEnded(generation) }
      return iterator
    }

    /// A consumer of `generation` left: the last one ends the connection.
    func leave(_ generation: Int) {
      state.withLock { state in
        guard state.generation == generation, state.count > 0 else { return }
        state.count -= 1
        guard state.count == 0 else { return }
        state.connection?.cancel()
        state.connection = nil
      }
    }

    /// The source of `generation`'s connection ended: the count starts again (RxSwift's RefCount on a stop event).
    func sourceEnded(_ generation: Int) {
      state.withLock { state in
        guard state.generation == generation else { return }
        state.generation &+= 1
        state.count = 0
        state.connection = nil
      }
    }
  }

  /// One consumer counted by a ``RefCounter``: it leaves once, when its iterator ends or is dropped.
  final class Membership: Sendable {
    let counter: RefCounter
    let generation: Int
    let left = Atomic<Bool>(false)

    init(counter: RefCounter, generation: Int) {
      self.counter = counter
      self.generation = generation
    }

    func leave() {
      guard !left.exchange(true, ordering: .relaxed) else { return }
      counter.leave(generation)
    }

    deinit { leave() }
  }

  /// Registers with the subject consumers observe now: a consumer made before ``connect()`` misses nothing.
  ///
  /// ```swift
  /// for await value in connectable { print(value) }
  /// ```
  public func makeAsyncIterator() -> Iterator {
    let (node, keep) = currentSubject()
    return Iterator(base: SubjectSubscription(storage: node, policy: .unbounded).makeAsyncIterator(), keep: keep)
  }

  /// A consumer of a ``ConnectableSignal``: the subject's values, in order, then its end.
  public struct Iterator: AsyncIteratorProtocol {
    var base: SubjectSubscription<Element, Failure>.Iterator
    /// The subject, alive while this consumer reads it (a released subject finishes its consumers; a subject made
    /// per connection is let go by the connectable when its connection ends).
    let keep: any Sendable
    /// The consumer's place in a ``ConnectableSignal/refCount()``'s count; `nil` otherwise, and once it ended.
    var membership: Membership?

    init(base: SubjectSubscription<Element, Failure>.Iterator, keep: any Sendable, membership: Membership? = nil) {
      self.base = base
      self.keep = keep
      self.membership = membership
    }

    /// The next value of the subject, `nil` once it finished.
    ///
    /// **Throws:** the subject's failure, once.
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// The next value, on the caller's actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      do {
        guard let value = try await base.next(isolation: actor) else {
          membership?.leave()
          membership = nil
          return nil
        }
        return value
      } catch {
        membership?.leave()
        membership = nil
        throw error
      }
    }
  }
}

extension ConnectableSignal: ReiterableAsyncSequence {}

extension ConnectableSignal.RefCounted {
  typealias Iterator = ConnectableSignal.Iterator
}
