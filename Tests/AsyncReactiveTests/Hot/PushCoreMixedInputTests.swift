import AsyncReactive
import AsyncReactiveTesting
import Testing

/// Operators whose inputs are partly hot and partly cold (DESIGN §5c, "Mixed inputs"): the hot inputs are
/// observed inside their sends, each cold input by one pump task per connection, and the result is hot.
@Suite("Push core: hot and cold inputs together")
struct PushCoreMixedInputTests {
  @Test("merge(subject, stream): a HotSignal; the subject's values are processed inside send, the stream's by its pump")
  func mergeMixed() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    // A Signal that is hot at run time (a subject among the inputs); erased to a HotSignal to name it so.
    let merged = merge(subject, stream).eraseToHotSignal()
    let _: HotSignal<Int, Never> = merged
    let consumer = merged.subscribe()
    var values = consumer.makeAsyncIterator()
    let lifetime = Lifetime()
    let seen = Log<Int>()
    merged.sink(in: lifetime) { seen.append($0) }

    subject.send(1)
    #expect(seen.all == [1])  // no await: processed inside the send
    continuation.yield(2)
    #expect(await values.next() == 1)
    #expect(await values.next() == 2)
    subject.send(3)
    #expect(seen.all == [1, 2, 3])
    #expect(await values.next() == 3)
    subject.finish()
    continuation.finish()
    #expect(await values.next() == nil)
    lifetime.cancel()
  }

  @Test("combineLatest(property, Signal.future): every consumer shares one run of the cold input")
  func sharedColdRun() async throws {
    let runs = Counter()
    let name = AsyncCurrentValueSubject<String, Never>("tom")
    let property = Property(name)
    let rates = Signal<Int, Never>.future {
      runs.increment()
      return 3
    }
    let screen = combineLatest(property, rates).eraseToHotSignal()
    let _: HotSignal<(String, Int), Never> = screen
    // The future runs when the node connects (its first consumer), to its end without suspending: the first
    // consumer gets the combination at once; the second, which joined after it, gets the later ones (the future
    // replays nothing, so the node has no current combination to give).
    let first = screen.subscribe()
    let second = screen.subscribe()
    var firstValues = first.makeAsyncIterator()
    var secondValues = second.makeAsyncIterator()
    #expect(await firstValues.next().map { [$0.0, "\($0.1)"] } == ["tom", "3"])
    name.send("ann")
    #expect(await firstValues.next().map { [$0.0, "\($0.1)"] } == ["ann", "3"])
    #expect(await secondValues.next().map { [$0.0, "\($0.1)"] } == ["ann", "3"])
    #expect(runs.value == 1)
  }

  @Test("the last consumer leaving cancels the cold input's pump; the next connection runs the input anew (200 rounds)")
  func reconnectRunsAnew() async {
    for _ in 0..<200 {
      await expectNoLeaks {
        let runs = Counter()
        let subject = AsyncPassthroughSubject<Int, Never>()
        let cold = Signal<Int, Never> { emitter in
          await emitter.send(100 * runs.increment())
          await waitForCancellation()
        }
        // zip: an input that ends makes the node finish once nothing waits to be paired, so a pump that
        // ends because its connection was cancelled must not reach the node (it would end it for good).
        let paired = zip(subject, cold).eraseToHotSignal()
        do {
          let consumer = paired.subscribe()
          var values = consumer.makeAsyncIterator()
          subject.send(1)
          #expect(await values.next().map { [$0.0, $0.1] } == [1, 100])
        }
        #expect(subject.consumerCount == 0)
        let consumer = paired.subscribe()
        var values = consumer.makeAsyncIterator()
        subject.send(2)
        #expect(await values.next().map { [$0.0, $0.1] } == [2, 200])
        #expect(runs.value == 2)
      }
    }
  }

  @Test("sends from 4 threads and a cold input's pump: both consumers see one order, nothing lost (50 rounds)")
  func concurrentSendsAndPump() async {
    for _ in 0..<50 {
      let subject = AsyncPassthroughSubject<Int, Never>()
      // A cold input that sends from its own task, once both consumers are there (a synchronous sequence would
      // send inside the first consumer's connection, before the second subscribed, as in RxSwift).
      let go = Gate()
      let cold = Signal<Int, Never> { emitter in
        await go.wait()
        for value in 1...400 { await emitter.send(-value) }
      }
      let merged = merge(subject, cold).eraseToHotSignal()
      let first = merged.subscribe()
      let second = merged.subscribe()
      go.open()
      await withTaskGroup(of: Void.self) { group in
        for thread in 0..<4 {
          group.addTask {
            for index in 0..<100 { subject.send(thread * 100 + index) }
          }
        }
      }
      subject.finish()
      async let firstValues = first.collect()
      let secondValues = await second.collect()
      let firstOrder = await firstValues
      #expect(firstOrder == secondValues)
      #expect(firstOrder.sorted() == (1...400).map { -$0 }.reversed() + Array(0..<400))
    }
  }

  @Test("four inputs, three hot and one cold, nested as the README shows: hot, the hot sends processed inside send")
  func fourInputsNested() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let (a, b, c) = (
        AsyncPassthroughSubject<Int, Never>(), AsyncPassthroughSubject<Int, Never>(),
        AsyncPassthroughSubject<Int, Never>()
      )
      let rates = Signal<Int, Never> { emitter in
        await emitter.send(100)
        await waitForCancellation()
      }
      let screen = combineLatest(combineLatest(a, b, c), rates).map { ($0.0, $0.1, $0.2, $1) }
      #expect(screen.eraseToHotSignal().consumerCount == 0)  // hot at run time: its own node, erased as it is
      let recorder = Recorder(screen.map { [$0.0, $0.1, $0.2, $0.3] }, clock: clock)
      await clock.settle()  // the pump handed over 100
      a.send(1)
      b.send(2)
      #expect(recorder.values.isEmpty)
      c.send(3)
      #expect(recorder.values.map(\.value) == [[1, 2, 3, 100]])  // no await: inside c's send
      a.send(4)
      #expect(recorder.values.map(\.value) == [[1, 2, 3, 100], [4, 2, 3, 100]])
    }
  }

  @Test("a cold input's failure fails the node, for every consumer")
  func coldFailure() async {
    let subject = AsyncPassthroughSubject<Int, TestError>()
    let merged = merge(subject, Signal<Int, TestError>.fail(TestError(code: 7))).eraseToHotSignal()
    let consumer = merged.subscribe()
    let result = await consumer.collectResult()
    #expect(result.values == [])
    #expect(result.failure == TestError(code: 7))
  }
}

