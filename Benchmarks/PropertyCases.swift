import AsyncReactive
import Synchronization

/// Cases for derived properties: reading a derived value, and a change travelling through one to a consumer.
func propertyCases(scale: Int) -> [BenchmarkCase] {
  let reads = 1_000_000 / scale
  let sends = 1_000_000 / scale
  return [
    BenchmarkCase(
      name: "derived Property value read (combineLatest of 3 + map)", unit: "read", events: reads, target: 2.0
    ) {
      derivedPropertyRead($0, reads: reads)
    },
    BenchmarkCase(
      name: "send through a derived Property to 1 consumer", unit: "event", events: sends, target: nil,
      cpuRatioTarget: 2.0
    ) {
      await sendThroughDerivedProperty($0, sends: sends)
    },
  ]
}

/// A current value in the callback style (ReactiveSwift's `MutableProperty` minus its signal): a locked value.
final class CallbackProperty<Value: Sendable>: Sendable {
  private let current: BaselineLocked<Value>
  let changes = CallbackSubject<Value>()

  init(_ value: Value) { current = BaselineLocked(value) }

  var value: Value {
    get { current.withLock { $0 } }
    set {
      current.withLock { $0 = newValue }
      changes.send(.next(newValue))
    }
  }
}

/// `combineLatest(a, b, c).map { a + b + c }.value`, read `reads` times. The callback version reads its three
/// values by hand; the naive version reads three `AsyncCurrentValueSubject`s by hand (the "by hand" of the target);
/// AsyncReactive reads the derived property.
func derivedPropertyRead(_ version: Version, reads: Int) -> Int {
  var sum = 0
  switch version {
  case .callback:
    let (a, b, c) = (CallbackProperty(1), CallbackProperty(2), CallbackProperty(3))
    for _ in 0..<reads { sum &+= a.value &+ b.value &+ c.value }
  case .naive:
    let (a, b, c) = (
      AsyncCurrentValueSubject<Int, Never>(1), AsyncCurrentValueSubject<Int, Never>(2),
      AsyncCurrentValueSubject<Int, Never>(3)
    )
    for _ in 0..<reads { sum &+= a.value &+ b.value &+ c.value }
  case .reactive:
    let (a, b, c) = (
      AsyncCurrentValueSubject<Int, Never>(1), AsyncCurrentValueSubject<Int, Never>(2),
      AsyncCurrentValueSubject<Int, Never>(3)
    )
    let total = combineLatest(a, b, c).map { $0 &+ $1 &+ $2 }
    for _ in 0..<reads { sum &+= total.value }
  }
  return sum
}

/// `sends` values set on a current value, each observed doubled by one consumer; returns the sum it saw.
func sendThroughDerivedProperty(_ version: Version, sends: Int) async -> Int {
  switch version {
  case .callback:
    let source = CallbackProperty(0)
    let sum = Atomic<Int>(0)
    let disposable = source.changes.signal.map { $0 &* 2 }.observe { event in
      if case .next(let value) = event { sum.wrappingAdd(value, ordering: .relaxed) }
    }
    for value in 1...sends { source.value = value }
    disposable.dispose()
    return sum.load(ordering: .relaxed)

  case .naive:
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let consumer = Task {
      var sum = 0
      for await value in stream.map({ $0 &* 2 }) { sum &+= value }
      return sum
    }
    for value in 1...sends { continuation.yield(value) }
    continuation.finish()
    return await consumer.value

  case .reactive:
    let source = AsyncCurrentValueSubject<Int, Never>(0)
    let doubled = source.map { $0 &* 2 }.subscribe()
    let consumer = Task {
      var sum = 0
      for await value in doubled { sum &+= value }  // the current value, 0, first
      return sum
    }
    for value in 1...sends { source.value = value }
    source.finish()
    return await consumer.value
  }
}
