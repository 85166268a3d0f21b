extension AsyncSequence {
  /// Emits `values` first, then the upstream's values (RxSwift `startWith`, RAC `startWith:`).
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// let results = searches.prepend([])   // the view starts with an empty list
  /// ```
  @inlinable
  public func prepend(_ values: Element...) -> AsyncPrependSequence<Self> {
    AsyncPrependSequence(self, prefix: values)
  }

  /// Emits the elements of `values` first, then the upstream's values.
  ///
  /// ```swift
  /// let withHistory = liveEvents.prepend(contentsOf: savedEvents)
  /// ```
  @inlinable
  public func prepend(contentsOf values: some Sequence<Element>) -> AsyncPrependSequence<Self> {
    AsyncPrependSequence(self, prefix: Array(values))
  }
}

/// An async sequence that starts with fixed values; see ``_Concurrency/AsyncSequence/prepend(_:)``.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
public struct AsyncPrependSequence<Base: AsyncSequence>: AsyncSequence {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let prefix: [Element]

  @inlinable
  init(_ base: Base, prefix: [Element]) {
    self.base = base
    self.prefix = prefix
  }

  /// Starts iterating: the prefix first. The upstream iterator is made now, so a subject's consumer is
  /// registered before the prefix is consumed and misses nothing.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), prefix: prefix)
  }

  /// The iterator of an ``AsyncPrependSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let prefix: [Element]
    @usableFromInline var index = 0

    @inlinable
    init(base: Base.AsyncIterator, prefix: [Element]) {
      self.base = base
      self.prefix = prefix
    }

    /// The next prefix value, then the upstream's.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      if index < prefix.count {
        defer { index += 1 }
        return prefix[index]
      }
      return try await base.next(isolation: actor)
    }

    /// The next prefix value, then the upstream's.
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncPrependSequence: Sendable where Base: Sendable, Element: Sendable {}

/// Each iteration iterates the upstream anew, so `retry` works through it.
extension AsyncPrependSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncPrependSequence: ReactiveSequence {}

// MARK: Hot

extension HotSequence {
  /// Gives each consumer `values` first, when it subscribes, then the upstream's values as they are sent
  /// (RxSwift `startWith` applied per subscription).
  ///
  /// The values belong to the subscription, not to the stream: every consumer of the result (a `for await` loop,
  /// a ``HotSignal/sink(in:onValue:onEnd:)``, an operator that observes it) receives them at the moment it
  /// registers, before anything else, even one that joins late or after the upstream ended. Then it gets what
  /// this node replays (the output of the upstream's current value, when the upstream has one) and the live values,
  /// shared with the other consumers. An operator applied after `prepend` is one consumer: it receives the values
  /// when it starts observing (its first consumer) and, being hot, passes them on to the consumers it has then;
  /// its later consumers see only what it produces after they join. So put `prepend` last, where each consumer
  /// subscribes (`results.map(render).prepend(placeholder)`), as you would put `startWith` after `share()`; for
  /// state with a starting value, ``Property/init(initial:then:)`` keeps the latest value for everyone.
  ///
  /// **Finishes:** when the upstream finishes; a consumer that registers after that receives `values`, then the end.
  ///
  /// **Throws:** the upstream's failure, after `values`.
  ///
  /// ```swift
  /// let results = AsyncPassthroughSubject<[Repo], Never>()
  /// let shown = results.prepend([])              // HotSignal<[Repo], Never>
  /// for await list in shown { render(list) }      // [] at once, then each result
  /// ```
  /// - Parameter values: what each consumer receives first, in order.
  /// - Returns: a ``HotSignal`` that starts every subscription with `values`.
  @inlinable public func prepend(_ values: Element...) -> HotSignal<Element, Failure> {
    hotPrepend(values)
  }

  /// Gives each consumer the elements of `values` first, when it subscribes, then the upstream's values.
  ///
  /// Works as ``prepend(_:)->HotSignal<Self.Element,Self.Failure>`` does.
  ///
  /// ```swift
  /// let history = liveEvents.prepend(contentsOf: savedEvents)   // HotSignal<Event, Never>
  /// ```
  /// - Parameter values: what each consumer receives first, in order; read once, now.
  /// - Returns: a ``HotSignal`` that starts every subscription with `values`.
  @inlinable public func prepend(contentsOf values: some Sequence<Element>) -> HotSignal<Element, Failure> {
    hotPrepend(Array(values))
  }

  /// The node under both forms: a pass-through node whose registrations start with `prefix`.
  @inlinable func hotPrepend(_ prefix: [Element]) -> HotSignal<Element, Failure> {
    let upstream = hotSignal.node
    return HotSignal(
      node: SubjectStorage(replay: SubjectStorage.replay(following: upstream), prefix: prefix) { node in
        let sink = upstream.addSink { value in
          node.send(value)
        } onEnd: { termination in
          node.terminate(termination)
        }
        return { upstream.removeSink(sink) }
      })
  }
}
