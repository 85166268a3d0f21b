/// How `flatMap(_:_:)` combines the inner sequences it starts: the flatten strategies of ReactiveSwift (`.merge`,
/// `.concat`, `.latest`, `.concurrent(limit:)`) as values.
///
/// | strategy | inner sequences | when a new outer value arrives |
/// | --- | --- | --- |
/// | ``merge`` | all run at once; outputs interleave as produced | starts its inner at once |
/// | ``concurrent(limit:)`` | at most `limit` at once | its inner waits for a free slot, in order |
/// | ``concat`` | one at a time, in order | its inner waits until the running ones finished |
/// | ``latest`` | only the newest one | cancels the running inner, then starts the new one |
/// | ``first`` | only one; newcomers are ignored | ignored (no transform) while an inner runs |
///
/// Under every strategy the outer sequence is read all the time and the transform runs as each value arrives
/// (except a value ``first`` ignores); what waits for a slot, and how much of it, is the ``FlattenBuffering``.
///
/// ```swift
/// let pages = pageNumbers.flatMap(.concurrent(limit: 4)) { page in api.page(page) }
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

  /// Only one inner sequence runs; outer values that arrive while it runs are ignored, without calling the
  /// transform (RxSwift `flatMapFirst`, RxJS `exhaustMap`): a tap while a request runs does nothing.
  ///
  /// ```swift
  /// let logins = loginTaps.flatMap(.first) { _ in Signal.future { try await api.logIn() } }
  /// ```
  public static var first: FlattenStrategy { FlattenStrategy(kind: .first) }

  /// At most `limit` inner sequences run at once; the inner sequences of further outer values wait for a free
  /// slot, in order (as the ``FlattenBuffering`` says).
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
    case .first: ".first"
    case .concurrent(limit: .max): ".merge"
    case .concurrent(limit: 1): ".concat"
    case .concurrent(let limit): ".concurrent(limit: \(limit))"
    }
  }
}
