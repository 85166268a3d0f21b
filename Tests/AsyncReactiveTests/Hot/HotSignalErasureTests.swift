import AsyncReactive
import AsyncReactiveTesting
import Testing

/// `HotSignal` is the type a view model stores and exposes. Erasing a hot chain keeps its node; erasing a cold
/// signal shares it: its first consumer starts one run that every consumer sees, its last one stops it, and a
/// consumer after that (or after the run ended) starts a new run (RxCocoa's `asDriver()`/`asSignal()` share too).
@Suite("HotSignal: what erasing does")
struct HotSignalErasureTests {
  @Test("a hot chain erased keeps its node: one evaluation for every consumer, inside the subject's send")
  func hotChainKeepsItsNode() {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let calls = Counter()
    let chain = subject.map { value -> Int in
      calls.increment()
      return value * 10
    }
    let erased = chain.eraseToHotSignal()
    let again = HotSignal(chain)
    let clock = TestClock()
    let first = Recorder(erased, clock: clock)
    let second = Recorder(again, clock: clock)
    subject.send(1)
    #expect(first.values.map(\.value) == [10])
    #expect(second.values.map(\.value) == [10])
    #expect(calls.value == 1)
    #expect(subject.consumerCount == 1)
  }

  @Test("a cold signal erased is shared: one run for the consumers at the same time, a new run after the last left")
  func coldSignalIsShared() {
    let runs = Counter()
    let stops = Counter()
    let emitters = Log<Signal<Int, Never>.Emitter>()
    let cold = Signal<Int, Never>.create { emitter in
      runs.increment()
      emitters.append(emitter)
      return { stops.increment() }
    }
    let erased = cold.eraseToHotSignal()
    #expect(runs.value == 0)  // nothing runs before a consumer comes
    let lifetime = Lifetime()
    let first = Log<Int>()
    let second = Log<Int>()
    erased.sink(in: lifetime) { first.append($0) }
    erased.sink(in: lifetime) { second.append($0) }
    #expect(runs.value == 1)
    emitters.all[0].send(1)
    emitters.all[0].send(2)
    #expect(first.all == [1, 2])
    #expect(second.all == [1, 2])
    lifetime.cancel()  // the last consumer left: the run stops
    #expect(stops.value == 1)
    let later = Lifetime()
    let third = Log<Int>()
    erased.sink(in: later) { third.append($0) }
    #expect(runs.value == 2)
    emitters.all[1].send(3)
    #expect(third.all == [3])
    later.cancel()
    #expect(stops.value == 2)
  }

  @Test("a constant erased gives every consumer its value, then the end; each consumer after the end gets a new run")
  func constantErased() {
    let clock = TestClock()
    let constant = Signal<Int, Never>.just(7).eraseToHotSignal()
    let first = Recorder(constant, clock: clock)
    let second = Recorder(constant, clock: clock)
    #expect(first.values.map(\.value) == [7])
    #expect(second.values.map(\.value) == [7])
    #expect(first.end != nil && second.end != nil)
  }
}
