import Synchronization

// The hot form of `debug`: a node that reports its own events, once per event for all its consumers, inside the
// upstream's `send`. On a cold sequence each run's graph has its own, which reports that run.

extension HotSequence {
  /// Prints each event of this node with `name` and the time since the node started observing its upstream, once
  /// per event however many consumers it has (RxSwift `debug()` on a shared chain, ReactiveCocoa `logAll`).
  @inlinable package func hotDebug<C: Clock>(
    _ name: String,
    clock: C = ContinuousClock(),
    sink: DebugSink = .standardError,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Element, Failure> where C.Duration == Duration {
    let upstream = hotSignal.node
    return HotSignal(
      node: Node(
        replay: Node.replay(following: upstream), restarts: upstream.restarts,
        origin: NodeOrigin(.debug, fileID: fileID, line: line), inputs: .one(upstream), label: name
      ) { node in
        let reporter = HotDebugReporter(name: name, clock: clock, sink: sink)
        reporter.report("start")
        let observer = upstream.addSink { value in
          reporter.report("value: \(value)")
          node.send(value)
        } onEnd: { termination in
          switch termination {
          case .finished: reporter.end("finish")
          case .failed(let error): reporter.end("failure: \(error)")
          }
          node.terminate(termination)
        }
        return {
          upstream.removeSink(observer)
          reporter.end("cancel")
        }
      })
  }
}

/// One connection's reporting for the hot `debug`: its start instant, and which of its ends came first.
@usableFromInline final class HotDebugReporter<C: Clock>: Sendable where C.Duration == Duration {
  @usableFromInline let name: String
  @usableFromInline let clock: C
  @usableFromInline let start: C.Instant
  @usableFromInline let sink: DebugSink
  @usableFromInline let ended = Atomic<Bool>(false)

  @inlinable init(name: String, clock: C, sink: DebugSink) {
    self.name = name
    self.clock = clock
    self.start = clock.now
    self.sink = sink
  }

  /// Writes `[name] +elapsed event`.
  @inlinable func report(_ event: String) {
    sink.handleLine("[\(name)] +\(debugMilliseconds(start.duration(to: clock.now))) \(event)")
  }

  /// Reports the connection's end unless another end was reported first.
  @inlinable func end(_ event: String) {
    guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
    report(event)
  }
}
/// `duration` in milliseconds with up to three decimals and no trailing zeros: `0`, `300`, `1.5`, `0.25`.
@usableFromInline
func debugMilliseconds(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  // Both components carry the duration's sign; whole microseconds are enough for a debugging trace.
  let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
  let sign = microseconds < 0 ? "-" : ""
  let magnitude = microseconds.magnitude
  var text = "\(sign)\(magnitude / 1000)"
  let fraction = magnitude % 1000
  if fraction != 0 {
    var digits = String(fraction)
    digits = String(repeating: "0", count: 3 - digits.count) + digits
    while digits.last == "0" { digits.removeLast() }
    text += ".\(digits)"
  }
  return text + "ms"
}
