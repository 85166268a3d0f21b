import AsyncReactive
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Subject → `consumers` consumers, optionally through map + filter; returns a checksum of what the
/// consumers saw.
func fanOut(_ version: Version, events: Int, consumers: Int, mapFilter: Bool) async -> Int {
  switch version {
  case .callback:
    let subject = CallbackSubject<Int>()
    let sum = Atomic<Int>(0)
    let finished = Atomic<Int>(0)
    var disposables: [CallbackDisposable] = []
    for _ in 0..<consumers {
      let signal = mapFilter ? subject.signal.map { $0 &* 2 }.filter { $0 % 3 != 0 } : subject.signal
      disposables.append(
        signal.observe { event in
          switch event {
          case .next(let value): sum.wrappingAdd(value, ordering: .relaxed)
          case .completed: finished.wrappingAdd(1, ordering: .relaxed)
          case .failed: break
          }
        }
      )
    }
    for value in 0..<events { subject.send(.next(value)) }
    subject.send(.completed)
    precondition(finished.load(ordering: .relaxed) == consumers)
    return sum.load(ordering: .relaxed)

  case .naive:
    var continuations: [AsyncStream<Int>.Continuation] = []
    var tasks: [Task<Int, Never>] = []
    for _ in 0..<consumers {
      let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
      continuations.append(continuation)
      tasks.append(
        Task {
          var sum = 0
          if mapFilter {
            for await value in stream.map({ $0 &* 2 }).filter({ $0 % 3 != 0 }) { sum &+= value }
          } else {
            for await value in stream { sum &+= value }
          }
          return sum
        }
      )
    }
    for value in 0..<events {
      for continuation in continuations { continuation.yield(value) }
    }
    for continuation in continuations { continuation.finish() }
    var total = 0
    for task in tasks { total &+= await task.value }
    return total

  case .reactive:
    let subject = AsyncPassthroughSubject<Int, Never>()
    var tasks: [Task<Int, Never>] = []
    for _ in 0..<consumers {
      let values = subject.subscribe()
      tasks.append(
        Task {
          var sum = 0
          if mapFilter {
            for await value in values.map({ $0 &* 2 }).filter({ $0 % 3 != 0 }) { sum &+= value }
          } else {
            for await value in values { sum &+= value }
          }
          return sum
        }
      )
    }
    for value in 0..<events { subject.send(value) }
    subject.finish()
    var total = 0
    for task in tasks { total &+= await task.value }
    return total
  }
}

/// Resident bytes per idle consumer (measured first, before other cases grew the heap): `count` consumers parked waiting for a value.
func idleSubscriberBytes(_ version: Version, count: Int) async -> Int {
  let before = residentBytes()
  var bytes = 0
  switch version {
  case .callback:
    let subject = CallbackSubject<Int>()
    var disposables: [CallbackDisposable] = []
    disposables.reserveCapacity(count)
    for _ in 0..<count { disposables.append(subject.signal.observe { _ in }) }
    bytes = residentBytes() - before
    subject.send(.completed)
    withExtendedLifetime(disposables) {}
  case .naive:
    var continuations: [AsyncStream<Int>.Continuation] = []
    var tasks: [Task<Void, Never>] = []
    for _ in 0..<count {
      let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
      continuations.append(continuation)
      tasks.append(Task { for await _ in stream {} })
    }
    bytes = residentBytes() - before
    for continuation in continuations { continuation.finish() }
    for task in tasks { await task.value }
  case .reactive:
    let subject = AsyncPassthroughSubject<Int, Never>()
    var tasks: [Task<Void, Never>] = []
    for _ in 0..<count {
      let values = subject.subscribe()
      tasks.append(Task { for await _ in values {} })
    }
    bytes = residentBytes() - before
    subject.finish()
    for task in tasks { await task.value }
  }
  return max(0, bytes) / count
}

/// Subject → 1 consumer with the producer pausing `pauseMicroseconds` (blocking its thread, no CPU) after
/// each value: how much CPU a consumer that waits between sporadic events pays per event (a phone's UI
/// events, not a burst). Returns a checksum of what the consumer saw.
func sporadic(_ version: Version, events: Int, pauseMicroseconds: UInt32) async -> Int {
  switch version {
  case .callback:
    let subject = CallbackSubject<Int>()
    let sum = Atomic<Int>(0)
    let disposable = subject.signal.observe { event in
      if case .next(let value) = event { sum.wrappingAdd(value, ordering: .relaxed) }
    }
    for value in 0..<events {
      subject.send(.next(value))
      usleep(pauseMicroseconds)
    }
    subject.send(.completed)
    withExtendedLifetime(disposable) {}
    return sum.load(ordering: .relaxed)

  case .naive:
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let consumer = Task {
      var sum = 0
      for await value in stream { sum &+= value }
      return sum
    }
    for value in 0..<events {
      continuation.yield(value)
      usleep(pauseMicroseconds)
    }
    continuation.finish()
    return await consumer.value

  case .reactive:
    let subject = AsyncPassthroughSubject<Int, Never>()
    let values = subject.subscribe()
    let consumer = Task {
      var sum = 0
      for await value in values { sum &+= value }
      return sum
    }
    for value in 0..<events {
      subject.send(value)
      usleep(pauseMicroseconds)
    }
    subject.finish()
    return await consumer.value
  }
}

