import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("Command policies under concurrent callers")
struct CommandPolicyTests {
  @Test(".reject: of 10 callers at once, one runs and nine are refused")
  func rejectTenCallers() async {
    let release = Latch()
    let runs = Counter()
    var command: Command<Int, Int, any Error>? = Command { value in
      runs.increment()
      try await release.pass()
      return value
    }
    var disabled = command!.disabledErrors.makeAsyncIterator()
    var values = command!.values.makeAsyncIterator()
    var isEnabled = command!.isEnabled.subscribe().makeAsyncIterator()
    let calls = (0..<10).map { input in Task { [command] in await Outcome { try await command!.execute(input) } } }
    // The first run blocks until the nine others have been refused.
    #expect(await take(9, from: &disabled).count == 9)
    release.open()
    let outcomes = await awaitAll(calls)
    let results = outcomes.compactMap(\.returned)
    #expect(results.count == 1)
    #expect(outcomes.filter { $0 == .disabled }.count == 9)
    #expect(runs.value == 1)
    command = nil
    #expect(await drain(&values) == results)
    #expect(await drain(&disabled).isEmpty)
    #expect(await drain(&isEnabled) == [true, false, true, false])  // released: false, then the end
  }

  @Test(".concurrent(limit: 3): of 10 callers at once, three run together and seven are refused")
  func concurrentTenCallers() async {
    let release = Latch()
    let inFlight = RunsInFlight()
    let command = Command(policy: .concurrent(limit: 3)) { (value: Int) -> Int in
      try await inFlight.during { try await release.pass() }
      return value
    }
    var disabled = command.disabledErrors.makeAsyncIterator()
    var isEnabled = command.isEnabled.subscribe().makeAsyncIterator()
    let calls = (0..<10).map { input in Task { await Outcome { try await command.execute(input) } } }
    #expect(await take(7, from: &disabled).count == 7)
    #expect(command.isEnabled.value == false)
    release.open()
    let outcomes = await awaitAll(calls)
    #expect(outcomes.filter { $0 == .disabled }.count == 7)
    #expect(outcomes.filter { $0 != .disabled }.count == 3)
    #expect(inFlight.maximum == 3)
    #expect(await take(3, from: &isEnabled) == [true, false, true])
  }

