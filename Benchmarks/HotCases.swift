import AsyncReactive
import Synchronization

/// Cases of the push core: hot graphs evaluated inside `send`, shared by their consumers.
func hotCases(scale: Int) -> [BenchmarkCase] {
  let events = 10_000 / scale
  let rounds = 100_000 / scale
  return [
    BenchmarkCase(
      name: "subject → map → filter → 100 consumers (one shared evaluation)", unit: "delivered event",
      events: events * 100, target: 1.5, cpuRatioTarget: 2.0
    ) {
      await sharedChain($0, events: events, consumers: 100)
    },
    BenchmarkCase(
      name: "signup form: combineLatest(user, pass) + taps.withLatestFrom → 1 consumer", unit: "tap",
      events: rounds, target: 1.5, cpuRatioTarget: 2.0
    ) {
      await signupForm($0, rounds: rounds)
    },
    BenchmarkCase(
      name: "signup form: combineLatest(user, pass) + taps.withLatestFrom → 1 sink", unit: "tap",
      events: rounds, target: 1.5, cpuTarget: 1.2
    ) {
      await signupForm($0, rounds: rounds, sink: true)
    },
    BenchmarkCase(
      name: "signup form → 1 sink, against a hand-fused callback (one lock, no combineLatest)", unit: "tap",
      events: rounds, target: nil, cpuTarget: nil
    ) {
      await signupForm($0, rounds: rounds, sink: true, fusedBaseline: true)
    },
  ]
}

/// One map → filter chain, observed by `consumers` consumers: the callback baseline observes one shared mapped
/// signal (a subject in the middle, as an RAC user shares a chain), the naive version maps in every consumer
/// task, AsyncReactive iterates one hot chain `consumers` times. Returns the sum the consumers saw.
func sharedChain(_ version: Version, events: Int, consumers: Int) async -> Int {
  switch version {
  case .callback:
    let subject = CallbackSubject<Int>()
    let shared = CallbackSubject<Int>()
    let upstream = subject.signal.map { $0 &* 2 }.filter { $0 % 3 != 0 }.observe { shared.send($0) }
    let sum = Atomic<Int>(0)
    let finished = Atomic<Int>(0)
    var disposables: [CallbackDisposable] = [upstream]
    for _ in 0..<consumers {
      disposables.append(
        shared.signal.observe { event in
          switch event {
          case .next(let value): sum.wrappingAdd(value, ordering: .relaxed)
          case .completed: finished.wrappingAdd(1, ordering: .relaxed)
          case .failed: break
          }
        })
    }
    for value in 0..<events { subject.send(.next(value)) }
    subject.send(.completed)
    precondition(finished.load(ordering: .relaxed) == consumers)
    withExtendedLifetime(disposables) {}
    return sum.load(ordering: .relaxed)

  case .naive:
    return await fanOut(.naive, events: events, consumers: consumers, mapFilter: true)

  case .reactive:
    let subject = AsyncPassthroughSubject<Int, Never>()
    let chain = subject.map { $0 &* 2 }.filter { $0 % 3 != 0 }
    var tasks: [Task<Int, Never>] = []
    for _ in 0..<consumers {
      let values = chain.subscribe()
      tasks.append(
        Task {
          var sum = 0
          for await value in values { sum &+= value }
          return sum
        })
    }
    for value in 0..<events { subject.send(value) }
    subject.finish()
    var total = 0
    for task in tasks { total &+= await task.value }
    return total
  }
}

