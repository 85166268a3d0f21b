import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("Lifetime and observe(in:)")
struct LifetimeTests {
  @Test("cancel() cancels every owned task and runs onEnd once")
  func cancelCancelsTasks() async {
    let lifetime = Lifetime()
    let started = Gate()
    let ends = Counter()
    lifetime.onEnd { ends.increment() }
    let task = lifetime.run {
      started.open()
      await waitForCancellation()
    }
    await started.wait()
    #expect(lifetime.taskCount == 1)
    lifetime.cancel()
    lifetime.cancel()
    await task.value
    #expect(task.isCancelled)
    #expect(lifetime.hasEnded)
    #expect(ends.value == 1)
    #expect(lifetime.taskCount == 0)
  }

  @Test("deinit ends the lifetime")
  func deinitCancels() async {
    let ended = Gate()
    var task: Task<Void, Never>?
    do {
      let lifetime = Lifetime()
      lifetime.onEnd { ended.open() }
      task = lifetime.run { await waitForCancellation() }
    }
    await ended.wait()
    #expect(task?.isCancelled == true)
  }

  @Test("work started in an ended lifetime is cancelled at once; onEnd runs at once")
  func afterEnd() async {
    let lifetime = Lifetime()
    lifetime.cancel()
    let sawCancellation = Gate()
    let task = lifetime.run { if Task.isCancelled { sawCancellation.open() } }
    await task.value
    #expect(sawCancellation.isOpen)
    let ran = Counter()
    lifetime.onEnd { ran.increment() }
    #expect(ran.value == 1)
  }

  @Test("finished tasks are forgotten")
  func finishedTasksAreForgotten() async {
    let lifetime = Lifetime()
    for _ in 0..<100 { await lifetime.run {}.value }
    #expect(lifetime.taskCount == 0)
  }

  @Test("observe receives every value sent right after it returns, and stops with the lifetime")
  func observe() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let lifetime = Lifetime()
    let received = Log<Int>()
    let third = Gate()
    subject.observe(in: lifetime) { value in
      received.append(value)
      if value == 3 { third.open() }
    }
    #expect(subject.consumerCount == 1)
    subject.send(1)
    subject.send(2)
    subject.send(3)
    await third.wait()
    #expect(received.all == [1, 2, 3])
    lifetime.cancel()
    #expect(subject.consumerCount == 0)
  }

  @Test("observe reports the finish and the failure")
  func observeTermination() async {
    let lifetime = Lifetime()
    let finished = Gate()
    let values = AsyncPassthroughSubject<Int, Never>()
    values.observe(in: lifetime, { _ in }, onFinish: { finished.open() })
    values.finish()
    await finished.wait()

    let failures = Log<TestError>()
    let failing = AsyncPassthroughSubject<Int, TestError>()
    let task = failing.observe(in: lifetime, onValue: { _ in }, onFailure: { failures.append($0) })
    failing.fail(TestError(code: 3))
    await task.value
    #expect(failures.all == [TestError(code: 3)])
  }
}
