import AsyncReactive
import AsyncReactiveTesting
import Synchronization
import Testing

// RxSwift 6's own tests of `window(timeSpan:count:scheduler:)` (Tests/RxSwiftTests/Observable+WindowTests.swift),
// ported line by line as RxSwiftPortedOperatorTests ports the others: RxSwift's `enumerated().map { … }.merge()` is
// `enumerated().flatMap { … }`, and its scheduler is the test clock.

private let testError = TestError(code: 0)

@Suite("RxSwift's window tests, ported line by line", .timeLimit(.minutes(1)))
struct RxSwiftPortedWindowTests {
  /// RxSwift's timeline for the window tests, ending at 600 with `end`.
  private static func numbers(_ end: Recorded<Int, TestError>) -> [Recorded<Int, TestError>] {
    [
      .value(1, at: .seconds(205)), .value(2, at: .seconds(210)), .value(3, at: .seconds(240)),
      .value(4, at: .seconds(280)), .value(5, at: .seconds(320)), .value(6, at: .seconds(350)),
      .value(7, at: .seconds(370)), .value(8, at: .seconds(420)), .value(9, at: .seconds(470)), end,
    ]
  }

  /// Every window's values, labelled with the window's number.
  private static func labelled(_ xs: HotTimeline<Int, TestError>, clock: TestClock) -> Signal<String, TestError> {
    xs.window(timeSpan: .seconds(70), count: 3, clock: clock).enumerated().flatMap { i, o in o.map { "\(i) \($0)" } }
  }

  private static let labels: [Recorded<String, TestError>] = [
    .value("0 1", at: .seconds(205)), .value("0 2", at: .seconds(210)), .value("0 3", at: .seconds(240)),
    .value("1 4", at: .seconds(280)), .value("2 5", at: .seconds(320)), .value("2 6", at: .seconds(350)),
    .value("2 7", at: .seconds(370)), .value("3 8", at: .seconds(420)), .value("4 9", at: .seconds(470)),
  ]

  @Test("testWindowWithTimeOrCount_Basic")
  func testWindowWithTimeOrCount_Basic() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline(Self.numbers(.finished(at: .seconds(600))))

      let res = await clock.start { Self.labelled(xs, clock: clock) }

      #expect(res.events == Self.labels + [.finished(at: .seconds(600))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(600))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testWindowWithTimeOrCount_Error")
  func testWindowWithTimeOrCount_Error() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline(Self.numbers(.failed(testError, at: .seconds(600))))

      let res = await clock.start { Self.labelled(xs, clock: clock) }

      #expect(res.events == Self.labels + [.failed(testError, at: .seconds(600))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(600))])
      await clock.expectNoLeaks()
    }
  }

  @Test("testWindowWithTimeOrCount_Disposed")
  func testWindowWithTimeOrCount_Disposed() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs = clock.hotTimeline([.value(0, at: .seconds(105))] + Self.numbers(.finished(at: .seconds(600))))

      let res = await clock.start(disposed: .seconds(370)) { Self.labelled(xs, clock: clock) }

      #expect(res.events == Array(Self.labels.prefix(7)))
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(370))])
      await clock.expectNoLeaks()
    }
  }

  @Test("windowWithTimeOrCount_Default")
  func windowWithTimeOrCount_Default() async {
    let labelled: Signal<String, Never> = Signal(1...10).window(timeSpan: .seconds(1000), count: 3)
      .enumerated().flatMap { i, o in o.map { "\(i) \($0)" } }
    let result = await labelled.dropFirst(4).first(where: { _ in true })
    #expect(result == "1 5")
  }
}

@Suite("window(timeSpan:count:clock:) beyond RxSwift's tests", .timeLimit(.minutes(1)))
struct WindowTests {
  @Test("windows by count alone: sizes, and the last partial window finishes with the input")
  func countOnly() async {
    var windows: [[Int]] = []
    let arrays: Signal<[Int], Never> = Signal(1...7).window(count: 3).flatMap { $0.toArray() }
    for await window in arrays { windows.append(window) }
    #expect(windows == [[1, 2, 3], [4, 5, 6], [7]])
  }

  @Test("windows by time alone: an empty window still opens and closes on time")
  func timeOnly() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, Never> = clock.hotTimeline([
        .value(1, at: .seconds(210)), .value(2, at: .seconds(220)), .value(3, at: .seconds(330)),
        .finished(at: .seconds(350)),
      ])
      let res = await clock.start { xs.window(timeSpan: .seconds(50), clock: clock).flatMap { $0.toArray() } }
      let expected: [Recorded<[Int], Never>] = [
        .value([1, 2], at: .seconds(250)), .value([], at: .seconds(300)), .value([3], at: .seconds(350)),
        .finished(at: .seconds(350)),
      ]
      #expect(res.events == expected)
      await clock.expectNoLeaks()
    }
  }

  @Test("a window observed after the result's consumer stopped keeps the input and its timer until it leaves")
  func windowOutlivesOuter() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let xs: HotTimeline<Int, Never> = clock.hotTimeline([
        .value(1, at: .seconds(210)), .value(2, at: .seconds(260)), .value(3, at: .seconds(320)),
        .finished(at: .seconds(600)),
      ])
      let lifetime = Lifetime()
      let first = Recorder<Int, Never>(clock: clock)
      let windows = Atomic(0)
      clock.schedule(at: .seconds(200)) {
        xs.window(timeSpan: .seconds(100), clock: clock).sink(in: lifetime) { window in
          if windows.add(1, ordering: .relaxed).newValue == 1 { first.subscribe(to: window) }
        }
      }
      clock.schedule(at: .seconds(250)) { lifetime.cancel() }
      await clock.run()
      // The first window keeps going after the outer consumer left at 250, and closes on its timer at 300; the
      // input is let go then, since nothing observes the run any more.
      #expect(
        first.events == [.value(1, at: .seconds(210)), .value(2, at: .seconds(260)), .finished(at: .seconds(300))])
      #expect(xs.subscriptions == [TimelineSubscription(.seconds(200), .seconds(300))])
      await clock.expectNoLeaks()
    }
  }
}
