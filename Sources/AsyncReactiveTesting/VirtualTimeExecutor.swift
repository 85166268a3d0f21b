import AsyncReactive
import Dispatch

/// The serial test executor of ``TestClock/withVirtualTime(_:)``: it runs the jobs of the body and of every task
/// that prefers it (the body's child tasks, default actors they call, and every task the library starts), one
/// at a time, in the order they were enqueued, and so knows when none of them can run.
///
/// Jobs run on a thread of Dispatch's global pool, taken while jobs wait and given back when the queue is empty
/// (at most one at a time: that is what makes the executor serial). "Idle" means no job is queued and none is
/// running; a task that sleeps on the clock, awaits a continuation or runs elsewhere has no job here.
final class VirtualTimeExecutor: TaskExecutor, Sendable {
  private struct State: Sendable {
    /// Jobs in the order they were enqueued, each with the executor it runs as; `head` is the next one (a queue
    /// without a per-job shift).
    var jobs: [(job: UnownedJob, executor: UnownedTaskExecutor)] = []
    var head = 0
    /// A thread is running jobs now (or is about to).
    var draining = false
    /// Who waits for the executor to be idle.
    var idleWaiters: [UnsafeContinuation<Void, Never>] = []
    /// How many jobs were ever enqueued: tells a waiter whether work came in while it looked elsewhere.
    var enqueued = 0
  }

  private let state = Locked(State())

  func enqueue(_ job: consuming ExecutorJob) {
    enqueue(UnownedJob(job), as: asUnownedTaskExecutor())
  }

  /// Queues `job` to run as `executor` (itself, or a test clock's ``TestClockExecutor`` that forwards here).
  func enqueue(_ job: UnownedJob, as executor: UnownedTaskExecutor) {
    let start = state.withLock { state -> Bool in
      state.jobs.append((job, executor))
      state.enqueued += 1
      if state.draining { return false }
      state.draining = true
      return true
    }
    if start { DispatchQueue.global().async { self.drain() } }
  }

  /// Runs jobs until none is queued, then wakes whoever waits for idleness. A job enqueued by a woken waiter
  /// starts a new drain.
  private func drain() {
    while true {
      let next = state.withLock { state -> Next in
        if state.head < state.jobs.count {
          let job = state.jobs[state.head]
          state.head += 1
          return .job(job)
        }
        state.jobs.removeAll(keepingCapacity: true)
        state.head = 0
        state.draining = false
        defer { state.idleWaiters = [] }
        return .idle(state.idleWaiters)
      }
      switch next {
      case .job(let job):
        job.job.runSynchronously(on: job.executor)
      case .idle(let waiters):
        for waiter in waiters { waiter.resume() }
        return
      }
    }
  }

  private enum Next {
    case job((job: UnownedJob, executor: UnownedTaskExecutor))
    case idle([UnsafeContinuation<Void, Never>])
  }

  /// How many jobs were ever enqueued.
  var enqueuedCount: Int { state.withLock { $0.enqueued } }

  /// Returns once no job is queued and none is running, other than the caller's own (it is suspended while it
  /// waits). Called from a job of this executor, it lets every other job run first.
  func waitUntilIdle() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let idle = state.withLock { state -> Bool in
        if !state.draining && state.head == state.jobs.count { return true }
        state.idleWaiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }
}

/// The executor that the library's tasks waiting on a ``TestClock`` prefer, wherever they were created: it runs
/// their jobs on the clock's virtual-time executor while ``TestClock/withVirtualTime(isolation:_:)`` runs, and on
/// Dispatch's global pool otherwise. So a timer started by a view model built in a suite's `init()`, before the
/// virtual time began, still runs where `advance` and `settle` wait for it.
final class TestClockExecutor: TaskExecutor, Sendable {
  /// The clock's virtual-time executor, while one runs (shared with the clock).
  private let virtualTime: Locked<VirtualTimeExecutor?>

  /// The jobs sent to Dispatch's pool that have not returned yet, and who waits for none to be left.
  private struct Forwarded {
    var running = 0
    var waiters: [UnsafeContinuation<Void, Never>] = []
  }

  private let forwarded = Locked(Forwarded())

  init(virtualTime: Locked<VirtualTimeExecutor?>) {
    self.virtualTime = virtualTime
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if let executor = virtualTime.withLock({ $0 }) {
      executor.enqueue(job, as: asUnownedTaskExecutor())
      return
    }
    forwarded.withLock { $0.running += 1 }
    DispatchQueue.global().async {
      job.runSynchronously(on: self.asUnownedTaskExecutor())
      let waiters = self.forwarded.withLock { forwarded -> [UnsafeContinuation<Void, Never>] in
        forwarded.running -= 1
        guard forwarded.running == 0 else { return [] }
        defer { forwarded.waiters = [] }
        return forwarded.waiters
      }
      for waiter in waiters { waiter.resume() }
    }
  }

  /// Returns once no job this executor sent to Dispatch's pool is still running: called when the virtual time
  /// begins, so that a task started before it (in a suite's `init()`) has finished its current job (it is
  /// suspended, its wake-ups come to the virtual time) before the body runs. A job runs only until the task
  /// suspends, so this never waits for the body.
  func waitForForwardedJobs() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let none = forwarded.withLock { forwarded -> Bool in
        if forwarded.running == 0 { return true }
        forwarded.waiters.append(continuation)
        return false
      }
      if none { continuation.resume() }
    }
  }
}