/// RxSwift's GitHubSignup shape: each round sends a username, a password and a tap; every tap is paired with
/// the latest (username, password). Returns a checksum of the pairs the consumer saw.
///
/// With `sink`, AsyncReactive observes the result with a `sink` (the graph's cost inside `send`, with no consumer
/// task to wake); the other versions are the same either way.
func signupForm(_ version: Version, rounds: Int, sink: Bool = false, fusedBaseline: Bool = false) async -> Int {
  switch version {
  case .callback where fusedBaseline:
    // Hand-fused: the latest pair behind one lock, updated and read inside each send (no combineLatest node).
    let (user, pass, taps) = (CallbackSubject<Int>(), CallbackSubject<Int>(), CallbackSubject<Void>())
    let latest = Mutex<(user: Int?, pass: Int?)>((nil, nil))
    let sum = Atomic<Int>(0)
    let disposables = [
      user.signal.observe { event in if case .next(let value) = event { latest.withLock { $0.user = value } } },
      pass.signal.observe { event in if case .next(let value) = event { latest.withLock { $0.pass = value } } },
      taps.signal.observe { event in
        guard case .next = event else { return }
        let pair = latest.withLock { latest in latest.user.flatMap { user in latest.pass.map { (user, $0) } } }
        if let (user, pass) = pair { sum.wrappingAdd(user &* 3 &+ pass, ordering: .relaxed) }
      },
    ]
    for round in 0..<rounds {
      user.send(.next(round))
      pass.send(.next(round &+ 1))
      taps.send(.next(()))
    }
    withExtendedLifetime(disposables) {}
    return sum.load(ordering: .relaxed)

  case .callback:
    // RAC-style, composed as the library's graph is: combineLatest's latest pair behind its lock, sent on every
    // change to withLatestFrom, which keeps it behind its own lock and reads it inside each tap's send. (Before
    // 2026-12-02 this baseline was hand-fused: one lock for both inputs, no combineLatest emission per change;
    // the "hand-fused" row keeps that version for comparison.)
    let (user, pass, taps) = (CallbackSubject<Int>(), CallbackSubject<Int>(), CallbackSubject<Void>())
    let sum = Atomic<Int>(0)
    let disposable = taps.signal.withLatestFrom(callbackCombineLatest(user.signal, pass.signal)) { $1 }.observe {
      event in
      if case .next(let (user, pass)) = event { sum.wrappingAdd(user &* 3 &+ pass, ordering: .relaxed) }
    }
    for round in 0..<rounds {
      user.send(.next(round))
      pass.send(.next(round &+ 1))
      taps.send(.next(()))
    }
    disposable.dispose()
    return sum.load(ordering: .relaxed)

  case .naive:
    // By hand: the inputs' latest values in a locked state that each send updates, taps into a stream.
    let latest = Mutex<(user: Int?, pass: Int?)>((nil, nil))
    let (stream, continuation) = AsyncStream.makeStream(of: (Int, Int).self)
    let consumer = Task {
      var sum = 0
      for await (user, pass) in stream { sum &+= user &* 3 &+ pass }
      return sum
    }
    for round in 0..<rounds {
      latest.withLock { $0.user = round }
      latest.withLock { $0.pass = round &+ 1 }
      let pair = latest.withLock { latest in latest.user.flatMap { user in latest.pass.map { (user, $0) } } }
      if let pair { continuation.yield(pair) }
    }
    continuation.finish()
    return await consumer.value

  case .reactive:
    let user = AsyncPassthroughSubject<Int, Never>()
    let pass = AsyncPassthroughSubject<Int, Never>()
    let taps = AsyncPassthroughSubject<Void, Never>()
    let graph = taps.withLatestFrom(combineLatest(user, pass)) { $1 }
    if sink {
      let lifetime = Lifetime()
      let sum = Atomic<Int>(0)
      graph.sink(in: lifetime) { user, pass in sum.wrappingAdd(user &* 3 &+ pass, ordering: .relaxed) }
      for round in 0..<rounds {
        user.send(round)
        pass.send(round &+ 1)
        taps.send()
      }
      return sum.load(ordering: .relaxed)
    }
    let signups = graph.subscribe()
    let consumer = Task {
      var sum = 0
      for await (user, pass) in signups { sum &+= user &* 3 &+ pass }
      return sum
    }
    for round in 0..<rounds {
      user.send(round)
      pass.send(round &+ 1)
      taps.send()
    }
    taps.finish()
    return await consumer.value
  }
}

/// Tasks alive inside a hot graph (combineLatest of 3 subjects + withLatestFrom + map, one consumer), read from
/// the library's resource counter while the consumer waits: the consumer's own task is the only one.
func tasksInsideHotGraph() async -> Int {
  let (a, b, c) = (
    AsyncPassthroughSubject<Int, Never>(), AsyncPassthroughSubject<Int, Never>(), AsyncPassthroughSubject<Int, Never>()
  )
  let taps = AsyncPassthroughSubject<Void, Never>()
  let before = LiveCounts.tasks
  let graph = taps.withLatestFrom(combineLatest(a, b, c)) { $1 }.map { $0 &+ $1 &+ $2 }
  let values = graph.subscribe()
  a.send(1)
  b.send(2)
  c.send(3)
  taps.send()
  let inside = LiveCounts.tasks - before
  let consumer = Task {
    var sum = 0
    for await value in values { sum &+= value }
    return sum
  }
  taps.finish()
  _ = await consumer.value
  return inside
}

/// Resident bytes per idle `sink` behind a `map` node of its own: `count` of them on one subject. Measured in a
/// fresh process, as ``idleSinkBytes(count:)`` is: one hot operator costs the difference of the two. (Measuring
/// both in one process would let the second reuse the pages the first freed, so that a cheaper sink would look
/// like a dearer operator.)
func mappedSinkBytes(count: Int) -> Int {
  let before = residentBytes()
  let subject = AsyncPassthroughSubject<Int, Never>()
  let lifetime = Lifetime()
  for _ in 0..<count { subject.map { $0 &+ 1 }.sink(in: lifetime) { _ in } }
  let bytes = residentBytes() - before
  subject.finish()
  withExtendedLifetime(lifetime) {}
  return max(0, bytes) / count
}
