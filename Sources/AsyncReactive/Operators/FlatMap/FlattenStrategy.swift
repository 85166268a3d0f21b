/// How `flatMap(_:_:)` combines the inner sequences it starts: the flatten strategies of ReactiveSwift (`.merge`,
/// `.concat`, `.latest`, `.concurrent(limit:)`) as values.
///
/// | strategy | inner sequences | when a new outer value arrives |
/// | --- | --- | --- |
/// | ``merge`` | all run at once; outputs interleave as produced | starts its inner at once |
/// | ``concurrent(limit:)`` | at most `limit` at once | waits for a free slot (the outer is not pulled meanwhile) |
/// | ``concat`` | one at a time, in order | waits until the running inner finished |
/// | ``latest`` | only the newest one | cancels the running inner, then starts the new one |
///
/// ```swift
/// let pages = pageNumbers.flatMap(.concurrent(limit: 4)) { page in api.page(page) }
/// ```
public struct FlattenStrategy: Sendable, Hashable, CustomStringConvertible {
  @usableFromInline package enum Kind: Sendable, Hashable {
    case concurrent(limit: Int)
    case latest
  }

  @usableFromInline package let kind: Kind

  private init(kind: Kind) {
    self.kind = kind
  }

  /// Every inner sequence runs as soon as its outer value arrives; outputs interleave as produced (RAC
  /// `flattenMap`, RxSwift `flatMap`).
  ///
  /// ```swift
  /// let wallets = users.flatMap(.merge) { user in api.wallet(for: user) }
  /// ```
  public static var merge: FlattenStrategy { FlattenStrategy(kind: .concurrent(limit: .max)) }

  /// One inner sequence at a time, in the order of the outer values (RAC `concat`, RxSwift `concatMap`).
  ///
  /// ```swift
  /// let uploads = files.flatMap(.concat) { file in api.upload(file) }
  /// ```
  public static var concat: FlattenStrategy { FlattenStrategy(kind: .concurrent(limit: 1)) }

  /// Only the inner sequence of the newest outer value runs: a new outer value cancels the running inner
  /// first (RAC `switchToLatest`, RxSwift `flatMapLatest`).
  ///
  /// ```swift
  /// let results = queries.flatMap(.latest) { query in api.search(query) }
  /// ```
  public static var latest: FlattenStrategy { FlattenStrategy(kind: .latest) }

  /// At most `limit` inner sequences run at once; further outer values wait for a free slot, in order.
  ///
  /// ```swift
  /// let thumbnails = photos.flatMap(.concurrent(limit: 3)) { photo in renderer.thumbnail(photo) }
  /// ```
  /// - Parameter limit: the largest number of inner sequences running at the same time; at least 1.
  /// - Returns: the strategy; `.concurrent(limit: 1)` is ``concat``.
  public static func concurrent(limit: Int) -> FlattenStrategy {
    precondition(limit >= 1, "FlattenStrategy.concurrent(limit: \(limit)): the limit must be at least 1")
    return FlattenStrategy(kind: .concurrent(limit: limit))
  }

  /// The strategy as it is written in code, such as `.merge` or `.concurrent(limit: 3)`.
  ///
  /// ```swift
  /// print(FlattenStrategy.latest)  // .latest
  /// ```
  public var description: String {
    switch kind {
    case .latest: ".latest"
    case .concurrent(limit: .max): ".merge"
    case .concurrent(limit: 1): ".concat"
    case .concurrent(let limit): ".concurrent(limit: \(limit))"
    }
  }
}
