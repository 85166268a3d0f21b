// `retry(when:)` with a handler over the failures (RxSwift's `retry(when: (Observable<Error>) -> Observable<T>)`),
// in the same four failure pairings as the trigger form; each builds its run with `Signal(retrying:handler:…)`.

extension ReiterableAsyncSequence where Self: Sendable, Element: Sendable {
  /// On failure, hands the failure to the sequence `handler` built over the failures, and iterates this sequence
  /// again when that sequence produces an element (RxSwift `retry(when:)` with a handler of the errors): the
  /// handler decides, per failure, whether and when to retry.
  ///
  /// `handler` is called once per run, with a hot signal that sends each failure of the run; what it returns is
  /// observed from the start of the run. After each failure, its next element starts the next attempt; if it
  /// finishes instead, the result finishes (the failure is dropped), and if it fails, the result fails with its
  /// failure. An element it produces while an attempt runs is kept for the next failure.
  ///
  /// **Finishes:** when an attempt finishes, or when the handler's sequence finishes after a failure.
  ///
  /// **Throws:** nothing: neither side can fail here.
  ///
  /// ```swift
  /// let pulses = Signal<Int, Never>([1, 2, 3])
  /// for await value in pulses.retry(when: { failures in failures.prefix(3) }) { print(value) }
  /// ```
  /// - Parameter handler: builds, from the run's failures, the sequence whose elements start the next attempts.
  /// - Returns: a ``Signal`` of every attempt's values.
  @inlinable public func retry<Trigger: AsyncSequence & Sendable>(
    when handler: @escaping @Sendable (Signal<Failure, Never>) -> Trigger
  ) -> Signal<Element, Never> where Failure == Never, Trigger.Failure == Never, Trigger.Element: Sendable {
    Signal(retrying: self, handler: handler, baseFailure: neverFailure, triggerFailure: neverFailure)
  }

  /// On failure, hands the failure to the sequence `handler` built over the failures, and iterates this sequence
  /// again when that sequence produces an element; see the form above.
  ///
  /// **Throws:** this sequence's failure only when the handler's sequence cannot fail and the consumer was
  /// cancelled while it waited.
  ///
  /// ```swift
  /// // Retry once each time the network comes back, whatever failed.
  /// let orders = Signal.future { try await api.orders() }
  ///   .retry(when: { _ in reachability.dropFirst().filter { $0 } })
  /// ```
  @inlinable public func retry<Trigger: AsyncSequence & Sendable>(
    when handler: @escaping @Sendable (Signal<Failure, Never>) -> Trigger
  ) -> Signal<Element, Failure> where Trigger.Failure == Never, Trigger.Element: Sendable {
    Signal(retrying: self, handler: handler, baseFailure: { $0 }, triggerFailure: neverFailure)
  }

  /// On failure, hands the failure to the sequence `handler` built over the failures, and iterates this sequence
  /// again when that sequence produces an element; a failure of that sequence fails the result (RxSwift's
  /// incremental back-off: fail with the error after the last attempt).
  ///
  /// **Throws:** the failure of the handler's sequence, at once.
  ///
  /// ```swift
  /// // Retry at once, three times, then fail with the last failure.
  /// let orders = api.orders.retry(when: { failures in
  ///   failures.enumerated().flatMap { attempt, failure in
  ///     attempt < 3 ? Signal<Int, APIError>.just(attempt) : Signal<Int, APIError>.fail(failure)
  ///   }
  /// })
  /// ```
  /// - Parameter handler: builds, from the run's failures, the sequence whose elements start the next attempts.
  /// - Returns: a ``Signal`` of every attempt's values.
  @inlinable public func retry<Trigger: AsyncSequence & Sendable>(
    when handler: @escaping @Sendable (Signal<Failure, Never>) -> Trigger
  ) -> Signal<Element, Failure> where Trigger.Failure == Failure, Trigger.Element: Sendable {
    Signal(retrying: self, handler: handler, baseFailure: { $0 }, triggerFailure: { $0 })
  }

  /// On failure, hands the failure to the sequence `handler` built over the failures, and iterates this sequence
  /// again when that sequence produces an element; this form takes a handler whose sequence fails with another
  /// type (a throwing `scan` over the failures, say).
  ///
  /// **Throws:** the failure of the handler's sequence, at once, as `any Error`.
  ///
  /// ```swift
  /// let orders = api.orders.retry(when: { failures in
  ///   failures.scan(0) { count, _ in count < 3 ? count + 1 : try giveUp() }
  /// })
  /// ```
  /// - Parameter handler: builds, from the run's failures, the sequence whose elements start the next attempts.
  /// - Returns: a ``Signal`` of every attempt's values.
  @inlinable public func retry<Trigger: AsyncSequence & Sendable>(
    when handler: @escaping @Sendable (Signal<Failure, Never>) -> Trigger
  ) -> Signal<Element, any Error> where Trigger.Element: Sendable {
    Signal(retrying: self, handler: handler, baseFailure: { $0 }, triggerFailure: { $0 })
  }
}

extension Signal {
  /// `base`, run again after each failure once the sequence `handler` builds over the run's failures produces an
  /// element. One run: a subject of the failures, the handler's sequence observed from the start, then attempt
  /// after attempt.
  @inlinable init<Base: ReiterableAsyncSequence & Sendable, Trigger: AsyncSequence & Sendable>(
    retrying base: Base, handler: @escaping @Sendable (Signal<Base.Failure, Never>) -> Trigger,
    baseFailure: @escaping @Sendable (Base.Failure) -> Failure,
    triggerFailure: @escaping @Sendable (Trigger.Failure) -> Failure
  ) where Base.Element == Element, Trigger.Element: Sendable {
    let upstream = Signal<Element, Base.Failure>(base)
    self.init { (emitter: Emitter) async throws(Failure) -> Void in
      let failures = AsyncPassthroughSubject<Base.Failure, Never>()
      defer { failures.finish() }
      // Observed before the first attempt, so that what it derives from the failures sees each of them.
      var trigger = Signal<Trigger.Element, Trigger.Failure>(handler(failures.eraseToSignal())).makeAsyncIterator()
      while !Task.isCancelled {
        do throws(Base.Failure) {
          for try await element in upstream { await emitter.send(element) }
          return
        } catch {
          if Task.isCancelled { throw baseFailure(error) }
          failures.send(error)
          do throws(Trigger.Failure) {
            guard try await trigger.next(isolation: nil) != nil else { return }
          } catch {
            throw triggerFailure(error)
          }
        }
      }
    }
  }
}
