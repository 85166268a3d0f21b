import AsyncReactive
import AsyncReactiveTesting
import Testing

/// The seed article's most common RACCommand shape: a view model declares, in its own synchronous `init`,
/// commands whose work calls its own methods. Here the seed's lifecycle screen: disappearing starts a leave
/// timer, reappearing runs a refresh check that reloads once the timer has fired.
actor LifecycleViewModel {
  nonisolated let viewWillAppear = AsyncPassthroughSubject<Void, Never>()
  nonisolated let viewWillDisappear = AsyncPassthroughSubject<Void, Never>()
  nonisolated let refreshCheck: Command<Void, Bool, Never>
  nonisolated let addLeaveTimer: Command<Void, Void, any Error>
  nonisolated let reloads = AsyncCurrentValueSubject<Int, Never>(0)
  nonisolated let appearances = AsyncCurrentValueSubject<Int, Never>(0)
  private var leaveTimerFired = false
  private var visible = false
  private let lifetime = Lifetime()

  init(clock: TestClock) {
    let this = WeakReference<LifecycleViewModel>()
    refreshCheck = Command(owner: this) { viewModel in viewModel.checkRefresh() }
    addLeaveTimer = Command(owner: this, policy: .cancelPrevious) { viewModel in
      try await viewModel.runLeaveTimer(clock)
    }
    viewWillAppear.observe(in: lifetime) { _ in await this.value()?.appeared() }
    viewWillAppear.bind(to: refreshCheck, in: lifetime)
    viewWillDisappear.bind(to: addLeaveTimer, in: lifetime)
    this.set(self)
  }

  private func appeared() {
    visible = true
    appearances.value += 1
    addLeaveTimer.cancel()
  }

  private func checkRefresh() -> Bool {
    guard leaveTimerFired else { return false }
    leaveTimerFired = false
    reloads.value += 1
    return true
  }

  private func runLeaveTimer(_ clock: TestClock) async throws {
    visible = false
    try await clock.sleep(for: .seconds(60))
    leaveTimerFired = true
  }
}

@Suite("Commands owned by their view model")
struct OwnedCommandTests {
  @Test("the seed's lifecycle screen: leave timer and refresh check declared in the view model's own init")
  func lifecycleScreen() async throws {
    let clock = TestClock()
    let viewModel = LifecycleViewModel(clock: clock)
    var checks = viewModel.refreshCheck.values.makeAsyncIterator()
    var timers = viewModel.addLeaveTimer.executing.makeAsyncIterator()
    #expect(await timers.next() == false)

    // Leave, come back within a minute: the timer is cancelled, nothing to reload.
    viewModel.viewWillDisappear.send()
    #expect(await timers.next() == true)
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(30))
    viewModel.viewWillAppear.send()
    #expect(await timers.next() == false)
    #expect(await checks.next() == false)
    #expect(clock.sleeperCount == 0)

    // Leave for a minute: the timer fires, and the next appearance reloads once.
    viewModel.viewWillDisappear.send()
    #expect(await timers.next() == true)
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(60))
    #expect(await timers.next() == false)
    viewModel.viewWillAppear.send()
    #expect(await checks.next() == true)
    #expect(viewModel.reloads.value == 1)
    viewModel.viewWillAppear.send()
    #expect(await checks.next() == false)
    #expect(viewModel.reloads.value == 1)
  }

  @Test("the commands hold their view model weakly: released, it deallocates; a later run is cancelled")
  func ownerHeldWeakly() async {
    var viewModel: LifecycleViewModel? = LifecycleViewModel(clock: TestClock())
    weak let weakViewModel = viewModel
    let refreshCheck = viewModel!.refreshCheck
    viewModel = nil
    #expect(weakViewModel == nil)
    #expect(await Outcome { try await refreshCheck.execute() } == .cancelled)
  }

  @Test("work that starts before set(_:) waits for it")
  func workWaitsForSet() async throws {
    actor Counter {
      var count = 0
      func increment() -> Int {
        count += 1
        return count
      }
    }
    let this = WeakReference<Counter>()
    let command = Command(owner: this) { counter in counter.increment() }
    let early = Task { try await command.execute() }
    let counter = Counter()
    this.set(counter)
    #expect(try await early.value == 1)
    #expect(this.object === counter)
  }

  @Test("a run waiting for a reference that is never set ends as .cancelled when its caller is cancelled (200 rounds)")
  func unsetReferenceCancelled() async {
    actor Owner {
      func work() -> Int { 1 }
    }
    for _ in 0..<200 {
      let this = WeakReference<Owner>()
      let command = Command(owner: this) { owner in owner.work() }
      var executing = command.executing.makeAsyncIterator()
      #expect(await executing.next() == false)
      let caller = Task { try await command.execute() }
      #expect(await executing.next() == true)  // the run started and waits for the reference
      caller.cancel()
      await #expect(throws: CommandError<Never>.cancelled) { try await caller.value }
      #expect(await executing.next() == false)
      #expect(this.object == nil)
    }
  }

  @Test("started: each admitted run's input when it starts, before its value; refused calls send nothing")
  func startedEvents() async throws {
    let release = Latch()
    let command = Command(policy: .enqueue) { (value: Int) -> Int in
      if value == 1 { try await release.pass() }
      return value * 10
    }
    var started = command.started.makeAsyncIterator()
    var values = command.values.makeAsyncIterator()
    let first = Task { try await command.execute(1) }
    #expect(await started.next() == 1)
    let second = Task { try await command.execute(2) }
    release.open()
    #expect(try await first.value == 10)
    #expect(try await second.value == 20)
    #expect(await started.next() == 2)  // under .enqueue, when its turn came
    #expect(await values.next() == 10)
    #expect(await values.next() == 20)

    let disabled = Command(enabledIf: Property(value: false)) { (value: Int) in value }
    var refused = disabled.started.makeAsyncIterator()
    #expect(await Outcome { try await disabled.execute(3) } == .disabled)
    disabled.trigger(4)
    _ = consume disabled
    #expect(await refused.next() == nil)  // the command was released: the stream ended without an event
  }
}
