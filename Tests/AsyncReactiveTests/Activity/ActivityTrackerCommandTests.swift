import AsyncReactive
import Testing

@Suite("ActivityTracker fed by commands")
struct ActivityTrackerCommandTests {
  @Test("a tracked command makes the tracker active exactly while it executes; two commands share one tracker")
  func commandsFeedTheTracker() async throws {
    let loading = ActivityTracker()
    let release = Latch()
    let started = Gate()
    let refresh = Command {
      started.open()
      try await release.pass()
      return 1
    }
    let loadMore = Command { 2 }
    loading.track(executionsOf: refresh)
    loading.track(executionsOf: loadMore)
    var states = loading.makeAsyncIterator()
    #expect(await states.next() == false)

    let run = Task { try await refresh.execute() }
    await started.wait()
    #expect(loading.value == true)  // synchronous: under the command's lock, before the work ran
    #expect(await states.next() == true)
    #expect(try await loadMore.execute() == 2)  // nested: still active, no repeated value
    #expect(loading.activeCount == 1)
    release.open()
    #expect(try await run.value == 1)
    #expect(loading.value == false)
    #expect(await states.next() == false)
    #expect(loading.activeCount == 0)
  }

  @Test("a command that is executing when tracked counts at once; a cancelled run ends the activity")
  func trackedWhileExecuting() async throws {
    let loading = ActivityTracker()
    let started = Gate()
    let command = Command { () -> Int in
      started.open()
      try await Latch().pass()
      return 0
    }
    let run = Task { try await command.execute() }
    await started.wait()
    loading.track(executionsOf: command)
    #expect(loading.value == true)
    command.cancel()
    #expect(await Outcome { try await run.value } == .cancelled)
    #expect(loading.value == false)
  }
}
