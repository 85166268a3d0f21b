#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// State behind a lock, with the same shape as `Synchronization.Mutex` (`withLock { state in … }`).
///
/// Why not `Mutex`: on Linux, `Mutex` takes a contended lock through a priority-inheritance futex in the
/// kernel, which ThreadSanitizer cannot see, so every contended critical section is reported as a data race
/// and `swift test --sanitize=thread` becomes useless. A `pthread_mutex_t` is intercepted by TSan, and its
/// contended path (a plain futex) is also cheaper than the PI one. On Darwin this uses `os_unfair_lock`.
@usableFromInline package struct Locked<State> {
  @usableFromInline let storage: LockedStorage<State>

  @inlinable package init(_ initialState: State) {
    storage = LockedStorage.make(initialState)
  }

  /// Runs `body` with exclusive access to the state. Never call back into the same lock from `body`.
  @inline(__always)
  @inlinable package func withLock<Result, Failure: Error>(
    _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try storage.withLock(body)
  }
}

// Safe: the state is reachable only through `withLock`, which holds the mutex for the whole access, and
// the state itself is Sendable, so values moved in or out of it may cross threads.
extension Locked: @unchecked Sendable where State: Sendable {}

#if canImport(Darwin)
  @usableFromInline package typealias PlatformLock = os_unfair_lock
#else
  @usableFromInline package typealias PlatformLock = pthread_mutex_t
#endif

/// One allocation holding the state (header) and the platform lock (the single element), so the lock has
/// a stable address.
@usableFromInline package final class LockedStorage<State>: ManagedBuffer<State, PlatformLock> {
  @inlinable static func make(_ initialState: State) -> LockedStorage {
    let buffer = LockedStorage.create(minimumCapacity: 1) { buffer in
      buffer.withUnsafeMutablePointerToElements { lock in
        #if canImport(Darwin)
          lock.initialize(to: os_unfair_lock())
        #else
          lock.initialize(to: pthread_mutex_t())
          // Adaptive: a contended lock spins briefly in user space before it sleeps in the kernel. Our
          // critical sections are a few dozen instructions, so the holder is about to let go, and a futex
          // sleep + wake-up (two system calls, microseconds) costs far more than the wait. With the default
          // kind, a producer and a consumer that meet on a subject's lock spent most of their time in futex
          // calls (profile of 10^6 events through one subject).
          var attributes = pthread_mutexattr_t()
          pthread_mutexattr_init(&attributes)
          pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
          let result = pthread_mutex_init(lock, &attributes)
          pthread_mutexattr_destroy(&attributes)
          precondition(result == 0, "pthread_mutex_init failed with \(result)")
        #endif
      }
      return initialState
    }
    // `create` returns the dynamic type we asked for.
    return unsafeDowncast(buffer, to: LockedStorage.self)
  }

  @inline(__always)
  @inlinable func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure)
    -> Result
  {
    try withUnsafeMutablePointers { (state, lock) throws(Failure) -> Result in
      #if canImport(Darwin)
        os_unfair_lock_lock(lock)
        defer { os_unfair_lock_unlock(lock) }
      #else
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
      #endif
      return try body(&state.pointee)
    }
  }

  deinit {
    withUnsafeMutablePointerToElements { lock in
      #if !canImport(Darwin)
        pthread_mutex_destroy(lock)
      #endif
      lock.deinitialize(count: 1)  // the header (state) is destroyed by ManagedBuffer itself
    }
  }
}

/// An identifier of the calling thread, to tell a reentrant call (the same thread, further down its own stack)
/// from another thread's.
@inlinable package func currentThreadID() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}

/// Lets another thread run: what a thread does while it waits for a short step of another thread that it must
/// not block on a lock for (that step runs user code with no lock held).
@inlinable package func yieldThread() {
  sched_yield()
}
