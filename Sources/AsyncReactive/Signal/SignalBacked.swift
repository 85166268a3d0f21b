/// A sequence of another target of this package that is a ``Signal`` underneath, with something of its own beside
/// it (AsyncReactiveTesting's cold timeline keeps a log of its subscriptions): `Signal(_:)` takes its signal as it
/// is, cold and re-iterable, started in place, rather than reading the sequence as a foreign one through a pump.
@usableFromInline package protocol SignalBacked<Element, Failure>: AsyncSequence, Sendable where Element: Sendable {
  /// The signal every operator over this sequence runs.
  var signal: Signal<Element, Failure> { get }
}
