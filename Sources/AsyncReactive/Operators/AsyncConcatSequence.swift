/// The elements of each sequence, one sequence after another: the next one starts when the previous one finished
/// (RxSwift `Observable.concat`, ReactiveSwift `SignalProducer.concat`, RAC `concat:`).
///
/// | time | `a`     | `b`          | output   |
/// |------|---------|--------------|----------|
/// | 1    | `1`     |              | `1`      |
/// | 2    | finish  | (starts)     |          |
/// | 3    |         | `2`          | `2`      |
/// | 4    |         | finish       | finish   |
///
/// A later sequence is iterated only when its turn comes (`makeAsyncIterator()` is called then): a cold ``Signal``
/// starts its work then, and a subject counts only what it sends from then on, as with RxSwift's `concat`. For
/// sequences of different types, erase them: `concat(cached.eraseToSignal(), fresh.eraseToSignal())`.
///
/// **Finishes:** when the last sequence finishes (at once without sequences).
///
/// **Throws:** the first failure, at once; the later sequences never start.
///
/// **Cancellation:** runs in the consumer's task, with no task of its own: cancelling the consumer or dropping
/// the iterator cancels the running sequence, and the later ones never start.
///
/// ```swift
/// // The cached profile first, then the fresh one from the network.
/// for try await profile in concat(Signal.just(cachedProfile), Signal.future { try await api.profile() }) {
///   show(profile)
/// }
/// ```
/// - Parameter bases: the sequences, in the order they run.
/// - Returns: an ``AsyncConcatSequence`` of their elements.
@inlinable public func concat<Base: AsyncSequence>(_ bases: Base...) -> AsyncConcatSequence<Base> {
  AsyncConcatSequence(bases)
}

/// The elements of each sequence of an array, one sequence after another: the next one starts when the previous
/// one finished (RxSwift `Observable.concat(_:)` of a collection).
///
/// **Finishes:** when the last sequence finishes; at once for an empty array.
///
/// **Throws:** the first failure, at once; the later sequences never start.
///
/// **Cancellation:** runs in the consumer's task: cancelling the consumer or dropping the iterator cancels the
/// running sequence, and the later ones never start.
///
/// ```swift
/// let pages = (1...3).map { page in Signal.future { try await api.page(page) } }
/// for try await page in concat(pages) { append(page) }   // page 1, then 2, then 3
/// ```
/// - Parameter bases: the sequences, in the order they run.
/// - Returns: an ``AsyncConcatSequence`` of their elements.
@inlinable public func concat<Base: AsyncSequence>(_ bases: [Base]) -> AsyncConcatSequence<Base> {
  AsyncConcatSequence(bases)
}

/// The elements of several sequences, one sequence after another; see ``concat(_:)-([Base])``.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// **Finishes:** when the last sequence finishes.
///
/// **Throws:** the first failure, at once.
///
/// **Cancellation:** follows the consumer, in whose task it runs.
///
/// ```swift
/// let both: AsyncConcatSequence<Signal<Int, Never>> = concat(Signal([1, 2]), Signal([3]))  // 1, 2, 3
/// ```
public struct AsyncConcatSequence<Base: AsyncSequence>: AsyncSequence {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  @usableFromInline let bases: [Base]

  @inlinable init(_ bases: [Base]) {
    self.bases = bases
  }

  /// Makes the first sequence's iterator now (a subject first in line is subscribed from this moment); its
  /// work starts at the first `next()`.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(bases: bases)
  }

  /// The iterator of an ``AsyncConcatSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let bases: [Base]
    @usableFromInline var index = 0
    /// The running sequence's iterator; `nil` once the result ended.
    @usableFromInline var current: Base.AsyncIterator?

    @inlinable init(bases: [Base]) {
      self.bases = bases
      current = bases.first?.makeAsyncIterator()
    }

    /// The next element of the running sequence, starting the next sequence when it finishes.
    ///
    /// **Throws:** the first failure of a sequence.
    @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      while current != nil {
        do throws(Failure) {
          if let element = try await current?.next(isolation: actor) { return element }
        } catch {
          current = nil
          throw error
        }
        // A cancelled consumer's sequence ends like a finished one: do not start the next one for it.
        index += 1
        current = index < bases.count && !Task.isCancelled ? bases[index].makeAsyncIterator() : nil
      }
      return nil
    }

    /// The next element of the running sequence, starting the next sequence when it finishes.
    ///
    /// **Throws:** the first failure of a sequence.
    @inlinable public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncConcatSequence: Sendable where Base: Sendable {}

/// Each iteration runs every sequence anew, so `retry` works through it.
extension AsyncConcatSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}

extension AsyncConcatSequence: ReactiveSequence {}
