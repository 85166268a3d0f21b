// The entry points of `sample(on:)`, in three overloads for the failure type (the rule the API contracts state for
// every operator with two inputs): a shared type (`Never` included), then, disfavored, the other side `Never` (this
// side's type is kept) and `any Error` when the types differ. Only the first is a plain overload, so that a call
// where several apply picks it at once. Edit them together.

extension AsyncSequence where Self: Sendable, Element: Sendable {

  /// Emits the latest element of this sequence at each element of `trigger`, if a new one arrived since the last
  /// sample (RxSwift `sample(_:)`; ReactiveSwift's `sample(on:)` repeats the latest value at every tick instead).
  ///
  /// A trigger element with nothing new emits nothing: the same element is never emitted twice. The trigger's
  /// elements themselves are not emitted.
  ///
  /// **Finishes:** at the first trigger element after this sequence finished, right after the last pending element
  /// (as in RxSwift); also when the trigger finishes, right after the pending element, if any (RxSwift would then
  /// never finish unless this sequence had).
  ///
  /// **Throws:** the sequences' common `Failure`, as soon as either fails (the other one is cancelled).
  ///
  /// **Cancellation:** cancelling the consuming task or dropping the iterator cancels both sequences.
  ///
  /// **Buffering:** keeps only the latest element of this sequence. Making the iterator subscribes to both
  /// sequences; the first `next()` starts one task for each. Each is read by its own task, so an element and a
  /// trigger element produced at the same instant may be ordered either way.
  ///
  /// ```swift
  /// // Show the position at most once per frame.
  /// for await position in positions.sample(on: displayLink) { render(position) }
  /// ```
  /// - Parameter trigger: the sequence whose elements take the samples.
  /// - Returns: a ``Signal`` of this sequence's elements.
  @inlinable public func sample<Trigger: AsyncSequence & Sendable>(
    on trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure>
  where Trigger.Element: Sendable, Trigger.Failure == Failure {
    Signal(self).lift(synchronous: false) {
      $0.hotSample(fileID: fileID, line: line, on: trigger, baseFailure: { $0 }, triggerFailure: { $0 })
    }
  }

  /// Emits the latest element of this sequence at each element of `trigger`, if a new one arrived since the last
  /// sample (RxSwift `sample(_:)`; ReactiveSwift's `sample(on:)` repeats the latest value at every tick instead).
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails (the trigger is cancelled); the trigger cannot
  /// fail.
  ///
  /// ```swift
  /// for try await price in prices.sample(on: refreshTaps) { show(price) }
  /// ```
  @_disfavoredOverload @inlinable public func sample<Trigger: AsyncSequence & Sendable>(
    on trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, Failure>
  where Trigger.Element: Sendable, Trigger.Failure == Never {
    Signal(self).lift(synchronous: false) {
      $0.hotSample(fileID: fileID, line: line, on: trigger, baseFailure: { $0 }, triggerFailure: neverFailure)
    }
  }

  /// Emits the latest element of this sequence at each element of `trigger`, if a new one arrived since the last
  /// sample (RxSwift `sample(_:)`; ReactiveSwift's `sample(on:)` repeats the latest value at every tick instead).
  ///
  /// **Throws:** the first failure of either sequence, as `any Error` (the other one is cancelled). This form
  /// takes sequences whose failure types differ.
  ///
  /// ```swift
  /// for try await price in prices.sample(on: refreshTaps) { show(price) }
  /// ```
  @_disfavoredOverload @inlinable public func sample<Trigger: AsyncSequence & Sendable>(
    on trigger: Trigger,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, any Error>
  where Trigger.Element: Sendable {
    Signal(self).lift(synchronous: false) {
      $0.hotSample(
        fileID: fileID, line: line, on: trigger, baseFailure: { $0 as any Error }, triggerFailure: { $0 as any Error })
    }
  }
}
