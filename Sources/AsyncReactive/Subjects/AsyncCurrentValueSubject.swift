import Synchronization

/// A hot subject that holds a current value: each consumer receives it first, then every later value.
///
/// The counterpart of RACBehaviorSubject, RxSwift's `BehaviorSubject` / `BehaviorRelay`, ReactiveSwift's
/// `MutableProperty` and Combine's `CurrentValueSubject` (named apart from Combine's, so a SwiftUI file can name
/// both unqualified). ``value`` reads and writes synchronously from any thread: after
/// `subject.value = x` returns, every read of it, and of every ``Property`` derived from it, sees `x`.
///
/// **Observation:** reading ``value`` inside `withObservationTracking`, `Observations { }` or a SwiftUI
/// `body` is tracked, and every change fires the tracking, as for an `@Observable` property.
///
/// **Finishes:** when ``finish()`` is called, or when the subject is released (nobody can send any more).
/// Like RxSwift's `BehaviorSubject` and Combine, a consumer that subscribes after termination receives only
/// the terminal event, not the last value.
///
/// **Throws:** the error passed to ``fail(_:)``.
///
/// **Cancellation:** a consumer whose task is cancelled, or that breaks out of its loop, is removed at once.
///
/// ```swift
/// let searchText = AsyncCurrentValueSubject<String, Never>("")
/// searchText.value = "swift"          // sends "swift"
/// for await text in searchText { print(text) }   // "swift", then later edits
/// ```
///
/// **Changing it from several tasks:** `subject.value += 1` reads, then sends; two tasks doing it at once can
/// lose an update. ``modify(_:)`` changes the value atomically: `counter.modify { $0 += 1 }`.
///
/// **Changes only:** ``changes`` skips the current value (ReactiveSwift's `property.signal`).
public final class AsyncCurrentValueSubject<Element: Sendable, Failure: Error>: SubjectProtocol {
  @usableFromInline let storage: Node<Element, Failure>
  @usableFromInline let observation = ValueObservation()
  /// The thread running a ``modify(_:)`` closure now (0 when none): a call back into the subject from that
  /// closure would wait for the lock the closure runs under, forever; it traps instead.
  @usableFromInline let modifyingThread = Atomic<UInt>(0)

  /// Creates a subject holding `value`.
  ///
  /// ```swift
  /// let isLoading = AsyncCurrentValueSubject<Bool, Never>(false)
  /// ```
  @inlinable public init(_ value: Element) {
    storage = Node(replay: .current, initial: value, origin: NodeOrigin(.currentValueSubject))
  }

  /// The current value. Setting it sends the new value to every consumer (ignored after termination, when
  /// the last value sent before termination stays readable).
  ///
  /// ```swift
  /// counter.value += 1
  /// ```
  @inlinable public var value: Element {
    // The replay buffer of a current-value storage always holds exactly one value.
    get {
      checkNotInModify("value")
      observation.access()
      return storage.latest!
    }
    set { send(newValue) }
  }

  /// Sets ``value`` and delivers it to every current consumer; ignored after termination.
  ///
  /// ```swift
  /// subject.send(3)
  /// ```
  @inlinable public func send(_ value: Element) {
    checkNotInModify("send(_:)")
    observation.mutation { storage.send(value) }
  }

