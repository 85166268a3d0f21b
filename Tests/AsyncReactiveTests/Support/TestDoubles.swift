import AsyncReactive
import Synchronization

/// The error the tests throw; typed so that typed-failure checks have something concrete.
struct TestError: Error, Equatable {
  var code = 0
}

/// A one-shot handshake: `wait()` returns once `open()` was called (before or after).
final class Gate: Sendable {
  private struct State {
    var isOpen = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Locked(State())

  func open() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  var isOpen: Bool { state.withLock { $0.isOpen } }

  func wait() async {
    await withCheckedContinuation { continuation in
      let openAlready = state.withLock { state -> Bool in
        if state.isOpen { return true }
        state.waiters.append(continuation)
        return false
      }
      if openAlready { continuation.resume() }
    }
  }
}

/// A thread-safe counter.
final class Counter: Sendable {
  private let count = Atomic<Int>(0)

  @discardableResult
  func increment() -> Int { count.add(1, ordering: .sequentiallyConsistent).newValue }

  var value: Int { count.load(ordering: .sequentiallyConsistent) }
}

/// A thread-safe list that tests append to from several tasks.
final class Log<Value: Sendable>: Sendable {
  private let values = Locked<[Value]>([])

  func append(_ value: Value) { values.withLock { $0.append(value) } }

  var all: [Value] { values.withLock { $0 } }
}

/// Suspends until the current task is cancelled (returns at once if it already is).
func waitForCancellation() async {
  let cancelled = Gate()
  await withTaskCancellationHandler {
    await cancelled.wait()
  } onCancel: {
    cancelled.open()
  }
}

/// How deep a callback is nested in itself, and the deepest it ever was.
final class Depth: Sendable {
  private let state = Mutex((current: 0, deepest: 0))

  func enter() {
    state.withLock { state in
      state.current += 1
      state.deepest = max(state.deepest, state.current)
    }
  }

  func leave() { state.withLock { $0.current -= 1 } }

  var deepest: Int { state.withLock { $0.deepest } }
}

/// Whether `signal` is hot at run time (a chain over a subject or a property), and, at compile time, that an
/// operator's static type is exactly the `Signal` given: `#expect(isHot(subject.map { $0 }, as: Signal<Int, Never>.self))`.
func isHot<Element, Failure>(_ signal: Signal<Element, Failure>, as type: Signal<Element, Failure>.Type) -> Bool {
  signal.isHot
}
