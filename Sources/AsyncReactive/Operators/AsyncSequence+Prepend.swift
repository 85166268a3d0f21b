extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Starts with `values`, then the upstream's elements (RxSwift `startWith`, RAC `startWith:`).
  ///
  /// Each run of a cold sequence gives them first; a hot one gives them to each consumer when it registers.
  ///
  /// ```swift
  /// for await state in loads.prepend(.idle) { render(state) }
  /// ```
  /// - Parameter values: what comes first, in order.
  /// - Returns: a ``Signal`` of `values`, then this sequence's elements; hot when this sequence is.
  @inlinable public func prepend(_ values: Element..., fileID: StaticString = #fileID, line: UInt = #line) -> Signal<
    Element, Failure
  > {
    Signal(self).lift(synchronous: true) { $0.hotPrepend(contentsOf: values, fileID: fileID, line: line) }
  }

  /// Starts with the elements of `values`, then the upstream's.
  ///
  /// ```swift
  /// for await item in updates.prepend(contentsOf: cached) { show(item) }
  /// ```
  /// - Parameter values: what comes first, in order.
  /// - Returns: a ``Signal`` of `values`, then this sequence's elements; hot when this sequence is.
  @inlinable public func prepend(
    contentsOf values: some Sequence<Element>, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> {
    let values = Array(values)
    return Signal(self).lift(synchronous: true) { $0.hotPrepend(contentsOf: values, fileID: fileID, line: line) }
  }
}

// MARK: Hot

extension HotSequence {
  /// Gives each consumer `values` first, when it subscribes, then the upstream's values as they are sent
  /// (RxSwift `startWith` applied per subscription).
  @inlinable package func hotPrepend(_ values: Element..., fileID: StaticString = #fileID, line: UInt = #line)
    -> HotSignal<
      Element, Failure
    >
  {
    hotPrepend(fileID: fileID, line: line, values)
  }

  /// Gives each consumer the elements of `values` first, when it subscribes, then the upstream's values.
  @inlinable package func hotPrepend(
    contentsOf values: some Sequence<Element>, fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> {
    hotPrepend(fileID: fileID, line: line, Array(values))
  }

  /// The node under both forms: a pass-through node whose registrations start with `prefix`.
  @inlinable func hotPrepend(
    fileID: StaticString = "", line: UInt = 0, _ prefix: [Element]
  ) -> HotSignal<Element, Failure> {
    let upstream = hotSignal.node
    return HotSignal(
      node: Node(
        replay: Node.replay(following: upstream), prefix: prefix, restarts: upstream.restarts,
        origin: NodeOrigin(.prepend, fileID: fileID, line: line), inputs: .one(upstream)
      ) { node in
        let sink = upstream.addSink { value in
          node.send(value)
        } onEnd: { termination in
          node.terminate(termination)
        }
        return { upstream.removeSink(sink) }
      })
  }
}
