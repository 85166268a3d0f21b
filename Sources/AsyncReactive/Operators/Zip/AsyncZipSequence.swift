/// The n-th elements of several sequences, paired: what `zip(_:_:)` (2 to 8 inputs of any element types,
/// as tuples) and `zip(_:)` (an array of inputs, as arrays) return.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// The first value pairs the first element of every input, the second the second ones, and so on.
///
/// **Finishes:** as soon as an input has finished and every element it produced was paired (the other inputs
/// are cancelled then). Without inputs, at once without a value.
///
/// **Throws:** as soon as any input fails (the other inputs are cancelled), after the values produced before
/// it. `Failure` is the inputs' common failure type: `Never` when none can fail, so the result is iterated
/// with plain `for await`; `any Error` when the inputs' failure types differ.
///
/// **Cancellation:** cancelling the consuming task, breaking out of the loop or dropping the iterator cancels
/// every input.
///
/// **Buffering:** making the iterator subscribes to every input (a subject's later values are not missed);
/// the first `next()` starts one task per input, which pulls elements as fast as the input produces them. An
/// input that runs ahead of the others is buffered without bound until its partners arrive (as in RxSwift and
/// ReactiveSwift), so do not zip an endless synchronous sequence such as `Signal(1...)`: number the elements
/// with a `map` instead. Values wait for the consumer in an unbounded buffer that it drains in batches.
///
/// ```swift
/// for try await (request, response) in zip(sentRequests, receivedResponses) {
///   log("\(request.id) took \(response.time - request.time)")
/// }
/// ```
public struct AsyncZipSequence<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  @usableFromInline let subscribe: @Sendable () -> NaryStorage<Element, Failure>

  @inlinable init(subscribe: @escaping @Sendable () -> NaryStorage<Element, Failure>) {
    self.subscribe = subscribe
  }

  /// Subscribes to every input now; they are pumped from the first `next()`.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(base: NaryIterator(subscribe()))
  }

  /// The iterator: ``AsyncNaryIterator``; dropping it cancels every input.
  public typealias Iterator = AsyncNaryIterator<Element, Failure>
}

/// Pairs the n-th elements of an array of sequences into arrays.
///
/// **Finishes:** as soon as an input has finished and every element it produced was paired (the others are
/// cancelled), and at once without a value for an empty array.
///
/// **Throws:** the inputs' `Failure`, as soon as any input fails (the others are cancelled).
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// let pages = mirrors.map { Signal.future { try await $0.download(chunk) } }
/// for try await copies in zip(pages) {
///   verify(copies)   // one copy from each mirror
/// }
/// ```
/// - Parameter bases: the inputs; each output has one element per input, in this order.
/// - Returns: an ``AsyncZipSequence`` of arrays.
@inlinable public func zip<Base: AsyncSequence & Sendable>(
  _ bases: [Base]
) -> AsyncZipSequence<[Base.Element], Base.Failure>
where Base.Element: Sendable {
  AsyncZipSequence {
    let empty = Array(repeating: ZipBuffer<Base.Element>(), count: bases.count)
    let cell = NaryRuleCell(
      ZipRule(inputCount: bases.count, empty: empty) { buffers in
        buffers.indices.map { buffers[$0].removeFirst() }
      }
    )
    return NaryStorage(
      inputs: bases.enumerated().map { index, base in
        .subscribe(base, index: index, failure: { $0 }, rule: cell) { rule, element in
          rule.receive(from: index) { $0[index].append(element) }
        }
      }
    )
  }
}

/// Pairs the n-th elements of an array of sequences into arrays, again on every iteration.
///
/// For inputs that can all be iterated again (``ReiterableAsyncSequence``): like
/// ``zip(_:)->AsyncZipSequence<[Base.Element],Base.Failure>``, and the result is a ``ReiterableInputs``, so
/// ``ReiterableAsyncSequence/retry(_:)`` applies: each iteration subscribes to every input anew.
///
/// ```swift
/// let copies = mirrors.map { mirror in Signal.future { try await mirror.download(chunk) } }
/// for try await chunk in zip(copies).retry(2) {   // a failure downloads from every mirror again
///   verify(chunk)
/// }
/// ```
/// - Parameter bases: the inputs; each output has one element per input, in this order.
/// - Returns: a ``ReiterableInputs`` wrapping an ``AsyncZipSequence`` of arrays.
@inlinable public func zip<Base: ReiterableAsyncSequence & Sendable>(
  _ bases: [Base]
) -> ReiterableInputs<AsyncZipSequence<[Base.Element], Base.Failure>>
where Base.Element: Sendable {
  let plain: AsyncZipSequence<[Base.Element], Base.Failure> = zip(bases)
  return ReiterableInputs(plain)
}

extension AsyncZipSequence: ReactiveSequence {}

// MARK: Hot inputs

/// Pairs the n-th elements of an array of hot sequences into arrays, inside their sends: a ``HotSignal`` with the
/// rules of ``zip(_:)->AsyncZipSequence<[Base.Element],Base.Failure>``. An empty array gives a signal that has
/// finished.
///
/// ```swift
/// let answers = zip(players.map(\.answers))   // HotSignal<[Answer], Never>: one round per element
/// ```
/// - Parameter bases: the inputs; each output has one element per input, in this order.
/// - Returns: a ``HotSignal`` of arrays.
@inlinable public func zip<Base: HotSequence>(_ bases: [Base]) -> HotSignal<[Base.Element], Base.Failure> {
  typealias Rule = ZipRule<[ZipBuffer<Base.Element>], [Base.Element]>
  typealias Inputs = HotInputs<Rule, [Base.Element], Base.Failure>
  let inputs: [Inputs.Attach] = bases.enumerated().map { index, base in
    Inputs.attach(base, failure: { $0 }) { rule, element in rule.receive(from: index) { $0[index].append(element) } }
  }
  let count = bases.count
  return HotSignal(
    node: Inputs.node(inputs, replay: .none) {
      Rule(inputCount: count, empty: Array(repeating: ZipBuffer(), count: count)) { buffers in
        buffers.indices.map { buffers[$0].removeFirst() }
      }
    })
}
