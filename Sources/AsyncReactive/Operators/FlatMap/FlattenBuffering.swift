/// What a flatten operator with a concurrency limit (`concatMap`, `flatMap(maxConcurrent:)`) does with the outer
/// elements that arrive while every slot is taken.
///
/// The outer sequence is read all the time, and the transform runs as each outer element **arrives** (as RxSwift
/// calls its selector): a throwing transform fails the result at that moment. The inner sequence it returns then
/// waits for a free slot, in arrival order. Inner sequences are cold until they start, so one that is dropped
/// from the buffer never runs.
///
/// | buffering | while every slot is taken |
/// | --- | --- |
/// | ``unbounded`` (default) | every inner waits its turn; memory grows with the outer elements not yet started |
/// | ``bufferingNewest(_:)`` | at most `limit` wait; a new one **drops the oldest waiting** inner |
/// | ``bufferingOldest(_:)`` | at most `limit` wait; further outer elements are **dropped** while it is full |
/// | ``suspendingOuter(after:)`` | at most `limit` wait; then the outer sequence is not read until one starts |
///
/// A finite outer sequence keeps memory bounded under every option. For an endless or very fast one, choose a
/// bound. ``suspendingOuter(after:)`` bounds memory without dropping anything: a cold outer (a ``Signal``) then
/// waits before it produces more. A subject's subscription keeps buffering its own elements meanwhile, and their
/// transform runs only once they are read.
///
/// ```swift
/// // Upload one file at a time; if more than 10 are queued, forget the oldest.
/// let uploads = files.concatMap(buffering: .bufferingNewest(10)) { file in api.upload(file) }
/// ```
public struct FlattenBuffering: Sendable, Hashable, CustomStringConvertible {
  @usableFromInline package enum Kind: Sendable, Hashable {
    case unbounded
    case newest(Int)
    case oldest(Int)
    case suspending(Int)
  }

  @usableFromInline package let kind: Kind

  private init(kind: Kind) {
    self.kind = kind
  }

  /// Every inner sequence waits for its turn; nothing is dropped and the outer sequence is always read (RxSwift
  /// `concatMap` and `merge(maxConcurrent:)`).
  ///
  /// ```swift
  /// let pages = pageNumbers.flatMap(maxConcurrent: 2, buffering: .unbounded) { page in api.page(page) }
  /// ```
  public static var unbounded: FlattenBuffering { FlattenBuffering(kind: .unbounded) }

  /// At most `limit` inner sequences wait; when one more arrives, the **oldest waiting one is dropped** (it never
  /// runs).
  ///
  /// ```swift
  /// let saves = edits.concatMap(buffering: .bufferingNewest(1)) { draft in api.save(draft) }
  /// ```
  /// - Parameter limit: how many inner sequences may wait; at least 1.
  /// - Returns: the buffering.
  public static func bufferingNewest(_ limit: Int) -> FlattenBuffering {
    precondition(limit >= 1, "FlattenBuffering.bufferingNewest(\(limit)): the limit must be at least 1")
    return FlattenBuffering(kind: .newest(limit))
  }

  /// At most `limit` inner sequences wait; outer elements that arrive while the buffer is full are **dropped**
  /// (their inner sequence never runs).
  ///
  /// ```swift
  /// let reports = requests.flatMap(maxConcurrent: 4, buffering: .bufferingOldest(100)) { request in
  ///   api.report(request)
  /// }
  /// ```
  /// - Parameter limit: how many inner sequences may wait; at least 1.
  /// - Returns: the buffering.
  public static func bufferingOldest(_ limit: Int) -> FlattenBuffering {
    precondition(limit >= 1, "FlattenBuffering.bufferingOldest(\(limit)): the limit must be at least 1")
    return FlattenBuffering(kind: .oldest(limit))
  }

  /// At most `limit` inner sequences wait; then the outer sequence is **not read** until one of them starts, so
  /// nothing is dropped and a cold outer sequence produces no more than that.
  ///
  /// With `limit` 0 the outer sequence is read only when its inner sequence can start at once.
  ///
  /// ```swift
  /// let thumbnails = Signal(photoIDs).flatMap(maxConcurrent: 3, buffering: .suspendingOuter(after: 0)) { id in
  ///   renderer.thumbnail(id)
  /// }
  /// ```
  /// - Parameter limit: how many inner sequences may wait before the outer sequence is paused; not negative.
  /// - Returns: the buffering.
  public static func suspendingOuter(after limit: Int) -> FlattenBuffering {
    precondition(limit >= 0, "FlattenBuffering.suspendingOuter(after: \(limit)): the limit must not be negative")
    return FlattenBuffering(kind: .suspending(limit))
  }

  /// The buffering as it is written in code, such as `.unbounded` or `.bufferingNewest(10)`.
  ///
  /// ```swift
  /// print(FlattenBuffering.suspendingOuter(after: 2))  // .suspendingOuter(after: 2)
  /// ```
  public var description: String {
    switch kind {
    case .unbounded: ".unbounded"
    case .newest(let limit): ".bufferingNewest(\(limit))"
    case .oldest(let limit): ".bufferingOldest(\(limit))"
    case .suspending(let limit): ".suspendingOuter(after: \(limit))"
    }
  }
}
