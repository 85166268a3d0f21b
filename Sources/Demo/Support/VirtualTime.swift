import AsyncReactive
import AsyncReactiveTesting

/// Runs `body` on `clock`, a ``ScenarioClock`` over the `TestClock` `base`, moving time by itself: each time
/// the scenario has settled, time jumps to the earliest deadline anyone sleeps until. A scenario of seconds
/// runs in milliseconds and prints what it prints in real time.
///
/// `settle` returns once the scenario has settled; it is called before each jump with the number of jumps so
/// far (see ``Scenario/plan``).
///
/// ```swift
/// let base = TestClock()
/// let clock = ScenarioClock(base)
/// await runInVirtualTime(clock: clock, base: base) { step in
///   await base.waitForSleepers(1)
/// } _: {
///   try? await clock.sleep(for: .seconds(1))
/// }
/// ```
func runInVirtualTime(
  clock: ScenarioClock,
  base: TestClock,
  settle: @escaping @Sendable (_ step: Int) async -> Void,
  _ body: @escaping @Sendable () async -> Void
) async {
  let done = Locked(false)
  await withTaskGroup(of: Void.self) { group in
    group.addTask {
      await body()
      done.withLock { $0 = true }
    }
    group.addTask {
      var step = 0
      while !done.withLock({ $0 }) {
        await settle(step)
        guard let deadline = clock.nextDeadline else {
          // Nothing sleeps: the scenario is finishing its last steps, which take no time.
          await Task.yield()
          continue
        }
        await base.advance(to: TestClock.Instant(offset: deadline))
        step += 1
      }
    }
  }
}
