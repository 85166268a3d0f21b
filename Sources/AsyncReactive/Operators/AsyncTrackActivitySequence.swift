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
///
/// A named type, not `some AsyncSequence`: an opaque result would hide what this type keeps of its upstream
/// (`Sendable`, re-iteration for `retry`, being one of the library's sequences for the merging `flatMap`). You
/// rarely write its name.
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

// MARK: Hot

extension HotSequence {
  /// Counts this node's observation of its upstream as one activity of `tracker`: from the moment its first
  /// consumer arrives until the upstream finishes or fails, or its last consumer leaves (RxSwift's `trackActivity`
  /// on a shared chain).
  ///
  /// Values, finish and failure pass through unchanged, inside the upstream's `send`. The consumers of the node
  /// share its observation, so they count as one activity together, not one each (as the stream form's
  /// iterations do): a tracked hot sequence is "active" while anyone observes it and it has not ended. The
  /// activity has ended before the consumers receive the end, so a consumer that reads ``ActivityTracker/value``
  /// on the end sees it. A node that starts observing again counts a new activity.
  ///
  /// **Finishes:** when the upstream finishes. **Throws:** the upstream's failure.
  ///
  /// **Cancellation:** the activity ends when the last consumer leaves (cancelled, `break`, iterator dropped, sink's
  /// lifetime ended); nothing can leave the count raised.
  ///
  /// ```swift
  /// let uploading = ActivityTracker()
  /// let progress = upload.progress.trackActivity(uploading)   // HotSignal<Double, UploadError>
  /// progress.sink(in: lifetime, onValue: { bar.progress = $0 }, onEnd: { _ in })   // `uploading` is true now
  /// ```
  /// - Parameter tracker: the tracker to count the node's observation in.
  /// - Returns: a ``HotSignal`` with this sequence's elements.
  @inlinable public func trackActivity(_ tracker: ActivityTracker) -> HotSignal<Element, Failure> {
    let upstream = hotSignal.node
    return HotSignal(
      node: SubjectStorage(replay: SubjectStorage.replay(following: upstream)) { node in
        let activity = tracker.begin()
        let sink = upstream.addSink { value in
          node.send(value)
        } onEnd: { termination in
          activity.end()
          node.terminate(termination)
        }
        return {
          upstream.removeSink(sink)
          activity.end()
        }
      })
  }
}
