import AsyncReactive
import AsyncReactiveTesting
import Testing

/// The engine every time operator shares, driven synchronously with one rule (debounce); what the rules
/// themselves do is tested in each operator's suite.
@Suite("time engine: state machine")
struct TimeStateMachineTests {
  private typealias Machine = TimeStateMachine<DebounceRule<String, TestError, TestClock.Instant>>

  private func machine() -> Machine {
    Machine(rule: DebounceRule(dueTime: .milliseconds(300)))
  }

  /// A machine whose timer task has registered, holding "a" (received at 0) for the rule's due time.
  private func machineHoldingA(timer: Task<Void, Never>) -> Machine {
    var machine = machine()
    let first = machine.received("a", at: instant(0))
    #expect(first?.startTimer == 1)
    let registered = machine.timerStarted(timer, number: 1)
    #expect(registered)
    return machine
  }

  private func sleepDeadline(_ action: Machine.TimerAction?) -> TestClock.Instant? {
    guard case .sleep(let deadline) = action else { return nil }
    return deadline
  }

  private func stops(_ action: Machine.TimerAction?) -> Bool {
    guard case .stop = action else { return false }
    return true
  }

  @Test("a rule that restarts its timer (debounce) replaces the running one; the replaced timer ends doing nothing")
  func restartedTimerReplacesTheRunningOne() {
    let first = Task<Void, Never> {}
    var machine = machineHoldingA(timer: first)
    let second = machine.received("b", at: instant(100))
    #expect(second?.cancelTimer == first)
    #expect(second?.startTimer == 2)
    #expect(sleepDeadline(machine.timerLooks(number: 2)) == instant(400))
    let replaced = machine.timerFired(at: instant(300), number: 1)
    #expect(stops(replaced.next))
    #expect(replaced.effects.emitted.isEmpty)
    #expect(machine.runningTimer == 2)
    let due = machine.timerFired(at: instant(400), number: 2)
    #expect(stops(due.next))  // no deadline left: the timer ends
    #expect(due.effects.emitted == ["b"])
    #expect(machine.runningTimer == nil)
  }

  @Test("a timer that registers after another replaced it is refused, so that its caller cancels it")
  func replacedBeforeRegistering() {
    var machine = machine()
    #expect(machine.received("a", at: instant(0))?.startTimer == 1)
    #expect(machine.received("b", at: instant(100))?.startTimer == 2)  // before timer 1 registered
    let late = machine.timerStarted(Task<Void, Never> {}, number: 1)
    #expect(!late)
    let current = machine.timerStarted(Task<Void, Never> {}, number: 2)
    #expect(current)
  }

  @Test("an end stops the timer and hands the end over; what was held is dropped; later events are ignored")
  func anEndStopsEverything() {
    let timer = Task<Void, Never> {}
    var machine = machineHoldingA(timer: timer)
    let ended = machine.upstreamFailed(TestError(code: 1), at: instant(10))
    #expect(ended.cancelTimer == timer)
    #expect(ended.emitted.isEmpty)  // the pending value was dropped
    guard case .failed(let failure) = ended.terminal else {
      Issue.record("expected the failure to be handed over")
      return
    }
    #expect(failure == TestError(code: 1))
    #expect(machine.received("b", at: instant(20)) == nil)
    #expect(machine.upstreamFinished(at: instant(20)).terminal == nil)
    #expect(stops(machine.timerFired(at: instant(300), number: 1).next))
  }

  @Test("the node disconnecting stops the timer; a timer that registers afterwards is refused")
  func consumerStopping() {
    let timer = Task<Void, Never> {}
    var machine = machineHoldingA(timer: timer)
    let stopped = machine.consumerStopped()
    #expect(stopped.cancelTimer == timer)
    #expect(stopped.terminal == nil)
    #expect(machine.received("b", at: instant(10)) == nil)
    #expect(stops(machine.timerFired(at: instant(300), number: 1).next))
    let late = machine.timerStarted(Task<Void, Never> {}, number: 2)
    #expect(!late)
  }

  // MARK: A hot node's connection

  private func hotMachine() -> Machine {
    Machine(rule: DebounceRule(dueTime: .milliseconds(300)))
  }

  @Test("hot node: emitted values are handed back; a timer starts with the first deadline and ends without one")
  func hotNodeTimerOnDemand() {
    var machine = hotMachine()
    let connected = machine.connected()
    #expect(connected.startTimer == nil)  // no deadline yet: no task
    let first = machine.received("a", at: instant(0))
    #expect(first?.startTimer == 1)
    let timer = Task<Void, Never> {}
    let registered = machine.timerStarted(timer, number: 1)
    #expect(registered)
    let second = machine.received("b", at: instant(100))
    #expect(second?.startTimer == 2)  // debounce restarts its timer for the new quiet period
    #expect(second?.cancelTimer == timer)
    let looks = machine.timerLooks(number: 2)
    #expect(sleepDeadline(looks) == instant(400))
    let fired = machine.timerFired(at: instant(400), number: 2)
    #expect(fired.effects.emitted == ["b"])
    #expect(stops(fired.next))  // no deadline left: the timer ends instead of parking
    #expect(machine.runningTimer == nil)
    let third = machine.received("c", at: instant(500))
    #expect(third?.startTimer == 3)  // a new deadline, a new timer
  }

  @Test("hot node: a timer that ended before it registered, or registers after the end, is refused")
  func hotNodeLateRegistration() {
    var machine = hotMachine()
    _ = machine.received("a", at: instant(0))
    _ = machine.timerFired(at: instant(300), number: 1)  // the timer ran, emitted and ended before it registered
    let registered = machine.timerStarted(Task<Void, Never> {}, number: 1)
    #expect(!registered)
    #expect(machine.timer == nil)
    let next = machine.received("b", at: instant(400))
    #expect(next?.startTimer == 2)
    let upstreamEnd = machine.upstreamFinished(at: instant(450))
    #expect(upstreamEnd.emitted == ["b"])
    #expect(upstreamEnd.terminal != nil)
    let afterTheEnd = machine.timerStarted(Task<Void, Never> {}, number: 2)
    #expect(!afterTheEnd)
  }
}
