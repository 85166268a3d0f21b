import AsyncReactive
import Foundation
import Testing

// One isolation rule for every observer: `observe` and `bind(to: object, keyPath)` run on the caller's actor (the
// `isolation` parameter, `#isolation` by default), with closures that need not be `@Sendable`.

/// A `@MainActor` view written as an app writes it: closures that touch its state directly, no `[weak self]`, no
/// `@Sendable`, no `@MainActor` annotations on the closures.
@MainActor private final class NameView {
  let lifetime = Lifetime()
  var shown: [String] = []
  var finished = false
  let label = FakeLabel()
  private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  func show(_ names: some HotSequence<String, Never>) -> ObservationHandle {
    names.observe(in: lifetime) { name in
      MainActor.assertIsolated("observe(in:) must run its closure on the caller's actor")
      self.shown.append(name)
      self.resumeWaiters()
    } onFinish: {
      MainActor.assertIsolated("onFinish must run on the caller's actor")
      self.finished = true
      self.resumeWaiters()
    }
  }

  func show(cold names: AsyncStream<String>) -> ObservationHandle {
    names.observe(in: lifetime) { name in
      MainActor.assertIsolated("observe(in:) must run its closure on the caller's actor")
      self.shown.append(name)
      self.resumeWaiters()
    } onFinish: {
      self.finished = true
      self.resumeWaiters()
    }
  }

  /// Returns once `count` names were shown.
  func wait(count: Int) async -> [String] {
    if shown.count < count { await withCheckedContinuation { waiters.append((count, $0)) } }
    return shown
  }

  private func resumeWaiters() {
    let ready = waiters.filter { $0.count <= shown.count || finished }
    waiters.removeAll { $0.count <= shown.count || finished }
    for waiter in ready { waiter.continuation.resume() }
  }
}

/// A view model that is an actor and observes its own inputs: the closures run isolated to it.
private actor QueryModel {
  var queries: [String] = []
  var failure: (any Error)?
  private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  func attach(_ text: some HotSequence<String, Never>, in lifetime: Lifetime) {
    text.observe(in: lifetime) { query in
      self.assertIsolated("the closure must run on the actor that called observe(in:)")
      self.queries.append(query)  // synchronous: the closure is isolated to this actor
      self.resumeWaiters()
    }
  }

  func attach(cold text: AsyncThrowingStream<String, any Error>, in lifetime: Lifetime) {
    text.observe(in: lifetime) { query in
      self.assertIsolated("the closure must run on the actor that called observe(in:)")
      self.queries.append(query)
      self.resumeWaiters()
    } onFailure: { error in
      self.assertIsolated("onFailure must run on the actor that called observe(in:)")
      self.failure = error
      self.failureWaiter?.resume()
      self.failureWaiter = nil
    }
  }

  private var failureWaiter: CheckedContinuation<Void, Never>?

  /// Returns once the cold sequence's failure was handled.
  func waitForFailure() async {
    if failure == nil { await withCheckedContinuation { failureWaiter = $0 } }
  }

  func wait(count: Int) async -> [String] {
    if queries.count < count { await withCheckedContinuation { waiters.append((count, $0)) } }
    return queries
  }

  private func resumeWaiters() {
    let ready = waiters.filter { $0.count <= queries.count }
    waiters.removeAll { $0.count <= queries.count }
    for waiter in ready { waiter.continuation.resume() }
  }
}

/// An observation made where there is no actor (`#isolation` is `nil`), called from the main actor: it does not
/// run there, and records the thread each value was handled on.
private func observeWithoutAnActor(
  _ source: AsyncPassthroughSubject<Int, Never>, in lifetime: Lifetime, onMainThread: Log<Bool>, done: Gate
) -> ObservationHandle {
  source.observe(in: lifetime) { value in
    onMainThread.append(Thread.isMainThread)
    if value == 3 { done.open() }
  }
}

/// Observes on the actor given as an `isolated` parameter: the closure is isolated to it.
private func observe(
  _ source: AsyncPassthroughSubject<String, Never>, on model: isolated QueryModel, in lifetime: Lifetime
) -> ObservationHandle {
  source.observe(in: lifetime) { query in
    model.assertIsolated("the closure must run on the isolated parameter's actor")
    model.append(query)  // synchronous: the closure is isolated to `model`
  }
}

extension QueryModel {
  func append(_ query: String) {
    queries.append(query)
    resumeWaiters()
  }
}

@Suite("Observers run on the caller's actor")
struct ObserverIsolationTests {
  @Test("a @MainActor view observes a hot source with a closure that touches its state, on the main actor")
  @MainActor
  func mainActorViewObservesHotSource() async {
    for _ in 0..<200 {
      let view = NameView()
      let names = AsyncCurrentValueSubject<String, Never>("a")
      let observation = view.show(names)
      names.send("b")
      names.send("c")
      #expect(await view.wait(count: 3) == ["a", "b", "c"])
      names.finish()
      await observation.value
      #expect(view.finished)
    }
  }

