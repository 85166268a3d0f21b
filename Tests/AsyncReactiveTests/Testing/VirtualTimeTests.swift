import AsyncReactive
import AsyncReactiveTesting
import Testing

/// `TestClock.withVirtualTime`: a serial test executor, advances that run what they wake before the next deadline,
/// and `settle()`.
@Suite("Virtual time: advance runs what it wakes, settle waits for the reaction")
struct VirtualTimeTests {
  @Test("a chained sleep yields at t=3 under one advance(by: 3s), 1,000 rounds")
  func chainedSleepFiresAtItsOwnInstant() async {
    for _ in 0..<1_000 {
      let clock = TestClock()
      await clock.withVirtualTime {
        let value = Signal<Int, any Error>.future {
          try await clock.sleep(for: .seconds(1))
          try await clock.sleep(for: .seconds(2))
          return 1
        }
        let recorder = Recorder(value, clock: clock)
        await clock.advance(by: .seconds(3))
        #expect(recorder.values == [Timed(1, at: .seconds(3))])
        #expect(clock.now == TestClock.Instant(offset: .seconds(3)))
      }
    }
  }

  @Test("outside withVirtualTime, a sleep registered during an advance is due from the new now")
  func plainAdvanceDoesNotWaitForTheWokenTask() async {
    let clock = TestClock()
    let value = Signal<Int, any Error>.future {
      try await clock.sleep(for: .seconds(1))
      try await clock.sleep(for: .seconds(2))
      return 1
    }
    let recorder = Recorder(value, clock: clock)
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(3))
    await clock.waitForSleeper(until: TestClock.Instant(offset: .seconds(5)))  // 3 + 2, not 1 + 2
    #expect(recorder.values.isEmpty)
    await clock.advance(by: .seconds(2))
    #expect(await recorder.waitForValues(count: 1) == [Timed(1, at: .seconds(5))])
  }

  @Test("a retry with a 1 s delay makes its 9 attempts in one advance(by: 8s)")
  func retryLoopUnderOneAdvance() async {
    let clock = TestClock()
    let attempts = Log<TestClock.Instant>()
    await clock.withVirtualTime {
      let polling = Signal<Int, TestError>.future { () throws(TestError) -> Int in
        attempts.append(clock.now)
        throw TestError(code: attempts.all.count)
      }.retry(8, delay: .constant(.seconds(1)), clock: clock)
      let recorder = Recorder(polling, clock: clock)
      await clock.advance(by: .seconds(8))
      #expect(attempts.all == (0...8).map { TestClock.Instant(offset: .seconds($0)) })
      guard case .failed(let error) = recorder.end?.value else {
        Issue.record("the retries did not end: \(String(describing: recorder.end))")
        return
      }
      #expect(error == TestError(code: 9))
      #expect(recorder.end?.instant == TestClock.Instant(offset: .seconds(8)))
    }
  }

  @Test("a debounce whose timer restarts on every value, fed by a task that sleeps between sends, in one advance")
  func debounceRestartedOnTheWay() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let query = AsyncPassthroughSubject<String, Never>()
      let debounced = Recorder(query.debounce(for: .milliseconds(300), clock: clock), clock: clock)
      async let typing: Void = {
        for text in ["s", "sw", "swi"] {
          query.send(text)
          try? await clock.sleep(for: .milliseconds(100))
        }
      }()
      await clock.advance(by: .seconds(1))
      await typing
      #expect(debounced.values == [Timed("swi", at: .milliseconds(500))])
    }
  }

  @Test("settle() returns once an actor view model's whole reaction is done, and not before")
  func settleWaitsForTheReaction() async {
    for _ in 0..<200 {
      let clock = TestClock()
      await clock.withVirtualTime {
        let viewModel = InstantSearchViewModel(clock: clock)
        let results = Recorder(viewModel.results, clock: clock)
        let searches = Recorder(viewModel.search.started, clock: clock)
        viewModel.query.send("swift")
        #expect(results.values.map(\.value) == [[]])  // the command's run has not reached the model yet
        await clock.settle()
        #expect(searches.values.map(\.value) == ["swift"])
        #expect(results.values.map(\.value) == [[], ["swift", "swiftui"]])
        await clock.settle()
        #expect(results.values.count == 2)  // nothing else happened
        await viewModel.stop()
      }
    }
  }

  @Test("a zero-duration sleep returns at once: the work runs before settle() returns, at the same instant")
  func zeroDurationSleep() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let value = Recorder(
        Signal<Int, any Error>.future {
          try await clock.sleep(for: .zero)
          return 7
        }, clock: clock)
      await clock.settle()
      #expect(value.values == [Timed(7, at: .zero)])
    }
  }

  @Test("what escapes the executor: a detached task and a user Task {} are not waited for; a child task is")
  func escapesAreNotWaitedFor() async {
    let clock = TestClock()
    let gate = Gate()
    let log = Log<String>()
    await clock.withVirtualTime {
      let detached = Task.detached {
        await gate.wait()
        log.append("detached")
      }
      let unstructured = Task {
        await gate.wait()
        log.append("Task {}")
      }
      async let child: Void = { log.append("child") }()
      await child
      await clock.settle()  // returns although the two tasks above still wait on the gate
      #expect(log.all == ["child"])
      gate.open()
      await detached.value
      await unstructured.value
      let preferring = Task(executorPreference: nil) { log.append("back") }
      await preferring.value
    }
    #expect(Set(log.all) == ["child", "detached", "Task {}", "back"])
  }

  @Test("a @MainActor body stays on the main actor; what it starts still runs on the executor and is waited for")
  @MainActor
  func mainActorBody() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      MainActor.assertIsolated("the body keeps its isolation")
      let value = Recorder(
        Signal<Int, any Error>.future {
          try await clock.sleep(for: .seconds(1))
          return 1
        }, clock: clock)
      await clock.advance(by: .seconds(1))
      #expect(value.values == [Timed(1, at: .seconds(1))])
    }
  }

  @Test("an actor with a custom executor escapes: settle() returns while its job waits on that executor")
  func customExecutorActorEscapes() async {
    let clock = TestClock()
    let executor = ManualSerialExecutor()
    let counter = CustomExecutorCounter(executor: executor)
    await clock.withVirtualTime {
      async let incremented = counter.increment()  // a child task: on the test executor until it hops
      await clock.settle()  // returns: the call's job waits on the actor's own executor, which nobody runs yet
      #expect(executor.pendingCount == 1)
      executor.runPending()
      #expect(await incremented == 1)
    }
  }

  @Test("run() drains a chain of sleeps to the last timer")
  func runDrainsEverything() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let ticks = Recorder(
        Signal<Int, any Error> { emitter in
          for tick in 1...3 {
            try await clock.sleep(for: .seconds(1))
            await emitter.send(tick)
          }
        }, clock: clock)
      await clock.run()
      #expect(ticks.values == [Timed(1, at: .seconds(1)), Timed(2, at: .seconds(2)), Timed(3, at: .seconds(3))])
      #expect(!clock.hasSleepers)
    }
  }
}

