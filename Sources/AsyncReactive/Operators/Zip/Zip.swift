/// Pairs the n-th elements of an array of sequences into arrays.
///
/// As ``zip(_:_:fileID:line:)->Signal<(Base1.Element,Base2.Element),Base1.Failure>``, for any number of inputs of one type: hot
/// when any input is hot. An empty array gives a signal that finishes at once without a value.
///
/// **Finishes:** when every input has finished, or, as RxSwift's `zip` of a collection does, at an element that
/// makes no array while every other input has finished (`a.finish()`, then `b.send(1)`: finished at that send;
/// the fixed-arity `zip(a, b)` keeps running then, as RxSwift's does).
///
/// ```swift
/// let copies = mirrors.map { mirror in Signal.future { try await mirror.download(chunk) } }
/// for try await chunks in zip(copies) { verify(chunks) }
/// ```
/// - Parameter bases: the inputs; each output has one element per input, in this order.
/// - Returns: a ``Signal`` of arrays; hot when any input is.
@inlinable public func zip<Base: AsyncSequence & Sendable>(
  _ bases: [Base], fileID: StaticString = #fileID, line: UInt = #line
) -> Signal<[Base.Element], Base.Failure> where Base.Element: Sendable {
  naryResult(anyHot: bases.contains(where: isHotInput)) {
    makeZip(bases, origin: NodeOrigin(.zip, fileID: fileID, line: line))
  }
}

/// The node of an array zip.
@inlinable func makeZip<Base: AsyncSequence & Sendable>(
  _ bases: [Base], origin: NodeOrigin = NodeOrigin(.zip)
) -> Node<[Base.Element], Base.Failure> where Base.Element: Sendable {
  typealias Rule = ZipRule<[ZipBuffer<Base.Element>], [Base.Element]>
  typealias Inputs = NaryConnection<Rule, [Base.Element], Base.Failure>
  let inputs: [Inputs.Attach] = bases.enumerated().map { index, base in
    Inputs.attach(any: base, failure: { $0 }) { rule, element in rule.receive(from: index) { $0[index].append(element) }
    }
  }
  let count = bases.count
  return Inputs.node(
    inputs, replay: .none, origin: origin,
    inputNodes: NodeInputs(bases.compactMap(graphInput))
  ) {
    Rule(inputCount: count, empty: Array(repeating: ZipBuffer(), count: count), finishesWhenOthersFinished: true) {
      buffers in
      buffers.indices.map { buffers[$0].removeFirst() }
    }
  }
}
