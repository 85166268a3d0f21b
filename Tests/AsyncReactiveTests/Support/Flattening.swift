import AsyncReactive

// Tests parametrised over the flatten strategies call the one public spelling of each strategy, on the same form
// (hot or stream) a direct call on that receiver would get.

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// The operator that spells `strategy` on any sequence: `flatMap(.merge)`, `concatMap`, `flatMapLatest`,
  /// `flatMapFirst` or `flatMap(maxConcurrent:)`.
  func flattened<Inner: AsyncSequence & Sendable>(
    _ strategy: FlattenStrategy, _ transform: @escaping @Sendable (Element) -> Inner
  ) -> Signal<Inner.Element, Failure> where Inner.Element: Sendable, Inner.Failure == Failure {
    switch strategy.kind {
    case .latest: flatMapLatest(transform)
    case .first: flatMapFirst(transform)
    case .concurrent(limit: .max): flatMap(.merge, transform)
    case .concurrent(limit: 1): concatMap(transform)
    case .concurrent(let limit): flatMap(maxConcurrent: limit, transform)
    }
  }
}

extension HotSequence {
  /// The hot operator that spells `strategy`, as ``AsyncSequence/flattened(_:_:)`` does for streams.
  func flattened<Inner: AsyncSequence & Sendable>(
    _ strategy: FlattenStrategy, _ transform: @escaping @Sendable (Element) -> Inner
  ) -> Signal<Inner.Element, Failure> where Inner.Element: Sendable, Inner.Failure == Failure {
    switch strategy.kind {
    case .latest: flatMapLatest(transform)
    case .first: flatMapFirst(transform)
    case .concurrent(limit: .max): flatMap(.merge, transform)
    case .concurrent(limit: 1): concatMap(transform)
    case .concurrent(let limit): flatMap(maxConcurrent: limit, transform)
    }
  }
}