  /// Changes the current value in place, atomically, and sends the result once (ReactiveSwift's
  /// `MutableProperty.modify`): no other send or modification comes between the read and the write.
  ///
  /// `subject.value += 1` is a read followed by a send: two tasks doing it at once can both read 4 and both send
  /// 5, losing an increment. `subject.modify { $0 += 1 }` cannot: eight tasks doing it 10,000 times each leave
  /// 80,000. Consumers and observers receive each new value once, in the order of the modifications, like any
  /// ``send(_:)``; a `withObservationTracking` scope hears of the change.
  ///
  /// **The closure runs under the subject's lock**: keep it short, and do not call back into this subject from
  /// it. Reading or setting ``value``, calling ``send(_:)``, ``finish()``, ``fail(_:)``, `modify`, subscribing
  /// or observing this subject (or reading a ``Property`` derived from it, which reads ``value``) from inside
  /// the closure traps with a message naming the call, instead of waiting for the lock forever. Other subjects
  /// are fine: read them before, or inside.
  ///
  /// **Throws:** what `body` throws, with its type; then the value is unchanged and nothing is sent.
  ///
  /// After ``finish()`` or ``fail(_:)``, `body` runs on a copy of the last value and nothing changes or is sent,
  /// as a ``send(_:)`` is ignored then.
  ///
  /// ```swift
  /// let cart = AsyncCurrentValueSubject<[Item], Never>([])
  /// cart.modify { $0.append(item) }                      // from any task: no lost update
  /// let ticket = counter.modify { n -> Int in n += 1; return n }   // the closure's result comes back
  /// ```
  /// - Parameter body: changes the value in place; runs once, synchronously, on the calling thread.
  /// - Returns: what `body` returned.
  @discardableResult
  @inlinable public func modify<Result, BodyFailure: Error>(
    _ body: (inout Element) throws(BodyFailure) -> Result
  ) throws(BodyFailure) -> Result {
    checkNotInModify("modify(_:)")
    let outcome = observation.mutation { () -> Swift.Result<Result, BodyFailure> in
      do throws(BodyFailure) {
        return .success(
          try storage.modifyCurrent { (value: inout Element) throws(BodyFailure) -> Result in
            modifyingThread.store(currentThreadID(), ordering: .relaxed)
            defer { modifyingThread.store(0, ordering: .relaxed) }
            return try body(&value)
          })
      } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }

  /// Traps when the calling thread is inside this subject's ``modify(_:)`` closure: the call would wait for the
  /// lock that the closure holds. One relaxed load when nobody modifies: only the modifying thread ever finds
  /// its own id here.
  @inlinable func checkNotInModify(_ call: StaticString) {
    let owner = modifyingThread.load(ordering: .relaxed)
    if owner != 0 && owner == currentThreadID() {
      preconditionFailure(
        "AsyncCurrentValueSubject.\(call) called from inside modify(_:) on the same subject: the closure runs under "
          + "the subject's lock; read or change the value through the closure's inout parameter instead")
    }
  }

  /// Ends every current and later consumer normally.
  ///
  /// ```swift
  /// subject.finish()
  /// ```
  @inlinable public func finish() {
    checkNotInModify("finish()")
    storage.terminate(.finished)
  }

  /// Ends every current and later consumer with `error`.
  ///
  /// ```swift
  /// subject.fail(LoadError.offline)
  /// ```
  @inlinable public func fail(_ error: Failure) {
    checkNotInModify("fail(_:)")
    storage.terminate(.failed(error))
  }

  /// Registers a consumer now, starting with the current value.
  ///
  /// ```swift
  /// let texts = searchText.subscribe(bufferingPolicy: .bufferingNewest(1))
  /// ```
  @inlinable public func subscribe(bufferingPolicy: BufferingPolicy) -> SubjectSubscription<Element, Failure> {
    checkNotInModify("subscribe(bufferingPolicy:)")
    return SubjectSubscription(storage: storage, policy: bufferingPolicy)
  }

  /// Registers a consumer and starts iterating: the current value comes first.
  @inlinable public func makeAsyncIterator() -> SubjectSubscription<Element, Failure>.Iterator {
    subscribe().makeAsyncIterator()
  }

  /// How many consumers are registered now (RxSwift's `hasObservers`, as a count): each iterating loop and
  /// each ``subscribe(bufferingPolicy:)`` not yet dropped. A consumer that stopped is removed at once.
  ///
  /// ```swift
  /// #expect(subject.consumerCount == 0)   // in a test: nothing still listens
  /// ```
  @inlinable public var consumerCount: Int {
    checkNotInModify("consumerCount")
    return storage.consumerCount
  }

  /// Calls `onValue` synchronously for each value, and `onEnd` when the subject ends, while `lifetime` lasts;
  /// see ``SubjectProtocol/sink(in:onValue:onEnd:)``.
  ///
  /// ```swift
  /// subject.sink(in: lifetime, onValue: { print($0) }, onEnd: { print("ended", $0 as Any) })
  /// ```
  public func sink(
    in lifetime: Lifetime,
    onValue: @escaping @Sendable (Element) -> Void,
    onEnd: @escaping @Sendable (Failure?) -> Void
  ) {
    checkNotInModify("sink(in:onValue:onEnd:)")
    storage.sink(in: lifetime, onValue: onValue, onEnd: onEnd)
  }

  // Nobody can send any more: end the consumers, which never keep the subject alive (ReactiveSwift's
  // `MutableProperty` completes on deinit too). A consumer that waits forever on a released subject is a leak.
  deinit { storage.endReleased("\(Self.self)") }
}

extension AsyncCurrentValueSubject: ReactiveSequence {}

extension AsyncCurrentValueSubject {
  /// Every change of the value from now on, without the current value (ReactiveSwift's `property.signal`, where
  /// iterating the subject itself is its `producer`): a ``HotSignal`` evaluated inside ``send(_:)``.
  ///
  /// Each consumer or observer gets every value sent after it registered (at `makeAsyncIterator()`,
  /// `subscribe()` or `sink`), in order, and never the value that was current when it registered. A value
  /// sent again counts as a change. Operators applied to it run inside ``send(_:)``, like any hot chain.
  ///
  /// **Finishes:** when the subject finishes or is released. **Throws:** the subject's failure.
  ///
  /// ```swift
  /// let query = AsyncCurrentValueSubject<String, Never>("")
  /// query.changes.sink(in: lifetime) { print("edited:", $0) }   // prints nothing now
  /// query.value = "swift"                                         // prints "edited: swift"
  /// ```
  @inlinable public var changes: HotSignal<Element, Failure> { hotSignal.changesOnly() }
}

extension HotSequence {
  /// A node that passes on everything but the first value each connection receives: over a current-value node,
  /// whose first value to a new observer is its current value (replayed under its lock, before any later send),
  /// that is exactly its changes. It replays nothing, so a consumer that joins a connected node gets only later
  /// values too.
  @inlinable func changesOnly() -> HotSignal<Element, Failure> {
    hotDropFirst()
  }
}
