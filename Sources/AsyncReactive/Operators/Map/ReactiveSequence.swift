/// An async sequence made by AsyncReactive: a ``Signal``, a subject's ``SubjectSubscription``, and the standard
/// library's `map`, `filter`, … over one of them. On these types `map`, `compactMap`, `filter`, `prefix`,
/// `dropFirst`, `drop(while:)`, `prefix(while:)` and the merging `flatMap { }` are the library's own: they return a
/// ``Signal``, hot when the sequence is hot (a ``Signal`` that erases a subject), cold otherwise, and a synchronous
/// closure costs a plain call per element (the standard library's forms run an unspecialised `async` call).
///
/// Every hot type (``HotSequence``) refines this protocol, so subjects, properties and ``HotSignal``s get them too. On any
/// other sequence (an `AsyncStream`, `Observations`) `map`, `filter` and `.flatMap { }` stay the standard library's
/// (`flatMap(.merge) { }` merges there), so importing the library changes nothing in code that does not use it.
///
/// The transform is `@Sendable`, like every closure the library's operators take. A closure that calls an
/// actor's synchronous method, or captures non-`Sendable` state, does not compile here (the standard library's
/// `map` only warns); make it `async` to get the standard library's version, which hops to the actor:
///
/// ```swift
/// let labels = values.subscribe().map { await self.label(for: $0) }
/// ```
///
/// Conforming a type of your own is safe: the protocol has no requirements. A helper that hides its type returns
/// one of the library's erased types: ``HotSignal`` (`eraseToHotSignal()`) for a hot chain, ``Signal``
/// (`eraseToSignal()`) for any chain.
///
/// ```swift
/// let subject = AsyncPassthroughSubject<Int, Never>()
/// let evens: Signal<Int, Never> = subject.subscribe().map { $0 * 2 }.filter { $0 % 3 != 0 }
/// ```
public protocol ReactiveSequence<Element, Failure>: AsyncSequence {}

// Each of the library's own types declares its conformance beside its declaration.
// The standard library's operators over a library sequence stay library sequences: the inlinable ones keep a
// chain on the fast path when their base is on it, and every one keeps the merging `flatMap { }` after it
// (`subject.map { await lookup($0) }.flatMap { … }` merges, as it does without the `map`).
extension AsyncFilterSequence: ReactiveSequence where Base: ReactiveSequence {}
extension AsyncPrefixSequence: ReactiveSequence where Base: ReactiveSequence {}
extension AsyncPrefixWhileSequence: ReactiveSequence where Base: ReactiveSequence {}
extension AsyncDropFirstSequence: ReactiveSequence where Base: ReactiveSequence {}
extension AsyncDropWhileSequence: ReactiveSequence where Base: ReactiveSequence {}
extension AsyncMapSequence: ReactiveSequence where Base: ReactiveSequence {}
extension AsyncThrowingMapSequence: ReactiveSequence where Base: ReactiveSequence {}
extension AsyncCompactMapSequence: ReactiveSequence where Base: ReactiveSequence {}
extension AsyncThrowingCompactMapSequence: ReactiveSequence where Base: ReactiveSequence {}
extension AsyncThrowingFilterSequence: ReactiveSequence where Base: ReactiveSequence {}
extension AsyncThrowingPrefixWhileSequence: ReactiveSequence where Base: ReactiveSequence {}
extension AsyncThrowingDropWhileSequence: ReactiveSequence where Base: ReactiveSequence {}

extension ReactiveSequence where Self: Sendable, Element: Sendable {
  /// Transforms every element with a closure, like the standard library's `map`, on a specialisable path.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** what the upstream throws.
  /// **Cancellation:** passes through to the upstream.
  ///
  /// ```swift
  /// let names = users.subscribe().map { $0.name }
  /// for await name in names { print(name) }
  /// ```
  ///
  /// - Parameter transform: the mapping; called once per element, in order.
  /// - Returns: a ``Signal`` of the transformed elements; hot when this sequence is.
  @inlinable public func map<Transformed: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Transformed,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Transformed, Failure> {
    Signal(self).ruled(MapRule(transform), origin: NodeOrigin(.map, fileID: fileID, line: line))
  }

