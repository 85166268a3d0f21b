import AsyncReactive
import AsyncReactiveTesting
import Testing

// RxSwift 6's own tests of the connectable operators (Tests/RxSwiftTests/Observable+MulticastTests.swift and
// Observable+ShareReplayScopeTests.swift), ported onto AsyncReactiveTesting as RxSwiftPortedOperatorTests ports the
// others: `multicast(makeSubject:)`, `multicast(_:)`, `publish()`, `replay(_:)`, `replayAll()`, `connect()`,
// `refCount()` and `share(replay:scope: .forever)`. RxSwift records a re-subscribing observer (one that subscribes
// again from its `do(onCompleted:)`) in one recorder; here each subscription has a recorder of its own, and the
// test checks each one's part of RxSwift's list. RxTest's hot observable goes on sending the events recorded after
// its end to observers that subscribe later; a hot timeline ends for good, as a subject does, so in the four tests
// that reconnect from the end's callback (`_completed`, `_error`) the new connection gets the end at once: the
// re-subscribed recorder gets the new subject's end (while connected) or the old subject's replay and end (for
// ever), and the log has no 435-530 and 575-621 entries. RxSwift's `ReplaySubject.create(bufferSize:)` is
// `AsyncReplaySubject(bufferSize:)`, its `PublishSubject` `AsyncPassthroughSubject`.

private let testError = TestError(code: 0)
private let testError1 = TestError(code: 1)
private let testError2 = TestError(code: 2)

/// The schedule every connect/disconnect test of RxSwift's shares, after `ys` is made at 100 and the recorder is
/// scheduled: connect at 300, cancel at 400, connect at 420, connect again at 440 (the same connection), cancel
/// that at 530, connect at 575, cancel the 420 one again at 590 (nothing), cancel the last at 621.
private func scheduleConnections(_ clock: TestClock, _ ys: @escaping @Sendable () -> ConnectableSignal<Int, TestError>)
{
  let connection = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
  let inner = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
  let last = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
  clock.schedule(at: .seconds(300)) { connection.withLock { $0 = ys().connect() } }
  clock.schedule(at: .seconds(400)) { connection.withLock { $0 }?.cancel() }
  clock.schedule(at: .seconds(420)) { connection.withLock { $0 = ys().connect() } }
  clock.schedule(at: .seconds(440)) { inner.withLock { $0 = ys().connect() } }
  clock.schedule(at: .seconds(530)) { inner.withLock { $0 }?.cancel() }
  clock.schedule(at: .seconds(575)) { last.withLock { $0 = ys().connect() } }
  clock.schedule(at: .seconds(590)) { connection.withLock { $0 }?.cancel() }
  clock.schedule(at: .seconds(621)) { last.withLock { $0 }?.cancel() }
}

@Suite("RxSwift's multicast, publish, replay and refCount tests, ported", .timeLimit(.minutes(1)))
struct RxSwiftPortedMulticastTests {

