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
/// A later sequence runs only when its turn comes: a cold ``Signal`` starts its work then, and a subject counts only
/// what it sends from then on, as with RxSwift's `concat`. For sequences of different types, erase them:
/// `concat(cached.eraseToSignal(), fresh.eraseToSignal())`.
///
/// **Finishes:** when the last sequence finishes (at once without sequences).
///
/// **Throws:** the first failure, at once; the later sequences never start.
///
/// **Cancellation:** a `for await` loop runs the sequences in its own task, with no task of its own: cancelling
/// the consumer or dropping the iterator stops the running sequence, and the later ones never start.
///
/// ```swift
/// // The cached profile first, then the fresh one from the network.
/// for try await profile in concat(Signal.just(cachedProfile), Signal.future { try await api.profile() }) {
///   show(profile)
/// }
/// ```
/// - Parameter bases: the sequences, in the order they run.
/// - Returns: a ``Signal`` of their elements.
@inlinable public func concat<Base: AsyncSequence & Sendable>(
  _ bases: Base...
) -> Signal<Base.Element, Base.Failure> where Base.Element: Sendable {
  concat(bases)
}

/// The elements of each sequence of an array, one sequence after another: the next one starts when the previous
/// one finished (RxSwift `Observable.concat(_:)` of a collection).
///
/// **Finishes:** when the last sequence finishes; at once for an empty array.
///
/// **Throws:** the first failure, at once; the later sequences never start.
///
/// **Cancellation:** cancelling the consumer or dropping the iterator stops the running sequence, and the later
/// ones never start.
///
/// ```swift
/// let pages = (1...3).map { page in Signal.future { try await api.page(page) } }
/// for try await page in concat(pages) { append(page) }   // page 1, then 2, then 3
/// ```
/// - Parameter bases: the sequences, in the order they run.
/// - Returns: a ``Signal`` of their elements.
@inlinable public func concat<Base: AsyncSequence & Sendable>(
  _ bases: [Base]
) -> Signal<Base.Element, Base.Failure> where Base.Element: Sendable {
  let signals = bases.map { Signal($0) }
  return .running {
    let run = ConcatRun(signals)
    return run.pull(into:)
  }
}

/// A consumer's run of `concat`: each signal's run in turn, the next one made when the previous one finished. In a
/// graph, one task reads such a run (``Signal/running(_:)``).
///
/// Its state is not checked for exclusive access at run time (`@exclusivity(unchecked)`): only the pull that owns it
/// touches it, called by one caller at a time (see ``ClosureState``).
@usableFromInline final class ConcatRun<Element: Sendable, Failure: Error> {
  @exclusivity(unchecked) @usableFromInline var waiting: ArraySlice<Signal<Element, Failure>>
  @exclusivity(unchecked) @usableFromInline var current: ColdPull<Element, Failure>?

  @inlinable init(_ signals: [Signal<Element, Failure>]) {
    waiting = signals[...]
    // The first sequence's run is made with this one (a subject's wrapper registers the consumer now, as
    // `Signal(sequence)` does); it starts working at the first pull.
    current = waiting.popFirst()?.pull()
  }

  /// See ``ColdPull``: the running signal's next batch; when it finished, the next signal's.
  @inlinable nonisolated(nonsending) func pull(into batch: inout [Element]) async throws {
    while true {
      // A consumer that stopped ends the run: the later sequences never start.
      guard !Task.isCancelled else {
        current = nil
        return
      }
      if current == nil {
        guard let next = waiting.popFirst() else { return }
        current = next.pull()
      }
      do {
        try await current!(&batch)
        if !batch.isEmpty { return }
        current = nil
      } catch {
        current = nil
        waiting = []
        throw error
      }
    }
  }
}
