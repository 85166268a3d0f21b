extension AsyncSequence {
  /// Emits each intermediate result of accumulating the values (RxSwift/RAC `scan`).
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// for await total in payments.scan(0, { $0 + $1.amount }) { show(total) }   // 10, 25, 30, …
  /// ```
  /// - Parameters:
  ///   - initial: the accumulator before the first value (not emitted).
  ///   - next: combines the accumulator with a value.
  @inlinable
  public func scan<Result>(
    _ initial: Result,
    _ next: @escaping @Sendable (Result, Element) -> Result
  ) -> AsyncScanSequence<Self, Result> {
    AsyncScanSequence(self, initial: initial, next: next)
  }
}

/// An async sequence of running accumulations; see ``_Concurrency/AsyncSequence/scan(_:_:)``.
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
public struct AsyncScanSequence<Base: AsyncSequence, Result>: AsyncSequence {
  public typealias Element = Result
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let initial: Result
  @usableFromInline let nextPartialResult: @Sendable (Result, Base.Element) -> Result

  @inlinable
  init(_ base: Base, initial: Result, next: @escaping @Sendable (Result, Base.Element) -> Result) {
    self.base = base
    self.initial = initial
    self.nextPartialResult = next
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), accumulator: initial, next: nextPartialResult)
  }

  /// The iterator of an ``AsyncScanSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline var accumulator: Result
    @usableFromInline let nextPartialResult: @Sendable (Result, Base.Element) -> Result

    @inlinable
    init(
      base: Base.AsyncIterator, accumulator: Result, next: @escaping @Sendable (Result, Base.Element) -> Result
    ) {
      self.base = base
      self.accumulator = accumulator
      self.nextPartialResult = next
    }

    /// The accumulation after the next upstream value.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Result? {
      guard let element = try await base.next(isolation: actor) else { return nil }
      accumulator = nextPartialResult(accumulator, element)
      return accumulator
    }

    /// The accumulation after the next upstream value.
    @inlinable
    public mutating func next() async throws(Failure) -> Result? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncScanSequence: Sendable where Base: Sendable, Result: Sendable {}

/// Each iteration iterates the upstream anew, so `retry` works through it.
extension AsyncScanSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncScanSequence: ReactiveSequence {}

// MARK: Hot

extension HotSequence {
  /// Emits each intermediate result of accumulating the values, inside the upstream's `send`: one accumulator
  /// for all consumers, started afresh when the node connects (ReactiveSwift's `Signal.scan`).
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// ```swift
  /// let total = payments.scan(0) { $0 + $1.amount }   // HotSignal<Int, Never>: 10, 25, 30, …
  /// ```
  /// - Parameters:
  ///   - initial: the accumulator before the first value (not emitted).
  ///   - next: combines the accumulator with a value; runs once per value, on the sending thread.
  @inlinable public func scan<Result: Sendable>(
    _ initial: Result,
    _ next: @escaping @Sendable (Result, Element) -> Result
  ) -> HotSignal<Result, Failure> {
    HotSignal(
      node: .observing(hotSignal.node) { node in
        let accumulator = ConnectionState(initial)
        return { value in
          accumulator.value = next(accumulator.value, value)
          node.send(accumulator.value)
        }
      } onEnd: { node, termination in
        node.terminate(termination)
      })
  }
}
