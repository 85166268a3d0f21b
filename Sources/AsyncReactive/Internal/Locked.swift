import Synchronization

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
/// and `swift test --sanitize=thread` becomes useless. On Linux the lock is a word of its own (``LockWord``): an
/// uncontended acquire is one compare-and-exchange and a release one store, inlined, and TSan sees both. On Darwin
/// this uses `os_unfair_lock`.
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

// Safe: the state is reachable only through `withLock`, which holds the lock for the whole access, and
// the state itself is Sendable, so values moved in or out of it may cross threads.
extension Locked: @unchecked Sendable where State: Sendable {}

#if canImport(Darwin)
  @usableFromInline package typealias PlatformLock = os_unfair_lock
#else
  @usableFromInline package typealias PlatformLock = Atomic<Int>
#endif

/// A ``Locked``'s lock on Linux, and a node's own lock (which it keeps inline, see `Node.state`) everywhere: one
/// word, `unlocked` or `locked`.
///
/// An uncontended acquire is one compare-and-exchange and a release one store (release ordering), both
/// inlined: no call, and a single atomic read-modify-write per critical section (a `pthread_mutex_t` makes two,
/// behind two calls; measured on the signup-form benchmark, eleven lock round trips per tap: 447 → 371 ns per
/// tap with this word, 419–459 with a word whose release is an exchange, needed to wake sleepers).
///
/// A contended acquire waits without any help from the holder, which is why the release can be a store:
/// it looks at the word for a while (critical sections are a few dozen instructions of the library's own code,
/// never a user closure, so the holder is about to let go), then yields its core a few times (the holder
/// may be waiting for it), and only then sleeps in growing steps (from 1 µs up to 100 µs: the holder was
/// preempted, and looking again and again would only burn a core). TSan sees the word's acquire and release.
@usableFromInline package enum LockWord {
  @usableFromInline package static let unlocked = 0
  @usableFromInline package static let locked = 1

  /// Takes the lock: one compare-and-exchange when it is free, ``acquireContended(_:)`` otherwise.
  @inline(__always)
  @inlinable package static func acquire(_ word: borrowing Atomic<Int>) {
    if word.compareExchange(expected: unlocked, desired: locked, ordering: .acquiring).exchanged { return }
    acquireContended(word)
  }

  /// Releases the lock.
  @inline(__always)
  @inlinable package static func release(_ word: borrowing Atomic<Int>) {
    word.store(unlocked, ordering: .releasing)
  }

  /// How many times a contended acquire looks at the word before it yields its core.
  @usableFromInline static let spins = 100
  /// How many times it yields before it sleeps.
  @usableFromInline static let yields = 16
  /// The longest single sleep, in nanoseconds: what a waiter may be late by once the lock is free. (Linux
  /// rounds a thread's sleeps up by its timer slack, 50 µs by default, so the shortest sleep is about that.)
  @usableFromInline static let maximumSleep = 100_000

  /// The lock is held: look, then yield, then sleep in growing steps, until it is free.
  @usableFromInline @inline(never) static func acquireContended(_ word: borrowing Atomic<Int>) {
    var attempts = 0
    var sleep = 1_000  // nanoseconds
    while true {
      if word.load(ordering: .relaxed) == unlocked
        && word.compareExchange(expected: unlocked, desired: locked, ordering: .acquiring).exchanged
      {
        return
      }
      attempts += 1
      if attempts <= spins { continue }
      if attempts <= spins + yields {
        sched_yield()
        continue
      }
      var request = timespec(tv_sec: 0, tv_nsec: sleep)
      nanosleep(&request, nil)
      sleep = min(sleep * 2, maximumSleep)
    }
  }
}

/// One allocation holding the state (header) and the platform lock (the single element), so the lock has
/// a stable address.
@usableFromInline package final class LockedStorage<State>: ManagedBuffer<State, PlatformLock> {
  @inlinable static func make(_ initialState: State) -> LockedStorage {
    let buffer = LockedStorage.create(minimumCapacity: 1) { buffer in
      buffer.withUnsafeMutablePointerToElements { lock in
        #if canImport(Darwin)
          lock.initialize(to: os_unfair_lock())
        #else
          lock.initialize(to: Atomic<Int>(LockWord.unlocked))
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
        LockWord.acquire(lock.pointee)
        defer { LockWord.release(lock.pointee) }
      #endif
      return try body(&state.pointee)
    }
  }

  deinit {
    withUnsafeMutablePointerToElements { lock in
      _ = lock.deinitialize(count: 1)  // the header (state) is destroyed by ManagedBuffer itself
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
