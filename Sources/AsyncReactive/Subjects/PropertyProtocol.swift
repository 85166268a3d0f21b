/// State with a current value that is read synchronously and can be iterated for its changes: ``Property``
/// and ``AsyncCurrentValueSubject`` (when it cannot fail), ReactiveSwift's `PropertyProtocol`.
///
/// What conforms can be composed into derived ``Property`` values (``PropertyProtocol/map(_:fileID:line:)``,
/// `combineLatest(_:_:)`, ``PropertyProtocol/removeDuplicates(fileID:line:)``, …) whose ``value`` is computed from the
/// sources' current values at the moment it is read, never through a task. It is also what
/// ``Command/init(enabledIf:policy:fileID:line:work:)`` and `withLatestFrom(_:)` read synchronously.
///
/// Iterating yields the current value first, then every change, until the source finishes.
///
/// ```swift
/// let username = AsyncCurrentValueSubject<String, Never>("")
/// let isValid = username.map { $0.count >= 3 }   // Property<Bool>
/// username.value = "tom"
/// print(isValid.value)                            // true, on the very next line
/// ```
public protocol PropertyProtocol<Value>: HotSequence
where Element == Value, Failure == Never, AsyncIterator: SendableMetatype {
  /// The type of the current value.
  associatedtype Value: Sendable

  /// The current value, read synchronously from any thread. Reading it inside `withObservationTracking`,
  /// `Observations { }` or a SwiftUI `body` is tracked.
  var value: Value { get }

  /// A ``Property`` that reflects this one: the type-erased form that derived properties keep.
  var property: Property<Value> { get }
}

extension PropertyProtocol {
  /// Every change of the value from now on, without the current value (ReactiveSwift's `property.signal`, where
  /// iterating the property itself is its `producer`): a ``HotSignal`` evaluated inside the sources' `send`.
  ///
  /// Each consumer or observer gets every change that happens after it registered (at `makeAsyncIterator()`,
  /// `subscribe()` or `sink`), in order, and never the value that was current when it registered. For a derived
  /// property a change is each value its iteration would yield after the first (a `map` yields one per source
  /// change, even an unchanged result; a ``PropertyProtocol/removeDuplicates(fileID:line:)`` only real changes). A constant property has no
  /// changes: iterating them finishes at once.
  ///
  /// **Finishes:** when the property's sources finish or are released.
  ///
  /// ```swift
  /// viewModel.isValid.changes.sink(in: lifetime) { valid in
  ///   announce(valid ? "Form complete" : "Form incomplete")   // not on appear: only when it changes
  /// }
  /// ```
  @inlinable public var changes: HotSignal<Value, Never> { hotSignal.changesOnly() }
}

extension AsyncCurrentValueSubject: PropertyProtocol where Failure == Never {
  /// The type of the current value: the subject's element.
  public typealias Value = Element

  /// A read-only ``Property`` over this subject (it keeps the subject alive).
  ///
  /// ```swift
  /// nonisolated let isLoading: Property<Bool>
  /// init() { isLoading = isLoadingSubject.property }
  /// ```
  public var property: Property<Element> { Property(self) }
}
