#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The system's monotonic clock, in nanoseconds: a stamp of fixed size for the library's own bookkeeping.
///
/// Why not `ContinuousClock.Instant`: its layout is not fixed outside the standard library (the type is not
/// frozen), so a struct that stored one had no fixed layout either, and every copy of it, and of every iterator
/// around it, went through the run time's value witnesses (measured: a third of a retried `Signal`'s CPU).
@usableFromInline package enum MonotonicTime {
  /// Nanoseconds since an arbitrary, fixed point in the past.
  @inlinable package static var now: Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
  }
}