  @Test("a @MainActor view observes a cold sequence on the main actor; a captured local is read back after")
  @MainActor
  func mainActorViewObservesColdSequence() async {
    for _ in 0..<200 {
      let view = NameView()
      let (names, continuation) = AsyncStream<String>.makeStream()
      let observation = view.show(cold: names)
      continuation.yield("x")
      continuation.yield("y")
      continuation.finish()
      await observation.value
      #expect(view.shown == ["x", "y"])
      #expect(view.finished)

      // A non-Sendable closure capturing a main-actor local: it runs on the main actor, so the local is read
      // back here with no lock.
      var count = 0
      let lifetime = Lifetime()
      let (numbers, numbersContinuation) = AsyncStream<Int>.makeStream()
      let counting = numbers.observe(in: lifetime) { count += $0 }
      numbersContinuation.yield(2)
      numbersContinuation.yield(3)
      numbersContinuation.finish()
      await counting.value
      #expect(count == 5)

      // onValue and onFinish may both update the same local (a port's counters): both run on the main actor.
      var total = 0
      var totalAtFinish = -1
      let (more, moreContinuation) = AsyncStream<Int>.makeStream()
      let summing = more.observe(in: lifetime) {
        total += $0
      } onFinish: {
        totalAtFinish = total
      }
      moreContinuation.yield(4)
      moreContinuation.yield(6)
      moreContinuation.finish()
      await summing.value
      #expect(total == 10)
      #expect(totalAtFinish == 10)
    }
  }

  @Test("an actor's observe(in:) runs its closures isolated to that actor, hot and cold")
  func actorObserves() async {
    for _ in 0..<200 {
      let lifetime = Lifetime()
      let model = QueryModel()
      let text = AsyncPassthroughSubject<String, Never>()
      await model.attach(text, in: lifetime)
      text.send("s")
      text.send("sw")
      #expect(await model.wait(count: 2) == ["s", "sw"])

      let (cold, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
      await model.attach(cold: cold, in: lifetime)
      continuation.yield("swift")
      continuation.finish(throwing: TestError(code: 4))
      #expect(await model.wait(count: 3) == ["s", "sw", "swift"])
      await model.waitForFailure()
      #expect(await model.failure as? TestError == TestError(code: 4))
      lifetime.cancel()
    }
  }

  @Test("a function with an isolated actor parameter observes on that actor")
  func isolatedParameter() async {
    for _ in 0..<200 {
      let lifetime = Lifetime()
      let model = QueryModel()
      let text = AsyncPassthroughSubject<String, Never>()
      _ = await observe(text, on: model, in: lifetime)
      text.send("a")
      text.send("b")
      #expect(await model.wait(count: 2) == ["a", "b"])
      lifetime.cancel()
    }
  }

  @Test("an observation made with no actor runs off the main actor, even when its caller was on it")
  @MainActor
  func nilIsolationRunsOffAnyActor() async {
    for _ in 0..<200 {
      let lifetime = Lifetime()
      let source = AsyncPassthroughSubject<Int, Never>()
      let onMainThread = Log<Bool>()
      let done = Gate()
      let observation = observeWithoutAnActor(source, in: lifetime, onMainThread: onMainThread, done: done)
      source.send(1)
      source.send(2)
      source.send(3)
      await done.wait()
      #expect(onMainThread.all == [false, false, false])
      lifetime.cancel()
      await observation.value
    }
  }

  @Test("on the main actor, ending the lifetime stops delivery at once: values sent before it are dropped")
  @MainActor
  func cancellingOnTheCallersActorDropsWaitingValues() async {
    for _ in 0..<200 {
      let view = NameView()
      let names = AsyncPassthroughSubject<String, Never>()
      let observation = view.show(names)
      names.send("queued")  // its drain waits for the main actor, which this test holds
      let label = FakeLabel()
      let binding = names.bind(to: label, \.text, in: view.lifetime)
      names.send("queued too")
      view.lifetime.cancel()
      names.send("late")
      await observation.value
      await binding.value
      #expect(view.shown.isEmpty)
      #expect(label.changes.all.isEmpty)
      #expect(names.consumerCount == 0)

      // The same for a cold sequence: its task starts on the main actor, after the cancel.
      let coldView = NameView()
      let (cold, continuation) = AsyncStream<String>.makeStream()
      let coldObservation = coldView.show(cold: cold)
      continuation.yield("buffered")
      coldView.lifetime.cancel()
      await coldObservation.value
      #expect(coldView.shown.isEmpty)
      #expect(!coldView.finished)
    }
  }
}
