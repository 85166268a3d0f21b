/// One event of a sequence as a value: an element, the end, or the failure (RAC `RACEvent`, RxSwift `Event`,
/// ReactiveSwift `Signal.Event`).
///
/// ```swift
/// for await event in api.orders.materialize() {
///   switch event {
///   case .value(let list): show(list)
///   case .finished: hideSpinner()
///   case .failed(let error): showError(error)
///   }
/// }
/// ```
public enum Event<Element, Failure: Error> {
  /// An element.
  case value(Element)
  /// The sequence finished.
  case finished
  /// The sequence failed.
  case failed(Failure)
}

extension Event: Sendable where Element: Sendable {}

extension Event: Equatable where Element: Equatable, Failure: Equatable {}

extension Event: Hashable where Element: Hashable, Failure: Hashable {}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Turns every element and the terminal event into an ``Event`` value (RAC `materialize`, RxSwift
  /// `materialize()`): the result cannot fail, and its last element is `.finished` or `.failed(error)`.
  ///
  /// **Finishes:** right after delivering `.finished` or `.failed`.
  ///
  /// **Cancellation:** runs in the consumer's task; a cancelled upstream that ends early ends with `.finished`.
  ///
  /// ```swift
  /// let events = await Signal<Int, TestError>.fail(TestError()).materialize().collect()
  /// // [.failed(TestError())]
  /// ```
  /// - Returns: a non-failing ``Signal`` of this sequence's events; hot when this sequence is.
  @inlinable public func materialize(fileID: StaticString = #fileID, line: UInt = #line) -> Signal<
    Event<Element, Failure>, Never
  > {
    Signal(self).lift(synchronous: true) { $0.hotMaterialize(fileID: fileID, line: line) }
  }

  /// Turns ``Event`` values back into values and an end (RxSwift `dematerialize()`, ReactiveSwift
  /// `dematerialize()`): the inverse of ``materialize(fileID:line:)``.
  ///
  /// For a sequence that cannot fail itself (what `materialize()` makes), so that the events' failure is the
  /// result's only failure.
  ///
  /// **Finishes:** at the first `.finished` event, or when this sequence finishes. **Throws:** the failure of the
  /// first `.failed` event. Events after the first end are ignored.
  ///
  /// ```swift
  /// let replayed: Signal<Order, APIError> = recordedEvents.dematerialize()
  /// ```
  /// - Returns: a ``Signal`` of the events' values, ending as the first end event says; hot when this sequence is.
  @inlinable public func dematerialize<Value: Sendable, EventFailure: Error>(
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Value, EventFailure> where Element == Event<Value, EventFailure>, Failure == Never {
    Signal(self).lift(synchronous: true) { $0.hotDematerialize(fileID: fileID, line: line) }
  }
}

// MARK: Hot

extension HotSequence {
  /// Turns every element and the end into an ``Event`` value inside the upstream's `send`; the result cannot
  /// fail, and its last element is `.finished` or `.failed(error)`. Consumers share it: `let events =
  /// taps.flatMapLatest { request }.materialize()` runs one request per tap for every output derived from it.
  @inlinable package func hotMaterialize(fileID: StaticString = #fileID, line: UInt = #line) -> HotSignal<
    Event<Element, Failure>, Never
  > {
    HotSignal(
      node: .observing(hotSignal.node, origin: NodeOrigin(.materialize, fileID: fileID, line: line)) { node in
        { value in node.send(.value(value)) }
      } onEnd: { node, termination in
        switch termination {
        case .finished: node.send(.finished)
        case .failed(let error): node.send(.failed(error))
        }
        node.terminate(.finished)
      })
  }
}

extension HotSequence {
  /// Turns ``Event`` values back into values and an end inside the upstream's `send`; the first end event ends the
  /// node.
  @inlinable package func hotDematerialize<Value: Sendable, EventFailure: Error>(
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Value, EventFailure> where Element == Event<Value, EventFailure>, Failure == Never {
    HotSignal(
      node: .observing(hotSignal.node, origin: NodeOrigin(.dematerialize, fileID: fileID, line: line)) { node in
        { event in
          switch event {
          case .value(let value): node.send(value)
          case .finished: node.terminate(.finished)
          case .failed(let failure): node.terminate(.failed(failure))
          }
        }
      } onEnd: { node, _ in
        node.terminate(.finished)
      })
  }
}
