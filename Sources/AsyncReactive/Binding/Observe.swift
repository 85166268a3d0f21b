// Observations and bindings of any sequence. What the sequence is decides, once, here: a hot one (also through a
// generic parameter or a `Signal` erasure) takes the task-free forms of HotSequence+Observe.swift; a cold one gets
// one task per observation, started on the caller's actor, that iterates the sequence and runs the caller's code
// there, with the same rules.

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// Runs `onValue` for each element on the caller's actor, for as long as `lifetime` lasts (RAC
  /// `subscribeNext:`, RxSwift `subscribe(onNext:).disposed(by:)`, ReactiveSwift `observeValues`).
  ///
  /// The consumer is registered before this returns: a subject's values sent right after the call are not
  /// missed. Values are handled one at a time, in order, isolated to the caller's actor (the main actor in a
  /// `@MainActor` view, the actor in an actor's method; off any actor for a caller that has none), so the closure
  /// touches the caller's state directly and need not be `@Sendable`.
  ///
  /// **Cancellation:** ending the lifetime cancels the observation, which stops the sequence's work; nothing is
  /// handled after that, not even a value the sequence had already produced.
  ///
  /// A hot source (a subject, a property, a hot chain, also through a generic parameter or a ``Signal`` that erases
  /// one) is observed inside its sends, keeping no task while no value waits (a task exists only to hand waiting
  /// values to the caller's actor); a cold one runs one task per observation, started in place: what the sequence
  /// has ready (`Signal.just`, an array) has been handled, on the caller's actor, before this returns.
  ///
  /// ```swift
  /// let downloads = AsyncStream<Progress> { continuation in startDownload(reporting: continuation) }
  /// downloads.observe(in: lifetime) { progress in
  ///   self.progressLabel.text = "\(progress.percent)%"
  /// }
  /// ```
  /// - Parameters:
  ///   - lifetime: ends the observation when it ends.
  ///   - isolation: where the closures run; the caller's actor (leave the default).
  ///   - onValue: called with each element.
  ///   - onFinish: called once if the sequence finishes (not when the observation is cancelled).
  /// - Returns: the observation, to cancel it or await its end.
  @discardableResult
  public func observe(
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext _ onValue: sending @escaping (Element) async -> Void,
    @_inheritActorContext onFinish: sending (() async -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    if let node = Signal(self).hotNode {
      return HotSignal(node: node).hotObserve(
        in: lifetime, isolation: isolation, onValue, onFinish: onFinish, fileID: fileID, line: line)
    }
    // A run that waits on a test clock: the task prefers that clock's executor (see `discovering`).
    let (iterator, executor) = TaskExecutorContext.discovering { makeAsyncIterator() }
    let slot = lifetime.reserve()
    let count = InPlaceTaskCount(named: "observe(in:)", executor: executor)
    // Started in place, on the caller's actor: a cold source with values ready has delivered them, in order,
    // before this returns (RxSwift's `subscribe`); the task goes on from the source's first real wait.
    let task = Task(inPlace: count) {
      // Capturing the isolated parameter makes this task run on the caller's actor.
      _ = isolation
      defer {
        count.end()
        slot.done()
      }
      var iterator = iterator
      while let value = await iterator.next(isolation: isolation) {
        // A lifetime that ended delivers nothing more, not even what was buffered before its task ran
        // (ReactiveSwift's bindingFromSignal_tearsDownWhenDisposed).
        guard !Task.isCancelled else { return }
        await onValue(value)
      }
      if !Task.isCancelled { await onFinish?() }
    }
    return ObservationHandle(task: lifetime.adopt(task, in: slot))
  }

  /// Assigns each element to `target[keyPath: keyPath]` on the caller's actor, for as long as `lifetime` lasts
  /// and `target` exists (RAC `RAC(label, text) = signal`, RxCocoa `bind(to: label.rx.text)`, ReactiveSwift
  /// `label.reactive.text <~ signal`).
  ///
  /// The target is held **weakly**: a view that binds to its own widgets creates no retain cycle, and a target
  /// that goes away ends the binding at the next element. The assignment runs isolated to the caller's actor (the
  /// main actor in a `@MainActor` view), one element at a time, in order.
  ///
  /// ```swift
  /// Signal.future { await api.title() }.bind(to: titleLabel, \.text, in: lifetime)
  /// ```
  /// - Parameters:
  ///   - target: the object to write to; held weakly.
  ///   - keyPath: the property that receives each element.
  ///   - lifetime: ends the binding when it ends.
  ///   - isolation: where the assignment runs; the caller's actor (leave the default).
  /// - Returns: the binding, to cancel it or await its end.
  @discardableResult
  public func bind<Target: AnyObject>(
    to target: Target,
    _ keyPath: ReferenceWritableKeyPath<Target, Element>,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    if let node = Signal(self).hotNode {
      return HotSignal(node: node).hotBind(
        to: target, keyPath, in: lifetime, isolation: isolation, fileID: fileID, line: line)
    }
    return assign(to: target, in: lifetime, isolation: isolation) { target, value in target[keyPath: keyPath] = value }
  }

  /// Assigns each element to an optional property of `target` (a label's `text: String?`) on the caller's actor,
  /// for as long as `lifetime` lasts and `target` exists; see
  /// ``_Concurrency/AsyncSequence/bind(to:_:in:isolation:fileID:line:)-(_,ReferenceWritableKeyPath<Target,Element>,_,_,_,_)``.
  ///
  /// ```swift
  /// Signal.future { await api.title() }.bind(to: titleLabel, \.text, in: lifetime)   // text: String?
  /// ```
  /// - Parameters:
  ///   - target: the object to write to; held weakly.
  ///   - keyPath: the optional property that receives each element.
  ///   - lifetime: ends the binding when it ends.
  ///   - isolation: where the assignment runs; the caller's actor (leave the default).
  /// - Returns: the binding, to cancel it or await its end.
  @discardableResult
  public func bind<Target: AnyObject>(
    to target: Target,
    _ keyPath: ReferenceWritableKeyPath<Target, Element?>,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    if let node = Signal(self).hotNode {
      return HotSignal(node: node).hotBind(
        to: target, keyPath, in: lifetime, isolation: isolation, fileID: fileID, line: line)
    }
    return assign(to: target, in: lifetime, isolation: isolation) { target, value in target[keyPath: keyPath] = value }
  }

  /// The task of a key-path binding: writes each element to the weakly held `target` on `isolation`.
  private func assign<Target: AnyObject>(
    to target: Target,
    in lifetime: Lifetime,
    isolation: isolated (any Actor)?,
    _ write: @escaping (Target, Element) -> Void
  ) -> ObservationHandle {
    // A run that waits on a test clock: the task prefers that clock's executor (see `discovering`).
    let (iterator, executor) = TaskExecutorContext.discovering { makeAsyncIterator() }
    let slot = lifetime.reserve()
    let count = InPlaceTaskCount(named: "bind(to:_:in:)", executor: executor)
    // Started in place, on the caller's actor: a cold source with values ready has delivered them, in order,
    // before this returns (RxSwift's `subscribe`); the task goes on from the source's first real wait.
    let task = Task(inPlace: count) { [weak target] in
      // Capturing the isolated parameter makes this task run on the caller's actor.
      _ = isolation
      defer {
        count.end()
        slot.done()
      }
      var iterator = iterator
      while let value = await iterator.next(isolation: isolation) {
        // A lifetime that ended delivers nothing more, not even what was buffered before its task ran.
        guard !Task.isCancelled, let target else { return }
        write(target, value)
      }
    }
    return ObservationHandle(task: lifetime.adopt(task, in: slot))
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Runs `onValue` for each element and `onFailure` if the sequence fails, on the caller's actor, for as long as
  /// `lifetime` lasts; see ``_Concurrency/AsyncSequence/observe(in:isolation:_:onFinish:fileID:line:)``.
  ///
  /// **Cancellation:** ending the lifetime cancels the observation, which stops the sequence's work.
  ///
  /// ```swift
  /// Signal.future { try await api.orders() }.observe(in: lifetime) { orders in
  ///   self.show(orders)
  /// } onFailure: { error in
  ///   self.showError(error)
  /// }
  /// ```
  /// - Parameters:
  ///   - lifetime: ends the observation when it ends.
  ///   - isolation: where the closures run; the caller's actor (leave the default).
  ///   - onValue: called with each element.
  ///   - onFailure: called once if the sequence fails, after its values.
  ///   - onFinish: called once if the sequence finishes (not when the observation is cancelled).
  /// - Returns: the observation, to cancel it or await its end.
  @discardableResult
  public func observe(
    in lifetime: Lifetime,
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext onValue: sending @escaping (Element) async -> Void,
    @_inheritActorContext onFailure: sending @escaping (Failure) async -> Void,
    @_inheritActorContext onFinish: sending (() async -> Void)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ObservationHandle {
    if let node = Signal(self).hotNode {
      return HotSignal(node: node).hotObserve(
        in: lifetime, isolation: isolation, onValue: onValue, onFailure: onFailure, onFinish: onFinish, fileID: fileID,
        line: line)
    }
    // A run that waits on a test clock: the task prefers that clock's executor (see `discovering`).
    let (iterator, executor) = TaskExecutorContext.discovering { makeAsyncIterator() }
    let slot = lifetime.reserve()
    let count = InPlaceTaskCount(named: "observe(in:onValue:onFailure:)", executor: executor)
    // Started in place, on the caller's actor: a cold source with values ready has delivered them, in order,
    // before this returns (RxSwift's `subscribe`); the task goes on from the source's first real wait.
    let task = Task(inPlace: count) {
      // Capturing the isolated parameter makes this task run on the caller's actor.
      _ = isolation
      defer {
        count.end()
        slot.done()
      }
      var iterator = iterator
      do throws(Failure) {
        while let value = try await iterator.next(isolation: isolation) {
          // A lifetime that ended delivers nothing more, not even what was buffered before its task ran.
          guard !Task.isCancelled else { return }
          await onValue(value)
        }
        if !Task.isCancelled { await onFinish?() }
      } catch {
        if !Task.isCancelled { await onFailure(error) }
      }
    }
    return ObservationHandle(task: lifetime.adopt(task, in: slot))
  }
}
