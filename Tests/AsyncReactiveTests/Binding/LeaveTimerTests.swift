import AsyncReactive
import AsyncReactiveTesting
import Testing

/// The seed's lifecycle rule: when the view disappears a "leave timer" starts, when it reappears the timer is
/// cancelled. The timer is `Signal.timer` run by a command; the view only forwards its lifecycle events.
@Suite("Leave timer on the test clock")
struct LeaveTimerTests {
  actor ScreenViewModel {
    nonisolated let viewDidDisappear = AsyncPassthroughSubject<Void, Never>()
    nonisolated let viewWillAppear = AsyncPassthroughSubject<Void, Never>()
    /// Seconds away from the screen, as the leave timer counts them.
    nonisolated let secondsAway = AsyncCurrentValueSubject<Int, Never>(0)
    nonisolated let leaveTimer: Command<Void, Void, Never>
    private let lifetime = Lifetime()

    init(clock: TestClock) {
      let secondsAway = self.secondsAway
      leaveTimer = Command(policy: .cancelPrevious) {
        for await second in Signal.timer(every: .seconds(1), clock: clock) { secondsAway.value = second }
      }
      viewDidDisappear.bind(to: leaveTimer, in: lifetime)
      let leaveTimer = self.leaveTimer
      viewWillAppear.observe(in: lifetime) { _ in leaveTimer.cancel() }
    }
  }

  @Test("disappearing starts the timer, reappearing cancels it and leaves nothing sleeping")
  func leaveTimer() async {
    let clock = TestClock()
    let viewModel = ScreenViewModel(clock: clock)
    var seconds = viewModel.secondsAway.dropFirst().makeAsyncIterator()
    var executing = viewModel.leaveTimer.executing.makeAsyncIterator()
    #expect(await executing.next() == false)

    viewModel.viewDidDisappear.send()
    #expect(await executing.next() == true)
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    #expect(await seconds.next() == 1)
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    #expect(await seconds.next() == 2)

    viewModel.viewWillAppear.send()
    #expect(await executing.next() == false)
    #expect(clock.sleeperCount == 0)
    #expect(viewModel.secondsAway.value == 2)
  }
}
