// `amb`: of several sequences, mirror the first to produce anything (RxSwift `amb`, Rx.NET `Amb`). A rule over the
// shared n-ary node: the winner's first event lets the others go at once, so a loser's later values, end or failure
// never reach the result.

/// The amb rule: the first input to produce an element or to finish wins; its elements pass, the others are let go.
@usableFromInline struct AmbRule<Element: Sendable>: NaryRule {
  @usableFromInline static var operatorName: String { "amb" }

  /// The input that produced first, once there is one.
  @usableFromInline var winner: Int?

  @inlinable init() {}

  /// Input `index` produced `value`: the first one wins and the others are let go; the winner's values pass.
  @inlinable mutating func receive(_ value: Element, from index: Int) -> NaryStep<Element> {
    switch winner {
    case nil:
      winner = index
      return .emitReleasingOthers(value)
    case index: return .emit(value)
    default: return .none
    }
  }

  /// An input that finishes before any other produced wins with its end (RxSwift); the winner's end ends the result.
  @inlinable mutating func inputFinished(_ index: Int) -> NaryStep<Element> {
    guard winner == nil || winner == index else { return .none }
    winner = index
    return .finish
  }
}

/// Mirrors whichever of `bases` produces first, an element or its end, and lets the others go at that moment
/// (RxSwift `Observable.amb`): the request that answers first, the first of several triggers.
///
/// All inputs are observed from the start, in order. A failure before any input produced is the first event: it
/// fails the result. After the election only the winner counts: a loser is cancelled (cold) or unsubscribed (hot).
/// An empty array gives a signal that finishes at once.
///
/// ```swift
/// let fastest = amb([primary.search(query), mirror.search(query)])
/// ```
/// - Parameter bases: the competing sequences.
/// - Returns: a ``Signal`` of the winner's elements and end; hot when any input is.
@inlinable public func amb<Base: AsyncSequence & Sendable>(
  _ bases: [Base], fileID: StaticString = #fileID, line: UInt = #line
) -> Signal<Base.Element, Base.Failure> where Base.Element: Sendable {
  naryResult(anyHot: bases.contains(where: isHotInput)) {
    typealias Inputs = NaryConnection<AmbRule<Base.Element>, Base.Element, Base.Failure>
    let inputs: [Inputs.Attach] = bases.enumerated().map { index, base in
      Inputs.attach(any: base, failure: { $0 }) { rule, element in rule.receive(element, from: index) }
    }
    return Inputs.node(
      inputs, replay: .none, origin: NodeOrigin(.amb, fileID: fileID, line: line),
      inputNodes: NodeInputs(bases.compactMap(graphInput))
    ) { AmbRule() }
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Mirrors this sequence or `other`, whichever produces first, an element or its end, and lets the other go
  /// (RxSwift `amb(_:)`). See ``amb(_:fileID:line:)``.
  ///
  /// ```swift
  /// let answer = cache.lookup(key).amb(network.fetch(key))
  /// ```
  /// - Parameter other: the competing sequence.
  /// - Returns: a ``Signal`` of the winner's elements and end.
  @inlinable public func amb<Other: AsyncSequence & Sendable>(
    _ other: Other, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> where Other.Element == Element, Other.Failure == Failure {
    AsyncReactive.amb([Signal(self), Signal(other)], fileID: fileID, line: line)
  }
}
