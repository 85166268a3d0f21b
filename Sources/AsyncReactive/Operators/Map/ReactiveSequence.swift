/// An async sequence made by AsyncReactive: its `map`, `compactMap` and `filter` are the library's own, which the
/// compiler can specialise for your element types.
///
/// The standard library's `AsyncMapSequence`, `AsyncCompactMapSequence` and `AsyncFilterSequence` run their
/// `next(isolation:)` unspecialised from the runtime library (it is not inlinable) and call their closure as an
/// `async` function, which costs generic-metadata look-ups and an `async` frame per element on Linux: several
/// times the rest of a subject's delivery. On every type that conforms to this protocol, a non-throwing
/// synchronous `map`, `compactMap` or `filter` resolves to ``AsyncReactiveMapSequence`` /
/// ``AsyncReactiveCompactMapSequence`` / ``AsyncReactiveFilterSequence`` instead, with the same behaviour (same
/// order, same finish and failure, cancellation passes through) at the cost of a plain loop. A throwing or
/// `async` closure still uses the standard library's version.
///
/// The transform is `@Sendable`, like every closure the library's operators take. A closure that calls an
/// actor's synchronous method, or captures non-`Sendable` state, does not compile here (the standard library's
/// `map` only warns); make it `async` to get the standard library's version, which hops to the actor:
///
/// ```swift
/// let labels = values.subscribe().map { await self.label(for: $0) }
/// ```
///
/// Every signal, subject, subscription, property and operator of the library conforms, and so do the
/// standard library's `map`, `filter`, `prefix`, `dropFirst`, … (throwing and `async` ones too) over a conforming
/// base, so whole chains stay fast. Conforming sequences also get the library's merging `flatMap { }`; on any
/// other sequence `.flatMap { }` is the standard library's sequential one (`flatMap(.merge) { }` merges there):
///
/// ```swift
/// let subject = AsyncPassthroughSubject<Int, Never>()
/// // AsyncReactiveFilterSequence<AsyncReactiveMapSequence<SubjectSubscription<Int, Never>, Int>>
/// let evens = subject.subscribe().map { $0 * 2 }.filter { $0 % 3 != 0 }
/// ```
///
/// Conforming a type of your own is safe: the protocol has no requirements.
///
/// You rarely name this protocol. A helper that hides its type returns one of the library's erased types, which
/// keep the fast `map` and the merging `flatMap { }`: ``HotSignal`` (`eraseToHotSignal()`) for a hot chain,
/// ``Signal`` (`eraseToSignal()`) for a cold one. Naming the protocol keeps the concrete type's speed too
/// (`some AsyncSequence<…>` would get the standard library's operators): `var loading: some
/// ReactiveSequence<Bool, Never> & Sendable { … }`. It is public because those operators are declared on it.
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

extension ReactiveSequence {
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
  /// - Returns: an ``AsyncReactiveMapSequence`` of the transformed elements.
  @inlinable
  public func map<Transformed>(
    _ transform: @escaping @Sendable (Element) -> Transformed
  ) -> AsyncReactiveMapSequence<Self, Transformed> {
    AsyncReactiveMapSequence(self, transform: transform)
  }

  /// Transforms every element and drops the `nil` results, like the standard library's `compactMap`, on a
  /// specialisable path.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** what the upstream throws.
  /// **Cancellation:** passes through to the upstream.
  ///
  /// ```swift
  /// let numbers = text.subscribe().compactMap { Int($0) }
  /// ```
  ///
  /// - Parameter transform: the mapping; `nil` drops the element.
  /// - Returns: an ``AsyncReactiveCompactMapSequence`` of the non-`nil` results.
  @inlinable
  public func compactMap<Transformed>(
    _ transform: @escaping @Sendable (Element) -> Transformed?
  ) -> AsyncReactiveCompactMapSequence<Self, Transformed> {
    AsyncReactiveCompactMapSequence(self, transform: transform)
  }

  /// Keeps the elements that satisfy a predicate, like the standard library's `filter`, on a specialisable path.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** what the upstream throws.
  /// **Cancellation:** passes through to the upstream.
  ///
  /// ```swift
  /// let longQueries = queries.subscribe().filter { $0.count >= 3 }
  /// for await query in longQueries { print(query) }
  /// ```
  ///
  /// - Parameter isIncluded: whether an element goes on; called once per element, in order.
  /// - Returns: an ``AsyncReactiveFilterSequence`` of the included elements.
  @inlinable
  public func filter(
    _ isIncluded: @escaping @Sendable (Element) -> Bool
  ) -> AsyncReactiveFilterSequence<Self> {
    AsyncReactiveFilterSequence(self, isIncluded: isIncluded)
  }
}
