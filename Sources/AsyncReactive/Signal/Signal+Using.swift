import Synchronization

extension Signal {
  /// A signal whose every run makes a resource, runs the sequence `makeSequence` builds over it, and releases the
  /// resource when the run ends: finished, failed, or stopped by its consumer (RxSwift `Observable.using`,
  /// ReactiveSwift's `SignalProducer` with a disposable added at start).
  ///
  /// The resource is made when the run starts (a consumer's first `next()`, an observation, a connection). When
  /// `makeResource` throws, the run fails at once and nothing is released; when `makeSequence` throws, the resource is
  /// released and the run fails. `release` runs once per resource, whatever ends the run.
  ///
  /// ```swift
  /// let readings = Signal.using({ try Sensor.open() }, release: { $0.close() }, { sensor in sensor.readings })
  /// ```
  /// - Parameters:
  ///   - makeResource: makes the run's resource; a throw fails the run.
  ///   - release: releases a resource once its run has ended.
  ///   - makeSequence: the sequence the run sends, built over the resource; a throw fails the run.
  /// - Returns: a cold signal; each run has a resource of its own.
  @inlinable public static func using<Resource: Sendable, S: AsyncSequence & Sendable>(
    _ makeResource: @escaping @Sendable () throws(Failure) -> Resource,
    release: @escaping @Sendable (Resource) -> Void,
    _ makeSequence: @escaping @Sendable (Resource) throws(Failure) -> S
  ) -> Signal where S.Element == Element, S.Failure == Failure {
    Signal.deferred { UsingSequence(makeResource: makeResource, release: release, makeSequence: makeSequence) }
  }
}

/// The sequence of one ``Signal/using(_:release:_:)`` run: its iterator makes the resource, reads the sequence
/// built over it, and releases the resource at the end, or when the iterator is dropped first.
@usableFromInline struct UsingSequence<Resource: Sendable, Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  @usableFromInline typealias Element = Base.Element
  @usableFromInline typealias Failure = Base.Failure

  @usableFromInline let makeResource: @Sendable () throws(Base.Failure) -> Resource
  @usableFromInline let release: @Sendable (Resource) -> Void
  @usableFromInline let makeSequence: @Sendable (Resource) throws(Base.Failure) -> Base

  @inlinable init(
    makeResource: @escaping @Sendable () throws(Base.Failure) -> Resource,
    release: @escaping @Sendable (Resource) -> Void,
    makeSequence: @escaping @Sendable (Resource) throws(Base.Failure) -> Base
  ) {
    self.makeResource = makeResource
    self.release = release
    self.makeSequence = makeSequence
  }

  @inlinable func makeAsyncIterator() -> AsyncIterator {
    let resource: Resource
    do {
      resource = try makeResource()
    } catch {
      return AsyncIterator(base: nil, failure: error, hold: nil)
    }
    let hold = ResourceHold(resource, release: release)
    do {
      return AsyncIterator(base: try makeSequence(resource).makeAsyncIterator(), failure: nil, hold: hold)
    } catch {
      hold.releaseOnce()
      return AsyncIterator(base: nil, failure: error, hold: nil)
    }
  }

  @usableFromInline struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator?
    @usableFromInline var failure: Base.Failure?
    /// Releases the resource at the end, or when the iterator goes first.
    @usableFromInline let hold: ResourceHold<Resource>?

    @inlinable init(base: Base.AsyncIterator?, failure: Base.Failure?, hold: ResourceHold<Resource>?) {
      self.base = base
      self.failure = failure
      self.hold = hold
    }

    @inlinable mutating func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Element? {
      if let failure {
        self.failure = nil
        throw failure
      }
      guard base != nil else { return nil }
      do {
        if let element = try await base!.next(isolation: actor) { return element }
      } catch {
        base = nil
        hold?.releaseOnce()
        throw error
      }
      base = nil
      hold?.releaseOnce()
      return nil
    }

    @inlinable mutating func next() async throws(Base.Failure) -> Element? {
      try await next(isolation: nil)
    }
  }
}

/// A run's resource and how to release it, once: at the run's end, or when the last reference goes.
@usableFromInline final class ResourceHold<Resource: Sendable>: Sendable {
  @usableFromInline let resource: Resource
  @usableFromInline let release: @Sendable (Resource) -> Void
  @usableFromInline let released = Atomic<Bool>(false)

  @inlinable init(_ resource: Resource, release: @escaping @Sendable (Resource) -> Void) {
    self.resource = resource
    self.release = release
  }

  @inlinable func releaseOnce() {
    if !released.exchange(true, ordering: .acquiringAndReleasing) { release(resource) }
  }

  deinit { releaseOnce() }
}
