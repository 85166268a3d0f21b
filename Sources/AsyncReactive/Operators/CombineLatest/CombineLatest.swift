/// Combines the latest elements of an array of sequences into arrays: first once every input has produced, then on
/// every element of any input.
///
/// As ``combineLatest(_:_:fileID:line:)->Signal<(Base1.Element,Base2.Element),Base1.Failure>``, for any number of inputs of one
/// type: hot when any input is hot. An empty array gives a signal that finishes at once without a value.
///
/// ```swift
/// let prices = symbols.map { ticker.price(of: $0) }   // [Signal<Double, Never>]
/// for await latest in combineLatest(prices) {
///   total.send(latest.reduce(0, +))
/// }
/// ```
/// - Parameter bases: the inputs; each output has one element per input, in this order.
/// - Returns: a ``Signal`` of arrays; hot when any input is.
@inlinable public func combineLatest<Base: AsyncSequence & Sendable>(
  _ bases: [Base], fileID: StaticString = #fileID, line: UInt = #line
) -> Signal<[Base.Element], Base.Failure> where Base.Element: Sendable {
  naryResult(anyHot: bases.contains(where: isHotInput)) {
    makeCombineLatest(bases, origin: NodeOrigin(.combineLatest, fileID: fileID, line: line))
  }
}

/// The node of an array combineLatest (also what a combined array of properties iterates).
@inlinable func makeCombineLatest<Base: AsyncSequence & Sendable>(
  _ bases: [Base], origin: NodeOrigin = NodeOrigin(.combineLatest)
) -> Node<[Base.Element], Base.Failure> where Base.Element: Sendable {
  typealias Rule = CombineLatestRule<[Base.Element?], [Base.Element]>
  typealias Inputs = NaryConnection<Rule, [Base.Element], Base.Failure>
  let inputs: [Inputs.Attach] = bases.enumerated().map { index, base in
    Inputs.attach(any: base, failure: { $0 }) { rule, element in rule.receive(from: index) { $0[index] = element } }
  }
  let count = bases.count
  return Inputs.node(
    inputs, replay: combinedReplay(bases.map(inputReplaysCurrent)), origin: origin,
    inputNodes: NodeInputs(bases.compactMap(graphInput))
  ) {
    Rule(inputCount: count, empty: Array(repeating: nil, count: count)) { $0.map { $0! } }
  }
}