  /// Transforms every element and drops the `nil` results, like the standard library's `compactMap`, on a
  /// specialisable path.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** what the upstream throws.
  ///
  /// ```swift
  /// let numbers = text.subscribe().compactMap { Int($0) }
  /// ```
  ///
  /// - Parameter transform: the mapping; `nil` drops the element.
  /// - Returns: a ``Signal`` of the non-`nil` results; hot when this sequence is.
  @inlinable public func compactMap<Transformed: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Transformed?,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Transformed, Failure> {
    Signal(self).ruled(CompactMapRule(transform), origin: NodeOrigin(.compactMap, fileID: fileID, line: line))
  }

  /// Keeps the elements that satisfy a predicate, like the standard library's `filter`, on a specialisable path.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** what the upstream throws.
  ///
  /// ```swift
  /// let longQueries = queries.subscribe().filter { $0.count >= 3 }
  /// for await query in longQueries { print(query) }
  /// ```
  ///
  /// - Parameter isIncluded: whether an element goes on; called once per element, in order.
  /// - Returns: a ``Signal`` of the included elements; hot when this sequence is.
  @inlinable public func filter(
    _ isIncluded: @escaping @Sendable (Element) -> Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> {
    Signal(self).ruled(FilterRule(isIncluded), origin: NodeOrigin(.filter, fileID: fileID, line: line))
  }

  /// The first `maxLength` elements, then finishes, like the standard library's `prefix(_:)`.
  ///
  /// ```swift
  /// for await first in results.subscribe().prefix(3) { show(first) }
  /// ```
  /// - Parameter maxLength: how many elements to pass on; not negative.
  /// - Returns: a ``Signal`` of the leading elements; hot when this sequence is.
  @inlinable public func prefix(_ maxLength: Int) -> Signal<Element, Failure> {
    Signal(self).prefixed(maxLength)
  }

  /// Skips the first `count` elements, like the standard library's `dropFirst(_:)`.
  ///
  /// On a hot sequence the count belongs to the node's connection: a consumer that joins while it runs gets nothing at
  /// once (the count was used). `dropFirst(0)` is this sequence itself: a joining consumer gets what it gives.
  ///
  /// ```swift
  /// for await change in username.subscribe().dropFirst() { save(change) }
  /// ```
  /// - Parameter count: how many elements to skip; 1 by default, not negative.
  /// - Returns: a ``Signal`` of the elements after the first `count`; hot when this sequence is.
  @inlinable public func dropFirst(_ count: Int = 1) -> Signal<Element, Failure> {
    Signal(self).droppingFirst(count)
  }

  /// Skips elements while `predicate` holds, then passes the rest on, like the standard library's `drop(while:)`.
  ///
  /// ```swift
  /// for await reading in sensor.subscribe().drop(while: { $0 < threshold }) { log(reading) }
  /// ```
  /// - Parameter predicate: whether an element is still skipped; the first `false` ends the skipping.
  /// - Returns: a ``Signal`` of the elements from the first that fails `predicate`; hot when this sequence is.
  @inlinable public func drop(
    while predicate: @escaping @Sendable (Element) -> Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> {
    Signal(self).ruled(DropWhileRule(predicate), origin: NodeOrigin(.dropWhile, fileID: fileID, line: line))
  }

  /// Passes elements on while `predicate` holds and finishes at the first one that fails it, like the standard
  /// library's `prefix(while:)`.
  ///
  /// ```swift
  /// for await progress in upload.subscribe().prefix(while: { $0 < 1.0 }) { bar.progress = progress }
  /// ```
  /// - Parameter predicate: whether an element goes on; the first `false` ends the result.
  /// - Returns: a ``Signal`` of the leading elements that satisfy `predicate`; hot when this sequence is.
  @inlinable public func prefix(
    while predicate: @escaping @Sendable (Element) -> Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure> {
    Signal(self).ruled(PrefixWhileRule(predicate), origin: NodeOrigin(.prefixWhile, fileID: fileID, line: line))
  }
}
