// The operators whose closure may throw (RxSwift's may: an operator whose closure throws sends `.error`). A throw
// fails the operator's node with the error, once: the result's failure is `any Error`; the upstream and the node's
// siblings go on, and a consumer that joins later is given the failure, as for any ended node. On the library's
// own sequences these are the library's operators, hot on a hot input, never the standard library's pull forms.

extension HotSequence {
  /// The node of `rule`, whose closure may throw: a throw fails the node with the error. The upstream's failure
  /// goes on as `any Error`.
  @inlinable package func hotTrying<Rule: ElementRule>(_ rule: Rule, origin: NodeOrigin) -> HotSignal<
    Rule.Output, any Error
  > where Rule.Input == Element, Rule.RuleFailure == any Error {
    HotSignal(node: .ruled(hotSignal.node, rule, origin: origin, failures: ErasesFailure<Failure>.self))
  }
}

extension ReactiveSequence where Self: Sendable, Element: Sendable {
  /// Transforms every element with a closure that may throw: a throw fails the result with the error (RxSwift's
  /// `map`, whose closure may throw).
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure, or what the closure threw.
  ///
  /// ```swift
  /// let users = responses.map { try JSONDecoder().decode(User.self, from: $0) }   // Signal<User, any Error>
  /// ```
  /// - Parameter transform: the mapping; its first throw ends the result.
  /// - Returns: a ``Signal`` of the transformed elements, failing with `any Error`; hot when this sequence is.
  @_disfavoredOverload @inlinable public func map<Transformed: Sendable>(
    _ transform: @escaping @Sendable (Element) throws -> Transformed,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Transformed, any Error> {
    Signal(self).ruledTrying(MapRule(transform), origin: NodeOrigin(.map, fileID: fileID, line: line))
  }
}

extension ReactiveSequence where Self: Sendable, Element: Sendable {
  /// Transforms every element and drops the `nil` results, with a closure that may throw: a throw fails the result.
  ///
  /// ```swift
  /// let ids = lines.compactMap { line in try line.isEmpty ? nil : UUID.parse(line) }   // Signal<UUID, any Error>
  /// ```
  /// - Parameter transform: the mapping; `nil` drops the element, a throw ends the result.
  /// - Returns: a ``Signal`` of the non-`nil` results, failing with `any Error`; hot when this sequence is.
  @_disfavoredOverload @inlinable public func compactMap<Transformed: Sendable>(
    _ transform: @escaping @Sendable (Element) throws -> Transformed?,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Transformed, any Error> {
    Signal(self).ruledTrying(CompactMapRule(transform), origin: NodeOrigin(.compactMap, fileID: fileID, line: line))
  }

  /// Keeps the elements that satisfy a predicate that may throw: a throw fails the result.
  ///
  /// ```swift
  /// let valid = forms.filter { try validator.check($0) }   // Signal<Form, any Error>
  /// ```
  /// - Parameter isIncluded: whether an element goes on; a throw ends the result.
  /// - Returns: a ``Signal`` of the included elements, failing with `any Error`; hot when this sequence is.
  @_disfavoredOverload @inlinable public func filter(
    _ isIncluded: @escaping @Sendable (Element) throws -> Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, any Error> {
    Signal(self).ruledTrying(FilterRule(isIncluded), origin: NodeOrigin(.filter, fileID: fileID, line: line))
  }

  /// Skips elements while a predicate that may throw holds, then passes the rest on: a throw fails the result.
  ///
  /// ```swift
  /// let afterHeader = lines.drop { try Header.matches($0) }
  /// ```
  /// - Parameter predicate: whether an element is still skipped; a throw ends the result.
  /// - Returns: a ``Signal`` of the elements from the first that fails `predicate`, failing with `any Error`.
  @_disfavoredOverload @inlinable public func drop(
    while predicate: @escaping @Sendable (Element) throws -> Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, any Error> {
    Signal(self).ruledTrying(DropWhileRule(predicate), origin: NodeOrigin(.dropWhile, fileID: fileID, line: line))
  }

  /// Passes elements on while a predicate that may throw holds, and finishes at the first one that fails it: a
  /// throw fails the result (RxSwift `take(while:)`).
  ///
  /// ```swift
  /// let body = lines.prefix { try !Footer.matches($0) }
  /// ```
  /// - Parameter predicate: whether an element goes on; the first `false` ends the result, a throw fails it.
  /// - Returns: a ``Signal`` of the leading elements that satisfy `predicate`, failing with `any Error`.
  @_disfavoredOverload @inlinable public func prefix(
    while predicate: @escaping @Sendable (Element) throws -> Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, any Error> {
    Signal(self).ruledTrying(PrefixWhileRule(predicate), origin: NodeOrigin(.prefixWhile, fileID: fileID, line: line))
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits each intermediate result of accumulating the values with a closure that may throw: a throw fails the
  /// result (RxSwift's `scan`, whose accumulator may throw).
  ///
  /// ```swift
  /// let balance = transactions.scan(0) { total, entry in try total.adding(entry) }   // Signal<Int, any Error>
  /// ```
  /// - Parameters:
  ///   - initial: the accumulator before the first value (not emitted).
  ///   - next: combines the accumulator with a value; a throw ends the result.
  /// - Returns: a ``Signal`` of the accumulations, failing with `any Error`; hot when this sequence is.
  @_disfavoredOverload @inlinable public func scan<Result: Sendable>(
    _ initial: Result,
    _ next: @escaping @Sendable (Result, Element) throws -> Result,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Result, any Error> {
    Signal(self).ruledTrying(ScanRule(initial, next), origin: NodeOrigin(.scan, fileID: fileID, line: line))
  }

  /// Drops each value that a comparison that may throw says repeats the one before it: a throw fails the result.
  ///
  /// ```swift
  /// let changes = documents.removeDuplicates { try $0.digest() == $1.digest() }
  /// ```
  /// - Parameter areDuplicates: whether a value repeats the previous one; a throw ends the result.
  /// - Returns: a ``Signal`` without consecutive duplicates, failing with `any Error`; hot when this sequence is.
  @_disfavoredOverload @inlinable public func removeDuplicates(
    by areDuplicates: @escaping @Sendable (Element, Element) throws -> Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, any Error> {
    Signal(self).ruledTrying(
      RemoveDuplicatesRule(areDuplicates), origin: NodeOrigin(.removeDuplicates, fileID: fileID, line: line))
  }

  /// On failure, continues with the sequence that a handler that may throw makes from the error: a throw fails the
  /// result with what it threw (RxSwift's `catch`, whose handler may throw).
  ///
  /// ```swift
  /// let orders = api.orders.catch { error in
  ///   guard error.isRetryable else { throw error }
  ///   return cache.orders
  /// }
  /// ```
  /// - Parameter handler: makes the fallback from the failure; a throw ends the result with the thrown error.
  /// - Returns: a ``Signal`` of this sequence's elements, then the fallback's, failing with `any Error`.
  @_disfavoredOverload @inlinable public func `catch`<Fallback: AsyncSequence & Sendable>(
    _ handler: @escaping @Sendable (Failure) throws -> Fallback
  ) -> Signal<Element, any Error> where Fallback.Element == Element {
    Signal(self).lift(synchronous: false) {
      $0.hotCatch { error -> Signal<Element, any Error> in
        do {
          return Signal(try handler(error)).mapError { $0 }
        } catch {
          return .fail(error)
        }
      }
    }
  }

  /// Combines each element with the latest element of `other` through a closure that may throw: a throw fails the
  /// result (RxSwift's `withLatestFrom(_:resultSelector:)`, whose selector may throw).
  ///
  /// ```swift
  /// let orders = submits.withLatestFrom(form) { _, form in try Order(validating: form) }
  /// ```
  /// - Parameters:
  ///   - other: the sequence whose latest element goes with each element.
  ///   - combine: builds the output; a throw ends the result.
  /// - Returns: a ``Signal`` of `Output`, failing with `any Error`.
  @_disfavoredOverload @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) throws -> Output,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Output, any Error> where Other.Element: Sendable {
    Signal(self).lift(synchronous: false) {
      $0.hotWithLatestFrom(
        origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: { ($0, $1) },
        baseFailure: { $0 as any Error }, otherFailure: { $0 as any Error }
      )
      .hotTrying(
        MapRule { pair throws in try combine(pair.0, pair.1) }, origin: NodeOrigin(.map, fileID: fileID, line: line))
    }
  }

  /// Runs side effects on each event, with a value handler that may throw: a throw fails the result (RxSwift's
  /// `do(onNext:)`, whose handlers may throw); see the form whose handlers cannot throw.
  ///
  /// ```swift
  /// let saved = edits.handleEvents(onValue: { try journal.append($0) })   // Signal<Edit, any Error>
  /// ```
  @_disfavoredOverload @inlinable public func handleEvents(
    onStart: (@Sendable () -> Void)? = nil,
    onValue: @escaping @Sendable (Element) throws -> Void,
    onFinish: (@Sendable () -> Void)? = nil,
    onFailure: (@Sendable (Failure) -> Void)? = nil,
    onCancel: (@Sendable () -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, any Error> {
    Signal(self).lift(synchronous: true) {
      $0.hotHandleEvents(
        onStart: onStart, onValue: nil, onFinish: onFinish, onFailure: onFailure, onCancel: onCancel,
        fileID: fileID, line: line
      )
      .hotTrying(
        MapRule { value throws in
          try onValue(value)
          return value
        }, origin: NodeOrigin(.handleEvents, fileID: fileID, line: line))
    }
  }
}
