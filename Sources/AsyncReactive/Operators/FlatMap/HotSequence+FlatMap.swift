// The hot forms of the flatten operators: on a hot outer sequence the transform runs inside the outer `send`,
// once for all consumers (`let e = taps.flatMapLatest { request }` iterated twice sends one request per tap), and
// the result is a HotSignal. Each name has the five failure-type overloads of the stream forms, with
// `Self: HotSequence`, so a hot outer never falls back to the pull form. The transform is synchronous: it builds
// the inner sequence (a `Signal` does its work when it runs); an `async` transform gets the stream form.
// `flatMap(maxConcurrent:buffering:)` and the `buffering:` forms stay stream forms.

extension HotSequence {
  /// Maps each element to an inner sequence inside the outer `send` and merges their elements (RAC `flattenMap`,
  /// RxSwift `flatMap`): inner sequences run concurrently, outputs interleave as produced.
  ///
  /// The transform runs once per outer element for all consumers; an immediate inner (`Signal.just`) is
  /// delivered in place, a hot one is observed synchronously, any other runs in a task of its own.
  ///
  /// **Finishes:** when the outer sequence and every running inner sequence have finished.
  ///
  /// **Throws:** nothing: neither the outer nor the inner sequences can fail.
  ///
  /// **Cancellation:** when the last consumer stops, the outer sequence is no longer observed and every running
  /// inner sequence is cancelled.
  ///
  /// ```swift
  /// let wallets = users.flatMap { user in Signal.future { try await api.wallet(for: user) } }
  /// ```
  /// - Parameters:
  ///   - transform: makes the inner sequence for an element; runs on the sending thread.
  /// - Returns: a ``HotSignal`` of the inner sequences' elements.
  @inlinable public func flatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Never>
  where Inner.Element: Sendable, Failure == Never, Inner.Failure == Never {
    hotFlatten(
      .merge, transform: transform, outerFailure: neverFailure, innerFailure: neverFailure,
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and merges their elements.
  ///
  /// Works as ``flatMap(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the common `Failure` of the outer and inner sequences, as soon as any fails.
  ///
  /// ```swift
  /// let wallets = users.flatMap { user in Signal.future { try await api.wallet(for: user) } }
  /// ```
  @inlinable public func flatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Failure>
  where Inner.Element: Sendable, Inner.Failure == Failure {
    hotFlatten(
      .merge, transform: transform, outerFailure: { $0 }, innerFailure: { $0 }, transformFailure: absurdTransformFailure
    )
  }

  /// Maps each element to an inner sequence inside the outer `send` and merges their elements.
  ///
  /// Works as ``flatMap(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the inner sequences' `Failure`, as soon as one fails.
  ///
  /// ```swift
  /// let wallets = users.flatMap { user in Signal.future { try await api.wallet(for: user) } }
  /// ```
  @inlinable public func flatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Inner.Failure>
  where Inner.Element: Sendable, Failure == Never {
    hotFlatten(
      .merge, transform: transform, outerFailure: neverFailure, innerFailure: { $0 },
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and merges their elements.
  ///
  /// Works as ``flatMap(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the outer sequence's `Failure`, as soon as it fails.
  ///
  /// ```swift
  /// let wallets = users.flatMap { user in Signal.future { try await api.wallet(for: user) } }
  /// ```
  @inlinable public func flatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Failure>
  where Inner.Element: Sendable, Inner.Failure == Never {
    hotFlatten(
      .merge, transform: transform, outerFailure: { $0 }, innerFailure: neverFailure,
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and merges their elements.
  ///
  /// Works as ``flatMap(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first error of the outer sequence, an inner sequence or the transform, as `any Error`.
  ///
  /// ```swift
  /// let wallets = users.flatMap { user in Signal.future { try await api.wallet(for: user) } }
  /// ```
  @inlinable public func flatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) throws -> Inner
  ) -> HotSignal<Inner.Element, any Error>
  where Inner.Element: Sendable {
    hotFlatten(
      .merge, transform: transform, outerFailure: { $0 }, innerFailure: { $0 }, transformFailure: { $0 })
  }

  /// Maps each element to an inner sequence inside the outer `send` and combines the inner sequences as `strategy` says
  /// (ReactiveSwift `flatMap(.latest)`).
  ///
  /// The transform runs once per outer element for all consumers; an immediate inner (`Signal.just`) is
  /// delivered in place, a hot one is observed synchronously, any other runs in a task of its own.
  ///
  /// **Finishes:** when the outer sequence and every running inner sequence have finished.
  ///
  /// **Throws:** nothing: neither the outer nor the inner sequences can fail.
  ///
  /// **Cancellation:** when the last consumer stops, the outer sequence is no longer observed and every running
  /// inner sequence is cancelled.
  ///
  /// ```swift
  /// let results = queries.flatMap(.latest) { query in Signal.future { try await api.search(query) } }
  /// ```
  /// - Parameters:
  ///   - strategy: how the inner sequences are combined.
  ///   - transform: makes the inner sequence for an element; runs on the sending thread.
  /// - Returns: a ``HotSignal`` of the inner sequences' elements.
  @inlinable public func flatMap<Inner: AsyncSequence & Sendable>(
    _ strategy: FlattenStrategy,
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Never>
  where Inner.Element: Sendable, Failure == Never, Inner.Failure == Never {
    hotFlatten(
      strategy, transform: transform, outerFailure: neverFailure, innerFailure: neverFailure,
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and combines the inner sequences as `strategy`
  /// says.
  ///
  /// Works as ``flatMap(_:_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the common `Failure` of the outer and inner sequences, as soon as any fails.
  ///
  /// ```swift
  /// let results = queries.flatMap(.latest) { query in Signal.future { try await api.search(query) } }
  /// ```
  @inlinable public func flatMap<Inner: AsyncSequence & Sendable>(
    _ strategy: FlattenStrategy,
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Failure>
  where Inner.Element: Sendable, Inner.Failure == Failure {
    hotFlatten(
      strategy, transform: transform, outerFailure: { $0 }, innerFailure: { $0 },
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and combines the inner sequences as `strategy`
  /// says.
  ///
  /// Works as ``flatMap(_:_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the inner sequences' `Failure`, as soon as one fails.
  ///
  /// ```swift
  /// let results = queries.flatMap(.latest) { query in Signal.future { try await api.search(query) } }
  /// ```
  @inlinable public func flatMap<Inner: AsyncSequence & Sendable>(
    _ strategy: FlattenStrategy,
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Inner.Failure>
  where Inner.Element: Sendable, Failure == Never {
    hotFlatten(
      strategy, transform: transform, outerFailure: neverFailure, innerFailure: { $0 },
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and combines the inner sequences as `strategy`
  /// says.
  ///
  /// Works as ``flatMap(_:_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the outer sequence's `Failure`, as soon as it fails.
  ///
  /// ```swift
  /// let results = queries.flatMap(.latest) { query in Signal.future { try await api.search(query) } }
  /// ```
  @inlinable public func flatMap<Inner: AsyncSequence & Sendable>(
    _ strategy: FlattenStrategy,
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Failure>
  where Inner.Element: Sendable, Inner.Failure == Never {
    hotFlatten(
      strategy, transform: transform, outerFailure: { $0 }, innerFailure: neverFailure,
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and combines the inner sequences as `strategy`
  /// says.
  ///
  /// Works as ``flatMap(_:_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first error of the outer sequence, an inner sequence or the transform, as `any Error`.
  ///
  /// ```swift
  /// let results = queries.flatMap(.latest) { query in Signal.future { try await api.search(query) } }
  /// ```
  @inlinable public func flatMap<Inner: AsyncSequence & Sendable>(
    _ strategy: FlattenStrategy,
    _ transform: @escaping @Sendable (Element) throws -> Inner
  ) -> HotSignal<Inner.Element, any Error>
  where Inner.Element: Sendable {
    hotFlatten(
      strategy, transform: transform, outerFailure: { $0 }, innerFailure: { $0 }, transformFailure: { $0 })
  }

  /// Maps each element to an inner sequence inside the outer `send` and follows only the latest one (RxSwift
  /// `flatMapLatest`, ReactiveSwift `flatMap(.latest)`): a new element cancels the running inner sequence, whose later
  /// elements never arrive.
  ///
  /// The transform runs once per outer element for all consumers; an immediate inner (`Signal.just`) is
  /// delivered in place, a hot one is observed synchronously, any other runs in a task of its own.
  ///
  /// **Finishes:** when the outer sequence and every running inner sequence have finished.
  ///
  /// **Throws:** nothing: neither the outer nor the inner sequences can fail.
  ///
  /// **Cancellation:** when the last consumer stops, the outer sequence is no longer observed and every running
  /// inner sequence is cancelled.
  ///
  /// ```swift
  /// let results = submits.flatMapLatest { Signal.future { try await api.signUp() } }.materialize()
  /// ```
  /// - Parameters:
  ///   - transform: makes the inner sequence for an element; runs on the sending thread.
  /// - Returns: a ``HotSignal`` of the inner sequences' elements.
  @inlinable public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Never>
  where Inner.Element: Sendable, Failure == Never, Inner.Failure == Never {
    hotFlatten(
      .latest, transform: transform, outerFailure: neverFailure, innerFailure: neverFailure,
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and follows only the latest one.
  ///
  /// Works as ``flatMapLatest(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the common `Failure` of the outer and inner sequences, as soon as any fails.
  ///
  /// ```swift
  /// let results = submits.flatMapLatest { Signal.future { try await api.signUp() } }.materialize()
  /// ```
  @inlinable public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Failure>
  where Inner.Element: Sendable, Inner.Failure == Failure {
    hotFlatten(
      .latest, transform: transform, outerFailure: { $0 }, innerFailure: { $0 },
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and follows only the latest one.
  ///
  /// Works as ``flatMapLatest(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the inner sequences' `Failure`, as soon as one fails.
  ///
  /// ```swift
  /// let results = submits.flatMapLatest { Signal.future { try await api.signUp() } }.materialize()
  /// ```
  @inlinable public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Inner.Failure>
  where Inner.Element: Sendable, Failure == Never {
    hotFlatten(
      .latest, transform: transform, outerFailure: neverFailure, innerFailure: { $0 },
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and follows only the latest one.
  ///
  /// Works as ``flatMapLatest(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the outer sequence's `Failure`, as soon as it fails.
  ///
  /// ```swift
  /// let results = submits.flatMapLatest { Signal.future { try await api.signUp() } }.materialize()
  /// ```
  @inlinable public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Failure>
  where Inner.Element: Sendable, Inner.Failure == Never {
    hotFlatten(
      .latest, transform: transform, outerFailure: { $0 }, innerFailure: neverFailure,
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and follows only the latest one.
  ///
  /// Works as ``flatMapLatest(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first error of the outer sequence, an inner sequence or the transform, as `any Error`.
  ///
  /// ```swift
  /// let results = submits.flatMapLatest { Signal.future { try await api.signUp() } }.materialize()
  /// ```
  @inlinable public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) throws -> Inner
  ) -> HotSignal<Inner.Element, any Error>
  where Inner.Element: Sendable {
    hotFlatten(
      .latest, transform: transform, outerFailure: { $0 }, innerFailure: { $0 }, transformFailure: { $0 })
  }

  /// Maps each element to an inner sequence inside the outer `send`, ignoring elements that arrive while an inner
  /// sequence runs (RxSwift `flatMapFirst`, ReactiveSwift `flatMap(.throttle)`): the transform is not even called for
  /// them.
  ///
  /// The transform runs once per outer element for all consumers; an immediate inner (`Signal.just`) is
  /// delivered in place, a hot one is observed synchronously, any other runs in a task of its own.
  ///
  /// **Finishes:** when the outer sequence and every running inner sequence have finished.
  ///
  /// **Throws:** nothing: neither the outer nor the inner sequences can fail.
  ///
  /// **Cancellation:** when the last consumer stops, the outer sequence is no longer observed and every running
  /// inner sequence is cancelled.
  ///
  /// ```swift
  /// let logins = loginTaps.flatMapFirst { Signal.future { try await api.logIn() } }   // double taps ignored
  /// ```
  /// - Parameters:
  ///   - transform: makes the inner sequence for an element; runs on the sending thread.
  /// - Returns: a ``HotSignal`` of the inner sequences' elements.
  @inlinable public func flatMapFirst<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Never>
  where Inner.Element: Sendable, Failure == Never, Inner.Failure == Never {
    hotFlatten(
      .first, transform: transform, outerFailure: neverFailure, innerFailure: neverFailure,
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send`, ignoring elements that arrive while an inner
  /// sequence runs.
  ///
  /// Works as ``flatMapFirst(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the common `Failure` of the outer and inner sequences, as soon as any fails.
  ///
  /// ```swift
  /// let logins = loginTaps.flatMapFirst { Signal.future { try await api.logIn() } }   // double taps ignored
  /// ```
  @inlinable public func flatMapFirst<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Failure>
  where Inner.Element: Sendable, Inner.Failure == Failure {
    hotFlatten(
      .first, transform: transform, outerFailure: { $0 }, innerFailure: { $0 }, transformFailure: absurdTransformFailure
    )
  }

  /// Maps each element to an inner sequence inside the outer `send`, ignoring elements that arrive while an inner
  /// sequence runs.
  ///
  /// Works as ``flatMapFirst(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the inner sequences' `Failure`, as soon as one fails.
  ///
  /// ```swift
  /// let logins = loginTaps.flatMapFirst { Signal.future { try await api.logIn() } }   // double taps ignored
  /// ```
  @inlinable public func flatMapFirst<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Inner.Failure>
  where Inner.Element: Sendable, Failure == Never {
    hotFlatten(
      .first, transform: transform, outerFailure: neverFailure, innerFailure: { $0 },
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send`, ignoring elements that arrive while an inner
  /// sequence runs.
  ///
  /// Works as ``flatMapFirst(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the outer sequence's `Failure`, as soon as it fails.
  ///
  /// ```swift
  /// let logins = loginTaps.flatMapFirst { Signal.future { try await api.logIn() } }   // double taps ignored
  /// ```
  @inlinable public func flatMapFirst<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Failure>
  where Inner.Element: Sendable, Inner.Failure == Never {
    hotFlatten(
      .first, transform: transform, outerFailure: { $0 }, innerFailure: neverFailure,
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send`, ignoring elements that arrive while an inner
  /// sequence runs.
  ///
  /// Works as ``flatMapFirst(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first error of the outer sequence, an inner sequence or the transform, as `any Error`.
  ///
  /// ```swift
  /// let logins = loginTaps.flatMapFirst { Signal.future { try await api.logIn() } }   // double taps ignored
  /// ```
  @inlinable public func flatMapFirst<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) throws -> Inner
  ) -> HotSignal<Inner.Element, any Error>
  where Inner.Element: Sendable {
    hotFlatten(
      .first, transform: transform, outerFailure: { $0 }, innerFailure: { $0 }, transformFailure: { $0 })
  }

  /// Maps each element to an inner sequence inside the outer `send` and runs the inner sequences one at a time, in
  /// order (RxSwift `concatMap`, ReactiveSwift `flatMap(.concat)`).
  ///
  /// The transform runs once per outer element for all consumers; an immediate inner (`Signal.just`) is
  /// delivered in place, a hot one is observed synchronously, any other runs in a task of its own.
  ///
  /// **Finishes:** when the outer sequence and every running inner sequence have finished.
  ///
  /// **Throws:** nothing: neither the outer nor the inner sequences can fail.
  ///
  /// **Cancellation:** when the last consumer stops, the outer sequence is no longer observed and every running
  /// inner sequence is cancelled.
  ///
  /// ```swift
  /// let uploads = photos.concatMap { photo in Signal.future { try await api.upload(photo) } }
  /// ```
  /// - Parameters:
  ///   - transform: makes the inner sequence for an element; runs on the sending thread.
  /// - Returns: a ``HotSignal`` of the inner sequences' elements.
  @inlinable public func concatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Never>
  where Inner.Element: Sendable, Failure == Never, Inner.Failure == Never {
    hotFlatten(
      .concat, transform: transform, outerFailure: neverFailure, innerFailure: neverFailure,
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and runs the inner sequences one at a time, in
  /// order.
  ///
  /// Works as ``concatMap(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the common `Failure` of the outer and inner sequences, as soon as any fails.
  ///
  /// ```swift
  /// let uploads = photos.concatMap { photo in Signal.future { try await api.upload(photo) } }
  /// ```
  @inlinable public func concatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Failure>
  where Inner.Element: Sendable, Inner.Failure == Failure {
    hotFlatten(
      .concat, transform: transform, outerFailure: { $0 }, innerFailure: { $0 },
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and runs the inner sequences one at a time, in
  /// order.
  ///
  /// Works as ``concatMap(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the inner sequences' `Failure`, as soon as one fails.
  ///
  /// ```swift
  /// let uploads = photos.concatMap { photo in Signal.future { try await api.upload(photo) } }
  /// ```
  @inlinable public func concatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Inner.Failure>
  where Inner.Element: Sendable, Failure == Never {
    hotFlatten(
      .concat, transform: transform, outerFailure: neverFailure, innerFailure: { $0 },
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and runs the inner sequences one at a time, in
  /// order.
  ///
  /// Works as ``concatMap(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the outer sequence's `Failure`, as soon as it fails.
  ///
  /// ```swift
  /// let uploads = photos.concatMap { photo in Signal.future { try await api.upload(photo) } }
  /// ```
  @inlinable public func concatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> HotSignal<Inner.Element, Failure>
  where Inner.Element: Sendable, Inner.Failure == Never {
    hotFlatten(
      .concat, transform: transform, outerFailure: { $0 }, innerFailure: neverFailure,
      transformFailure: absurdTransformFailure)
  }

  /// Maps each element to an inner sequence inside the outer `send` and runs the inner sequences one at a time, in
  /// order.
  ///
  /// Works as ``concatMap(_:)->HotSignal<Inner.Element,Never>`` does; only what differs is written here.
  ///
  /// **Throws:** the first error of the outer sequence, an inner sequence or the transform, as `any Error`.
  ///
  /// ```swift
  /// let uploads = photos.concatMap { photo in Signal.future { try await api.upload(photo) } }
  /// ```
  @inlinable public func concatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) throws -> Inner
  ) -> HotSignal<Inner.Element, any Error>
  where Inner.Element: Sendable {
    hotFlatten(
      .concat, transform: transform, outerFailure: { $0 }, innerFailure: { $0 }, transformFailure: { $0 })
  }
}

/// What a non-throwing transform's failure becomes: it cannot happen.
@usableFromInline func absurdTransformFailure<Failure>(_ error: any Error) -> Failure {
  preconditionFailure("Internal inconsistency: a non-throwing transform threw \(error)")
}
