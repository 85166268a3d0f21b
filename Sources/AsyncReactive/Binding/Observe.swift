extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// Runs `onValue` for each element, for as long as `lifetime` lasts (RAC `subscribeNext:`, RxSwift
  /// `subscribe(onNext:).disposed(by:)`).
  ///
  /// The consumer is registered before this returns: a subject's values sent right after the call are not
  /// missed. Values are handled one at a time, in order.
  ///
  /// **Cancellation:** ending the lifetime cancels the observation, which stops the sequence's work.
  ///
  /// A hot source (a subject, a property, a hot chain) takes ``HotSequence/observe(in:_:onFinished:)`` instead,
  /// which keeps no task while idle; this form is for cold sequences.
  ///
  /// ```swift
  /// let downloads = AsyncStream<Progress> { continuation in startDownload(reporting: continuation) }
  /// downloads.observe(in: lifetime) { progress in
  ///   print("\(progress.percent)%")
  /// }
  /// ```
  /// - Parameters:
  ///   - lifetime: ends the observation when it ends.
  ///   - onValue: called with each element.
  ///   - onFinished: called once if the sequence finishes (not when the observation is cancelled).
  /// - Returns: the observing task, for callers that want to await its end.
  @discardableResult
  public func observe(
    in lifetime: Lifetime,
    _ onValue: @escaping @Sendable (Element) async -> Void,
    onFinished: (@Sendable () async -> Void)? = nil
  ) -> Task<Void, Never> {
    let iterator = makeAsyncIterator()
    return lifetime.run(name: "observe(in:)") {
      var iterator = iterator
      while let value = await iterator.next(isolation: nil) {
        // A lifetime that ended delivers nothing more, not even what was buffered before its task ran
        // (ReactiveSwift's bindingFromSignal_tearsDownWhenDisposed).
        guard !Task.isCancelled else { break }
        await onValue(value)
      }
      if !Task.isCancelled { await onFinished?() }
    }
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Runs `onValue` for each element and `onFailure` if the sequence fails, for as long as `lifetime`
  /// lasts.
  ///
  /// **Cancellation:** ending the lifetime cancels the observation, which stops the sequence's work.
  ///
  /// ```swift
  /// Signal.future { try await api.orders() }.observe(in: lifetime) { orders in
  ///   show(orders)
  /// } onFailure: { error in
  ///   showError(error)
  /// }
  /// ```
  /// - Returns: the observing task, for callers that want to await its end.
  @discardableResult
  public func observe(
    in lifetime: Lifetime,
    onValue: @escaping @Sendable (Element) async -> Void,
    onFailure: @escaping @Sendable (Failure) async -> Void,
    onFinished: (@Sendable () async -> Void)? = nil
  ) -> Task<Void, Never> {
    let iterator = makeAsyncIterator()
    return lifetime.run(name: "observe(in:onValue:onFailure:)") {
      var iterator = iterator
      do throws(Failure) {
        while let value = try await iterator.next(isolation: nil) {
          // A lifetime that ended delivers nothing more, not even what was buffered before its task ran
          // (ReactiveSwift's bindingFromSignal_tearsDownWhenDisposed).
          guard !Task.isCancelled else { break }
          await onValue(value)
        }
        if !Task.isCancelled { await onFinished?() }
      } catch {
        await onFailure(error)
      }
    }
  }
}