/// Subject → one synchronous observer: the callback baseline's observer, the naive version's consumer task,
/// and AsyncReactive's `sink` (no task: delivered inside `send`). Returns the sum the observer saw.
func synchronousObserver(_ version: Version, events: Int) async -> Int {
  switch version {
  case .callback, .naive:
    return await fanOut(version, events: events, consumers: 1, mapFilter: false)
  case .reactive:
    let subject = AsyncPassthroughSubject<Int, Never>()
    let lifetime = Lifetime()
    let sum = Atomic<Int>(0)
    subject.sink(in: lifetime) { sum.wrappingAdd($0, ordering: .relaxed) }
    for value in 0..<events { subject.send(value) }
    subject.finish()
    return sum.load(ordering: .relaxed)
  }
}

/// A subject → map → filter → one synchronous sink, built inside `AsyncReactiveDebug.tracing` when `traced`: what the
/// "why did nothing arrive" trace costs per event (each node records its last event).
func synchronousMapFilter(_ version: Version, events: Int, traced: Bool) async -> Int {
  switch version {
  case .callback, .naive:
    return await fanOut(version, events: events, consumers: 1, mapFilter: true)
  case .reactive:
    let subject = AsyncPassthroughSubject<Int, Never>()
    let lifetime = Lifetime()
    let sum = Atomic<Int>(0)
    let build = { subject.map { $0 &* 2 }.filter { $0 % 3 != 0 } }
    let chain = traced ? AsyncReactiveDebug.tracing(build) : build()
    chain.sink(in: lifetime) { sum.wrappingAdd($0, ordering: .relaxed) }
    for value in 0..<events { subject.send(value) }
    subject.finish()
    return sum.load(ordering: .relaxed)
  }
}

/// Resident bytes per idle `sink` observer (no task), measured like ``idleSubscriberBytes(_:count:)``.
func idleSinkBytes(count: Int) -> Int {
  let before = residentBytes()
  let subject = AsyncPassthroughSubject<Int, Never>()
  let lifetime = Lifetime()
  for _ in 0..<count { subject.sink(in: lifetime) { _ in } }
  let bytes = residentBytes() - before
  subject.finish()
  withExtendedLifetime(lifetime) {}
  return max(0, bytes) / count
}

/// Resident bytes per idle `observe(in:)` of a subject: a sink and the observation, no task until a value waits.
/// Measured like ``idleSinkBytes(count:)``.
func idleObserveBytes(count: Int) -> Int {
  let before = residentBytes()
  let subject = AsyncPassthroughSubject<Int, Never>()
  let lifetime = Lifetime()
  for _ in 0..<count { subject.observe(in: lifetime) { _ in } }
  let bytes = residentBytes() - before
  lifetime.cancel()
  subject.finish()
  return max(0, bytes) / count
}

/// What "scaling: N consumers" costs before the library does anything: its N consumer tasks alone, each created,
/// suspended at most once on a continuation that the producer resumes (or not at all when the value came first),
/// and joined; no subject and no queue. Returns the median CPU ns per delivered event over `repetitions` runs,
/// counting `eventsPerConsumer` events per task as the scaling row does, so that the row's CPU can be read as this
/// floor plus the library's part.
func consumerTaskFloor(consumers: Int, eventsPerConsumer: Int, repetitions: Int) async -> Double {
  var samples: [Double] = []
  for _ in 0..<repetitions {
    let slots = (0..<consumers).map { _ in HandOff() }
    let start = cpuNanoseconds()
    var tasks: [Task<Int, Never>] = []
    tasks.reserveCapacity(consumers)
    for slot in slots { tasks.append(Task { await slot.value() }) }
    for (index, slot) in slots.enumerated() { slot.send(index) }
    var sum = 0
    for task in tasks { sum &+= await task.value }
    precondition(sum == consumers * (consumers - 1) / 2, "task floor: a value was lost")
    samples.append(Double(cpuNanoseconds() - start) / Double(consumers * eventsPerConsumer))
  }
  samples.sort()
  return samples[samples.count / 2]
}

/// One value handed from a producer to one task: the task suspends until it is sent, unless it was sent first.
final class HandOff: Sendable {
  private enum State {
    case empty
    case waiting(UnsafeContinuation<Int, Never>)
    case sent(Int)
  }
  private let state = Mutex(State.empty)

  func value() async -> Int {
    await withUnsafeContinuation { continuation in
      let early = state.withLock { state -> Int? in
        if case .sent(let value) = state { return value }
        state = .waiting(continuation)
        return nil
      }
      if let early { continuation.resume(returning: early) }
    }
  }

  func send(_ value: Int) {
    let waiter = state.withLock { state -> UnsafeContinuation<Int, Never>? in
      defer { state = .sent(value) }
      if case .waiting(let continuation) = state { return continuation }
      return nil
    }
    waiter?.resume(returning: value)
  }
}
