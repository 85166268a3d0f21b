import AsyncReactive

/// One subscription to a test timeline: the instant a consumer subscribed, and the instant it let go (`nil` while
/// it still observes): RxTest's `Subscription(200, 450)`.
///
/// ``HotTimeline/subscriptions`` and ``ColdTimeline/subscriptions`` list them. They compare with `==` and print as
/// `200s-450s`, an open one as `200s-` (RxTest's `(200 : Infinity)`).
///
/// ```swift
/// let recorder = await clock.start { xs.map { $0 * 2 } }
/// #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(450))])
/// #expect("\(TimelineSubscription(.seconds(200)))" == "200s-")
/// ```
public struct TimelineSubscription: Hashable, Sendable, CustomStringConvertible {
  /// When the consumer subscribed.
  ///
  /// ```swift
  /// #expect(xs.subscriptions.map(\.subscribed.offset) == [.seconds(200)])
  /// ```
  public var subscribed: TestClock.Instant

  /// When the consumer let go (or the timeline ended), `nil` while it still observes.
  ///
  /// ```swift
  /// #expect(xs.subscriptions.last?.unsubscribed == nil)  // still observing
  /// ```
  public var unsubscribed: TestClock.Instant?

  /// A subscription from `subscribed` to `unsubscribed`, instants of a ``TestClock``.
  ///
  /// ```swift
  /// let open = TimelineSubscription(subscribed: clock.now)
  /// ```
  public init(subscribed: TestClock.Instant, unsubscribed: TestClock.Instant? = nil) {
    self.subscribed = subscribed
    self.unsubscribed = unsubscribed
  }

  /// A subscription from `subscribed` to `unsubscribed` after time zero, still open when `unsubscribed` is `nil`:
  /// RxTest's `Subscription(200, 450)` and `Subscription(200)`.
  ///
  /// ```swift
  /// #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(450))])
  /// ```
  public init(_ subscribed: Duration, _ unsubscribed: Duration? = nil) {
    self.init(
      subscribed: TestClock.Instant(offset: subscribed),
      unsubscribed: unsubscribed.map { TestClock.Instant(offset: $0) })
  }

  /// The two instants in seconds: `200s-450s`, or `200s-` while open.
  ///
  /// ```swift
  /// print(xs.subscriptions)  // [200s-450s]
  /// ```
  public var description: String {
    // An instant prints as `t=200s`: the offset without its `t=`.
    let subscribed = self.subscribed.description.dropFirst(2)
    return "\(subscribed)-" + (unsubscribed.map { String($0.description.dropFirst(2)) } ?? "")
  }
}

/// A timeline's subscriptions, logged as its consumers come and go.
final class SubscriptionLog: Sendable {
  private let entries = Locked<[TimelineSubscription]>([])

  /// Logs a subscription at `instant`; returns its place, for ``unsubscribe(_:at:)``.
  func subscribe(at instant: TestClock.Instant) -> Int {
    entries.withLock { entries in
      entries.append(TimelineSubscription(subscribed: instant))
      return entries.count - 1
    }
  }

  /// Closes subscription `entry` at `instant`, unless it was closed already.
  func unsubscribe(_ entry: Int, at instant: TestClock.Instant) {
    entries.withLock { entries in
      if entries[entry].unsubscribed == nil { entries[entry].unsubscribed = instant }
    }
  }

  var subscriptions: [TimelineSubscription] { entries.withLock { $0 } }
}
