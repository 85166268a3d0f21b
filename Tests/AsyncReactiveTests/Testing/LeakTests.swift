import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("Resource accounting and expectNoLeaks")
struct LeakTests {
  @Test("a clean view-model scenario passes: observations end with their lifetime, consumers with their loops")
  func cleanScenarioPasses() async {
    await expectNoLeaks {
      let lifetime = Lifetime()
      let text = AsyncCurrentValueSubject<String, Never>("")
      let isValid = text.map { $0.count >= 3 }
      let seen = Gate()
      isValid.observe(in: lifetime) { valid in if valid { seen.open() } }
      combineLatest(text, isValid).observe(in: lifetime) { _ in }
      text.value = "tom"
      await seen.wait()
      lifetime.cancel()
    }
  }

  @Test("a leaked observation of a hot source fails the test: a consumer still alive, and no task while idle")
  func leakedObservationIsCaught() async {
    let kept = Lifetime()  // outlives the block: its observation leaks
    let subject = AsyncPassthroughSubject<Int, Never>()
    let line = #line + 3
    await withKnownIssue {
      await expectNoLeaks(timeout: .milliseconds(100)) {
        _ = subject.observe(in: kept) { _ in }
      }
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        """
        expectNoLeaks: still alive 0.1s after the block: 1 × subject consumer
          an observation (observe(in:) (AsyncReactiveTests/LeakTests.swift:\(line))) of AsyncPassthroughSubject → Int · 1 observer
        """
      ]
    }
    kept.cancel()
    #expect(subject.consumerCount == 0)
  }

  @Test("a leaked observation of a cold sequence fails the test, naming its task")
  func leakedColdObservationIsCaught() async {
    let kept = Lifetime()
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    await withKnownIssue {
      await expectNoLeaks(timeout: .milliseconds(100)) {
        _ = stream.observe(in: kept) { _ in }
      }
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["expectNoLeaks: still alive 0.1s after the block: 1 × task 'observe(in:)'"]
    }
    kept.cancel()
    continuation.finish()
  }

  @Test("a Property(initial:then:) over a stream, kept past the block, is a leaked feed task")
  func leakedPropertyFeedIsCaught() async {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let kept = Log<Property<Int>>()
    await withKnownIssue {
      await expectNoLeaks(timeout: .milliseconds(100)) {
        kept.append(Property(initial: 0, then: stream))
      }
    } matching: { issue in
      issue.comments.map(\.rawValue)
        == ["expectNoLeaks: still alive 0.1s after the block: 1 × task 'Property(initial:then:) feed'"]
    }
    continuation.finish()
    #expect(kept.all.count == 1)
  }

  @Test("a subscription kept past the block is a leaked consumer")
  func leakedSubscriptionIsCaught() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let kept = Log<SubjectSubscription<Int, Never>>()
    await withKnownIssue {
      await expectNoLeaks(timeout: .milliseconds(100)) {
        kept.append(subject.subscribe())
      }
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        """
        expectNoLeaks: still alive 0.1s after the block: 1 × subject consumer
          an iterator (subscribe or for await) of AsyncPassthroughSubject → Int · 1 iterator, 0 queued
        """
      ]
    }
    #expect(subject.consumerCount == 1)
    #expect(kept.all.count == 1)
  }

  @Test("the process-wide counters include what is alive now")
  func processWideCounters() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let subscription = subject.subscribe()
    #expect(LiveCounts.consumers >= 1)
    #expect(LiveCounts.total >= LiveCounts.consumers)
    _ = subscription
  }

  @Test("library tasks carry names that say what they serve")
  func taskNames() async throws {
    guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return }
    let lifetime = Lifetime()
    let names = Log<String?>()
    let done = Gate()
    Signal.just(1).observe(in: lifetime) { _ in
      names.append(Task.name)
      done.open()
    }
    await done.wait()
    #expect(names.all == ["observe(in:)"])
    lifetime.cancel()

    // A triggered run is a task of its own and says so; an awaited `execute` runs for its caller, whose task is
    // the one waiting in `execute`, and is not named (a name costs a record on the task: ~12 % of a round trip).
    let runNames = Log<String?>()
    let ran = Gate()
    let command = Command {
      runNames.append(Task.name)
      if runNames.all.count == 2 { ran.open() }
    }
    try await command.execute()
    command.trigger()
    await ran.wait()
    #expect(runNames.all == [nil, "Command run"])

    // A trigger that waits for its turn (`.enqueue`) runs in a named task too.
    let queuedNames = Log<String?>()
    let release = Gate()
    let queuedRan = Gate()
    let serial = Command(policy: .enqueue) { (blocks: Bool) in
      if blocks {
        await release.wait()
      } else {
        queuedNames.append(Task.name)
        queuedRan.open()
      }
    }
    serial.trigger(true)
    serial.trigger(false)  // admitted behind the first run: it waits for its turn
    release.open()
    await queuedRan.wait()
    #expect(queuedNames.all == ["Command run"])

    // The operators' own tasks say which operator and which input they serve.
    let pumps = Log<String?>()
    let probe = NameProbe(log: pumps)
    _ = await combineLatest(probe, probe).collect()
    _ = await probe.debounce(for: .seconds(1)).collect()
    _ = await Signal.just(1).flatMap { _ in probe }.collect()  // the inner is read by its own task
    // The probe is not a library sequence: `flatMap(.merge)` merges it (`.flatMap { }` is the standard library's).
    _ = await probe.flatMap(.merge) { _ in Signal.just(1) }.collect()  // the outer by the outer pump
    #expect(
      Set(pumps.all.compactMap { $0 })
        == ["combineLatest input 1", "combineLatest input 2", "debounce upstream", "flatMap outer", "flatMap inner"])
  }

  @Test("operators' internal tasks are counted and end with the iteration")
  func operatorTasksAreCounted() async {
    await expectNoLeaks {
      let subject = AsyncPassthroughSubject<Int, Never>()
      var iterator = combineLatest(subject, subject).debounce(for: .seconds(1)).makeAsyncIterator()
      subject.finish()
      #expect(await iterator.next() == nil)
    }
  }
}

/// A sequence that records the name of the task that asks it for an element, and finishes at once.
private struct NameProbe: AsyncSequence, Sendable {
  let log: Log<String?>

  func makeAsyncIterator() -> Iterator { Iterator(log: log) }

  struct Iterator: AsyncIteratorProtocol {
    let log: Log<String?>

    mutating func next() async -> Int? {
      if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) { log.append(Task.name) }
      return nil
    }
  }
}
