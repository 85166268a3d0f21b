extension AsyncSequence {
  /// Collects the values into arrays of `count` (RxSwift `buffer(timeSpan:count:)` without the time, Combine
  /// `collect(_:)`, ReactiveSwift `collect(count:)`).
  ///
  /// Each array holds `count` consecutive values, in order; no value is dropped or repeated. With `count` 2:
  ///
  /// | upstream | output         |
  /// |----------|----------------|
  /// | `a`      |                |
  /// | `b`      | `[a, b]`       |
  /// | `c`      |                |
  /// | `d`      | `[c, d]`       |
  /// | `e`      |                |
  /// | finish   | `[e]`, finish  |
  ///
  /// **Finishes:** when the upstream finishes, right after emitting the last, shorter array if values are left
  /// (never an empty array).
  ///
  /// **Throws:** the upstream's failure, at once; the values collected for an incomplete array are dropped (as in
  /// RxSwift and Combine).
  ///
  /// **Cancellation:** runs in the consumer's task, with no task of its own: cancelling the consumer or dropping
  /// the iterator cancels the upstream; the values collected for an incomplete array are dropped.
  ///
  /// **Buffering:** holds at most `count - 1` values between two arrays.
  ///
  /// ```swift
  /// for await batch in analyticsEvents.buffer(count: 50) {
  ///   try? await api.upload(batch)
  /// }
  /// ```
  /// - Parameter count: how many values go into each array; at least 1.
  /// - Returns: a sequence of arrays of `count` values (the last one may be shorter).
  @inlinable
  public func buffer(count: Int) -> AsyncBufferByCountSequence<Self> {
    precondition(count >= 1, "buffer(count: \(count)): the count must be at least 1")
    return AsyncBufferByCountSequence(self, count: count)
  }
}

/// An async sequence of arrays of consecutive values; see ``_Concurrency/AsyncSequence/buffer(count:)``.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// **Finishes:** when the upstream finishes, after the last, shorter array if values are left.
///
/// **Throws:** the upstream's failure, at once (the values of an incomplete array are dropped).
///
/// **Cancellation:** follows the consumer, in whose task it runs.
///
/// ```swift
/// let pairs: AsyncBufferByCountSequence<Signal<Int, Never>> = Signal([1, 2, 3]).buffer(count: 2)  // [1, 2], [3]
/// ```
public struct AsyncBufferByCountSequence<Base: AsyncSequence>: AsyncSequence {
  public typealias Element = [Base.Element]
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let count: Int

  @inlinable
  init(_ base: Base, count: Int) {
    self.base = base
    self.count = count
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), count: count)
  }

  /// The iterator of an ``AsyncBufferByCountSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator?
    @usableFromInline let count: Int

    @inlinable
    init(base: Base.AsyncIterator, count: Int) {
      self.base = base
      self.count = count
    }

    /// The next `count` values (fewer at the end), `nil` once the upstream finished.
    ///
    /// **Throws:** the upstream's failure.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> [Base.Element]? {
      guard base != nil else { return nil }
      var batch: [Base.Element] = []
      batch.reserveCapacity(count)
      do throws(Failure) {
        while batch.count < count {
          guard let element = try await base?.next(isolation: actor) else {
            base = nil
            // A cancelled consumer's upstream ends like a finished one: its incomplete array is not flushed.
            return batch.isEmpty || Task.isCancelled ? nil : batch
          }
          batch.append(element)
        }
      } catch {
        base = nil
        throw error
      }
      return batch
    }

    /// The next `count` values (fewer at the end), `nil` once the upstream finished.
    ///
    /// **Throws:** the upstream's failure.
    @inlinable
    public mutating func next() async throws(Failure) -> [Base.Element]? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncBufferByCountSequence: Sendable where Base: Sendable {}

/// Each iteration iterates the upstream anew, so `retry` works through it.
extension AsyncBufferByCountSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}

extension AsyncBufferByCountSequence: ReactiveSequence {}

// MARK: Hot

extension HotSequence {
  /// Collects the values into arrays of `count` inside the upstream's `send`, one collection for all consumers
  /// (ReactiveSwift `Signal.collect(count:)`, RxSwift `buffer(timeSpan:count:)` without the time).
  ///
  /// The array being filled belongs to the node's connection: it starts empty when the node starts observing the
  /// upstream (its first consumer arrived) and is dropped when the last consumer leaves.
  ///
  /// **Finishes:** when the upstream finishes, right after emitting the last, shorter array if values are left
  /// (never an empty array).
  ///
  /// **Throws:** the upstream's failure, at once; the values collected for an incomplete array are dropped.
  ///
  /// ```swift
  /// let batches = analyticsEvents.buffer(count: 50)   // HotSignal<[Event], Never>
  /// batches.sink(in: lifetime) { batch in uploader.enqueue(batch) }
  /// ```
  /// - Parameter count: how many values go into each array; at least 1.
  /// - Returns: a ``HotSignal`` of arrays of `count` values (the last one may be shorter).
  @inlinable public func buffer(count: Int) -> HotSignal<[Element], Failure> {
    precondition(count >= 1, "buffer(count: \(count)): the count must be at least 1")
    let upstream = hotSignal.node
    return HotSignal(
      node: SubjectStorage(replay: SubjectStorage.replay(following: upstream)) { node in
        let batch = ConnectionState<[Element]>([])
        let sink = upstream.addSink { value in
          batch.value.append(value)
          guard batch.value.count == count else { return }
          let full = batch.value
          batch.value.removeAll(keepingCapacity: true)
          node.send(full)
        } onEnd: { termination in
          if case .finished = termination, !batch.value.isEmpty {
            let rest = batch.value
            batch.value = []
            node.send(rest)
          }
          node.terminate(termination)
        }
        return { upstream.removeSink(sink) }
      })
  }
}
