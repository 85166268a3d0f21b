import AsyncReactiveTesting

/// Plays a scenario on `stage`, whose clock runs over the `TestClock` `base`, moving virtual time by itself: a
/// scenario of seconds runs in milliseconds and prints what it prints in real time.
///
/// **When time moves.** Swift cannot tell when tasks are idle (a task executor preference is not inherited by the
/// unstructured tasks the library's operators start, and nothing else sees every task), so the driver relies on
/// what the scenario can tell: time moves only while the user waits (``Stage/pause(_:)``,
/// ``Stage/waitsUntil(_:)``), never while the user acts or looks at the screen (``Stage/sees(_:)``). The fake
/// UI's controls hand the user's events over with a handshake (a `TestSubject`, whose `send` returns once the
/// binding has handled the event), and the user's script looks at what its actions show before it waits, so when
/// the user waits, what the user did has been handled. Then, before each move, the driver waits until
/// - every request that was answered or cancelled has printed its line (``FakeAPI/isSettled(at:)``);
/// - every traced property has delivered its current value (`--debug`);
/// - some timer is running (a sleep on the clock, or a request sent: its deadline is known as it is sent).
///
/// Then it moves the clock to the earliest deadline, one deadline at a time, never past the end of the user's
/// pause, where it wakes the user. Every condition is a handshake, so a slow machine only makes it slower.
///
/// **What a script must do** (the exact-timeline tests catch a script that does not): look (``Stage/sees(_:)``)
/// at what each action shows before waiting; pause only over timers that show nothing but their own API line
/// (wait for what a timer shows with ``Stage/waitsUntil(_:)``, and let it be the last timer running, so that time
/// stops there); and when an action starts several timers at once, wait until they are all sent
/// (``FakeAPI/waitForRequests(_:)``), so that time does not move on the first one.
///
/// **Timeout:** if nothing happens for `patience` of real time while the driver waits, the scenario is stuck (a
/// script that waits for something that never comes); the driver stops it and says what it was waiting for.
///
/// ```swift
/// let base = TestClock()
/// let stage = Stage(seed: 42, base: base, screen: "2 wallet") { print($0) }
/// let stall = await runInVirtualTime(stage, base: base) { await playWalletScreen(stage) }
/// ```
/// - Returns: `nil` when the scenario played to its end; otherwise what the driver was waiting for when it gave
///   up.
func runInVirtualTime(
  _ stage: Stage,
  base: TestClock,
  patience: Duration = .seconds(10),
  _ play: @escaping @Sendable () async -> Void
) async -> String? {
  await withTaskGroup(of: String?.self) { group in
    group.addTask {
      await play()
      stage.person.finish()
      return nil
    }
    group.addTask {
      await drive(stage, base: base, patience: patience)
    }
    var stall: String?
    while let result = await group.next() {
      if let result {
        stall = result
        group.cancelAll()
      }
    }
    return stall
  }
}

/// What the driver does next.
private enum Move {
  case advance(to: Duration)
  /// Advance to the end of the user's pause, and wake the user there.
  case endPause(Duration)
  case wait(for: String)
  case finish
}

/// Moves `base` one deadline at a time whenever the scenario lets time pass; returns `nil` once the user's
/// script has ended, or what it waited for if it waited for longer than `patience`.
private func drive(_ stage: Stage, base: TestClock, patience: Duration) async -> String? {
  var now = Duration.zero
  while !Task.isCancelled {
    let version = stage.activity.version
    let move = nextMove(stage, now: now)
    // Decide on one consistent state: anything that changed meanwhile bumped the version.
    guard stage.activity.version == version else { continue }
    switch move {
    case .finish:
      return nil
    case .advance(let deadline):
      now = deadline
      await base.advance(to: TestClock.Instant(offset: deadline))
    case .endPause(let deadline):
      // The user acts from now on: time stands still until they wait again.
      guard stage.person.wake(from: .pausing(until: deadline)) else { continue }
      now = deadline
      await base.advance(to: TestClock.Instant(offset: deadline))
    case .wait(let reason):
      guard await stage.activity.waitForChange(from: version, timeout: patience) else {
        return "stuck at +\(now.wholeMilliseconds)ms waiting for \(reason)"
      }
    }
  }
  return nil
}

private func nextMove(_ stage: Stage, now: Duration) -> Move {
  let phase = stage.person.phase
  switch phase {
  case .done:
    return .finish
  case .acting:
    return .wait(for: "the user, who is acting or looking at the screen")
  case .pausing, .waiting:
    break
  }
  guard stage.api.isSettled(at: now) else { return .wait(for: "a request to print its answer") }
  guard stage.screen.tracesSettled else { return .wait(for: "a traced property's current value") }
  // A request's deadline counts from the moment it is sent, before its sleep reaches the clock.
  let next = [stage.clock.nextDeadline(after: now), stage.api.nextDeadline(after: now)].compactMap { $0 }.min()
  if case .pausing(let until) = phase {
    // The pause's own sleep may not be registered yet; it ends at `until` all the same.
    guard until > now else { return .wait(for: "the user's pause to end") }
    guard let next, next < until else { return .endPause(until) }
    return .advance(to: next)
  }
  guard let next else { return .wait(for: "a timer, while the user waits for the screen") }
  return .advance(to: next)
}
