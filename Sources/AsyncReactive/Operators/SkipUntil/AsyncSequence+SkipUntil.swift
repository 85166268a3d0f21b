// The entry points of `skip(until:)`, in three overloads for the failure type (the rule the API contracts state for
// every operator with two inputs): a shared type (`Never` included), then, disfavored, the other side `Never` (this
// side's type is kept) and `any Error` when the types differ. Only the first is a plain overload, so that a call
// where several apply picks it at once. Edit them together; `take(until:)` is their mirror.

extension AsyncSequence where Self: Sendable, Element: Sendable {

  /// Drops this sequence's elements until `trigger` produces its first element, then mirrors it (RxSwift
  /// `skip(until:)`, RAC `skipUntil:`): the idiom "ignore input until the screen appeared",
  /// `taps.skip(until: viewDidAppear)`.
  ///
  /// Both sequences are observed from the start, this one first (as RxSwift subscribes): an element this sequence
  /// produces before the trigger's first element is dropped, not kept for later. The trigger's first element opens
  /// the gate and the trigger is let go (a cold trigger is cancelled, a hot one unsubscribed); the trigger's element
  /// itself is not emitted. If the trigger finishes without an element, the gate stays shut.
  ///
  /// **Finishes:** when this sequence finishes, whether the gate opened or not (the trigger is cancelled).
  /// RxSwift's result never ends when its source completes before the trigger fires; here a `for await` over it
  /// returns.
  ///
  /// **Throws:** the sequences' common `Failure`, as soon as this sequence fails, or the trigger fails before its
  /// first element (the other one is cancelled).
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels both sequences.
  ///
  /// ```swift
  /// let taps = buttonTaps.skip(until: viewDidAppear)   // taps before the screen appeared are ignored
  /// ```
  /// - Parameter trigger: the sequence whose first element opens the gate.
  /// - Returns: a ``Signal`` of this sequence's elements from the trigger's first element on.
  @inlinable public func skip<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure>
  where Trigger.Element: Sendable, Trigger.Failure == Failure {
    Signal(self).lift(synchronous: false) {
      $0.hotSkip(fileID: fileID, line: line, until: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
    }
  }

  /// Drops this sequence's elements until `trigger` produces its first element, then mirrors it (RxSwift
  /// `skip(until:)`, RAC `skipUntil:`).
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails (the trigger is cancelled); the trigger cannot
  /// fail.
  ///
  /// ```swift
  /// for try await quote in quotes.skip(until: logIn) { show(quote) }
  /// ```
  @_disfavoredOverload @inlinable public func skip<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure>
  where Trigger.Element: Sendable, Trigger.Failure == Never {
    Signal(self).lift(synchronous: false) {
      $0.hotSkip(fileID: fileID, line: line, until: trigger, baseFailure: { $0 }, triggerFailure: neverFailure)
    }
  }

  /// Drops this sequence's elements until `trigger` produces its first element, then mirrors it (RxSwift
  /// `skip(until:)`, RAC `skipUntil:`).
  ///
  /// **Throws:** the first failure of this sequence, or of the trigger before its first element, as `any Error`
  /// (the other one is cancelled). This form takes sequences whose failure types differ.
  ///
  /// ```swift
  /// for try await quote in quotes.skip(until: session.loggedIn) { show(quote) }
  /// ```
  @_disfavoredOverload @inlinable public func skip<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, any Error>
  where Trigger.Element: Sendable {
    Signal(self).lift(synchronous: false) {
      $0.hotSkip(
        fileID: fileID, line: line, until: trigger, baseFailure: { $0 as any Error },
        triggerFailure: { $0 as any Error })
    }
  }
}

extension HotSequence {
  /// The node under every `skip(until:)`: it observes this sequence, then the trigger (as RxSwift subscribes, so
  /// this sequence's current value is dropped even when the trigger has one), through ``SkipUntilRule``.
  @inlinable func hotSkip<Trigger: AsyncSequence & Sendable, ResultFailure: Error>(
    fileID: StaticString = "", line: UInt = 0,
    until trigger: Trigger,
    baseFailure: @escaping @Sendable (Failure) -> ResultFailure,
    triggerFailure: @escaping @Sendable (Trigger.Failure) -> ResultFailure
  ) -> HotSignal<Element, ResultFailure> where Trigger.Element: Sendable {
    hotGated(
      SkipUntilRule.init, by: trigger, replay: replaysCurrent ? .current : .none,
      origin: NodeOrigin(.skipUntil, fileID: fileID, line: line), baseFailure: baseFailure,
      triggerFailure: triggerFailure)
  }
}
