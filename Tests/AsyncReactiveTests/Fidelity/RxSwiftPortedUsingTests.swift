import AsyncReactive
import AsyncReactiveTesting
import Testing

// RxSwift 6's using tests (Observable+UsingTests.swift), ported line by line: `Observable.using(resourceFactory,
// observableFactory:)` is `Signal.using(makeResource, release:, makeSequence)`; RxTest's `MockDisposable`, which
// records the clock when it is made and when it is disposed, is `UsingResource`, whose `ticks` the release completes.

private let testError = TestError(code: 0)

/// RxTest's `MockDisposable`: the instants it was made and released at.
final class UsingResource: Sendable {
  let ticks: Log<Duration>
  let clock: TestClock

  init(clock: TestClock) {
    self.clock = clock
    ticks = Log()
    ticks.append(clock.now.offset)
  }

  func dispose() { ticks.append(clock.now.offset) }
}

@Suite("RxSwift's using tests, ported", .timeLimit(.minutes(1)))
struct RxSwiftPortedUsingTests {
  /// What the factories saw, shared with the test.
  final class Calls: Sendable {
    let made = Log<UsingResource>()
    let given = Log<UsingResource>()
    let created = Log<Int>()
    let timelines = Log<ColdTimeline<Int, TestError>>()
  }

  /// The test's `using`, over a cold timeline made by the sequence factory with `events(now)`.
  private static func using(
    _ clock: TestClock, _ calls: Calls, _ events: @escaping @Sendable (Int) -> [Recorded<Int, TestError>]
  ) -> Signal<Int, TestError> {
    Signal.using(
      { () throws(TestError) -> UsingResource in
        let resource = UsingResource(clock: clock)
        calls.made.append(resource)
        return resource
      },
      release: { $0.dispose() },
      { (resource: UsingResource) throws(TestError) -> ColdTimeline<Int, TestError> in
        calls.given.append(resource)
        calls.created.append(1)
        let xs = clock.coldTimeline(events(Int(clock.now.offset.components.seconds)))
        calls.timelines.append(xs)
        return xs
      })
  }

  @Test("testUsing_Complete")
  func usingComplete() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let calls = Calls()
      let res = await clock.start {
        Self.using(clock, calls) { now in [.value(now, at: .seconds(100)), .finished(at: .seconds(200))] }
      }
      #expect(calls.made.all.count == 1 && calls.given.all.first === calls.made.all.first)
      #expect(res.events == [.value(200, at: .seconds(300)), .finished(at: .seconds(400))])
      #expect(calls.created.all.count == 1)
      #expect(calls.timelines.all.first?.subscriptions == [TimelineSubscription(.seconds(200), .seconds(400))])
      #expect(calls.made.all.first?.ticks.all == [.seconds(200), .seconds(400)])
    }
  }

  @Test("testUsing_Error")
  func usingError() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let calls = Calls()
      let res = await clock.start {
        Self.using(clock, calls) { now in [.value(now, at: .seconds(100)), .failed(testError, at: .seconds(200))] }
      }
      #expect(calls.given.all.first === calls.made.all.first)
      #expect(res.events == [.value(200, at: .seconds(300)), .failed(testError, at: .seconds(400))])
      #expect(calls.created.all.count == 1 && calls.made.all.count == 1)
      #expect(calls.timelines.all.first?.subscriptions == [TimelineSubscription(.seconds(200), .seconds(400))])
      #expect(calls.made.all.first?.ticks.all == [.seconds(200), .seconds(400)])
    }
  }

  @Test("testUsing_Dispose")
  func usingDispose() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let calls = Calls()
      let res = await clock.start {
        Self.using(clock, calls) { now in [.value(now, at: .seconds(100)), .value(now + 1, at: .seconds(1000))] }
      }
      await clock.settle()
      #expect(res.events == [.value(200, at: .seconds(300))])
      #expect(calls.created.all.count == 1 && calls.made.all.count == 1)
      #expect(calls.timelines.all.first?.subscriptions == [TimelineSubscription(.seconds(200), .seconds(1000))])
      #expect(calls.made.all.first?.ticks.all == [.seconds(200), .seconds(1000)])
    }
  }

  @Test("testUsing_ThrowResourceSelector")
  func usingThrowResourceSelector() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let makes = Log<Int>()
      let creates = Log<Int>()
      let res = await clock.start {
        Signal<Int, TestError>.using(
          { () throws(TestError) -> UsingResource in
            makes.append(1)
            throw testError
          },
          release: { $0.dispose() },
          { (_: UsingResource) throws(TestError) -> Signal<Int, TestError> in
            creates.append(1)
            return .never
          })
      }
      #expect(res.events == [.failed(testError, at: .seconds(200))])
      #expect(creates.all.isEmpty)
      #expect(makes.all.count == 1)
    }
  }

  @Test("testUsing_ThrowResourceUsage")
  func usingThrowResourceUsage() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let made = Log<UsingResource>()
      let creates = Log<Int>()
      let res = await clock.start {
        Signal<Int, TestError>.using(
          { () throws(TestError) -> UsingResource in
            let resource = UsingResource(clock: clock)
            made.append(resource)
            return resource
          },
          release: { $0.dispose() },
          { (_: UsingResource) throws(TestError) -> Signal<Int, TestError> in
            creates.append(1)
            throw testError
          })
      }
      #expect(res.events == [.failed(testError, at: .seconds(200))])
      #expect(creates.all.count == 1 && made.all.count == 1)
      #expect(made.all.first?.ticks.all == [.seconds(200), .seconds(200)])
    }
  }

  @Test("each run makes and releases a resource of its own; a consumer that stops early releases it")
  func eachRunHasItsOwnResource() async {
    let released = Log<Int>()
    let counter = Log<Int>()
    let signal = Signal<Int, Never>.using(
      { () -> Int in
        counter.append(1)
        return counter.all.count
      },
      release: { released.append($0) },
      { (id: Int) -> Signal<Int, Never> in Signal([id * 10, id * 10 + 1]) })
    #expect(await signal.collect() == [10, 11])
    #expect(await signal.prefix(1).collect() == [20])
    #expect(released.all == [1, 2])
  }
}
