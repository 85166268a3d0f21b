#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lock of the callback baseline and of the naive versions: a `pthread_mutex_t` (adaptive on Linux, as
/// ReactiveSwift's `Lock` is a pthread mutex there), with the same `withLock { state in … }` shape as the library's
/// `Locked`.
///
/// The baselines used the library's own `Locked` until 2026-12-02, when it was a pthread mutex too; when `Locked`
/// became a single atomic word, the baselines got faster with it (the signup form's from ~205 to ~154 ns per
/// tap), so a change to the library moved the yardstick it is measured with. This keeps the baselines where they
/// were, independent of the library.
struct BaselineLocked<State> {
  private let storage: BaselineLockStorage<State>

  init(_ initialState: State) {
    storage = BaselineLockStorage.make(initialState)
  }

  @inline(__always)
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    try storage.withUnsafeMutablePointers { state, mutex in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&state.pointee)
    }
  }
}

// Safe: the state is reachable only through `withLock`, which holds the mutex for the whole access, and the state
// itself is Sendable, so values moved in or out of it may cross threads (as for the library's `Locked`).
extension BaselineLocked: @unchecked Sendable where State: Sendable {}

/// One allocation holding the state (header) and the mutex (the single element), as `Locked` had it.
final class BaselineLockStorage<State>: ManagedBuffer<State, pthread_mutex_t> {
  static func make(_ initialState: State) -> BaselineLockStorage {
    let buffer = BaselineLockStorage.create(minimumCapacity: 1) { buffer in
      buffer.withUnsafeMutablePointerToElements { mutex in
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if canImport(Glibc)
          pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        let result = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(result == 0, "pthread_mutex_init failed with \(result)")
      }
      return initialState
    }
    return unsafeDowncast(buffer, to: BaselineLockStorage.self)
  }

  deinit {
    withUnsafeMutablePointerToElements { mutex in
      pthread_mutex_destroy(mutex)
      _ = mutex.deinitialize(count: 1)
    }
  }
}
