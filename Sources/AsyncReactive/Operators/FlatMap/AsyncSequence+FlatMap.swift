// The entry points of the flatten operators. Each name comes in five overloads that only differ in how the
// failure types combine (none, shared, outer-only, inner-only, and `any Error` for a throwing transform or
// failures that differ). Because they require `Sendable` sequences and a `@Sendable` transform, they are more
// specific than the standard library's sequential `AsyncSequence.flatMap`, so `.flatMap { }` on a `Signal`, a
// subject or any `Sendable` sequence picks these (checked by FlatMapTests).

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Maps each element to an inner sequence and merges their elements as they are produced (RAC `flattenMap`, RxSwift
  /// `flatMap`).
  ///
  /// Unlike the standard library's sequential `AsyncSequence.flatMap`, which finishes one inner sequence before it
  /// starts the next, this one runs the inner sequences concurrently. For a `Sendable` sequence and a `@Sendable`
  /// transform (what Swift 6 needs anyway to cross tasks), `.flatMap { }` resolves to it. For one inner sequence at
  /// a time, use `concatMap`.
  ///
  /// The result's failure type: `Never` when neither side can fail; the shared `Failure` when both fail with the
  /// same type; the failing side's type when only one side can fail; `any Error` when the transform throws or the
  /// two failure types differ.
  ///
  /// **Finishes:** when the outer sequence and every inner sequence it started have finished.
  ///
  /// **Throws:** nothing: neither side can fail, so the result is iterated with plain `for await`.
  ///
  /// **Cancellation:** cancelling the consumer or dropping the iterator cancels the outer sequence and every
  /// running inner sequence.
  ///
  /// ```swift
  /// let values = users.flatMap { value in
  ///   Signal<Int, Never>.just(value * 10)
  /// }
  /// for await value in values { print(value) }
  /// ```
  /// - Parameters:
  ///   - transform: makes the inner sequence for an element of this sequence.
  /// - Returns: a sequence of the inner sequences' elements.
  public func flatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Never>
  where Inner.Element: Sendable, Failure == Never, Inner.Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .merge, transform: transform,
      outerFailure: absurd, innerFailure: absurd)
  }

  /// Maps each element to an inner sequence and merges their elements as they are produced (RAC `flattenMap`, RxSwift
  /// `flatMap`).
  ///
  /// Works as ``flatMap(_:)->AsyncFlattenSequence<Self,Inner,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first failure of the outer sequence or of an inner sequence (both have the same typed `Failure`).
  ///
  /// ```swift
  /// let values = users.flatMap { value in
  ///   Signal<Int, any Error>.future { try await api.load(value) }
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Failure> where Inner.Element: Sendable, Inner.Failure == Failure {
    AsyncFlattenSequence(
      self, strategy: .merge, transform: transform,
      outerFailure: { $0 }, innerFailure: { $0 })
  }

  /// Maps each element to an inner sequence and merges their elements as they are produced (RAC `flattenMap`, RxSwift
  /// `flatMap`).
  ///
  /// Works as ``flatMap(_:)->AsyncFlattenSequence<Self,Inner,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first failure of an inner sequence, typed as the inner sequences' `Failure`; the outer sequence
  /// cannot fail.
  ///
  /// ```swift
  /// let values = users.flatMap { value in
  ///   Signal<Int, any Error>.future { try await api.load(value) }
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Inner.Failure> where Inner.Element: Sendable, Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .merge, transform: transform,
      outerFailure: absurd, innerFailure: { $0 })
  }

  /// Maps each element to an inner sequence and merges their elements as they are produced (RAC `flattenMap`, RxSwift
  /// `flatMap`).
  ///
  /// Works as ``flatMap(_:)->AsyncFlattenSequence<Self,Inner,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first failure of the outer sequence, typed as its `Failure`; the inner sequences cannot fail.
  ///
  /// ```swift
  /// let values = users.flatMap { value in
  ///   Signal<Int, Never>.just(value * 10)
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Failure> where Inner.Element: Sendable, Inner.Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .merge, transform: transform,
      outerFailure: { $0 }, innerFailure: absurd)
  }

  /// Maps each element to an inner sequence and merges their elements as they are produced (RAC `flattenMap`, RxSwift
  /// `flatMap`).
  ///
  /// Works as ``flatMap(_:)->AsyncFlattenSequence<Self,Inner,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first error of the transform, the outer sequence or an inner sequence, as `any Error`. This form
  /// also takes outer and inner sequences whose typed failures differ.
  ///
  /// ```swift
  /// let values = users.flatMap { value in
  ///   try api.request(for: value)
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async throws -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, any Error> where Inner.Element: Sendable {
    AsyncFlattenSequence(
      self, strategy: .merge, throwingTransform: transform,
      outerFailure: { $0 }, innerFailure: { $0 })
  }

  /// Maps each element to an inner sequence and merges their elements, running at most `maxConcurrent` inner sequences
  /// at once (RAC `flatten(.concurrent(limit:))`, RxSwift `merge(maxConcurrent:)`).
  ///
  /// **Finishes:** when the outer sequence and every inner sequence it started have finished.
  ///
  /// **Buffering:** the outer sequence is read all the time and the transform runs as each element arrives; while
  /// `maxConcurrent` inner sequences run, the new ones wait as `buffering` says (by default, every one waits its
  /// turn, in order).
  ///
  /// **Throws:** nothing: neither side can fail, so the result is iterated with plain `for await`.
  ///
  /// **Cancellation:** cancelling the consumer or dropping the iterator cancels the outer sequence and every
  /// running inner sequence.
  ///
  /// ```swift
  /// let values = photos.flatMap(maxConcurrent: 3) { value in
  ///   Signal<Int, Never>.just(value * 10)
  /// }
  /// for await value in values { print(value) }
  /// ```
  /// - Parameters:
  ///   - maxConcurrent: the largest number of inner sequences running at once; at least 1.
  ///   - buffering: what happens to the inner sequences that find `maxConcurrent` running; by default each
  ///     waits its turn.
  ///   - transform: makes the inner sequence for an element of this sequence.
  /// - Returns: a sequence of the inner sequences' elements.
  public func flatMap<Inner: AsyncSequence & Sendable>(
    maxConcurrent: Int,
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Never>
  where Inner.Element: Sendable, Failure == Never, Inner.Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .concurrent(limit: maxConcurrent), buffering: buffering, transform: transform,
      outerFailure: absurd, innerFailure: absurd)
  }

  /// Maps each element to an inner sequence and merges their elements, running at most `maxConcurrent` inner sequences
  /// at once (RAC `flatten(.concurrent(limit:))`, RxSwift `merge(maxConcurrent:)`).
  ///
  /// Works as ``flatMap(maxConcurrent:buffering:_:)->AsyncFlattenSequence<Self,Inner,Never>``
  /// does; only what differs is written here.
  ///
  /// **Throws:** the first failure of the outer sequence or of an inner sequence (both have the same typed `Failure`).
  ///
  /// ```swift
  /// let values = photos.flatMap(maxConcurrent: 3) { value in
  ///   Signal<Int, any Error>.future { try await api.load(value) }
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMap<Inner: AsyncSequence & Sendable>(
    maxConcurrent: Int,
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Failure> where Inner.Element: Sendable, Inner.Failure == Failure {
    AsyncFlattenSequence(
      self, strategy: .concurrent(limit: maxConcurrent), buffering: buffering, transform: transform,
      outerFailure: { $0 }, innerFailure: { $0 })
  }

  /// Maps each element to an inner sequence and merges their elements, running at most `maxConcurrent` inner sequences
  /// at once (RAC `flatten(.concurrent(limit:))`, RxSwift `merge(maxConcurrent:)`).
  ///
  /// Works as ``flatMap(maxConcurrent:buffering:_:)->AsyncFlattenSequence<Self,Inner,Never>``
  /// does; only what differs is written here.
  ///
  /// **Throws:** the first failure of an inner sequence, typed as the inner sequences' `Failure`; the outer sequence
  /// cannot fail.
  ///
  /// ```swift
  /// let values = photos.flatMap(maxConcurrent: 3) { value in
  ///   Signal<Int, any Error>.future { try await api.load(value) }
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMap<Inner: AsyncSequence & Sendable>(
    maxConcurrent: Int,
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Inner.Failure> where Inner.Element: Sendable, Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .concurrent(limit: maxConcurrent), buffering: buffering, transform: transform,
      outerFailure: absurd, innerFailure: { $0 })
  }

  /// Maps each element to an inner sequence and merges their elements, running at most `maxConcurrent` inner sequences
  /// at once (RAC `flatten(.concurrent(limit:))`, RxSwift `merge(maxConcurrent:)`).
  ///
  /// Works as ``flatMap(maxConcurrent:buffering:_:)->AsyncFlattenSequence<Self,Inner,Never>``
  /// does; only what differs is written here.
  ///
  /// **Throws:** the first failure of the outer sequence, typed as its `Failure`; the inner sequences cannot fail.
  ///
  /// ```swift
  /// let values = photos.flatMap(maxConcurrent: 3) { value in
  ///   Signal<Int, Never>.just(value * 10)
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMap<Inner: AsyncSequence & Sendable>(
    maxConcurrent: Int,
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Failure> where Inner.Element: Sendable, Inner.Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .concurrent(limit: maxConcurrent), buffering: buffering, transform: transform,
      outerFailure: { $0 }, innerFailure: absurd)
  }

  /// Maps each element to an inner sequence and merges their elements, running at most `maxConcurrent` inner sequences
  /// at once (RAC `flatten(.concurrent(limit:))`, RxSwift `merge(maxConcurrent:)`).
  ///
  /// Works as ``flatMap(maxConcurrent:buffering:_:)->AsyncFlattenSequence<Self,Inner,Never>``
  /// does; only what differs is written here.
  ///
  /// **Throws:** the first error of the transform, the outer sequence or an inner sequence, as `any Error`. This form
  /// also takes outer and inner sequences whose typed failures differ.
  ///
  /// ```swift
  /// let values = photos.flatMap(maxConcurrent: 3) { value in
  ///   try api.request(for: value)
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMap<Inner: AsyncSequence & Sendable>(
    maxConcurrent: Int,
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async throws -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, any Error> where Inner.Element: Sendable {
    AsyncFlattenSequence(
      self, strategy: .concurrent(limit: maxConcurrent), buffering: buffering, throwingTransform: transform,
      outerFailure: { $0 }, innerFailure: { $0 })
  }

  /// Maps each element to an inner sequence and combines them with `strategy`: ``FlattenStrategy/merge``,
  /// ``FlattenStrategy/concat``, ``FlattenStrategy/latest``, ``FlattenStrategy/first`` or
  /// ``FlattenStrategy/concurrent(limit:)``.
  ///
  /// **Finishes:** when the outer sequence and every inner sequence it started have finished.
  ///
  /// **Throws:** nothing: neither side can fail, so the result is iterated with plain `for await`.
  ///
  /// **Cancellation:** cancelling the consumer or dropping the iterator cancels the outer sequence and every
  /// running inner sequence.
  ///
  /// ```swift
  /// let values = queries.flatMap(.latest) { value in
  ///   Signal<Int, Never>.just(value * 10)
  /// }
  /// for await value in values { print(value) }
  /// ```
  /// - Parameters:
  ///   - strategy: how the inner sequences are combined.
  ///   - buffering: under ``FlattenStrategy/concat`` and ``FlattenStrategy/concurrent(limit:)``, what happens to
  ///     the inner sequences that find every slot taken; by default each waits its turn. The other strategies
  ///     never make an inner sequence wait.
  ///   - transform: makes the inner sequence for an element of this sequence.
  /// - Returns: a sequence of the inner sequences' elements.
  public func flatMap<Inner: AsyncSequence & Sendable>(
    _ strategy: FlattenStrategy,
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Never>
  where Inner.Element: Sendable, Failure == Never, Inner.Failure == Never {
    AsyncFlattenSequence(
      self, strategy: strategy, buffering: buffering, transform: transform,
      outerFailure: absurd, innerFailure: absurd)
  }

  /// Maps each element to an inner sequence and combines them with `strategy`: ``FlattenStrategy/merge``,
  /// ``FlattenStrategy/concat``, ``FlattenStrategy/latest``, ``FlattenStrategy/first`` or
  /// ``FlattenStrategy/concurrent(limit:)``.
  ///
  /// Works as ``flatMap(_:buffering:_:)->AsyncFlattenSequence<Self,Inner,Never>``
  /// does; only what differs is written here.
  ///
  /// **Throws:** the first failure of the outer sequence or of an inner sequence (both have the same typed `Failure`).
  ///
  /// ```swift
  /// let values = queries.flatMap(.latest) { value in
  ///   Signal<Int, any Error>.future { try await api.load(value) }
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMap<Inner: AsyncSequence & Sendable>(
    _ strategy: FlattenStrategy,
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Failure> where Inner.Element: Sendable, Inner.Failure == Failure {
    AsyncFlattenSequence(
      self, strategy: strategy, buffering: buffering, transform: transform,
      outerFailure: { $0 }, innerFailure: { $0 })
  }

  /// Maps each element to an inner sequence and combines them with `strategy`: ``FlattenStrategy/merge``,
  /// ``FlattenStrategy/concat``, ``FlattenStrategy/latest``, ``FlattenStrategy/first`` or
  /// ``FlattenStrategy/concurrent(limit:)``.
  ///
  /// Works as ``flatMap(_:buffering:_:)->AsyncFlattenSequence<Self,Inner,Never>``
  /// does; only what differs is written here.
  ///
  /// **Throws:** the first failure of an inner sequence, typed as the inner sequences' `Failure`; the outer sequence
  /// cannot fail.
  ///
  /// ```swift
  /// let values = queries.flatMap(.latest) { value in
  ///   Signal<Int, any Error>.future { try await api.load(value) }
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMap<Inner: AsyncSequence & Sendable>(
    _ strategy: FlattenStrategy,
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Inner.Failure> where Inner.Element: Sendable, Failure == Never {
    AsyncFlattenSequence(
      self, strategy: strategy, buffering: buffering, transform: transform,
      outerFailure: absurd, innerFailure: { $0 })
  }

  /// Maps each element to an inner sequence and combines them with `strategy`: ``FlattenStrategy/merge``,
  /// ``FlattenStrategy/concat``, ``FlattenStrategy/latest``, ``FlattenStrategy/first`` or
  /// ``FlattenStrategy/concurrent(limit:)``.
  ///
  /// Works as ``flatMap(_:buffering:_:)->AsyncFlattenSequence<Self,Inner,Never>``
  /// does; only what differs is written here.
  ///
  /// **Throws:** the first failure of the outer sequence, typed as its `Failure`; the inner sequences cannot fail.
  ///
  /// ```swift
  /// let values = queries.flatMap(.latest) { value in
  ///   Signal<Int, Never>.just(value * 10)
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMap<Inner: AsyncSequence & Sendable>(
    _ strategy: FlattenStrategy,
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Failure> where Inner.Element: Sendable, Inner.Failure == Never {
    AsyncFlattenSequence(
      self, strategy: strategy, buffering: buffering, transform: transform,
      outerFailure: { $0 }, innerFailure: absurd)
  }

  /// Maps each element to an inner sequence and combines them with `strategy`: ``FlattenStrategy/merge``,
  /// ``FlattenStrategy/concat``, ``FlattenStrategy/latest``, ``FlattenStrategy/first`` or
  /// ``FlattenStrategy/concurrent(limit:)``.
  ///
  /// Works as ``flatMap(_:buffering:_:)->AsyncFlattenSequence<Self,Inner,Never>``
  /// does; only what differs is written here.
  ///
  /// **Throws:** the first error of the transform, the outer sequence or an inner sequence, as `any Error`. This form
  /// also takes outer and inner sequences whose typed failures differ.
  ///
  /// ```swift
  /// let values = queries.flatMap(.latest) { value in
  ///   try api.request(for: value)
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMap<Inner: AsyncSequence & Sendable>(
    _ strategy: FlattenStrategy,
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async throws -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, any Error> where Inner.Element: Sendable {
    AsyncFlattenSequence(
      self, strategy: strategy, buffering: buffering, throwingTransform: transform,
      outerFailure: { $0 }, innerFailure: { $0 })
  }

  /// Maps each element to an inner sequence and keeps only the newest one: a new outer element cancels the running
  /// inner sequence before the next one starts (RxSwift `flatMapLatest`, RAC `flattenMap` + `switchToLatest`).
  ///
  /// **Finishes:** when the outer sequence has finished and so has the newest inner sequence (which keeps running after
  /// the outer one ends). A replaced inner sequence's later elements are never delivered.
  ///
  /// **Throws:** nothing: neither side can fail, so the result is iterated with plain `for await`.
  ///
  /// **Cancellation:** cancelling the consumer or dropping the iterator cancels the outer sequence and every
  /// running inner sequence.
  ///
  /// ```swift
  /// let values = queries.flatMapLatest { value in
  ///   Signal<Int, Never>.just(value * 10)
  /// }
  /// for await value in values { print(value) }
  /// ```
  /// - Parameters:
  ///   - transform: makes the inner sequence for an element of this sequence.
  /// - Returns: a sequence of the inner sequences' elements.
  public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Never>
  where Inner.Element: Sendable, Failure == Never, Inner.Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .latest, transform: transform,
      outerFailure: absurd, innerFailure: absurd)
  }

  /// Maps each element to an inner sequence and keeps only the newest one: a new outer element cancels the running
  /// inner sequence before the next one starts (RxSwift `flatMapLatest`, RAC `flattenMap` + `switchToLatest`).
  ///
  /// Works as ``flatMapLatest(_:)->AsyncFlattenSequence<Self,Inner,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first failure of the outer sequence or of an inner sequence (both have the same typed `Failure`).
  ///
  /// ```swift
  /// let values = queries.flatMapLatest { value in
  ///   Signal<Int, any Error>.future { try await api.load(value) }
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Failure> where Inner.Element: Sendable, Inner.Failure == Failure {
    AsyncFlattenSequence(
      self, strategy: .latest, transform: transform,
      outerFailure: { $0 }, innerFailure: { $0 })
  }

  /// Maps each element to an inner sequence and keeps only the newest one: a new outer element cancels the running
  /// inner sequence before the next one starts (RxSwift `flatMapLatest`, RAC `flattenMap` + `switchToLatest`).
  ///
  /// Works as ``flatMapLatest(_:)->AsyncFlattenSequence<Self,Inner,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first failure of an inner sequence, typed as the inner sequences' `Failure`; the outer sequence
  /// cannot fail.
  ///
  /// ```swift
  /// let values = queries.flatMapLatest { value in
  ///   Signal<Int, any Error>.future { try await api.load(value) }
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Inner.Failure> where Inner.Element: Sendable, Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .latest, transform: transform,
      outerFailure: absurd, innerFailure: { $0 })
  }

  /// Maps each element to an inner sequence and keeps only the newest one: a new outer element cancels the running
  /// inner sequence before the next one starts (RxSwift `flatMapLatest`, RAC `flattenMap` + `switchToLatest`).
  ///
  /// Works as ``flatMapLatest(_:)->AsyncFlattenSequence<Self,Inner,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first failure of the outer sequence, typed as its `Failure`; the inner sequences cannot fail.
  ///
  /// ```swift
  /// let values = queries.flatMapLatest { value in
  ///   Signal<Int, Never>.just(value * 10)
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Failure> where Inner.Element: Sendable, Inner.Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .latest, transform: transform,
      outerFailure: { $0 }, innerFailure: absurd)
  }

  /// Maps each element to an inner sequence and keeps only the newest one: a new outer element cancels the running
  /// inner sequence before the next one starts (RxSwift `flatMapLatest`, RAC `flattenMap` + `switchToLatest`).
  ///
  /// Works as ``flatMapLatest(_:)->AsyncFlattenSequence<Self,Inner,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first error of the transform, the outer sequence or an inner sequence, as `any Error`. This form
  /// also takes outer and inner sequences whose typed failures differ.
  ///
  /// ```swift
  /// let values = queries.flatMapLatest { value in
  ///   try api.request(for: value)
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async throws -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, any Error> where Inner.Element: Sendable {
    AsyncFlattenSequence(
      self, strategy: .latest, throwingTransform: transform,
      outerFailure: { $0 }, innerFailure: { $0 })
  }

  /// Maps an element to an inner sequence only while no inner sequence runs: elements that arrive meanwhile are
  /// ignored, and the transform is not called for them (RxSwift `flatMapFirst`, RxJS `exhaustMap`).
  ///
  /// The classic use: a button whose taps start a request, where taps during the request must do nothing.
  ///
  /// **Finishes:** when the outer sequence has finished and so has the running inner sequence.
  ///
  /// **Throws:** nothing: neither side can fail, so the result is iterated with plain `for await`.
  ///
  /// **Cancellation:** cancelling the consumer or dropping the iterator cancels the outer sequence and the
  /// running inner sequence.
  ///
  /// **Buffering:** none: an element that finds an inner sequence running is dropped.
  ///
  /// ```swift
  /// let values = taps.flatMapFirst { value in
  ///   Signal<Int, Never>.just(value * 10)
  /// }
  /// for await value in values { print(value) }
  /// ```
  /// - Parameters:
  ///   - transform: makes the inner sequence for an element that arrives while none runs.
  /// - Returns: a sequence of the inner sequences' elements.
  public func flatMapFirst<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Never>
  where Inner.Element: Sendable, Failure == Never, Inner.Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .first, transform: transform,
      outerFailure: absurd, innerFailure: absurd)
  }

  /// Maps an element to an inner sequence only while no inner sequence runs: elements that arrive meanwhile are
  /// ignored, and the transform is not called for them (RxSwift `flatMapFirst`, RxJS `exhaustMap`).
  ///
  /// Works as ``flatMapFirst(_:)->AsyncFlattenSequence<Self,Inner,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first failure of the outer sequence or of an inner sequence (both have the same typed `Failure`).
  ///
  /// ```swift
  /// let values = taps.flatMapFirst { value in
  ///   Signal<Int, any Error>.future { try await api.load(value) }
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMapFirst<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Failure> where Inner.Element: Sendable, Inner.Failure == Failure {
    AsyncFlattenSequence(
      self, strategy: .first, transform: transform,
      outerFailure: { $0 }, innerFailure: { $0 })
  }

  /// Maps an element to an inner sequence only while no inner sequence runs: elements that arrive meanwhile are
  /// ignored, and the transform is not called for them (RxSwift `flatMapFirst`, RxJS `exhaustMap`).
  ///
  /// Works as ``flatMapFirst(_:)->AsyncFlattenSequence<Self,Inner,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first failure of an inner sequence, typed as the inner sequences' `Failure`; the outer sequence
  /// cannot fail.
  ///
  /// ```swift
  /// let values = taps.flatMapFirst { value in
  ///   Signal<Int, any Error>.future { try await api.load(value) }
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMapFirst<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Inner.Failure> where Inner.Element: Sendable, Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .first, transform: transform,
      outerFailure: absurd, innerFailure: { $0 })
  }

  /// Maps an element to an inner sequence only while no inner sequence runs: elements that arrive meanwhile are
  /// ignored, and the transform is not called for them (RxSwift `flatMapFirst`, RxJS `exhaustMap`).
  ///
  /// Works as ``flatMapFirst(_:)->AsyncFlattenSequence<Self,Inner,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first failure of the outer sequence, typed as its `Failure`; the inner sequences cannot fail.
  ///
  /// ```swift
  /// let values = taps.flatMapFirst { value in
  ///   Signal<Int, Never>.just(value * 10)
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMapFirst<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Failure> where Inner.Element: Sendable, Inner.Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .first, transform: transform,
      outerFailure: { $0 }, innerFailure: absurd)
  }

  /// Maps an element to an inner sequence only while no inner sequence runs: elements that arrive meanwhile are
  /// ignored, and the transform is not called for them (RxSwift `flatMapFirst`, RxJS `exhaustMap`).
  ///
  /// Works as ``flatMapFirst(_:)->AsyncFlattenSequence<Self,Inner,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first error of the transform, the outer sequence or an inner sequence, as `any Error`. This form
  /// also takes outer and inner sequences whose typed failures differ.
  ///
  /// ```swift
  /// let values = taps.flatMapFirst { value in
  ///   try api.request(for: value)
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func flatMapFirst<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) async throws -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, any Error> where Inner.Element: Sendable {
    AsyncFlattenSequence(
      self, strategy: .first, throwingTransform: transform,
      outerFailure: { $0 }, innerFailure: { $0 })
  }

  /// Maps each element to an inner sequence and delivers the inner sequences one after another, in order (RxSwift
  /// `concatMap`, RAC `flatten(.concat)`).
  ///
  /// **Finishes:** when the outer sequence and every inner sequence have finished.
  ///
  /// **Buffering:** the outer sequence is read all the time and the transform runs as each element arrives (so a
  /// throwing transform fails the result at once); each inner sequence waits for the previous ones to finish, as
  /// `buffering` says (by default, every one waits its turn).
  ///
  /// **Throws:** nothing: neither side can fail, so the result is iterated with plain `for await`.
  ///
  /// **Cancellation:** cancelling the consumer or dropping the iterator cancels the outer sequence and every
  /// running inner sequence.
  ///
  /// ```swift
  /// let values = files.concatMap { value in
  ///   Signal<Int, Never>.just(value * 10)
  /// }
  /// for await value in values { print(value) }
  /// ```
  /// - Parameters:
  ///   - buffering: what happens to the inner sequences that wait for the running one; by default each waits its
  ///     turn.
  ///   - transform: makes the inner sequence for an element of this sequence.
  /// - Returns: a sequence of the inner sequences' elements.
  public func concatMap<Inner: AsyncSequence & Sendable>(
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Never>
  where Inner.Element: Sendable, Failure == Never, Inner.Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .concat, buffering: buffering, transform: transform,
      outerFailure: absurd, innerFailure: absurd)
  }

  /// Maps each element to an inner sequence and delivers the inner sequences one after another, in order (RxSwift
  /// `concatMap`, RAC `flatten(.concat)`).
  ///
  /// Works as ``concatMap(buffering:_:)->AsyncFlattenSequence<Self,Inner,Never>``
  /// does; only what differs is written here.
  ///
  /// **Throws:** the first failure of the outer sequence or of an inner sequence (both have the same typed `Failure`).
  ///
  /// ```swift
  /// let values = files.concatMap { value in
  ///   Signal<Int, any Error>.future { try await api.load(value) }
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func concatMap<Inner: AsyncSequence & Sendable>(
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Failure> where Inner.Element: Sendable, Inner.Failure == Failure {
    AsyncFlattenSequence(
      self, strategy: .concat, buffering: buffering, transform: transform,
      outerFailure: { $0 }, innerFailure: { $0 })
  }

  /// Maps each element to an inner sequence and delivers the inner sequences one after another, in order (RxSwift
  /// `concatMap`, RAC `flatten(.concat)`).
  ///
  /// Works as ``concatMap(buffering:_:)->AsyncFlattenSequence<Self,Inner,Never>``
  /// does; only what differs is written here.
  ///
  /// **Throws:** the first failure of an inner sequence, typed as the inner sequences' `Failure`; the outer sequence
  /// cannot fail.
  ///
  /// ```swift
  /// let values = files.concatMap { value in
  ///   Signal<Int, any Error>.future { try await api.load(value) }
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func concatMap<Inner: AsyncSequence & Sendable>(
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Inner.Failure> where Inner.Element: Sendable, Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .concat, buffering: buffering, transform: transform,
      outerFailure: absurd, innerFailure: { $0 })
  }

  /// Maps each element to an inner sequence and delivers the inner sequences one after another, in order (RxSwift
  /// `concatMap`, RAC `flatten(.concat)`).
  ///
  /// Works as ``concatMap(buffering:_:)->AsyncFlattenSequence<Self,Inner,Never>``
  /// does; only what differs is written here.
  ///
  /// **Throws:** the first failure of the outer sequence, typed as its `Failure`; the inner sequences cannot fail.
  ///
  /// ```swift
  /// let values = files.concatMap { value in
  ///   Signal<Int, Never>.just(value * 10)
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func concatMap<Inner: AsyncSequence & Sendable>(
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, Failure> where Inner.Element: Sendable, Inner.Failure == Never {
    AsyncFlattenSequence(
      self, strategy: .concat, buffering: buffering, transform: transform,
      outerFailure: { $0 }, innerFailure: absurd)
  }

  /// Maps each element to an inner sequence and delivers the inner sequences one after another, in order (RxSwift
  /// `concatMap`, RAC `flatten(.concat)`).
  ///
  /// Works as ``concatMap(buffering:_:)->AsyncFlattenSequence<Self,Inner,Never>``
  /// does; only what differs is written here.
  ///
  /// **Throws:** the first error of the transform, the outer sequence or an inner sequence, as `any Error`. This form
  /// also takes outer and inner sequences whose typed failures differ.
  ///
  /// ```swift
  /// let values = files.concatMap { value in
  ///   try api.request(for: value)
  /// }
  /// for try await value in values { print(value) }
  /// ```
  public func concatMap<Inner: AsyncSequence & Sendable>(
    buffering: FlattenBuffering = .unbounded,
    _ transform: @escaping @Sendable (Element) async throws -> Inner
  ) -> AsyncFlattenSequence<Self, Inner, any Error> where Inner.Element: Sendable {
    AsyncFlattenSequence(
      self, strategy: .concat, buffering: buffering, throwingTransform: transform,
      outerFailure: { $0 }, innerFailure: { $0 })
  }
}

/// Converts an impossible failure (`Never`) to any failure type.
private func absurd<Failure>(_ never: Never) -> Failure {}
