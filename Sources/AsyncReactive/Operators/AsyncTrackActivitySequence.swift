extension AsyncSequence {
  /// Counts each iteration of this sequence as activity of `tracker`, from its first `next()` until it
  /// finishes, fails, or its consumer is cancelled or drops the iterator (RxSwift's `trackActivity`).
  ///
  /// Values, finish and failure pass through unchanged. Each iteration is tracked on its own, so several
  /// consumers count as several activities, and under ``ReiterableAsyncSequence/retry(_:)`` each attempt is
  /// one: `signal.trackActivity(tracker).retry(2)` turns `false` between attempts, while
  /// `signal.retry(2).trackActivity(tracker)` stays `true` across them.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// **Cancellation:** runs in the consumer's task; the activity ends when the upstream's `next()` returns
  /// for the cancelled consumer (every sequence of this library returns at once), or when the iterator is
  /// dropped, whichever comes first.
  ///
  /// ```swift
  /// let loading = ActivityTracker()
  /// let repositories = query.subscribe()
  ///   .flatMapLatest { text in Signal.future { try await api.search(text) }.trackActivity(loading) }
  /// loading.observe(in: lifetime) { spinner.isAnimating = $0 }
  /// ```
  /// - Parameter tracker: the tracker to count this sequence's iterations in.
  /// - Returns: an ``AsyncTrackActivitySequence`` with this sequence's elements.
  @inlinable
  public func trackActivity(_ tracker: ActivityTracker) -> AsyncTrackActivitySequence<Self> {
    AsyncTrackActivitySequence(self, tracker: tracker)
  }
}

/// An async sequence whose iterations count as activity of an ``ActivityTracker``; see
/// ``_Concurrency/AsyncSequence/trackActivity(_:)``.
public struct AsyncTrackActivitySequence<Base: AsyncSequence>: AsyncSequence {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let tracker: ActivityTracker

  @inlinable
  init(_ base: Base, tracker: ActivityTracker) {
    self.base = base
    self.tracker = tracker
  }

  /// Starts an iteration; its activity starts with the first `next()`.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), tracker: tracker)
  }

  /// The iterator of an ``AsyncTrackActivitySequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    /// The tracker, until the activity starts.
    @usableFromInline var tracker: ActivityTracker?
    /// The running activity; ended when the iteration ends, or by its own release with the iterator's.
    @usableFromInline var activity: ActivityToken?

    @inlinable
    init(base: Base.AsyncIterator, tracker: ActivityTracker) {
      self.base = base
      self.tracker = tracker
    }

    /// The next upstream value; the first call starts the activity and the end of the upstream ends it.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      if let tracker {
        activity = tracker.begin()
        self.tracker = nil
      }
      do throws(Failure) {
        if let element = try await base.next(isolation: actor) { return element }
      } catch {
        end()
        throw error
      }
      end()
      return nil
    }

    /// The next upstream value; see ``next(isolation:)``.
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    @inlinable
    mutating func end() {
      activity?.end()
      activity = nil
    }
  }
}

extension AsyncTrackActivitySequence: Sendable where Base: Sendable {}
extension AsyncTrackActivitySequence: ReactiveSequence {}
extension AsyncTrackActivitySequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
