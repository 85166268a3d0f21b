import AsyncReactive
import Testing

/// The command's bookkeeping, driven synchronously through the interleavings that are hard to reach with
/// real tasks.
@Suite("CommandStateMachine transitions")
struct CommandStateMachineTests {
  @Test(".reject admits one run, publishes executing and open changes only, refuses the next")
  func rejectTransitions() {
    var machine = CommandStateMachine(policy: .reject)
    guard let run = admitRun(&machine, "the first call must run") else { return }
    #expect(run.changes == .init(executing: true, open: false))
    #expect(run.cancel.isEmpty)
    guard admitRefused(&machine, "a second call during the run must be refused") else { return }
    let finish = machine.finish(run.id, taskCancelled: false)
    #expect(!finish.cancelled)
    #expect(finish.changes == .init(executing: false, open: true))
    #expect(finish.next == nil)
    #expect(!finish.endStreams)
  }

  @Test("a call made while enabledIf is false is refused and changes nothing")
  func enabledIf() {
    var machine = CommandStateMachine(policy: .concurrent(limit: 2))
    guard admitRefused(&machine, enabled: false, "a disabled command must refuse") else { return }
    guard let run = admitRun(&machine, "an enabled command under its limit must run") else { return }
    #expect(run.changes == .init(executing: true))  // one of two slots used: still open
  }

  @Test(".cancelPrevious marks the runs in flight; a run cancelled before its task existed is cancelled on attach")
  func cancelPreviousBeforeAttach() {
    var machine = CommandStateMachine(policy: .cancelPrevious)
    guard let first = admitRun(&machine)?.id, let second = admitRun(&machine) else { return }
    #expect(second.cancel.isEmpty)  // the first run had no task yet: it is marked, not cancelled
    #expect(second.changes == .init())  // still executing, still enabled
    #expect(machine.attach({}, to: first) == true)
    #expect(machine.attach({}, to: second.id) == false)
    #expect(machine.finish(first, taskCancelled: false).cancelled)
    let last = machine.finish(second.id, taskCancelled: false)
    #expect(!last.cancelled)
    #expect(last.changes == .init(executing: false))
  }

  @Test("a run that finished before attach is not cancelled by the late attach")
  func attachAfterFinish() {
    var machine = CommandStateMachine(policy: .reject)
    guard let id = admitRun(&machine)?.id else { return }
    _ = machine.finish(id, taskCancelled: false)
    #expect(machine.attach({}, to: id) == false)
  }

  @Test(".enqueue hands the turn to a waiter that has not parked yet; it runs when it parks")
  func grantedBeforePark() async {
    var machine = CommandStateMachine(policy: .enqueue)
    guard let first = admitRun(&machine)?.id, let waiter = admitWait(&machine) else { return }
    let finish = machine.finish(first, taskCancelled: false)
    #expect(finish.next == nil)  // not parked: nothing to resume
    #expect(finish.changes == .init())  // the turn passed directly: executing never flickers
    #expect(await park(waiter, in: &machine))
    #expect(!machine.isCancelled(waiter))
    #expect(machine.finish(waiter, taskCancelled: false).changes == .init(executing: false))
  }

  @Test(".enqueue: a waiter cancelled before it parks is told so when it parks, and leaves the queue")
  func cancelledBeforePark() async {
    var machine = CommandStateMachine(policy: .enqueue)
    guard let first = admitRun(&machine)?.id, let waiter = admitWait(&machine) else { return }
    #expect(machine.cancelWaiter(waiter) == nil)
    #expect(await !park(waiter, in: &machine))
    let finish = machine.finish(first, taskCancelled: false)
    #expect(finish.next == nil)
    #expect(finish.changes == .init(executing: false))
  }

  @Test("cancelAll marks runs and releases waiters; close ends the streams after the last run")
  func cancelAllAndClose() {
    var machine = CommandStateMachine(policy: .enqueue)
    guard let first = admitRun(&machine)?.id, admitWait(&machine) != nil else { return }
    #expect(machine.attach({}, to: first) == false)
    let cancellation = machine.close()
    #expect(cancellation.tasks.count == 1)
    #expect(cancellation.turns.isEmpty)  // the waiter had not parked: it is marked instead
    #expect(!cancellation.endStreams)  // a run is still winding down
    let finish = machine.finish(first, taskCancelled: false)
    #expect(finish.cancelled)
    #expect(finish.endStreams)
    admitRefused(&machine, "a closed command refuses")
  }

  @Test("a task cancelled by its caller ends its run as cancelled")
  func taskCancelled() {
    var machine = CommandStateMachine(policy: .reject)
    guard let id = admitRun(&machine)?.id else { return }
    #expect(machine.finish(id, taskCancelled: true).cancelled)
  }
}

/// Admits an enabled call that must run; records `comment` as an issue and returns nil when the machine
/// answers otherwise.
private func admitRun(
  _ machine: inout CommandStateMachine, _ comment: Comment = "must run",
  sourceLocation: SourceLocation = #_sourceLocation
) -> (id: Int, changes: CommandStateMachine.Changes, cancel: [CommandStateMachine.Canceller])? {
  guard case .run(let id, let changes, let cancel) = machine.admit(enabled: true) else {
    Issue.record(comment, sourceLocation: sourceLocation)
    return nil
  }
  return (id, changes, cancel)
}

/// Admits an enabled call that must wait for its turn (`.enqueue`) and returns the waiter's id; records an
/// issue and returns nil when the machine answers otherwise.
private func admitWait(_ machine: inout CommandStateMachine, sourceLocation: SourceLocation = #_sourceLocation)
  -> Int?
{
  guard case .wait(let waiter) = machine.admit(enabled: true) else {
    Issue.record("must wait", sourceLocation: sourceLocation)
    return nil
  }
  return waiter
}

/// Admits a call that must be refused; records `comment` as an issue and returns false when it is not.
@discardableResult
private func admitRefused(
  _ machine: inout CommandStateMachine, enabled: Bool = true, _ comment: Comment,
  sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
  guard case .disabled = machine.admit(enabled: enabled) else {
    Issue.record(comment, sourceLocation: sourceLocation)
    return false
  }
  return true
}

/// Parks `waiter` and returns what its turn is resumed with: `true` to run, `false` when it was cancelled.
/// Only for a waiter the machine resumes at once (its turn was already granted or cancelled).
private func park(_ waiter: Int, in machine: inout CommandStateMachine) async -> Bool {
  await withCheckedContinuation { (turn: CommandStateMachine.Turn) in
    if case .resume(let granted) = machine.park(waiter, turn) { turn.resume(returning: granted) }
  }
}
