import Observation
import Synchronization

/// The link between a current value and the Observation module (`withObservationTracking`, `Observations`,
/// SwiftUI): reading an ``AsyncCurrentValueSubject/value`` records an access here, and changing it announces a
/// mutation, so that whoever read it inside a tracking scope hears of the change.
///
/// One per current value. It is a non-generic class on purpose: a key path into a generic class is
/// instantiated at run time on every use (measured: ~2.2 µs per access on Linux), while this one is a constant
/// (~15 ns per access).
@usableFromInline package final class ValueObservation: Observable, Sendable {
  @usableFromInline let registrar = ObservationRegistrar()
  /// Whether the value was ever read. Observation only tracks what was read, so until then nobody can be
  /// tracking it and a change announces nothing: a subject that is only iterated (a command's `executing`,
  /// a stream's source) pays no registrar lock per send.
  @usableFromInline let accessed = Atomic<Bool>(false)

  @inlinable package init() {}

  /// The observed member. Its value is irrelevant: Observation tracks key paths, and the current value lives
  /// in the subject's storage.
  @usableFromInline var current: Int { 0 }

  /// The key path of ``current``, made once: a key-path literal costs a look-up on every use.
  @usableFromInline static let currentKeyPath: any KeyPath<ValueObservation, Int> & Sendable = \.current

  /// ``currentKeyPath``, kept by each instance: a read of the static goes through its lazy initializer's check
  /// (`swift_once`) every time, which was ~7 % of a current value's read.
  @usableFromInline let keyPath: any KeyPath<ValueObservation, Int> & Sendable = ValueObservation.currentKeyPath

  /// Records a read of the current value in the enclosing tracking scope, if any.
  @inlinable package func access() {
    if !accessed.load(ordering: .relaxed) { accessed.store(true, ordering: .sequentiallyConsistent) }
    registrar.access(self, keyPath: keyPath)
  }

  /// Announces a change of the current value around `change`, once anybody has read it.
  @inlinable package func mutation<Result>(_ change: () -> Result) -> Result {
    if accessed.load(ordering: .sequentiallyConsistent) {
      return registrar.withMutation(of: self, keyPath: keyPath, change)
    }
    let result = change()
    // A first read racing with this change may have seen the old value (the read and the change meet on the
    // storage's lock, so such a read set the flag before this load): announce the change to it, late but
    // after the change, which is all a tracking scope needs to look again.
    if accessed.load(ordering: .sequentiallyConsistent) {
      registrar.withMutation(of: self, keyPath: keyPath) {}
    }
    return result
  }
}
