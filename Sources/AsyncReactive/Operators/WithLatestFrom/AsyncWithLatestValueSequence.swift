/// Each element of a base sequence combined with the current value of a property, read synchronously when
/// the element is processed: what `withLatestFrom(_:)` returns when its argument is a ``Property``, a
/// ``AsyncCurrentValueSubject`` or any ``PropertyProtocol``.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
///
/// Unlike the stream form (``AsyncWithLatestFromSequence``), nothing runs in a task: the property's
/// ``PropertyProtocol/value`` is read in the consumer's task right after the base produced its element, so
/// `password.value = "abc"; tap.send()` pairs the tap with `"abc"`, every time, and a base element is never
/// dropped for want of a value (a property always has one).
///
/// **Finishes:** when the base finishes.
///
/// **Throws:** what the base throws; a property cannot fail.
///
/// **Cancellation:** passes through to the base.
///
/// **Buffering:** none of its own.
///
/// ```swift
/// for await credentials in signupTaps.withLatestFrom(combineLatest(username, password)) {
///   viewModel.signUp.trigger(credentials.1)
/// }
/// ```
public struct AsyncWithLatestValueSequence<Base: AsyncSequence, Source: PropertyProtocol, Element>: AsyncSequence {
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let source: Source
  @usableFromInline let combine: @Sendable (Base.Element, Source.Value) -> Element

  @inlinable init(_ base: Base, _ source: Source, combine: @escaping @Sendable (Base.Element, Source.Value) -> Element)
  {
    self.base = base
    self.source = source
    self.combine = combine
  }

  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), source: source, combine: combine)
  }

  /// The iterator of an ``AsyncWithLatestValueSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let source: Source
    @usableFromInline let combine: @Sendable (Base.Element, Source.Value) -> Element

    @inlinable init(
      base: Base.AsyncIterator, source: Source, combine: @escaping @Sendable (Base.Element, Source.Value) -> Element
    ) {
      self.base = base
      self.source = source
      self.combine = combine
    }

    /// The next base element with the property's value at this moment; `nil` once the base finished.
    ///
    /// **Throws:** what the base throws.
    @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      guard let element = try await base.next(isolation: actor) else { return nil }
      return combine(element, source.value)
    }

    /// The next base element with the property's value at this moment; `nil` once the base finished.
    ///
    /// **Throws:** what the base throws.
    @inlinable public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncWithLatestValueSequence: Sendable where Base: Sendable {}
extension AsyncWithLatestValueSequence: ReactiveSequence {}
extension AsyncWithLatestValueSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}

// Two overloads per form: `Failure == Never` wins over the stream form's both-`Never` overload, the general one
// over the others; they build the same sequence.
extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Pairs each element with the current value of `property`, read when the element is processed
  /// (ReactiveSwift `withLatest(from:)` on a property; RxSwift `withLatestFrom` on a `BehaviorRelay`).
  ///
  /// Nothing is dropped and nothing is stale: a property always has a value, and it is read synchronously.
  /// See ``AsyncWithLatestValueSequence``.
  ///
  /// **Finishes:** when this sequence finishes. **Throws:** nothing. **Cancellation:** passes through.
  ///
  /// ```swift
  /// for await (_, query) in searchTaps.withLatestFrom(searchText) {
  ///   viewModel.search.trigger(query)
  /// }
  /// ```
  /// - Parameter property: the state read with each element.
  /// - Returns: an ``AsyncWithLatestValueSequence`` of `(Element, Source.Value)`.
  @inlinable public func withLatestFrom<Source: PropertyProtocol>(
    _ property: Source
  ) -> AsyncWithLatestValueSequence<Self, Source, (Element, Source.Value)> where Failure == Never {
    AsyncWithLatestValueSequence(self, property) { ($0, $1) }
  }

  /// Pairs each element with the current value of `property`, read when the element is processed; see
  /// ``AsyncWithLatestValueSequence``.
  ///
  /// **Finishes:** when this sequence finishes. **Throws:** what this sequence throws.
  /// **Cancellation:** passes through.
  ///
  /// ```swift
  /// for try await (order, filter) in orders.withLatestFrom(filterText) { show(order, filter) }
  /// ```
  /// - Parameter property: the state read with each element.
  /// - Returns: an ``AsyncWithLatestValueSequence`` of `(Element, Source.Value)`.
  @inlinable public func withLatestFrom<Source: PropertyProtocol>(
    _ property: Source
  ) -> AsyncWithLatestValueSequence<Self, Source, (Element, Source.Value)> {
    AsyncWithLatestValueSequence(self, property) { ($0, $1) }
  }

  /// Combines each element with the current value of `property`, read when the element is processed
  /// (RxSwift `withLatestFrom(_:resultSelector:)`); see ``AsyncWithLatestValueSequence``.
  ///
  /// **Finishes:** when this sequence finishes. **Throws:** nothing. **Cancellation:** passes through.
  ///
  /// ```swift
  /// let signups = signupTaps.withLatestFrom(combineLatest(username, password)) { $1 }
  /// ```
  /// - Parameters:
  ///   - property: the state read with each element.
  ///   - combine: builds the output from an element and the property's value.
  /// - Returns: an ``AsyncWithLatestValueSequence`` of `Output`.
  @inlinable public func withLatestFrom<Source: PropertyProtocol, Output: Sendable>(
    _ property: Source,
    _ combine: @escaping @Sendable (Element, Source.Value) -> Output
  ) -> AsyncWithLatestValueSequence<Self, Source, Output> where Failure == Never {
    AsyncWithLatestValueSequence(self, property, combine: combine)
  }

  /// Combines each element with the current value of `property`, read when the element is processed; see
  /// ``AsyncWithLatestValueSequence``.
  ///
  /// **Finishes:** when this sequence finishes. **Throws:** what this sequence throws.
  /// **Cancellation:** passes through.
  ///
  /// ```swift
  /// let priced = orders.withLatestFrom(currency) { order, currency in order.price(in: currency) }
  /// ```
  /// - Parameters:
  ///   - property: the state read with each element.
  ///   - combine: builds the output from an element and the property's value.
  /// - Returns: an ``AsyncWithLatestValueSequence`` of `Output`.
  @inlinable public func withLatestFrom<Source: PropertyProtocol, Output: Sendable>(
    _ property: Source,
    _ combine: @escaping @Sendable (Element, Source.Value) -> Output
  ) -> AsyncWithLatestValueSequence<Self, Source, Output> {
    AsyncWithLatestValueSequence(self, property, combine: combine)
  }
}
