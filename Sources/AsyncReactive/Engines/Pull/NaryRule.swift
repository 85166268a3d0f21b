/// What an event of an n-ary operator's rule (combineLatest, zip, merge) produces.
@usableFromInline enum NaryStep<Output: Sendable> {
  /// Nothing to deliver yet.
  case none
  /// Deliver `output`.
  case emit(Output)
  /// Deliver `output`, then end the result (zip: an input that had finished ran dry).
  case emitThenFinish(Output)
  /// End the result now, before the other inputs finish (combineLatest: an input finished without a value).
  case finish
}

/// The part that tells combineLatest, zip and merge apart: what an input's elements and end produce.
///
/// Elements do not go through the protocol: each input's pumping task gets a typed closure that stores its
/// element in the rule (a tuple slot, a zip buffer) and returns the step. Rules are pure values.
@usableFromInline protocol NaryRule: Sendable {
  associatedtype Output: Sendable
  /// The operator's name, for its input tasks' names ("combineLatest input 2").
  static var operatorName: String { get }
  /// Input `index` finished normally; `.finish` ends the result before the other inputs do.
  mutating func inputFinished(_ index: Int) -> NaryStep<Output>
}

/// The rule of one iteration (combineLatest slots, zip buffers), shared by the inputs' pumping tasks.
@usableFromInline final class NaryRuleCell<Rule: NaryRule>: @unchecked Sendable {
  // Safe: `rule` is read and written only inside the closures that `NaryStorage.receive` and
  // `NaryStorage.inputFinished` run under the storage's lock, so that lock serialises every access; and the
  // rule itself is Sendable. A class so that the storage's type does not have to name the rule's.
  // `@exclusivity(unchecked)`: that same lock already makes every access exclusive, so the run-time check that
  // Swift adds to an `inout` access of a class's stored property (a begin and an end per element, through a
  // thread-local access set) proves nothing here; it was ~6 % of the combineLatest-of-3 row's CPU.
  @exclusivity(unchecked) @usableFromInline var rule: Rule

  @inlinable init(_ rule: Rule) {
    self.rule = rule
  }
}