/// A small view model: a query bound to a search command whose fake API answers after a hop through an actor.
private actor InstantSearchViewModel {
  nonisolated let query = AsyncPassthroughSubject<String, Never>()
  nonisolated let results = AsyncCurrentValueSubject<[String], Never>([])
  nonisolated let search: Command<String, [String], any Error>
  private let lifetime = Lifetime()

  init(clock: TestClock) {
    let api = FakeSearch()
    search = Command(policy: .cancelPrevious) { text in
      try await clock.sleep(for: .zero)
      return await api.search(text)
    }
    query.bind(to: search, in: lifetime)
    search.values.bind(to: results, in: lifetime)
  }

  func stop() {
    lifetime.cancel()
  }
}

private actor FakeSearch {
  func search(_ text: String) -> [String] { [text, text + "ui"] }
}

/// A serial executor that runs its jobs only when the test says so.
private final class ManualSerialExecutor: SerialExecutor {
  private let jobs = Locked<[UnownedJob]>([])

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    jobs.withLock { $0.append(job) }
  }

  var pendingCount: Int { jobs.withLock { $0.count } }

  func runPending() {
    let pending = jobs.withLock { jobs in
      defer { jobs = [] }
      return jobs
    }
    for job in pending { job.runSynchronously(on: asUnownedSerialExecutor()) }
  }
}

/// An actor that runs on a ``ManualSerialExecutor``.
private actor CustomExecutorCounter {
  private let executor: ManualSerialExecutor
  private var count = 0

  init(executor: ManualSerialExecutor) {
    self.executor = executor
  }

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  func increment() -> Int {
    count += 1
    return count
  }
}
