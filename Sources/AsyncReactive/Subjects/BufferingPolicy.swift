/// How many not-yet-consumed elements a consumer of a subject (or a signal's producer) may keep.
///
/// The default is ``unbounded``: nothing is ever dropped, and a consumer that falls behind makes its buffer
/// grow. The two bounded policies **drop elements** when the buffer is full: choose them only where losing
/// values is correct (a progress indicator that only cares about the latest value, say).
///
/// ```swift
/// let positions = AsyncPassthroughSubject<Int, Never>()
/// // A slow renderer that only needs the most recent 10 positions:
/// for await position in positions.subscribe(bufferingPolicy: .bufferingNewest(10)) { render(position) }
/// ```
public struct BufferingPolicy: Sendable, Hashable, CustomStringConvertible {
  @usableFromInline package enum Storage: Sendable, Hashable {
    case unbounded
    case newest(Int)
    case oldest(Int)
  }

  @usableFromInline let storage: Storage

  @inlinable init(storage: Storage) {
    self.storage = storage
  }

  /// Keep every element until the consumer takes it. Nothing is dropped.
  public static let unbounded = BufferingPolicy(storage: .unbounded)

  /// Keep at most `limit` elements; when full, **drop the oldest** buffered element to make room.
  ///
  /// ```swift
  /// let latest = subject.subscribe(bufferingPolicy: .bufferingNewest(1))
  /// ```
  /// - Parameter limit: the buffer's capacity; must be at least 1.
  @inlinable public static func bufferingNewest(_ limit: Int) -> BufferingPolicy {
    precondition(limit >= 1, "BufferingPolicy.bufferingNewest(\(limit)): the limit must be at least 1")
    return BufferingPolicy(storage: .newest(limit))
  }

  /// Keep at most `limit` elements; when full, **drop the newly sent element**.
  ///
  /// ```swift
  /// let firstHundred = subject.subscribe(bufferingPolicy: .bufferingOldest(100))
  /// ```
  /// - Parameter limit: the buffer's capacity; must be at least 1.
  @inlinable public static func bufferingOldest(_ limit: Int) -> BufferingPolicy {
    precondition(limit >= 1, "BufferingPolicy.bufferingOldest(\(limit)): the limit must be at least 1")
    return BufferingPolicy(storage: .oldest(limit))
  }

  /// Whether nothing is ever dropped.
  @inlinable package var isUnbounded: Bool {
    if case .unbounded = storage { return true }
    return false
  }

  @inlinable public var description: String {
    switch storage {
    case .unbounded: "unbounded"
    case .newest(let limit): "bufferingNewest(\(limit))"
    case .oldest(let limit): "bufferingOldest(\(limit))"
    }
  }
}
