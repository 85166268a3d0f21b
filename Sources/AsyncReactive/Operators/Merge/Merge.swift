/// Interleaves the elements of an array of sequences as they are produced.
///
/// As ``merge(_:_:fileID:line:)->Signal<Base1.Element,Base1.Failure>``, for any number of inputs of one type: hot when any input
/// is hot. An empty array gives a signal that finishes at once.
///
/// ```swift
/// let feeds = sources.map { source in Signal.future { try await source.latest() } }
/// for try await item in merge(feeds) { show(item) }
/// ```
/// - Parameter bases: the inputs.
/// - Returns: a ``Signal`` of the inputs' elements; hot when any input is.
@inlinable public func merge<Base: AsyncSequence & Sendable>(
  _ bases: [Base], fileID: StaticString = #fileID, line: UInt = #line
) -> Signal<Base.Element, Base.Failure> where Base.Element: Sendable {
  naryResult(anyHot: bases.contains(where: isHotInput)) {
    makeMerge(bases, origin: NodeOrigin(.merge, fileID: fileID, line: line))
  }
}

/// The node of an array merge.
@inlinable func makeMerge<Base: AsyncSequence & Sendable>(
  _ bases: [Base], origin: NodeOrigin = NodeOrigin(.merge)
) -> Node<Base.Element, Base.Failure> where Base.Element: Sendable {
  typealias Inputs = NaryConnection<MergeRule<Base.Element>, Base.Element, Base.Failure>
  let inputs: [Inputs.Attach] = bases.map { base in
    Inputs.attach(any: base, failure: { $0 }) { _, element in .emit(element) }
  }
  // A consumer that joins is given each input's current value, as a fresh subscription would be.
  return Inputs.node(
    inputs, replay: mergedReplay(bases.map(inputReplaysCurrent)), origin: origin,
    inputNodes: NodeInputs(bases.compactMap(graphInput))
  ) { MergeRule() }
}
