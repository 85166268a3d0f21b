#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// State behind a lock, used like `Synchronization.Mutex`: `withLock { state in … }`.
///
/// Why not `Mutex`: on Linux a contended `Mutex` waits in a priority-inheritance futex that ThreadSanitizer
/// cannot see, so TSan reports every contended critical section as a data race (a six-line program shows it),
/// and CI runs the demo's tests under TSan. A `pthread_mutex_t` is intercepted by TSan on every platform. On
/// Darwin, or where you do not run TSan, `Mutex` does the same job.
///
/// ```swift
/// let calls = Lock(0)
/// calls.withLock { $0 += 1 }
/// ```
final class Lock<State> {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var state: State

  init(_ state: State) {
    self.state = state
    mutex = UnsafeMutablePointer.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    let result = pthread_mutex_init(mutex, nil)
    precondition(result == 0, "pthread_mutex_init failed with \(result)")
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the state. Never lock the same lock again from `body`.
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state)
  }
}

// Safe: the state is reachable only through `withLock`, which holds the mutex for the whole access, and the state
// itself is Sendable, so values moved in or out of it may cross threads.
extension Lock: @unchecked Sendable where State: Sendable {}
