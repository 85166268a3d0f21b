// The entry points of `withLatestFrom`, in two forms (pairs as tuples, or combined by a closure), each with three
// overloads for the failure type (the rule the API contracts state for every operator with two inputs): a shared
// type (`Never` included), then, disfavored, the other input `Never` (this side's type is kept) and `any Error` when
// the types differ. Only the first is a plain overload, so that a call where several apply picks it at once. A
// property given as `other` is read at each element, not observed (decided from its value). Edit them together.

extension AsyncSequence where Self: Sendable, Element: Sendable {
  // MARK: Pairs

  /// Pairs each element with the latest element of `other` (ReactiveSwift `withLatest(from:)`; RxSwift's one-argument
  /// `withLatestFrom` emits only the latest element: write `withLatestFrom(other) { $1 }` for that).
  ///
  /// Only this sequence's elements produce output; elements that come before `other` has produced anything are
  /// dropped. See <doc:WithLatestFromOperator> for how close-together elements are ordered.
  ///
  /// **Finishes:** when this sequence finishes; the end of `other` changes nothing (its latest element stays in
  /// use; if it produced none, every element is dropped until this sequence ends).
  ///
  /// **Throws:** the sequences' common `Failure`, as soon as either fails (the other is cancelled).
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels both sequences.
  ///
  /// ```swift
  /// for await (_, query) in searchTaps.withLatestFrom(queryText) {
  ///   viewModel.search.trigger(query)
  /// }
  /// ```
  /// - Parameter other: the sequence whose latest element goes with each element.
  /// - Returns: a ``Signal`` of `(Element, Other.Element)`.
  @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable>(
    _ other: Other,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<(Element, Other.Element), Failure>
  where Other.Element: Sendable, Other.Failure == Failure {
    Signal(self).lift(synchronous: false) {
      $0.hotWithLatestFrom(
        origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: { ($0, $1) },
        baseFailure: { $0 },
        otherFailure: { $0 })
    }
  }

  /// Pairs each element with the latest element of `other` (ReactiveSwift `withLatest(from:)`; RxSwift's one-argument
  /// `withLatestFrom` emits only the latest element: write `withLatestFrom(other) { $1 }` for that).
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails (the other sequence is cancelled).
  ///
  /// ```swift
  /// for try await (order, filter) in orders.withLatestFrom(filterText) {
  ///   if order.matches(filter) { show(order) }
  /// }
  /// ```
  @_disfavoredOverload @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable>(
    _ other: Other,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<(Element, Other.Element), Failure>
  where Other.Element: Sendable, Other.Failure == Never {
    Signal(self).lift(synchronous: false) {
      $0.hotWithLatestFrom(
        origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: { ($0, $1) },
        baseFailure: { $0 },
        otherFailure: neverFailure)
    }
  }

  /// Pairs each element with the latest element of `other` (ReactiveSwift `withLatest(from:)`; RxSwift's one-argument
  /// `withLatestFrom` emits only the latest element: write `withLatestFrom(other) { $1 }` for that).
  ///
  /// **Throws:** the first error of either sequence, as `any Error`, as soon as it happens (the other is cancelled).
  /// This overload serves sequences whose failure types differ; sequences that share one keep it.
  ///
  /// ```swift
  /// for try await (order, rate) in orders.withLatestFrom(exchangeRates) {
  ///   show(order.total * rate)
  /// }
  /// ```
  @_disfavoredOverload @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable>(
    _ other: Other,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<(Element, Other.Element), any Error>
  where Other.Element: Sendable {
    Signal(self).lift(synchronous: false) {
      $0.hotWithLatestFrom(
        origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: { ($0, $1) },
        baseFailure: { $0 as any Error },
        otherFailure: { $0 as any Error })
    }
  }

  // MARK: Combined by a closure

  /// Combines each element with the latest element of `other` through `combine` (RxSwift
  /// `withLatestFrom(_:resultSelector:)`).
  ///
  /// **Throws:** the sequences' common `Failure`, as soon as either fails (the other is cancelled).
  ///
  /// ```swift
  /// for await query in searchTaps.withLatestFrom(queryText, { _, query in query }) {
  ///   viewModel.search.trigger(query)
  /// }
  /// ```
  /// - Parameters:
  ///   - other: the sequence whose latest element goes with each element.
  ///   - combine: makes an output from an element and the latest element of `other`; it runs in the consuming
  ///     task.
  /// - Returns: a ``Signal`` of the combined values.
  @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Output, Failure>
  where Other.Element: Sendable, Other.Failure == Failure {
    Signal(self).lift(synchronous: false) {
      $0.hotWithLatestFrom(
        origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: combine, baseFailure: { $0 },
        otherFailure: { $0 })
    }
  }

  /// Combines each element with the latest element of `other` through `combine` (RxSwift
  /// `withLatestFrom(_:resultSelector:)`).
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails (the other sequence is cancelled).
  ///
  /// ```swift
  /// let visible = orders.withLatestFrom(filterText) { order, filter in order.matches(filter) }
  /// ```
  @_disfavoredOverload @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Output, Failure>
  where Other.Element: Sendable, Other.Failure == Never {
    Signal(self).lift(synchronous: false) {
      $0.hotWithLatestFrom(
        origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: combine, baseFailure: { $0 },
        otherFailure: neverFailure)
    }
  }

  /// Combines each element with the latest element of `other` through `combine` (RxSwift
  /// `withLatestFrom(_:resultSelector:)`).
  ///
  /// **Throws:** the first error of either sequence, as `any Error`, as soon as it happens (the other is cancelled).
  /// This overload serves sequences whose failure types differ; sequences that share one keep it.
  ///
  /// ```swift
  /// let prices = orders.withLatestFrom(exchangeRates) { order, rate in order.total * rate }
  /// ```
  @_disfavoredOverload @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Output, any Error>
  where Other.Element: Sendable {
    Signal(self).lift(synchronous: false) {
      $0.hotWithLatestFrom(
        origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: combine,
        baseFailure: { $0 as any Error },
        otherFailure: { $0 as any Error })
    }
  }
}

/// The failure mapping of a sequence that cannot fail (`@usableFromInline` for the inlinable overloads above).
@usableFromInline func neverFailure<Failure>(_ never: Never) -> Failure {}
