import AsyncReactive
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Polls `condition`, yielding between looks, at most `limit` times: for states no handshake reports (a subject's
/// consumer count after an operator's input task wound down). Returns whether the condition came true.
func eventually(limit: Int = 200_000, _ condition: () -> Bool) async -> Bool {
  for _ in 0..<limit {
    if condition() { return true }
    await Task.yield()
  }
  return condition()
}

/// Runs `body(thread)` on `threads` threads at once (each a serial queue of its own, so each gets a thread even
/// when they block) and returns when all have finished.
func onThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) async {
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    let group = DispatchGroup()
    for thread in 0..<threads {
      DispatchQueue(label: "test thread \(thread)").async(group: group) { body(thread) }
    }
    group.notify(queue: .global()) { done.resume() }
  }
}

/// The producers of one stress scenario, counted: how many started, are running, ended through cancellation,
/// and how many values they sent. Every producer is a task of the probe's own, so "no task left running" is
/// `live == 0`.
final class Probe: Sendable {
  private struct State {
    var started = 0
    var live = 0
    var cancelled = 0
    var finished = 0
    var sent = 0
    var feeders: [Task<Void, Never>] = []
  }

  private let state = Locked(State())

  var started: Int { state.withLock { $0.started } }
  var live: Int { state.withLock { $0.live } }
  var cancelled: Int { state.withLock { $0.cancelled } }
  var finished: Int { state.withLock { $0.finished } }
  var sent: Int { state.withLock { $0.sent } }

  /// A cold input whose every run is a producer task: it sends `0, 1, 2, …` (a yield after each) up to `limit`,
  /// then waits for cancellation, or with `then: .finish` finishes, or with `then: .fail(e)` fails with `e`.
  /// The run is counted from the moment it is set up, synchronously, in the task that started iterating.
  func input<Failure: Error>(
    _ failure: Failure.Type,
    values: Range<Int> = 0..<1_000,
    yieldEvery: Int = 1,
    then end: InputEnd<Failure> = .waitForCancellation
  ) -> Signal<Int, Failure> {
    Signal.create { [self] emitter in
      state.withLock {
        $0.started += 1
        $0.live += 1
      }
      let task = Task {
        var wasCancelled = false
        defer {
          state.withLock {
            $0.live -= 1
            if wasCancelled { $0.cancelled += 1 } else { $0.finished += 1 }
          }
        }
        for (index, value) in values.enumerated() {
          if Task.isCancelled {
            wasCancelled = true
            return
          }
          await emitter.send(value)
          state.withLock { $0.sent += 1 }
          if yieldEvery > 0, index % yieldEvery == 0 { await Task.yield() }
        }
        switch end {
        case .waitForCancellation:
          await waitForCancellation()
          wasCancelled = true
        case .finish:
          emitter.finish()
        case .fail(let failure):
          emitter.fail(failure)
        }
      }
      return { task.cancel() }
    }
  }

  /// Feeds `subject` from a producer task (`0, 1, 2, …` with a yield after each, up to `limit`) until
  /// ``stopFeeders()``.
  func feed(_ subject: AsyncPassthroughSubject<Int, Never>, limit: Int = 100_000) {
    state.withLock {
      $0.started += 1
      $0.live += 1
    }
    let task = Task { [self] in
      defer {
        state.withLock {
          $0.live -= 1
          $0.cancelled += 1
        }
      }
      for value in 0..<limit {
        if Task.isCancelled { return }
        subject.send(value)
        state.withLock { $0.sent += 1 }
        await Task.yield()
      }
      await waitForCancellation()
    }
    state.withLock { $0.feeders.append(task) }
  }

  /// Cancels every feeding task.
  func stopFeeders() {
    for task in state.withLock({ $0.feeders }) { task.cancel() }
  }

  /// Waits until at least `count` values were sent (bounded: returns `false` if that never happens).
  func waitForSent(_ count: Int) async -> Bool {
    await eventually { sent >= count }
  }

  /// The counts, read together under one lock acquisition.
  struct Counts: Sendable, CustomStringConvertible {
    var started: Int
    var live: Int
    var cancelled: Int
    var finished: Int

    var description: String { "\(started) started, \(live) live, \(cancelled) cancelled, \(finished) finished" }
  }

  var counts: Counts {
    state.withLock { Counts(started: $0.started, live: $0.live, cancelled: $0.cancelled, finished: $0.finished) }
  }

  /// Waits until no producer task runs (bounded: returns `false` if one is left running).
  ///
  /// Cancellation is not awaited (APIContracts): a run whose task was cancelled before it started still starts,
  /// sees the cancellation and ends. So a producer may even start after the consumer stopped; the check is on one
  /// consistent reading of the counts where nothing runs.
  func waitUntilIdle() async -> Bool {
    await eventually { live == 0 }
  }

  /// Waits until no producer task runs, then returns the counts of that moment (`nil` if one is left running).
  func settledCounts() async -> Counts? {
    var settled: Counts?
    _ = await eventually {
      let counts = counts
      if counts.live == 0 { settled = counts }
      return settled != nil
    }
    return settled
  }
}

/// How a ``Probe`` input ends once it sent its values.
enum InputEnd<Failure: Error>: Sendable {
  case waitForCancellation
  case finish
  case fail(Failure)
}

/// The resident set size of this process in bytes, from `/proc/self/statm` (nil where there is none).
func residentMemory() -> Int? {
  #if os(Linux)
    let descriptor = open("/proc/self/statm", O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 128)
    let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    // "size resident shared text lib data dt", in pages.
    let fields = String(decoding: bytes[..<count], as: UTF8.self).split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  #else
    return nil
  #endif
}

/// Whether this process runs under AddressSanitizer (its quarantine keeps freed memory resident, so memory
/// figures mean nothing there).
var isAddressSanitized: Bool {
  #if os(Linux)
    dlsym(nil, "__asan_init") != nil
  #else
    false
  #endif
}
