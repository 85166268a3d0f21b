/// The strategy argument of `flatMap(_:_:)`: ``merge``, the one strategy whose operator name, `flatMap { }`, the
/// library gives only its own sequences.
///
/// On a sequence from outside the library (an `AsyncStream`, a `some AsyncSequence`, a generic parameter),
/// `.flatMap { }` is the standard library's sequential `flatMap`, which importing AsyncReactive leaves alone;
/// `flatMap(.merge) { }` merges there too. Every other strategy has an operator of its own, on every sequence:
///
/// | operator | inner sequences | when a new outer value arrives |
/// | --- | --- | --- |
/// | `flatMap { }`, `flatMap(.merge) { }` | all run at once; outputs interleave as produced | starts its inner at once |
/// | `flatMap(maxConcurrent:) { }` | at most `maxConcurrent` at once | its inner waits for a free slot, in order |
/// | `concatMap { }` | one at a time, in order | its inner waits until the running one finished |
/// | `flatMapLatest { }` | only the newest one | cancels the running inner, then starts the new one |
/// | `flatMapFirst { }` | only one; newcomers are ignored | ignored (no transform) while an inner runs |
///
/// ```swift
/// let (lines, continuation) = AsyncStream.makeStream(of: String.self)
/// let words = lines.flatMap(.merge) { line in Signal(line.split(separator: " ").map(String.init)) }
/// ```
public struct FlattenStrategy: Sendable, Hashable, CustomStringConvertible {
  @usableFromInline package enum Kind: Sendable, Hashable {
    case concurrent(limit: Int)
    case latest
    case first
  }

  @usableFromInline package let kind: Kind

  private init(kind: Kind) {
    self.kind = kind
  }

  /// Every inner sequence runs as soon as its outer value arrives; outputs interleave as produced (RAC
  /// `flatMap(.merge)`, RxSwift `flatMap`).
  ///
  /// ```swift
  /// let wallets = users.flatMap(.merge) { user in api.wallet(for: user) }
  /// ```
  public static var merge: FlattenStrategy { FlattenStrategy(kind: .concurrent(limit: .max)) }

  // The engines' other strategies; users reach them through `concatMap`, `flatMapLatest`, `flatMapFirst` and
  // `flatMap(maxConcurrent:)`, so that each strategy has one spelling.

  /// One inner sequence at a time, in order (`concatMap`).
  @usableFromInline package static var concat: FlattenStrategy { FlattenStrategy(kind: .concurrent(limit: 1)) }

  /// Only the newest inner sequence runs (`flatMapLatest`).
  @usableFromInline package static var latest: FlattenStrategy { FlattenStrategy(kind: .latest) }

  /// Newcomers are ignored while an inner sequence runs (`flatMapFirst`).
  @usableFromInline package static var first: FlattenStrategy { FlattenStrategy(kind: .first) }

  /// At most `limit` inner sequences at once (`flatMap(maxConcurrent:)`, which checks the limit first).
  @usableFromInline package static func concurrent(limit: Int) -> FlattenStrategy {
    precondition(limit >= 1, "FlattenStrategy.concurrent(limit: \(limit)): the limit must be at least 1")
    return FlattenStrategy(kind: .concurrent(limit: limit))
  }

  /// The strategy as it is written in code: `.merge`.
  ///
  /// ```swift
  /// print(FlattenStrategy.merge)  // .merge
  /// ```
  public var description: String {
    switch kind {
    case .latest: ".latest"
    case .first: ".first"
    case .concurrent(limit: .max): ".merge"
    case .concurrent(limit: 1): ".concat"
    case .concurrent(let limit): ".concurrent(limit: \(limit))"
    }
  }
}
