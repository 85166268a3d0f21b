extension HotSequence {
  /// Emits at most one value per `interval`, taking each value at its send: the first value at once, then either
  /// nothing more until the interval has passed (`latest: false`) or the latest value at the interval's end
  /// (`latest: true`) (RxSwift `throttle(_:latest:)` on a shared source).
  @inlinable package func hotThrottle<C: Clock>(
    for interval: Duration,
    clock: C = ContinuousClock(),
    latest: Bool = true,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> where C.Duration == Duration {
    precondition(interval >= .zero, "throttle(for: \(interval)): the interval must not be negative")
    return hotTime(fileID: fileID, line: line, clock: clock) { _ in
      ThrottleRule<Element, Failure, C.Instant>(interval: interval, latest: latest)
    }
  }
}
