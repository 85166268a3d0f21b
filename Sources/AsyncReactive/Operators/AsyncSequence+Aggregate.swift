// The operators that answer once the upstream has finished: `reduce`, `toArray`, `takeLast`, `last`,
// `ignoreElements` and `ifEmpty(default:)`. On a hot upstream each keeps what it gathers for its connection and
// emits it inside the send of the upstream's end.

extension ReactiveSequence where Self: Sendable, Element: Sendable {
  /// Accumulates the values and emits the result once, when the upstream finishes (RxSwift `reduce(_:accumulator:)`,
  /// ReactiveSwift `reduce`).
  ///
  /// Declared on the library's sequences, so on an `AsyncStream` `reduce` stays the standard library's `async`
  /// call that returns the result; on a ``Signal``, a subject or a property it is this operator. To await the
  /// result of one of ours, name its type: `let total: Int = await payments.reduce(0, +)`.
  ///
  /// One accumulator per run of a cold sequence; one for all consumers of a hot one, started afresh when the node
  /// connects. Nothing is emitted before the end, so a consumer that joins a running shared node gets the result
  /// too, and one that joins after the end gets only the end.
  ///
  /// **Finishes:** right after emitting the result, when the upstream finishes (an empty upstream gives
  /// `initial`). **Throws:** the upstream's failure, at once; the accumulation is dropped.
  ///
  /// ```swift
  /// for await total in cart.items.reduce(0, { $0 + $1.price }) { showTotal(total) }   // once, at checkout
  /// ```
  /// - Parameters:
  ///   - initial: the accumulator before the first value.
  ///   - next: combines the accumulator with a value.
  /// - Returns: a ``Signal`` of one value, the accumulation; hot when this sequence is.
  @inlinable public func reduce<Result: Sendable>(
    _ initial: Result,
    _ next: @escaping @Sendable (Result, Element) -> Result,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Result, Failure> {
    Signal(self).ruled(
      ReduceRule(into: initial) { $0 = next($0, $1) }, origin: NodeOrigin(.reduce, fileID: fileID, line: line))
  }

  /// Accumulates the values into a value it updates in place, and emits it once, when the upstream finishes (the
  /// standard library's `reduce(into:_:)` as an operator; RxSwift `reduce` with a mutable accumulator).
  ///
  /// Like the non-throwing `reduce(_:_:)`, declared on the library's sequences only: on an `AsyncStream` it stays the
  /// standard library's `async` call.
  ///
  /// **Finishes:** right after emitting the result, when the upstream finishes. **Throws:** the upstream's
  /// failure, at once.
  ///
  /// ```swift
  /// for await counts in words.reduce(into: [String: Int](), { $0[$1, default: 0] += 1 }) { show(counts) }
  /// ```
  /// - Parameters:
  ///   - initial: the accumulator before the first value.
  ///   - update: updates the accumulator with a value.
  /// - Returns: a ``Signal`` of one value, the accumulation; hot when this sequence is.
  @inlinable public func reduce<Result: Sendable>(
    into initial: Result,
    _ update: @escaping @Sendable (inout Result, Element) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Result, Failure> {
    Signal(self).ruled(ReduceRule(into: initial, update), origin: NodeOrigin(.reduce, fileID: fileID, line: line))
  }
}

extension ReactiveSequence where Self: Sendable, Element: Sendable {
  /// Accumulates the values with a closure that may throw, and emits the result once, when the upstream finishes:
  /// a throw fails the result at once (RxSwift's `reduce`, whose accumulator may throw).
  ///
  /// Like the non-throwing form, declared on the library's sequences only: on an `AsyncStream` `reduce` stays the
  /// standard library's `async` call.
  ///
  /// **Finishes:** right after emitting the result, when the upstream finishes (an empty upstream gives
  /// `initial`). **Throws:** what the closure threw, or the upstream's failure, at once; the accumulation is dropped.
  ///
  /// ```swift
  /// let total = payments.reduce(0) { sum, payment in try sum.adding(payment) }   // Signal<Int, any Error>
  /// ```
  /// - Parameters:
  ///   - initial: the accumulator before the first value.
  ///   - next: combines the accumulator with a value; a throw ends the result.
  /// - Returns: a ``Signal`` of one value, the accumulation, failing with `any Error`; hot when this sequence is.
  ///
  /// Not disfavoured, unlike the library's other throwing forms: the standard library's `reduce` also takes a
  /// throwing closure, and a disfavoured form would lose to it (`sum.collect()` would then be an `Int`'s member).
  /// A closure that does not throw still picks the non-throwing form, whose closure type is the narrower one.
  @inlinable public func reduce<Result: Sendable>(
    _ initial: Result,
    _ next: @escaping @Sendable (Result, Element) throws -> Result,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Result, any Error> {
    Signal(self).ruledTrying(
      ReduceRule(into: initial) { accumulator, value throws in accumulator = try next(accumulator, value) },
      origin: NodeOrigin(.reduce, fileID: fileID, line: line))
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Collects every value and emits them as one array when the upstream finishes (RxSwift `toArray()`,
  /// ReactiveSwift `collect()`).
  ///
  /// **Finishes:** right after emitting the array, when the upstream finishes (an empty upstream gives `[]`).
  /// **Throws:** the upstream's failure, at once; the values collected are dropped.
  ///
  /// ```swift
  /// for await pages in api.pages(of: query).toArray() { show(pages.flatMap(\.items)) }
  /// ```
  /// - Returns: a ``Signal`` of one array, every value in order; hot when this sequence is.
  @inlinable public func toArray(fileID: StaticString = #fileID, line: UInt = #line) -> Signal<[Element], Failure> {
    Signal(self).ruled(ReduceRule(into: []) { $0.append($1) }, origin: NodeOrigin(.toArray, fileID: fileID, line: line))
  }

  /// Emits the last `count` values, in order, when the upstream finishes (RxSwift `takeLast(_:)`, ReactiveSwift
  /// `take(last:)`).
  ///
  /// **Finishes:** right after emitting them, when the upstream finishes. **Throws:** the upstream's failure, at
  /// once; the values held are dropped.
  ///
  /// **Buffering:** holds at most `count` values.
  ///
  /// ```swift
  /// for await line in log.takeLast(3) { print(line) }   // the last three lines, once the log ends
  /// ```
  /// - Parameter count: how many of the last values to emit; not negative (0 emits none).
  /// - Returns: a ``Signal`` of at most `count` values; hot when this sequence is.
  @inlinable public func takeLast(_ count: Int, fileID: StaticString = #fileID, line: UInt = #line) -> Signal<
    Element, Failure
  > {
    precondition(count >= 0, "takeLast(\(count)): the count must not be negative")
    return Signal(self).ruled(TakeLastRule(count), origin: NodeOrigin(.takeLast, fileID: fileID, line: line))
  }

  /// Emits the last value when the upstream finishes, nothing if it had none (RxSwift `takeLast(1)`, Combine
  /// `last()`).
  ///
  /// **Finishes:** right after the last value, when the upstream finishes. **Throws:** the upstream's failure, at
  /// once.
  ///
  /// ```swift
  /// for await final in upload.progress.last() { log("upload ended at \(final)") }
  /// ```
  /// - Returns: a ``Signal`` of at most one value; hot when this sequence is.
  @inlinable public func last(fileID: StaticString = #fileID, line: UInt = #line) -> Signal<Element, Failure> {
    Signal(self).ruled(TakeLastRule(1), origin: NodeOrigin(.last, fileID: fileID, line: line))
  }

  /// Drops every value and passes on only the end (RxSwift `ignoreElements()`, ReactiveSwift `ignoreValues`
  /// without the `Void` values).
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// for try await _ in sync.run().ignoreElements() {}   // waits for the end, throws its failure
  /// ```
  /// - Returns: a ``Signal`` with no values, only this sequence's end; hot when this sequence is.
  @inlinable public func ignoreElements(fileID: StaticString = #fileID, line: UInt = #line) -> Signal<Never, Failure> {
    Signal(self).ruled(IgnoreElementsRule(), origin: NodeOrigin(.ignoreElements, fileID: fileID, line: line))
  }

  /// Passes the values on and, when the upstream finishes without any, emits `defaultValue` (RxSwift
  /// `ifEmpty(default:)`, Combine `replaceEmpty(with:)`).
  ///
  /// **Finishes:** when the upstream finishes, right after `defaultValue` if it had no value. **Throws:** the
  /// upstream's failure (no default then).
  ///
  /// ```swift
  /// for await results in search(query).ifEmpty(default: [.noMatches]) { show(results) }
  /// ```
  /// - Parameter defaultValue: what to emit for an upstream that finishes empty.
  /// - Returns: a ``Signal`` of this sequence's values, or of `defaultValue` alone; hot when this sequence is.
  @inlinable public func ifEmpty(
    default defaultValue: Element, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> {
    Signal(self).ruled(IfEmptyRule(defaultValue), origin: NodeOrigin(.ifEmpty, fileID: fileID, line: line))
  }
}

// MARK: Rules

/// `reduce`, `reduce(into:)` and `toArray`: the values accumulated, passed on when the upstream finishes.
@usableFromInline package struct ReduceRule<Input: Sendable, Result: Sendable, RuleFailure: Error>: ElementRule {
  @usableFromInline let initial: Result
  @usableFromInline let update: @Sendable (inout Result, Input) throws(RuleFailure) -> Void
  @inlinable package init(
    into initial: Result, _ update: @escaping @Sendable (inout Result, Input) throws(RuleFailure) -> Void
  ) {
    self.initial = initial
    self.update = update
  }
  /// The accumulator.
  @inlinable package func start() -> Result { initial }
  @inlinable package func step(_ input: Input, _ accumulator: inout Result) throws(RuleFailure) -> ElementStep<
    Result
  > {
    try update(&accumulator, input)
    return .drop(nil, forgetsCurrent: false)
  }
  @inlinable package func finish(_ accumulator: inout Result) -> [Result] { [accumulator] }
}

/// `takeLast` and `last`: the last `count` values, oldest first, passed on when the upstream finishes.
@usableFromInline package struct TakeLastRule<Input: Sendable>: ElementRule {
  @usableFromInline let count: Int
  @inlinable package init(_ count: Int) { self.count = count }
  /// The last values.
  @inlinable package func start() -> RingBuffer<Input> { RingBuffer(capacity: count) }
  @inlinable package func step(_ input: Input, _ kept: inout RingBuffer<Input>) -> ElementStep<Input> {
    kept.append(input)
    return .drop(nil, forgetsCurrent: false)
  }
  @inlinable package func finish(_ kept: inout RingBuffer<Input>) -> [Input] {
    defer { kept.removeAll() }
    return kept.inOrder
  }
}

/// `ignoreElements`: no value, only the end.
@usableFromInline package struct IgnoreElementsRule<Input: Sendable>: ElementRule {
  @inlinable package init() {}
  @inlinable package func step(_ input: Input, _ state: inout Void) -> ElementStep<Never> {
    .drop(nil, forgetsCurrent: false)
  }
}

/// `ifEmpty(default:)`: the values, or `defaultValue` when the upstream finishes without any.
@usableFromInline package struct IfEmptyRule<Input: Sendable>: ElementRule {
  @usableFromInline let defaultValue: Input
  @inlinable package init(_ defaultValue: Input) { self.defaultValue = defaultValue }
  /// Whether no value came yet.
  @inlinable package func start() -> Bool { true }
  @inlinable package func step(_ input: Input, _ empty: inout Bool) -> ElementStep<Input> {
    empty = false
    return .emit(input)
  }
  @inlinable package func finish(_ empty: inout Bool) -> [Input] { empty ? [defaultValue] : [] }
}