/// A hot base with a cold other input (`withLatestFrom`, `sample(on:)`, `take(until:)`): hot, the cold side pumped.
@Suite("Push core: a hot base with a cold other input")
struct PushCoreColdOtherTests {
  @Test("every failure combination with a cold other input gives a HotSignal")
  func overloads() {
    let never = AsyncPassthroughSubject<Int, Never>()
    let typed = AsyncPassthroughSubject<Int, TestError>()
    let coldNever = Signal<String, Never>.just("a")
    let coldTyped = Signal<String, TestError>.just("a")
    let coldUntyped = Signal<String, any Error>.just("a")

    let _: Signal<(Int, String), Never> = never.withLatestFrom(coldNever)
    let _: Signal<(Int, String), TestError> = typed.withLatestFrom(coldTyped)
    let _: Signal<(Int, String), any Error> = never.withLatestFrom(coldTyped)
    let _: Signal<(Int, String), TestError> = typed.withLatestFrom(coldNever)
    let _: Signal<(Int, String), any Error> = typed.withLatestFrom(coldUntyped)
    let _: Signal<String, Never> = never.withLatestFrom(coldNever) { "\($0)\($1)" }
    let _: Signal<String, TestError> = typed.withLatestFrom(coldTyped) { "\($0)\($1)" }
    let _: Signal<String, any Error> = never.withLatestFrom(coldTyped) { "\($0)\($1)" }
    let _: Signal<String, TestError> = typed.withLatestFrom(coldNever) { "\($0)\($1)" }
    let _: Signal<String, any Error> = typed.withLatestFrom(coldUntyped) { "\($0)\($1)" }

    let _: Signal<Int, Never> = never.sample(on: coldNever)
    let _: Signal<Int, TestError> = typed.sample(on: coldTyped)
    let _: Signal<Int, any Error> = never.sample(on: coldTyped)
    let _: Signal<Int, TestError> = typed.sample(on: coldNever)
    let _: Signal<Int, any Error> = typed.sample(on: coldUntyped)

    let _: Signal<Int, Never> = never.take(until: coldNever)
    let _: Signal<Int, TestError> = typed.take(until: coldTyped)
    let _: Signal<Int, any Error> = never.take(until: coldTyped)
    let _: Signal<Int, TestError> = typed.take(until: coldNever)
    let _: Signal<Int, any Error> = typed.take(until: coldUntyped)

    // A cold base gives a cold signal: each run runs the base anew.
    let _: Signal<(Int, Int), Never> = Signal<Int, Never>.just(1).withLatestFrom(never)
  }

  @Test("withLatestFrom(cold): the cold input runs inside the connection; its value pairs the taps inside their sends")
  func withLatestFromCold() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let taps = AsyncPassthroughSubject<Void, Never>()
      let settings = Signal<String, Never> { emitter in
        await emitter.send("dark")
        await waitForCancellation()
      }
      let saves = taps.withLatestFrom(settings) { $1 }
      let recorder = Recorder(saves, clock: clock)
      // The cold input's body ran inside the connection up to its first suspension, as RxSwift's `create` runs
      // inside `subscribe`: "dark" is there for the first tap.
      taps.send()
      #expect(recorder.values.map(\.value) == ["dark"])  // no await: paired inside the send
      await clock.settle()
      taps.send()
      #expect(recorder.values.map(\.value) == ["dark", "dark"])
    }
  }

  @Test("sample(on: timer) and take(until: timer): the cold trigger's pump runs on the clock")
  func coldTimerTriggers() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let positions = AsyncPassthroughSubject<Int, Never>()
      let sampled = Recorder(positions.sample(on: Signal.timer(every: .seconds(1), clock: clock)), clock: clock)
      let limited = Recorder(positions.take(until: Signal.timer(after: .seconds(2), clock: clock)), clock: clock)
      await clock.settle()
      positions.send(1)
      positions.send(2)
      #expect(limited.values.map(\.value) == [1, 2])
      await clock.advance(by: .seconds(1))
      #expect(sampled.values.map(\.value) == [2])
      positions.send(3)
      await clock.advance(by: .seconds(1))
      #expect(sampled.values.map(\.value) == [2, 3])
      #expect(limited.end?.instant == clock.now)  // ended at 2 s, when the trigger's pump took its element
      positions.send(4)
      #expect(limited.values.map(\.value) == [1, 2, 3])  // 3 was sent at 1 s, 4 after the end
    }
  }
}