  @Test("testMulticastWhileConnected_connectControlsSourceSubscription")
  func testMulticastWhileConnected_connectControlsSourceSubscription() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(7, at: .seconds(110)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(280)),
        .value(1, at: .seconds(290)),
        .value(8, at: .seconds(340)),
        .value(5, at: .seconds(360)),
        .value(6, at: .seconds(370)),
        .value(7, at: .seconds(390)),
        .value(13, at: .seconds(410)),
        .value(2, at: .seconds(430)),
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(520)),
        .value(20, at: .seconds(560)),
        .value(21, at: .seconds(570)),
        .value(23, at: .seconds(580)),
        .value(24, at: .seconds(590)),
        .value(25, at: .seconds(600)),
        .value(26, at: .seconds(610)),
        .value(27, at: .seconds(620)),
        .value(28, at: .seconds(630)),
        .failed(testError, at: .seconds(800)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) {
        ys.withLock { $0 = xs.multicast(makeSubject: { AsyncReplaySubject<Int, TestError>(bufferSize: 3) }) }
      }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(405)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(1000)) { res.cancel() }
      scheduleConnections(clock) { ys.withLock { $0! } }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(2, at: .seconds(430)),
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(520)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(300), .seconds(400)), TimelineSubscription(.seconds(420), .seconds(530)),
          TimelineSubscription(.seconds(575), .seconds(621)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMulticastWhileConnected_connectFirstThenSubscribe")
  func testMulticastWhileConnected_connectFirstThenSubscribe() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(7, at: .seconds(110)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(280)),
        .value(1, at: .seconds(290)),
        .value(8, at: .seconds(340)),
        .value(5, at: .seconds(360)),
        .value(6, at: .seconds(370)),
        .value(7, at: .seconds(390)),
        .value(13, at: .seconds(410)),
        .value(2, at: .seconds(430)),
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(520)),
        .value(20, at: .seconds(560)),
        .value(21, at: .seconds(570)),
        .value(23, at: .seconds(580)),
        .value(24, at: .seconds(590)),
        .value(25, at: .seconds(600)),
        .value(26, at: .seconds(610)),
        .value(27, at: .seconds(620)),
        .value(28, at: .seconds(630)),
        .failed(testError, at: .seconds(800)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) {
        ys.withLock { $0 = xs.multicast(makeSubject: { AsyncReplaySubject<Int, TestError>(bufferSize: 1) }) }
      }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(470)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(1000)) { res.cancel() }
      scheduleConnections(clock) { ys.withLock { $0! } }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(9, at: .seconds(470)),
        .value(11, at: .seconds(520)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(300), .seconds(400)), TimelineSubscription(.seconds(420), .seconds(530)),
          TimelineSubscription(.seconds(575), .seconds(621)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMulticastWhileConnected_completed")
  func testMulticastWhileConnected_completed() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(7, at: .seconds(110)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(280)),
        .value(1, at: .seconds(290)),
        .value(8, at: .seconds(340)),
        .value(5, at: .seconds(360)),
        .value(6, at: .seconds(370)),
        .value(7, at: .seconds(390)),
        .value(13, at: .seconds(410)),
        .value(2, at: .seconds(430)),
        .finished(at: .seconds(435)),
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(520)),
        .value(20, at: .seconds(560)),
        .value(21, at: .seconds(570)),
        .value(23, at: .seconds(580)),
        .value(24, at: .seconds(590)),
        .value(25, at: .seconds(600)),
        .value(26, at: .seconds(610)),
        .value(27, at: .seconds(620)),
        .value(28, at: .seconds(630)),
        .failed(testError, at: .seconds(800)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) {
        ys.withLock { $0 = xs.multicast(makeSubject: { AsyncReplaySubject<Int, TestError>(bufferSize: 1) }) }
      }
      let res = Recorder<Int, TestError>(clock: clock)
      // RxSwift's `ys.do(onFinish: { subscription = ys.subscribe(res); _ = ys.connect() }).subscribe(res)`.
      let again = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(405)) {
        let shared = ys.withLock { $0! }
        res.subscribe(
          to: shared.handleEvents(onFinish: {
            again.subscribe(to: shared)
            shared.connect()
          }))
      }
      clock.schedule(at: .seconds(1000)) {
        res.cancel()
        again.cancel()
      }
      scheduleConnections(clock) { ys.withLock { $0! } }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(2, at: .seconds(430)),
        .finished(at: .seconds(435)),
      ]
      #expect(res.events == expected)
      let expectedAgain: [Recorded<Int, TestError>] = [
        .finished(at: .seconds(435))
      ]
      #expect(again.events == expectedAgain)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(300), .seconds(400)), TimelineSubscription(.seconds(420), .seconds(435)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMulticastWhileConnected_error")
  func testMulticastWhileConnected_error() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(7, at: .seconds(110)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(280)),
        .value(1, at: .seconds(290)),
        .value(8, at: .seconds(340)),
        .value(5, at: .seconds(360)),
        .value(6, at: .seconds(370)),
        .value(7, at: .seconds(390)),
        .value(13, at: .seconds(410)),
        .value(2, at: .seconds(430)),
        .failed(testError, at: .seconds(435)),
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(520)),
        .value(20, at: .seconds(560)),
        .value(21, at: .seconds(570)),
        .value(23, at: .seconds(580)),
        .value(24, at: .seconds(590)),
        .value(25, at: .seconds(600)),
        .value(26, at: .seconds(610)),
        .value(27, at: .seconds(620)),
        .value(28, at: .seconds(630)),
        .failed(testError, at: .seconds(800)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) {
        ys.withLock { $0 = xs.multicast(makeSubject: { AsyncReplaySubject<Int, TestError>(bufferSize: 1) }) }
      }
      let res = Recorder<Int, TestError>(clock: clock)
      // RxSwift's `ys.do(onFailure: { subscription = ys.subscribe(res); _ = ys.connect() }).subscribe(res)`.
      let again = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(405)) {
        let shared = ys.withLock { $0! }
        res.subscribe(
          to: shared.handleEvents(onFailure: { _ in
            again.subscribe(to: shared)
            shared.connect()
          }))
      }
      clock.schedule(at: .seconds(1000)) {
        res.cancel()
        again.cancel()
      }
      scheduleConnections(clock) { ys.withLock { $0! } }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(2, at: .seconds(430)),
        .failed(testError, at: .seconds(435)),
      ]
      #expect(res.events == expected)
      let expectedAgain: [Recorded<Int, TestError>] = [
        .failed(testError, at: .seconds(435))
      ]
      #expect(again.events == expectedAgain)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(300), .seconds(400)), TimelineSubscription(.seconds(420), .seconds(435)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMulticastForever_connectControlsSourceSubscription")
  func testMulticastForever_connectControlsSourceSubscription() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(7, at: .seconds(110)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(280)),
        .value(1, at: .seconds(290)),
        .value(8, at: .seconds(340)),
        .value(5, at: .seconds(360)),
        .value(6, at: .seconds(370)),
        .value(7, at: .seconds(390)),
        .value(13, at: .seconds(410)),
        .value(2, at: .seconds(430)),
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(520)),
        .value(20, at: .seconds(560)),
        .value(21, at: .seconds(570)),
        .value(23, at: .seconds(580)),
        .value(24, at: .seconds(590)),
        .value(25, at: .seconds(600)),
        .value(26, at: .seconds(610)),
        .value(27, at: .seconds(620)),
        .value(28, at: .seconds(630)),
        .failed(testError, at: .seconds(800)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) {
        ys.withLock { $0 = xs.multicast(AsyncReplaySubject<Int, TestError>(bufferSize: 3)) }
      }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(405)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(1000)) { res.cancel() }
      scheduleConnections(clock) { ys.withLock { $0! } }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(5, at: .seconds(405)),
        .value(6, at: .seconds(405)),
        .value(7, at: .seconds(405)),
        .value(2, at: .seconds(430)),
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(520)),
        .value(23, at: .seconds(580)),
        .value(24, at: .seconds(590)),
        .value(25, at: .seconds(600)),
        .value(26, at: .seconds(610)),
        .value(27, at: .seconds(620)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(300), .seconds(400)), TimelineSubscription(.seconds(420), .seconds(530)),
          TimelineSubscription(.seconds(575), .seconds(621)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMulticastForever_connectFirstThenSubscribe")
  func testMulticastForever_connectFirstThenSubscribe() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(7, at: .seconds(110)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(280)),
        .value(1, at: .seconds(290)),
        .value(8, at: .seconds(340)),
        .value(5, at: .seconds(360)),
        .value(6, at: .seconds(370)),
        .value(7, at: .seconds(390)),
        .value(13, at: .seconds(410)),
        .value(2, at: .seconds(430)),
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(520)),
        .value(20, at: .seconds(560)),
        .value(21, at: .seconds(570)),
        .value(23, at: .seconds(580)),
        .value(24, at: .seconds(590)),
        .value(25, at: .seconds(600)),
        .value(26, at: .seconds(610)),
        .value(27, at: .seconds(620)),
        .value(28, at: .seconds(630)),
        .failed(testError, at: .seconds(800)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) {
        ys.withLock { $0 = xs.multicast(AsyncReplaySubject<Int, TestError>(bufferSize: 1)) }
      }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(470)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(1000)) { res.cancel() }
      scheduleConnections(clock) { ys.withLock { $0! } }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(9, at: .seconds(470)),
        .value(11, at: .seconds(520)),
        .value(23, at: .seconds(580)),
        .value(24, at: .seconds(590)),
        .value(25, at: .seconds(600)),
        .value(26, at: .seconds(610)),
        .value(27, at: .seconds(620)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(300), .seconds(400)), TimelineSubscription(.seconds(420), .seconds(530)),
          TimelineSubscription(.seconds(575), .seconds(621)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMulticastForever_completed")
  func testMulticastForever_completed() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(7, at: .seconds(110)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(280)),
        .value(1, at: .seconds(290)),
        .value(8, at: .seconds(340)),
        .value(5, at: .seconds(360)),
        .value(6, at: .seconds(370)),
        .value(7, at: .seconds(390)),
        .value(13, at: .seconds(410)),
        .value(2, at: .seconds(430)),
        .finished(at: .seconds(435)),
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(520)),
        .value(20, at: .seconds(560)),
        .value(21, at: .seconds(570)),
        .value(23, at: .seconds(580)),
        .value(24, at: .seconds(590)),
        .value(25, at: .seconds(600)),
        .value(26, at: .seconds(610)),
        .value(27, at: .seconds(620)),
        .value(28, at: .seconds(630)),
        .failed(testError, at: .seconds(800)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) {
        ys.withLock { $0 = xs.multicast(AsyncReplaySubject<Int, TestError>(bufferSize: 1)) }
      }
      let res = Recorder<Int, TestError>(clock: clock)
      // RxSwift's `ys.do(onFinish: { subscription = ys.subscribe(res); _ = ys.connect() }).subscribe(res)`.
      let again = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(405)) {
        let shared = ys.withLock { $0! }
        res.subscribe(
          to: shared.handleEvents(onFinish: {
            again.subscribe(to: shared)
            shared.connect()
          }))
      }
      clock.schedule(at: .seconds(1000)) {
        res.cancel()
        again.cancel()
      }
      scheduleConnections(clock) { ys.withLock { $0! } }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(7, at: .seconds(405)),
        .value(2, at: .seconds(430)),
        .finished(at: .seconds(435)),
      ]
      #expect(res.events == expected)
      let expectedAgain: [Recorded<Int, TestError>] = [
        .value(2, at: .seconds(435)),
        .finished(at: .seconds(435)),
      ]
      #expect(again.events == expectedAgain)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(300), .seconds(400)), TimelineSubscription(.seconds(420), .seconds(435)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testMulticastForever_error")
  func testMulticastForever_error() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(7, at: .seconds(110)),
        .value(3, at: .seconds(220)),
        .value(4, at: .seconds(280)),
        .value(1, at: .seconds(290)),
        .value(8, at: .seconds(340)),
        .value(5, at: .seconds(360)),
        .value(6, at: .seconds(370)),
        .value(7, at: .seconds(390)),
        .value(13, at: .seconds(410)),
        .value(2, at: .seconds(430)),
        .failed(testError, at: .seconds(435)),
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(520)),
        .value(20, at: .seconds(560)),
        .value(21, at: .seconds(570)),
        .value(23, at: .seconds(580)),
        .value(24, at: .seconds(590)),
        .value(25, at: .seconds(600)),
        .value(26, at: .seconds(610)),
        .value(27, at: .seconds(620)),
        .value(28, at: .seconds(630)),
        .failed(testError, at: .seconds(800)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) {
        ys.withLock { $0 = xs.multicast(AsyncReplaySubject<Int, TestError>(bufferSize: 1)) }
      }
      let res = Recorder<Int, TestError>(clock: clock)
      // RxSwift's `ys.do(onFailure: { subscription = ys.subscribe(res); _ = ys.connect() }).subscribe(res)`.
      let again = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(405)) {
        let shared = ys.withLock { $0! }
        res.subscribe(
          to: shared.handleEvents(onFailure: { _ in
            again.subscribe(to: shared)
            shared.connect()
          }))
      }
      clock.schedule(at: .seconds(1000)) {
        res.cancel()
        again.cancel()
      }
      scheduleConnections(clock) { ys.withLock { $0! } }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(7, at: .seconds(405)),
        .value(2, at: .seconds(430)),
        .failed(testError, at: .seconds(435)),
      ]
      #expect(res.events == expected)
      let expectedAgain: [Recorded<Int, TestError>] = [
        .value(2, at: .seconds(435)),
        .failed(testError, at: .seconds(435)),
      ]
      #expect(again.events == expectedAgain)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(300), .seconds(400)), TimelineSubscription(.seconds(420), .seconds(435)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testReplayCount_Basic")
  func testReplayCount_Basic() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(5, at: .seconds(10)),
        .value(9, at: .seconds(20)),
        .value(11, at: .seconds(30)),
        .value(20, at: .seconds(40)),
        .value(22, at: .seconds(50)),
        .value(23, at: .seconds(60)),
        .value(24, at: .seconds(70)),
        .value(25, at: .seconds(80)),
        .failed(testError, at: .seconds(130)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.replay(3) } }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(450)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(1000)) { res.cancel() }
      let connection = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
      clock.schedule(at: .seconds(400)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(520)) { connection.withLock { $0 }?.cancel() }
      clock.schedule(at: .seconds(650)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(700)) { connection.withLock { $0 }?.cancel() }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(450)),
        .value(20, at: .seconds(450)),
        .value(22, at: .seconds(450)),
        .value(23, at: .seconds(460)),
        .value(24, at: .seconds(470)),
        .value(25, at: .seconds(480)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(400), .seconds(520)), TimelineSubscription(.seconds(650), .seconds(700)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testReplayCount_Error")
  func testReplayCount_Error() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(5, at: .seconds(10)),
        .value(9, at: .seconds(20)),
        .value(11, at: .seconds(30)),
        .value(20, at: .seconds(40)),
        .value(22, at: .seconds(50)),
        .value(23, at: .seconds(60)),
        .value(24, at: .seconds(70)),
        .value(25, at: .seconds(80)),
        .failed(testError, at: .seconds(90)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.replay(3) } }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(450)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(1000)) { res.cancel() }
      let connection = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
      clock.schedule(at: .seconds(400)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(520)) { connection.withLock { $0 }?.cancel() }
      clock.schedule(at: .seconds(650)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(700)) { connection.withLock { $0 }?.cancel() }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(450)),
        .value(20, at: .seconds(450)),
        .value(22, at: .seconds(450)),
        .value(23, at: .seconds(460)),
        .value(24, at: .seconds(470)),
        .value(25, at: .seconds(480)),
        .failed(testError, at: .seconds(490)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(400), .seconds(490)), TimelineSubscription(.seconds(650), .seconds(700)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testReplayCount_Complete")
  func testReplayCount_Complete() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(5, at: .seconds(10)),
        .value(9, at: .seconds(20)),
        .value(11, at: .seconds(30)),
        .value(20, at: .seconds(40)),
        .value(22, at: .seconds(50)),
        .value(23, at: .seconds(60)),
        .value(24, at: .seconds(70)),
        .value(25, at: .seconds(80)),
        .finished(at: .seconds(90)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.replay(3) } }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(450)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(1000)) { res.cancel() }
      let connection = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
      clock.schedule(at: .seconds(400)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(520)) { connection.withLock { $0 }?.cancel() }
      clock.schedule(at: .seconds(650)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(700)) { connection.withLock { $0 }?.cancel() }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(450)),
        .value(20, at: .seconds(450)),
        .value(22, at: .seconds(450)),
        .value(23, at: .seconds(460)),
        .value(24, at: .seconds(470)),
        .value(25, at: .seconds(480)),
        .finished(at: .seconds(490)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(400), .seconds(490)), TimelineSubscription(.seconds(650), .seconds(700)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testReplayCount_Dispose")
  func testReplayCount_Dispose() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(5, at: .seconds(10)),
        .value(9, at: .seconds(20)),
        .value(11, at: .seconds(30)),
        .value(20, at: .seconds(40)),
        .value(22, at: .seconds(50)),
        .value(23, at: .seconds(60)),
        .value(24, at: .seconds(70)),
        .value(25, at: .seconds(80)),
        .finished(at: .seconds(130)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.replay(3) } }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(450)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(475)) { res.cancel() }
      let connection = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
      clock.schedule(at: .seconds(400)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(520)) { connection.withLock { $0 }?.cancel() }
      clock.schedule(at: .seconds(650)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(700)) { connection.withLock { $0 }?.cancel() }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(450)),
        .value(20, at: .seconds(450)),
        .value(22, at: .seconds(450)),
        .value(23, at: .seconds(460)),
        .value(24, at: .seconds(470)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(400), .seconds(520)), TimelineSubscription(.seconds(650), .seconds(700)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testReplayOneCount_Basic")
  func testReplayOneCount_Basic() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(5, at: .seconds(10)),
        .value(9, at: .seconds(20)),
        .value(11, at: .seconds(30)),
        .value(20, at: .seconds(40)),
        .value(22, at: .seconds(50)),
        .value(23, at: .seconds(60)),
        .value(24, at: .seconds(70)),
        .value(25, at: .seconds(80)),
        .finished(at: .seconds(130)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.replay(1) } }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(450)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(1000)) { res.cancel() }
      let connection = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
      clock.schedule(at: .seconds(400)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(520)) { connection.withLock { $0 }?.cancel() }
      clock.schedule(at: .seconds(650)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(700)) { connection.withLock { $0 }?.cancel() }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(20, at: .seconds(450)),
        .value(22, at: .seconds(450)),
        .value(23, at: .seconds(460)),
        .value(24, at: .seconds(470)),
        .value(25, at: .seconds(480)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(400), .seconds(520)), TimelineSubscription(.seconds(650), .seconds(700)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testReplayOneCount_Error")
  func testReplayOneCount_Error() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(5, at: .seconds(10)),
        .value(9, at: .seconds(20)),
        .value(11, at: .seconds(30)),
        .value(20, at: .seconds(40)),
        .value(22, at: .seconds(50)),
        .value(23, at: .seconds(60)),
        .value(24, at: .seconds(70)),
        .value(25, at: .seconds(80)),
        .failed(testError, at: .seconds(90)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.replay(1) } }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(450)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(1000)) { res.cancel() }
      let connection = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
      clock.schedule(at: .seconds(400)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(520)) { connection.withLock { $0 }?.cancel() }
      clock.schedule(at: .seconds(650)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(700)) { connection.withLock { $0 }?.cancel() }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(20, at: .seconds(450)),
        .value(22, at: .seconds(450)),
        .value(23, at: .seconds(460)),
        .value(24, at: .seconds(470)),
        .value(25, at: .seconds(480)),
        .failed(testError, at: .seconds(490)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(400), .seconds(490)), TimelineSubscription(.seconds(650), .seconds(700)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testReplayOneCount_Complete")
  func testReplayOneCount_Complete() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(5, at: .seconds(10)),
        .value(9, at: .seconds(20)),
        .value(11, at: .seconds(30)),
        .value(20, at: .seconds(40)),
        .value(22, at: .seconds(50)),
        .value(23, at: .seconds(60)),
        .value(24, at: .seconds(70)),
        .value(25, at: .seconds(80)),
        .finished(at: .seconds(90)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.replay(1) } }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(450)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(1000)) { res.cancel() }
      let connection = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
      clock.schedule(at: .seconds(400)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(520)) { connection.withLock { $0 }?.cancel() }
      clock.schedule(at: .seconds(650)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(700)) { connection.withLock { $0 }?.cancel() }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(20, at: .seconds(450)),
        .value(22, at: .seconds(450)),
        .value(23, at: .seconds(460)),
        .value(24, at: .seconds(470)),
        .value(25, at: .seconds(480)),
        .finished(at: .seconds(490)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(400), .seconds(490)), TimelineSubscription(.seconds(650), .seconds(700)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testReplayOneCount_Dispose")
  func testReplayOneCount_Dispose() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(5, at: .seconds(10)),
        .value(9, at: .seconds(20)),
        .value(11, at: .seconds(30)),
        .value(20, at: .seconds(40)),
        .value(22, at: .seconds(50)),
        .value(23, at: .seconds(60)),
        .value(24, at: .seconds(70)),
        .value(25, at: .seconds(80)),
        .finished(at: .seconds(90)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.replay(1) } }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(450)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(475)) { res.cancel() }
      let connection = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
      clock.schedule(at: .seconds(400)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(520)) { connection.withLock { $0 }?.cancel() }
      clock.schedule(at: .seconds(650)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(700)) { connection.withLock { $0 }?.cancel() }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(20, at: .seconds(450)),
        .value(22, at: .seconds(450)),
        .value(23, at: .seconds(460)),
        .value(24, at: .seconds(470)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(400), .seconds(490)), TimelineSubscription(.seconds(650), .seconds(700)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testReplayAll_Basic")
  func testReplayAll_Basic() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(5, at: .seconds(10)),
        .value(9, at: .seconds(20)),
        .value(11, at: .seconds(30)),
        .value(20, at: .seconds(40)),
        .value(22, at: .seconds(50)),
        .value(23, at: .seconds(60)),
        .value(24, at: .seconds(70)),
        .value(25, at: .seconds(80)),
        .finished(at: .seconds(130)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.replayAll() } }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(450)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(1000)) { res.cancel() }
      let connection = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
      clock.schedule(at: .seconds(400)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(520)) { connection.withLock { $0 }?.cancel() }
      clock.schedule(at: .seconds(650)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(700)) { connection.withLock { $0 }?.cancel() }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(5, at: .seconds(450)),
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(450)),
        .value(20, at: .seconds(450)),
        .value(22, at: .seconds(450)),
        .value(23, at: .seconds(460)),
        .value(24, at: .seconds(470)),
        .value(25, at: .seconds(480)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(400), .seconds(520)), TimelineSubscription(.seconds(650), .seconds(700)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testReplayAll_Error")
  func testReplayAll_Error() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(5, at: .seconds(10)),
        .value(9, at: .seconds(20)),
        .value(11, at: .seconds(30)),
        .value(20, at: .seconds(40)),
        .value(22, at: .seconds(50)),
        .value(23, at: .seconds(60)),
        .value(24, at: .seconds(70)),
        .value(25, at: .seconds(80)),
        .failed(testError, at: .seconds(90)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.replayAll() } }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(450)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(1000)) { res.cancel() }
      let connection = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
      clock.schedule(at: .seconds(400)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(520)) { connection.withLock { $0 }?.cancel() }
      clock.schedule(at: .seconds(650)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(700)) { connection.withLock { $0 }?.cancel() }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(5, at: .seconds(450)),
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(450)),
        .value(20, at: .seconds(450)),
        .value(22, at: .seconds(450)),
        .value(23, at: .seconds(460)),
        .value(24, at: .seconds(470)),
        .value(25, at: .seconds(480)),
        .failed(testError, at: .seconds(490)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(400), .seconds(490)), TimelineSubscription(.seconds(650), .seconds(700)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testReplayAll_Complete")
  func testReplayAll_Complete() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(5, at: .seconds(10)),
        .value(9, at: .seconds(20)),
        .value(11, at: .seconds(30)),
        .value(20, at: .seconds(40)),
        .value(22, at: .seconds(50)),
        .value(23, at: .seconds(60)),
        .value(24, at: .seconds(70)),
        .value(25, at: .seconds(80)),
        .finished(at: .seconds(90)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.replayAll() } }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(450)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(1000)) { res.cancel() }
      let connection = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
      clock.schedule(at: .seconds(400)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(520)) { connection.withLock { $0 }?.cancel() }
      clock.schedule(at: .seconds(650)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(700)) { connection.withLock { $0 }?.cancel() }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(5, at: .seconds(450)),
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(450)),
        .value(20, at: .seconds(450)),
        .value(22, at: .seconds(450)),
        .value(23, at: .seconds(460)),
        .value(24, at: .seconds(470)),
        .value(25, at: .seconds(480)),
        .finished(at: .seconds(490)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(400), .seconds(490)), TimelineSubscription(.seconds(650), .seconds(700)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testReplayAll_Dispose")
  func testReplayAll_Dispose() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(5, at: .seconds(10)),
        .value(9, at: .seconds(20)),
        .value(11, at: .seconds(30)),
        .value(20, at: .seconds(40)),
        .value(22, at: .seconds(50)),
        .value(23, at: .seconds(60)),
        .value(24, at: .seconds(70)),
        .value(25, at: .seconds(80)),
        .finished(at: .seconds(130)),
      ])
      let ys = Locked<ConnectableSignal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.replayAll() } }
      let res = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(450)) { res.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(475)) { res.cancel() }
      let connection = Locked<ConnectableSignal<Int, TestError>.Connection?>(nil)
      clock.schedule(at: .seconds(400)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(520)) { connection.withLock { $0 }?.cancel() }
      clock.schedule(at: .seconds(650)) { connection.withLock { $0 = ys.withLock { $0! }.connect() } }
      clock.schedule(at: .seconds(700)) { connection.withLock { $0 }?.cancel() }
      await clock.run()

      let expected: [Recorded<Int, TestError>] = [
        .value(5, at: .seconds(450)),
        .value(9, at: .seconds(450)),
        .value(11, at: .seconds(450)),
        .value(20, at: .seconds(450)),
        .value(22, at: .seconds(450)),
        .value(23, at: .seconds(460)),
        .value(24, at: .seconds(470)),
      ]
      #expect(res.events == expected)
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(400), .seconds(520)), TimelineSubscription(.seconds(650), .seconds(700)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testRefCount_ConnectsOnFirst")
  func testRefCount_ConnectsOnFirst() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(210, at: .seconds(210)),
        .value(220, at: .seconds(220)),
        .value(230, at: .seconds(230)),
        .value(240, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ])
      let subject = AsyncPassthroughSubject<Int, TestError>()
      let res = await clock.start { xs.multicast(subject).refCount() }

      let expected: [Recorded<Int, TestError>] = [
        .value(210, at: .seconds(210)),
        .value(220, at: .seconds(220)),
        .value(230, at: .seconds(230)),
        .value(240, at: .seconds(240)),
        .finished(at: .seconds(250)),
      ]
      #expect(res.events == expected)
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(250))])
      #expect(subject.consumerCount == 0)  // RxSwift: subject.isDisposed
      await clock.expectNoLeaks()
    }
  }

  @Test("testRefCount_DoesntConnectsOnFirstInCaseSynchronousCompleted")
  func testRefCount_DoesntConnectsOnFirstInCaseSynchronousCompleted() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([.value(1, at: .seconds(210))])
      let subject = AsyncPassthroughSubject<Int, TestError>()
      subject.finish()
      let res = await clock.start { xs.multicast(subject).refCount() }

      #expect(res.events == [.finished(at: .seconds(200))])
      #expect(xs.subscriptions == [])
      await clock.expectNoLeaks()
    }
  }

  @Test("testRefCount_DoesntConnectsOnFirstInCaseSynchronousError")
  func testRefCount_DoesntConnectsOnFirstInCaseSynchronousError() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([.value(1, at: .seconds(210))])
      let subject = AsyncPassthroughSubject<Int, TestError>()
      subject.fail(testError)
      let res = await clock.start { xs.multicast(subject).refCount() }

      #expect(res.events == [.failed(testError, at: .seconds(200))])
      #expect(xs.subscriptions == [])
      await clock.expectNoLeaks()
    }
  }

  @Test("testRefCount_Publish")
  func testRefCount_Publish() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(210)),
        .value(2, at: .seconds(220)),
        .value(3, at: .seconds(230)),
        .value(4, at: .seconds(240)),
        .value(5, at: .seconds(250)),
        .value(6, at: .seconds(260)),
        .value(7, at: .seconds(270)),
        .value(8, at: .seconds(280)),
        .value(9, at: .seconds(290)),
        .finished(at: .seconds(300)),
      ])
      let res = xs.publish().refCount()
      let o1 = Recorder(res, clock: clock, subscribed: .seconds(215), disposed: .seconds(235))
      let o2 = Recorder(res, clock: clock, subscribed: .seconds(225), disposed: .seconds(275))
      let o3 = Recorder(res, clock: clock, subscribed: .seconds(255), disposed: .seconds(265))
      let o4 = Recorder(res, clock: clock, subscribed: .seconds(285), disposed: .seconds(320))
      await clock.run()

      #expect(o1.events == [.value(2, at: .seconds(220)), .value(3, at: .seconds(230))])
      let expected2: [Recorded<Int, TestError>] = [
        .value(3, at: .seconds(230)),
        .value(4, at: .seconds(240)),
        .value(5, at: .seconds(250)),
        .value(6, at: .seconds(260)),
        .value(7, at: .seconds(270)),
      ]
      #expect(o2.events == expected2)
      #expect(o3.events == [.value(6, at: .seconds(260))])
      #expect(o4.events == [.value(9, at: .seconds(290)), .finished(at: .seconds(300))])
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(215), .seconds(275)), TimelineSubscription(.seconds(285), .seconds(300)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("testRefCount_synchronousResubscribingOnErrorWorks")
  func testRefCount_synchronousResubscribingOnErrorWorks() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs1: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(1, at: .seconds(10)),
        .failed(testError, at: .seconds(20)),
      ])
      let xs2: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(2, at: .seconds(10)),
        .failed(testError1, at: .seconds(30)),
      ])
      let xs3: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(3, at: .seconds(10)),
        .failed(testError2, at: .seconds(40)),
      ])
      let attempts = Locked(0)
      let xs = Signal<Int, TestError>.deferred {
        let attempt = attempts.withLock { value in
          defer { value += 1 }
          return value
        }
        return attempt == 0 ? xs1.eraseToSignal() : attempt == 1 ? xs2.eraseToSignal() : xs3.eraseToSignal()
      }
      let res = xs.multicast(makeSubject: { AsyncPassthroughSubject<Int, TestError>() }).refCount()
      // RxSwift's observers subscribe again from their handler's error event.
      let o1 = Recorder<Int, TestError>(clock: clock)
      let o1Again = Recorder<Int, TestError>(clock: clock)
      let o2 = Recorder<Int, TestError>(clock: clock)
      let o2Again = Recorder<Int, TestError>(clock: clock)
      let o3 = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(215)) {
        o1.subscribe(to: res.handleEvents(onFailure: { _ in o1Again.subscribe(to: res) }))
      }
      clock.schedule(at: .seconds(220)) {
        o2.subscribe(to: res.handleEvents(onFailure: { _ in o2Again.subscribe(to: res) }))
      }
      clock.schedule(at: .seconds(400)) { o3.subscribe(to: res) }
      await clock.run()

      let first: [Recorded<Int, TestError>] = [
        .value(1, at: .seconds(225)),
        .failed(testError, at: .seconds(235)),
      ]
      let second: [Recorded<Int, TestError>] = [
        .value(2, at: .seconds(245)),
        .failed(testError1, at: .seconds(265)),
      ]
      #expect(o1.events == first)
      #expect(o1Again.events == second)
      #expect(o2.events == first)
      #expect(o2Again.events == second)
      let third: [Recorded<Int, TestError>] = [
        .value(3, at: .seconds(410)),
        .failed(testError2, at: .seconds(440)),
      ]
      #expect(o3.events == third)
      #expect(xs1.subscriptions == [TimelineSubscription(.seconds(215), .seconds(235))])
      #expect(xs2.subscriptions == [TimelineSubscription(.seconds(235), .seconds(265))])
      #expect(xs3.subscriptions == [TimelineSubscription(.seconds(400), .seconds(440))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testRefCount_synchronousResubscribingOnCompletedWorks")
  func testRefCount_synchronousResubscribingOnCompletedWorks() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs1: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(1, at: .seconds(10)),
        .finished(at: .seconds(20)),
      ])
      let xs2: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(2, at: .seconds(10)),
        .finished(at: .seconds(30)),
      ])
      let xs3: ColdTimeline<Int, TestError> = clock.coldTimeline([
        .value(3, at: .seconds(10)),
        .finished(at: .seconds(40)),
      ])
      let attempts = Locked(0)
      let xs = Signal<Int, TestError>.deferred {
        let attempt = attempts.withLock { value in
          defer { value += 1 }
          return value
        }
        return attempt == 0 ? xs1.eraseToSignal() : attempt == 1 ? xs2.eraseToSignal() : xs3.eraseToSignal()
      }
      let res = xs.multicast(makeSubject: { AsyncPassthroughSubject<Int, TestError>() }).refCount()
      // RxSwift's observers subscribe again from their handler's completed event.
      let o1 = Recorder<Int, TestError>(clock: clock)
      let o1Again = Recorder<Int, TestError>(clock: clock)
      let o2 = Recorder<Int, TestError>(clock: clock)
      let o2Again = Recorder<Int, TestError>(clock: clock)
      let o3 = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(215)) {
        o1.subscribe(to: res.handleEvents(onFinish: { o1Again.subscribe(to: res) }))
      }
      clock.schedule(at: .seconds(220)) {
        o2.subscribe(to: res.handleEvents(onFinish: { o2Again.subscribe(to: res) }))
      }
      clock.schedule(at: .seconds(400)) { o3.subscribe(to: res) }
      await clock.run()

      let first: [Recorded<Int, TestError>] = [
        .value(1, at: .seconds(225)),
        .finished(at: .seconds(235)),
      ]
      let second: [Recorded<Int, TestError>] = [
        .value(2, at: .seconds(245)),
        .finished(at: .seconds(265)),
      ]
      #expect(o1.events == first)
      #expect(o1Again.events == second)
      #expect(o2.events == first)
      #expect(o2Again.events == second)
      let third: [Recorded<Int, TestError>] = [
        .value(3, at: .seconds(410)),
        .finished(at: .seconds(440)),
      ]
      #expect(o3.events == third)
      #expect(xs1.subscriptions == [TimelineSubscription(.seconds(215), .seconds(235))])
      #expect(xs2.subscriptions == [TimelineSubscription(.seconds(235), .seconds(265))])
      #expect(xs3.subscriptions == [TimelineSubscription(.seconds(400), .seconds(440))])
      await clock.expectNoLeaks()
    }
  }

  @Test("test_forever_receivesCorrectElements", arguments: 0..<5)
  func test_forever_receivesCorrectElements(i: Int) async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(210)),
        .value(2, at: .seconds(220)),
        .value(3, at: .seconds(230)),
        .value(4, at: .seconds(240)),
        .value(5, at: .seconds(250)),
        .value(6, at: .seconds(320)),
        .value(7, at: .seconds(550)),
      ])
      let ys = Locked<Signal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.share(replay: i, scope: .forever) } }
      let res1 = Recorder<Int, TestError>(clock: clock)
      let res2 = Recorder<Int, TestError>(clock: clock)
      let res3 = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(200)) { res1.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(300)) { res2.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(350)) { res1.cancel() }
      clock.schedule(at: .seconds(400)) { res2.cancel() }
      clock.schedule(at: .seconds(500)) { res3.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(600)) { res3.cancel() }
      await clock.run()

      let expected1: [Recorded<Int, TestError>] = [
        .value(1, at: .seconds(210)),
        .value(2, at: .seconds(220)),
        .value(3, at: .seconds(230)),
        .value(4, at: .seconds(240)),
        .value(5, at: .seconds(250)),
        .value(6, at: .seconds(320)),
      ]
      #expect(res1.events == expected1)
      #expect(res2.events == (0..<i).map { .value(6 - i + $0, at: .seconds(300)) } + [.value(6, at: .seconds(320))])
      #expect(res3.events == (0..<i).map { .value(7 - i + $0, at: .seconds(500)) } + [.value(7, at: .seconds(550))])
      #expect(
        xs.subscriptions == [
          TimelineSubscription(.seconds(200), .seconds(400)), TimelineSubscription(.seconds(500), .seconds(600)),
        ])
      await clock.expectNoLeaks()
    }
  }

  @Test("test_forever_error", arguments: 0..<5)
  func test_forever_error(i: Int) async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(210)),
        .value(2, at: .seconds(220)),
        .value(3, at: .seconds(230)),
        .value(4, at: .seconds(240)),
        .value(5, at: .seconds(250)),
        .value(6, at: .seconds(320)),
        .failed(testError, at: .seconds(330)),
        .value(-1, at: .seconds(340)),
        .value(7, at: .seconds(550)),
      ])
      let ys = Locked<Signal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.share(replay: i, scope: .forever) } }
      let res1 = Recorder<Int, TestError>(clock: clock)
      let res2 = Recorder<Int, TestError>(clock: clock)
      let res3 = Recorder<Int, TestError>(clock: clock)
      let res1Again = Recorder<Int, TestError>(clock: clock)
      let res2Again = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(200)) {
        let shared = ys.withLock { $0! }
        res1.subscribe(to: shared.handleEvents(onFailure: { _ in res1Again.subscribe(to: shared) }))
      }
      clock.schedule(at: .seconds(300)) {
        let shared = ys.withLock { $0! }
        res2.subscribe(to: shared.handleEvents(onFailure: { _ in res2Again.subscribe(to: shared) }))
      }
      clock.schedule(at: .seconds(350)) {
        res1.cancel()
        res1Again.cancel()
      }
      clock.schedule(at: .seconds(400)) {
        res2.cancel()
        res2Again.cancel()
      }
      clock.schedule(at: .seconds(500)) { res3.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(600)) { res3.cancel() }
      await clock.run()

      let expected1: [Recorded<Int, TestError>] = [
        .value(1, at: .seconds(210)),
        .value(2, at: .seconds(220)),
        .value(3, at: .seconds(230)),
        .value(4, at: .seconds(240)),
        .value(5, at: .seconds(250)),
        .value(6, at: .seconds(320)),
        .failed(testError, at: .seconds(330)),
      ]
      #expect(res1.events == expected1)
      let again: [Recorded<Int, TestError>] =
        (0..<i).map { .value(7 - i + $0, at: .seconds(330)) } + [.failed(testError, at: .seconds(330))]
      #expect(res1Again.events == again)
      #expect(res2Again.events == again)
      #expect(
        res2.events == (0..<i).map { .value(6 - i + $0, at: .seconds(300)) } + [
          .value(6, at: .seconds(320)), .failed(testError, at: .seconds(330)),
        ])
      #expect(
        res3.events == (0..<i).map { .value(7 - i + $0, at: .seconds(500)) } + [.failed(testError, at: .seconds(500))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(330))])
      await clock.expectNoLeaks()
    }
  }

  @Test("test_forever_completed", arguments: 0..<5)
  func test_forever_completed(i: Int) async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, TestError> = clock.hotTimeline([
        .value(1, at: .seconds(210)),
        .value(2, at: .seconds(220)),
        .value(3, at: .seconds(230)),
        .value(4, at: .seconds(240)),
        .value(5, at: .seconds(250)),
        .value(6, at: .seconds(320)),
        .finished(at: .seconds(330)),
        .value(-1, at: .seconds(340)),
        .value(7, at: .seconds(550)),
      ])
      let ys = Locked<Signal<Int, TestError>?>(nil)
      clock.schedule(at: .seconds(100)) { ys.withLock { $0 = xs.share(replay: i, scope: .forever) } }
      let res1 = Recorder<Int, TestError>(clock: clock)
      let res2 = Recorder<Int, TestError>(clock: clock)
      let res3 = Recorder<Int, TestError>(clock: clock)
      let res1Again = Recorder<Int, TestError>(clock: clock)
      let res2Again = Recorder<Int, TestError>(clock: clock)
      clock.schedule(at: .seconds(200)) {
        let shared = ys.withLock { $0! }
        res1.subscribe(to: shared.handleEvents(onFinish: { res1Again.subscribe(to: shared) }))
      }
      clock.schedule(at: .seconds(300)) {
        let shared = ys.withLock { $0! }
        res2.subscribe(to: shared.handleEvents(onFinish: { res2Again.subscribe(to: shared) }))
      }
      clock.schedule(at: .seconds(350)) {
        res1.cancel()
        res1Again.cancel()
      }
      clock.schedule(at: .seconds(400)) {
        res2.cancel()
        res2Again.cancel()
      }
      clock.schedule(at: .seconds(500)) { res3.subscribe(to: ys.withLock { $0! }) }
      clock.schedule(at: .seconds(600)) { res3.cancel() }
      await clock.run()

      let expected1: [Recorded<Int, TestError>] = [
        .value(1, at: .seconds(210)),
        .value(2, at: .seconds(220)),
        .value(3, at: .seconds(230)),
        .value(4, at: .seconds(240)),
        .value(5, at: .seconds(250)),
        .value(6, at: .seconds(320)),
        .finished(at: .seconds(330)),
      ]
      #expect(res1.events == expected1)
      let again: [Recorded<Int, TestError>] =
        (0..<i).map { .value(7 - i + $0, at: .seconds(330)) } + [.finished(at: .seconds(330))]
      #expect(res1Again.events == again)
      #expect(res2Again.events == again)
      #expect(
        res2.events == (0..<i).map { .value(6 - i + $0, at: .seconds(300)) } + [
          .value(6, at: .seconds(320)), .finished(at: .seconds(330)),
        ])
      #expect(res3.events == (0..<i).map { .value(7 - i + $0, at: .seconds(500)) } + [.finished(at: .seconds(500))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(330))])
      await clock.expectNoLeaks()
    }
  }
}