  @Test(".concurrent(limit: 3) never has more than 3 runs in flight, however callers overlap")
  func concurrentNeverExceedsLimit() async {
    let inFlight = RunsInFlight()
    let command = Command(policy: .concurrent(limit: 3)) { (value: Int) -> Int in
      await inFlight.during { await Task.yield() }
      return value
    }
    let outcomes = await withTaskGroup(of: Outcome<Int>.self) { group in
      for input in 0..<200 {
        group.addTask { await Outcome { try await command.execute(input) } }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(inFlight.maximum <= 3)
    #expect(inFlight.maximum >= 1)
    let succeeded = outcomes.filter { outcome in
      if case .value = outcome { return true }
      return false
    }
    #expect(succeeded.count + outcomes.filter { $0 == .disabled }.count == 200)
    #expect(!succeeded.isEmpty)
    #expect(command.executing.value == false)
  }

  @Test(".concurrent: executing stays true while any run is in flight")
  func executingWhileAnyRuns() async throws {
    let releases = [Latch(), Latch()]
    let started = [Gate(), Gate()]
    let command = Command(policy: .concurrent(limit: 2)) { (index: Int) -> Int in
      started[index].open()
      try await releases[index].pass()
      return index
    }
    var executing = command.executing.subscribe().makeAsyncIterator()
    let first = Task { try await command.execute(0) }
    let second = Task { try await command.execute(1) }
    await started[0].wait()
    await started[1].wait()
    releases[0].open()
    #expect(try await first.value == 0)
    #expect(command.executing.value == true)
    releases[1].open()
    #expect(try await second.value == 1)
    #expect(await take(3, from: &executing) == [false, true, false])
  }

  @Test(".enqueue: triggered runs go one at a time, in call order, without executing flickering")
  func enqueueTriggerOrder() async {
    let release = Latch()
    let inFlight = RunsInFlight()
    let order = Log<Int>()
    var command: Command<Int, Int, any Error>? = Command(policy: .enqueue) { value in
      try await inFlight.during {
        order.append(value)
        if value == 0 { try await release.pass() }
      }
      return value
    }
    var values = command!.values.makeAsyncIterator()
    var executing = command!.executing.subscribe().makeAsyncIterator()
    for input in 0..<10 { command!.trigger(input) }
    #expect(command!.isEnabled.value == true)
    release.open()
    #expect(await take(10, from: &values) == Array(0..<10))
    #expect(order.all == Array(0..<10))
    #expect(inFlight.maximum == 1)
    command = nil
    #expect(await drain(&executing) == [false, true, false])
  }

  @Test(".enqueue: 10 awaiting callers run in call order and each gets its own result")
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func enqueueExecuteOrder() async throws {
    let release = Latch()
    let inFlight = RunsInFlight()
    let order = Log<Int>()
    let command = Command(policy: .enqueue) { (value: Int) -> Int in
      try await inFlight.during {
        order.append(value)
        if value == 0 { try await release.pass() }
      }
      return value * 10
    }
    let calls = (0..<10).map { input in startNow { try await command.execute(input) } }
    release.open()
    for (input, call) in calls.enumerated() { #expect(try await call.value == input * 10) }
    #expect(order.all == Array(0..<10))
    #expect(inFlight.maximum == 1)
  }

  @Test(".enqueue: a waiting caller that is cancelled leaves the queue; its work never starts")
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func enqueueCancelWaiting() async {
    let release = Latch()
    let order = Log<Int>()
    let command = Command(policy: .enqueue) { (value: Int) -> Int in
      order.append(value)
      if value == 0 { try await release.pass() }
      return value
    }
    let calls = (0..<4).map { input in startNow { await Outcome { try await command.execute(input) } } }
    calls[2].cancel()
    #expect(await calls[2].value == .cancelled)
    release.open()
    #expect(await calls[0].value == .value(0))
    #expect(await calls[1].value == .value(1))
    #expect(await calls[3].value == .value(3))
    #expect(order.all == [0, 1, 3])
  }

  @Test(".enqueue: cancel() cancels the running caller and every waiting one")
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func enqueueCancelAll() async throws {
    let order = Log<Int>()
    let command = Command(policy: .enqueue) { (value: Int) -> Int in
      order.append(value)
      try await Latch().pass()  // never opened: only cancellation ends it
      return value
    }
    let calls = (0..<4).map { input in startNow { await Outcome { try await command.execute(input) } } }
    command.cancel()
    for call in calls { #expect(await call.value == .cancelled) }
    #expect(order.all == [0])
    #expect(command.executing.value == false)
    let after = startNow { await Outcome { try await command.execute(9) } }
    command.cancel()
    #expect(await after.value == .cancelled)
    #expect(order.all == [0, 9])
  }

  @Test(".cancelPrevious: triggered runs leave only the last result")
  func cancelPreviousTriggers() async {
    let release = Latch()
    var command: Command<Int, Int, any Error>? = Command(policy: .cancelPrevious) { value in
      try await release.pass()
      return value
    }
    var values = command!.values.makeAsyncIterator()
    var errors = command!.errors.makeAsyncIterator()
    var executing = command!.executing.subscribe().makeAsyncIterator()
    for input in 0..<10 { command!.trigger(input) }
    release.open()
    #expect(await values.next() == 9)
    // The replaced runs may still be winding down: executing turns false once the last one has ended.
    #expect(await take(3, from: &executing) == [false, true, false])
    command = nil
    #expect(await drain(&values).isEmpty)
    #expect(await drain(&errors).isEmpty)
  }

  @Test(".cancelPrevious: of 10 callers at once, only the last admitted one gets a result")
  func cancelPreviousTenCallers() async {
    let release = Latch()
    let started = Counter()
    let allStarted = Gate()
    var command: Command<Int, Int, any Error>? = Command(policy: .cancelPrevious) { value in
      if started.increment() == 10 { allStarted.open() }
      try await release.pass()
      return value
    }
    var values = command!.values.makeAsyncIterator()
    var errors = command!.errors.makeAsyncIterator()
    let calls = (0..<10).map { input in Task { [command] in await Outcome { try await command!.execute(input) } } }
    await allStarted.wait()
    release.open()
    let outcomes = await awaitAll(calls)
    let results = outcomes.compactMap(\.returned)
    #expect(results.count == 1)
    #expect(outcomes.filter { $0 == .cancelled }.count == 9)
    command = nil
    #expect(await drain(&values) == results)
    #expect(await drain(&errors).isEmpty)
  }

  @Test(".cancelPrevious: each awaiting caller is cancelled by the next; the last one wins")
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func cancelPreviousExecuteOrder() async {
    let release = Latch()
    let command = Command(policy: .cancelPrevious) { (value: Int) -> Int in
      try await release.pass()
      return value
    }
    var values = command.values.makeAsyncIterator()
    let calls = (0..<10).map { input in startNow { await Outcome { try await command.execute(input) } } }
    release.open()
    for call in calls.dropLast() { #expect(await call.value == .cancelled) }
    #expect(await calls[9].value == .value(9))
    #expect(await values.next() == 9)
  }

  @Test("concurrent(limit: 0) traps with a clear message")
  func concurrentLimitZero() async {
    await #expect(processExitsWith: .failure) {
      _ = CommandPolicy.concurrent(limit: 0)
    }
  }

  @Test("policies print as they are written")
  func policyDescriptions() {
    #expect(
      [CommandPolicy.reject, .concurrent(limit: 3), .enqueue, .cancelPrevious].map(\.description)
        == [".reject", ".concurrent(limit: 3)", ".enqueue", ".cancelPrevious"]
    )
  }
}

/// Counts the runs in flight and remembers the highest count.
private final class RunsInFlight: Sendable {
  private let counts = Locked((current: 0, maximum: 0))

  var maximum: Int { counts.withLock { $0.maximum } }

  func during<Result>(_ body: () async throws -> Result) async rethrows -> Result {
    counts.withLock { counts in
      counts.current += 1
      counts.maximum = max(counts.maximum, counts.current)
    }
    defer { counts.withLock { $0.current -= 1 } }
    return try await body()
  }
}
