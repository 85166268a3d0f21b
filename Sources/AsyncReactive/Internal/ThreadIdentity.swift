#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Which thread runs now, as a number that no other live thread has: how a subject knows that a registration comes
/// from inside its own delivery (an observer of the subject registering another observer of it).
@usableFromInline package enum ThreadIdentity {
  /// The current thread's number; never 0.
  @usableFromInline package static var current: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }
}
