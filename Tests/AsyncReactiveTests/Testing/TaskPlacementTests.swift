import AsyncReactive
import AsyncReactiveTesting
import Testing

/// A fake API whose one request waits until the test answers it: no clock involved.
final class PendingAPI: Sendable {
  private struct State {
    var answer: Int?
    var waiter: CheckedContinuation<Int, Never>?
    var requested: CheckedContinuation<Void, Never>?
    var isRequested = false
  }

  private let state = Locked(State())

  /// The request: returns the test's answer.
  func load() async -> Int {
    await withCheckedContinuation { continuation in
      let (answer, requested) = state.withLock { state -> (Int?, CheckedContinuation<Void, Never>?) in
        state.isRequested = true
        defer { state.requested = nil }
        if let answer = state.answer { return (answer, state.requested) }
        state.waiter = continuation
        return (nil, state.requested)
      }
      requested?.resume()
      if let answer { continuation.resume(returning: answer) }
    }
  }

  /// Returns once the request was made (a handshake, not a sleep).
  func waitForRequest() async {
    await withCheckedContinuation { continuation in
      let already = state.withLock { state -> Bool in
        if state.isRequested { return true }
        state.requested = continuation
        return false
      }
      if already { continuation.resume() }
    }
  }

  /// Answers the request (now, or when it comes).
  func respond(_ value: Int) {
    let waiter = state.withLock { state -> CheckedContinuation<Int, Never>? in
      state.answer = value
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: value)
  }
}

/// A view model that loads a number through ``PendingAPI`` as soon as it is made: a cold run that waits on no clock.
final class LoadingViewModel: Sendable {
  let loaded = Log<String>()
  private let lifetime = Lifetime()

  init(api: PendingAPI) {
    let loaded = loaded
    Signal<Int, Never>.future { await api.load() }.observe(in: lifetime) { value in
      loaded.append("loaded \(value)")
    }
  }

  func cancel() { lifetime.cancel() }
}

/// Made in the suite's `init()`, after the clock, as a migrated test suite does.
@Suite("virtual time: a library task started in init() runs on the test's clock, waiting on no clock")
struct TaskPlacementTests {
  let clock = TestClock()
  let api = PendingAPI()
  let viewModel: LoadingViewModel

  init() {
    viewModel = LoadingViewModel(api: api)
  }

  @Test("the suite's view model's load, answered in the body, has arrived when settle() returns")
  func suiteViewModel() async {
    await clock.withVirtualTime {
      await api.waitForRequest()
      api.respond(7)
      await clock.settle()
      #expect(viewModel.loaded.all == ["loaded 7"])
    }
    viewModel.cancel()
  }

  @Test("a load that waits on no clock, observed from a task made before the virtual time: exact, 200 runs")
  func loadObservedFromOutside() async {
    for round in 0..<200 {
      let clock = TestClock()
      let api = PendingAPI()
      let viewModel = LoadingViewModel(api: api)  // outside the body, as in a suite's init()
      await clock.withVirtualTime {
        await api.waitForRequest()
        api.respond(round)
        await clock.settle()
        #expect(viewModel.loaded.all == ["loaded \(round)"])
      }
      viewModel.cancel()
    }
  }
}

@Test("a library task started before the test made its clock is reported by settle() with its name")
func taskStartedBeforeTheClockIsReported() async {
  // The testing module learns where tests' tasks run once the process made a clock: make one outside any test
  // (a detached task does not see the current test), in case this test runs first.
  await Task.detached { _ = TestClock() }.value
  let api = PendingAPI()
  let viewModel = LoadingViewModel(api: api)  // no clock yet: its task runs on the global executor
  let clock = TestClock()
  await withKnownIssue {
    await clock.withVirtualTime {
      await api.waitForRequest()
      await clock.settle()
    }
  } matching: { issue in
    String(describing: issue).contains("the task 'observe(in:)' of this test runs outside")
  }
  api.respond(1)
  viewModel.cancel()
}

@Test("a Recorder made before the virtual time over a cold debounce of a foreign input read by a pump: exact, 200 runs")
func recorderOverColdDebounceOfForeignInput() async {
  for _ in 0..<200 {
    let clock = TestClock()
    let (texts, input) = AsyncStream<String>.makeStream()
    // Made outside the body, as in a suite's init(): the recorder's task and the pump reading `texts` run on the
    // clock's executor.
    let recorder = Recorder(Signal(texts).debounce(for: .seconds(1), clock: clock), clock: clock)
    await clock.withVirtualTime {
      input.yield("a")
      await clock.settle()
      await clock.advance(by: .milliseconds(500))
      input.yield("ab")
      await clock.settle()
      await clock.advance(by: .milliseconds(999))
      #expect(recorder.events.isEmpty)
      await clock.advance(by: .milliseconds(1))
      #expect(recorder.events == [.value("ab", at: .milliseconds(1_500))])
      input.yield("abc")
      input.finish()
      await clock.settle()
      #expect(
        recorder.events == [
          .value("ab", at: .milliseconds(1_500)), .value("abc", at: .milliseconds(1_500)),
          .finished(at: .milliseconds(1_500)),
        ])
    }
  }
}
