// The entry points of `take(until:)`, in three overloads for the failure type (the rule the API contracts state for
// every operator with two inputs): a shared type (`Never` included), then, disfavored, the other side `Never` (this
// side's type is kept) and `any Error` when the types differ. Only the first is a plain overload, so that a call
// where several apply picks it at once. Edit them together.

extension AsyncSequence where Self: Sendable, Element: Sendable {

  /// Mirrors this sequence until `trigger` produces its first element, then finishes (RxSwift `take(until:)`, RAC
  /// `takeUntil:`, ReactiveSwift `take(until:)`): the lifecycle idiom `values.take(until: viewWillDisappear)`.
  ///
  /// The trigger's element itself is not emitted. If the trigger finishes without an element, nothing changes:
  /// the result goes on mirroring this sequence (as in RxSwift, which then stops listening to the trigger).
  ///
  /// **Finishes:** when the trigger produces its first element (this sequence is cancelled), or when this sequence
  /// finishes (the trigger is cancelled), after the elements that came before.
  ///
  /// **Throws:** the sequences' common `Failure`, as soon as either fails (the other one is cancelled).
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels both sequences.
  ///
  /// **Buffering:** making the iterator subscribes to both sequences; the first `next()` starts one task for each.
  /// Each is read by its own task, so an element and a trigger element produced at the same instant may be ordered
  /// either way. Elements wait for the consumer in an unbounded buffer that it drains in batches.
  ///
  /// ```swift
  /// let lifetimeValues = positions.take(until: viewWillDisappear)
  /// for await position in lifetimeValues { render(position) }
  /// ```
  /// - Parameter trigger: the sequence whose first element ends the result.
  /// - Returns: a ``Signal`` of this sequence's elements.
  @inlinable public func take<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure>
  where Trigger.Element: Sendable, Trigger.Failure == Failure {
    Signal(self).lift(synchronous: false) {
      $0.hotTake(fileID: fileID, line: line, until: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
    }
  }

  /// Mirrors this sequence until `trigger` produces its first element, then finishes (RxSwift `take(until:)`, RAC
  /// `takeUntil:`, ReactiveSwift `take(until:)`): the lifecycle idiom `values.take(until: viewWillDisappear)`.
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails (the trigger is cancelled); the trigger cannot
  /// fail.
  ///
  /// ```swift
  /// for try await quote in quotes.take(until: logOut) { show(quote) }
  /// ```
  @_disfavoredOverload @inlinable public func take<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure>
  where Trigger.Element: Sendable, Trigger.Failure == Never {
    Signal(self).lift(synchronous: false) {
      $0.hotTake(fileID: fileID, line: line, until: trigger, baseFailure: { $0 }, triggerFailure: neverFailure)
    }
  }

  /// Mirrors this sequence until `trigger` produces its first element, then finishes (RxSwift `take(until:)`, RAC
  /// `takeUntil:`, ReactiveSwift `take(until:)`): the lifecycle idiom `values.take(until: viewWillDisappear)`.
  ///
  /// **Throws:** the first failure of either sequence, as `any Error` (the other one is cancelled). This form
  /// takes sequences whose failure types differ.
  ///
  /// ```swift
  /// for try await quote in quotes.take(until: logOut) { show(quote) }
  /// ```
  @_disfavoredOverload @inlinable public func take<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, any Error>
  where Trigger.Element: Sendable {
    Signal(self).lift(synchronous: false) {
      $0.hotTake(
        fileID: fileID, line: line, until: trigger, baseFailure: { $0 as any Error },
        triggerFailure: { $0 as any Error })
    }
  }
}
