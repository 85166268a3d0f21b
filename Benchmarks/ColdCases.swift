import AsyncReactive
import Synchronization

/// Cold chains: a `Signal` made from a sequence, through operators, to one iterating consumer; no subject.
func coldCases(scale: Int) -> [BenchmarkCase] {
  let events = 1_000_000 / scale
  return [
    BenchmarkCase(
      name: "Signal → map → filter → 1 consumer (cold)", unit: "event", events: events, target: nil
    ) {
      await coldMapFilter($0, events: events)
    },
    BenchmarkCase(
      name: "cold chain of 5 operators → 1 consumer", unit: "event", events: events, target: nil
    ) {
      await coldChainOfFive($0, events: events)
    },
  ]
}

/// A cold callback signal that sends `0..<events` synchronously to its observer, then completes.
private func callbackRange(_ events: Int) -> CallbackSignal<Int> {
  CallbackSignal { observer in
    for value in 0..<events { observer(.next(value)) }
    observer(.completed)
    return CallbackDisposable()
  }
}

extension CallbackSignal {
  /// RAC `scan`: the accumulator behind a lock, each intermediate result sent.
  fileprivate func coldScan<Result: Sendable>(
    _ initial: Result, _ next: @escaping @Sendable (Result, Value) -> Result
  ) -> CallbackSignal<Result> {
    CallbackSignal<Result> { observer in
      let accumulator = BaselineLocked(initial)
      return self.observe { event in
        switch event {
        case .next(let value):
          let result = accumulator.withLock { accumulator -> Result in
            accumulator = next(accumulator, value)
            return accumulator
          }
          observer(.next(result))
        case .failed(let error): observer(.failed(error))
        case .completed: observer(.completed)
        }
      }
    }
  }
}

extension CallbackSignal where Value: Equatable {
  /// RAC `skipRepeats`: the last value behind a lock, a value equal to it dropped.
  fileprivate func coldSkipRepeats() -> CallbackSignal<Value> {
    CallbackSignal { observer in
      let last = BaselineLocked<Value?>(nil)
      return self.observe { event in
        if case .next(let value) = event {
          let repeated = last.withLock { last -> Bool in
            defer { last = value }
            return last == value
          }
          if repeated { return }
        }
        observer(event)
      }
    }
  }
}

/// `0..<events` from a cold source, doubled, multiples of 3 dropped; returns the sum of what is left.
func coldMapFilter(_ version: Version, events: Int) async -> Int {
  switch version {
  case .callback:
    let sum = Atomic<Int>(0)
    let finished = Atomic<Bool>(false)
    callbackRange(events).map { $0 &* 2 }.filter { $0 % 3 != 0 }.observe { event in
      switch event {
      case .next(let value): sum.wrappingAdd(value, ordering: .relaxed)
      case .completed: finished.store(true, ordering: .relaxed)
      case .failed: break
      }
    }
    precondition(finished.load(ordering: .relaxed))
    return sum.load(ordering: .relaxed)

  case .naive:
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let producer = Task {
      for value in 0..<events { continuation.yield(value) }
      continuation.finish()
    }
    var sum = 0
    for await value in stream.map({ $0 &* 2 }).filter({ $0 % 3 != 0 }) { sum &+= value }
    await producer.value
    return sum

  case .reactive:
    var sum = 0
    for await value in Signal<Int, Never>(0..<events).map({ $0 &* 2 }).filter({ $0 % 3 != 0 }) { sum &+= value }
    return sum
  }
}

/// `0..<events` from a cold source through map, filter, scan, removeDuplicates and map; returns the sum of the
/// outputs.
func coldChainOfFive(_ version: Version, events: Int) async -> Int {
  switch version {
  case .callback:
    let sum = Atomic<Int>(0)
    let finished = Atomic<Bool>(false)
    callbackRange(events)
      .map { $0 &+ 1 }
      .filter { $0 % 2 == 0 }
      .coldScan(0) { $0 &+ $1 }
      .coldSkipRepeats()
      .map { $0 &* 3 }
      .observe { event in
        switch event {
        case .next(let value): sum.wrappingAdd(value, ordering: .relaxed)
        case .completed: finished.store(true, ordering: .relaxed)
        case .failed: break
        }
      }
    precondition(finished.load(ordering: .relaxed))
    return sum.load(ordering: .relaxed)

  case .naive:
    // By hand: the standard library's map and filter, the scan and the duplicate check in the loop.
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let producer = Task {
      for value in 0..<events { continuation.yield(value) }
      continuation.finish()
    }
    var sum = 0
    var accumulator = 0
    var last: Int?
    for await value in stream.map({ $0 &+ 1 }).filter({ $0 % 2 == 0 }) {
      accumulator = accumulator &+ value
      if accumulator == last { continue }
      last = accumulator
      sum &+= accumulator &* 3
    }
    await producer.value
    return sum

  case .reactive:
    var sum = 0
    let chain = Signal<Int, Never>(0..<events)
      .map { $0 &+ 1 }
      .filter { $0 % 2 == 0 }
      .scan(0) { $0 &+ $1 }
      .removeDuplicates()
      .map { $0 &* 3 }
    for await value in chain { sum &+= value }
    return sum
  }
}
