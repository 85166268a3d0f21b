import AsyncReactive
import Testing

/// The command's bookkeeping, driven synchronously through the interleavings that are hard to reach with
/// real tasks.
@Suite("CommandStateMachine transitions")
struct CommandStateMachineTests {
  @Test(".reject admits one run, publishes executing and open changes only, refuses the next")
  func rejectTransitions() {
    var machine = CommandStateMachine(policy: .reject)
    guard case .run(let id, let changes, let cancel) = machine.admit(enabled: true) else {
      Issue.record("the first call must run")
      return
    }
    #expect(changes == .init(executing: true, open: false))
    #expect(cancel.isEmpty)
    guard case .disabled = machine.admit(enabled: true) else {
      Issue.record("a second call during the run must be refused")
      return
    }
    let finish = machine.finish(id, taskCancelled: false)
    #expect(!finish.cancelled)
    #expect(finish.changes == .init(executing: false, open: true))
    #expect(finish.next == nil)
    #expect(!finish.endStreams)
  }

  @Test("a call made while enabledIf is false is refused and changes nothing")
  func enabledIf() {
    var machine = CommandStateMachine(policy: .concurrent(limit: 2))
    guard case .disabled = machine.admit(enabled: false) else {
      Issue.record("a disabled command must refuse")
      return
    }
    guard case .run(_, let changes, _) = machine.admit(enabled: true) else {
      Issue.record("an enabled command under its limit must run")
      return
    }
    #expect(changes == .init(executing: true))  // one of two slots used: still open
  }

  @Test(".cancelPrevious marks the runs in flight; a run cancelled before its task existed is cancelled on attach")
  func cancelPreviousBeforeAttach() {
    var machine = CommandStateMachine(policy: .cancelPrevious)
    guard case .run(let first, _, _) = machine.admit(enabled: true) else {
      Issue.record("must run")
      return
    }
    guard case .run(let second, let changes, let cancel) = machine.admit(enabled: true) else {
      Issue.record("must run")
      return
    }
    #expect(cancel.isEmpty)  // the first run had no task yet: it is marked, not cancelled
    #expect(changes == .init())  // still executing, still enabled
    #expect(machine.attach({}, to: first) == true)
    #expect(machine.attach({}, to: second) == false)
    #expect(machine.finish(first, taskCancelled: false).cancelled)
    let last = machine.finish(second, taskCancelled: false)
    #expect(!last.cancelled)
    #expect(last.changes == .init(executing: false))
  }

  @Test("a run that finished before attach is not cancelled by the late attach")
  func attachAfterFinish() {
    var machine = CommandStateMachine(policy: .reject)
    guard case .run(let id, _, _) = machine.admit(enabled: true) else {
      Issue.record("must run")
      return
    }
    _ = machine.finish(id, taskCancelled: false)
    #expect(machine.attach({}, to: id) == false)
  }

  @Test(".enqueue hands the turn to a waiter that has not parked yet; it runs when it parks")
  func grantedBeforePark() async {
    var machine = CommandStateMachine(policy: .enqueue)
    guard case .run(let first, _, _) = machine.admit(enabled: true) else {
      Issue.record("must run")
      return
    }
    guard case .wait(let waiter) = machine.admit(enabled: true) else {
      Issue.record("must wait")
      return
    }
    let finish = machine.finish(first, taskCancelled: false)
    #expect(finish.next == nil)  // not parked: nothing to resume
    #expect(finish.changes == .init())  // the turn passed directly: executing never flickers
    let granted = await withCheckedContinuation { (turn: CommandStateMachine.Turn) in
      if case .resume(let granted) = machine.park(waiter, turn) { turn.resume(returning: granted) }
    }
    #expect(granted)
    #expect(!machine.isCancelled(waiter))
    #expect(machine.finish(waiter, taskCancelled: false).changes == .init(executing: false))
  }

  @Test(".enqueue: a waiter cancelled before it parks is told so when it parks, and leaves the queue")
  func cancelledBeforePark() async {
    var machine = CommandStateMachine(policy: .enqueue)
    guard case .run(let first, _, _) = machine.admit(enabled: true) else {
      Issue.record("must run")
      return
    }
    guard case .wait(let waiter) = machine.admit(enabled: true) else {
      Issue.record("must wait")
      return
    }
    #expect(machine.cancelWaiter(waiter) == nil)
    let granted = await withCheckedContinuation { (turn: CommandStateMachine.Turn) in
      if case .resume(let granted) = machine.park(waiter, turn) { turn.resume(returning: granted) }
    }
    #expect(!granted)
    let finish = machine.finish(first, taskCancelled: false)
    #expect(finish.next == nil)
    #expect(finish.changes == .init(executing: false))
  }

  @Test("cancelAll marks runs and releases waiters; close ends the streams after the last run")
  func cancelAllAndClose() {
    var machine = CommandStateMachine(policy: .enqueue)
    guard case .run(let first, _, _) = machine.admit(enabled: true) else {
      Issue.record("must run")
      return
    }
    guard case .wait = machine.admit(enabled: true) else {
      Issue.record("must wait")
      return
    }
    #expect(machine.attach({}, to: first) == false)
    let cancellation = machine.close()
    #expect(cancellation.tasks.count == 1)
    #expect(cancellation.turns.isEmpty)  // the waiter had not parked: it is marked instead
    #expect(!cancellation.endStreams)  // a run is still winding down
    let finish = machine.finish(first, taskCancelled: false)
    #expect(finish.cancelled)
    #expect(finish.endStreams)
    guard case .disabled = machine.admit(enabled: true) else {
      Issue.record("a closed command refuses")
      return
    }
  }

  @Test("a task cancelled by its caller ends its run as cancelled")
  func taskCancelled() {
    var machine = CommandStateMachine(policy: .reject)
    guard case .run(let id, _, _) = machine.admit(enabled: true) else {
      Issue.record("must run")
      return
    }
    #expect(machine.finish(id, taskCancelled: true).cancelled)
  }
}
