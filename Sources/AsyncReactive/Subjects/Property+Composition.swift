import Synchronization

// Derived properties (ReactiveSwift's property composition): each one's `value` is computed from its sources'
// current values when it is read, never through a task; iterating it follows its sources' changes.

extension PropertyProtocol {
  /// A property whose value is `transform` of this one's, computed when it is read.
  ///
  /// Iterating it yields `transform` of each of this property's values, including the ones that map to
  /// an unchanged result; add ``PropertyProtocol/removeDuplicates(fileID:line:)`` to skip those.
  ///
  /// ```swift
  /// let isValid = username.map { $0.count >= 3 }
  /// username.value = "tom"
  /// isValid.value   // true
  /// ```
  /// - Parameter transform: a fast, pure function of the value; it runs on every read and every change.
  /// - Returns: the derived ``Property``.
  @inlinable public func map<Transformed: Sendable>(
    _ transform: @escaping @Sendable (Value) -> Transformed,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Property<Transformed> {
    let base = property
    return Property(
      read: { [read = base.reader] in transform(read()) },
      changes: base.hotSignal.hotMap(transform, fileID: fileID, line: line))
  }

  /// A property with the same value whose iteration skips values equal to the previous one, by
  /// `areEquivalent` (ReactiveSwift's `skipRepeats(_:)`).
  ///
  /// ```swift
  /// let userID = session.map { $0.user }.removeDuplicates { $0.id == $1.id }
  /// ```
  /// - Parameter areEquivalent: whether two consecutive values are the same.
  /// - Returns: the derived ``Property``.
  @inlinable public func removeDuplicates(
    by areEquivalent: @escaping @Sendable (Value, Value) -> Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Property<Value> {
    let base = property
    return Property(
      read: base.reader, changes: base.hotSignal.hotRemoveDuplicates(by: areEquivalent, fileID: fileID, line: line))
  }

  /// A property that follows the property `transform` returns for the current value (ReactiveSwift's
  /// `flatMap(.latest)`): its value is that property's value, read through both at once; iterating it
  /// switches to the new inner property on each change of this one.
  ///
  /// `transform` runs on every read, so it should return a property that already exists (a child view
  /// model's state, say) rather than build a new one.
  ///
  /// ```swift
  /// let selectedName = viewModel.selected.flatMapLatest { $0.name }   // Property<String>
  /// ```
  /// - Parameter transform: picks the property to follow for a value.
  /// - Returns: the derived ``Property``.
  @inlinable public func flatMapLatest<Inner: PropertyProtocol>(
    _ transform: @escaping @Sendable (Value) -> Inner,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Property<Inner.Value> {
    let base = property
    // The changes run on the flatten engine, as every `flatMapLatest` does: each value of this property switches to
    // the inner property `transform` picks, observed inside its sends.
    return Property(
      read: { transform(base.value).value },
      changes: base.hotSignal.hotFlatten(
        origin: NodeOrigin(.flatMapLatest, fileID: fileID, line: line), .latest, releasesTransform: true,
        transform: { transform($0) },
        outerFailure: neverFailure, innerFailure: neverFailure, transformFailure: absurdTransformFailure))
  }
}

extension PropertyProtocol where Value: Equatable {
  /// A property with the same value whose iteration skips values equal to the previous one (ReactiveSwift's
  /// `skipRepeats()`, RxSwift's `distinctUntilChanged()`).
  ///
  /// ```swift
  /// let canSubmit = combineLatest(username, password).map(isValid).removeDuplicates()
  /// ```
  /// - Returns: the derived ``Property``.
  @inlinable public func removeDuplicates(fileID: StaticString = #fileID, line: UInt = #line) -> Property<Value> {
    removeDuplicates(by: ==, fileID: fileID, line: line)
  }
}

extension PropertyProtocol where Value == Bool {
  /// A property holding the negation of this one (RAC's `[executing not]`).
  ///
  /// ```swift
  /// let spinnerHidden = command.executing.not()
  /// ```
  /// - Returns: the derived ``Property``.
  @inlinable public func not(fileID: StaticString = #fileID, line: UInt = #line) -> Property<Bool> {
    map({ !$0 }, fileID: fileID, line: line)
  }

  /// A property that is `true` while both this property and `other` are (ReactiveSwift's `and(_:)`): its value
  /// is computed from both current values when it is read; iterating it yields the current result, then a result
  /// on every change of either (an unchanged result too: add ``PropertyProtocol/removeDuplicates(fileID:line:)`` to skip
  /// those).
  ///
  /// **Finishes:** iterating finishes once both sources have finished.
  ///
  /// ```swift
  /// let canSubmit = isFormValid.and(isOnline)        // Property<Bool>
  /// let submit = Command(enabledIf: canSubmit) { try await api.send(form.value) }
  /// ```
  /// - Parameter other: the second condition.
  /// - Returns: the derived ``Property``.
  @inlinable public func and<Other: PropertyProtocol<Bool>>(
    _ other: Other, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Property<Bool> {
    let (a, b) = (property, other.property)
    return Property(
      read: { [a = a.reader, b = b.reader] in a() && b() },
      changes: HotSignal(
        node: makeCombineLatest(
          a, b, origin: NodeOrigin(.combineLatest, fileID: fileID, line: line), failures: neverFailure, neverFailure)
      ).hotMap({ $0 && $1 }, fileID: fileID, line: line)
    )
  }

  /// A property that is `true` while this property or `other` is (ReactiveSwift's `or(_:)`): its value is
  /// computed from both current values when it is read; iterating it yields the current result, then a result on
  /// every change of either (an unchanged result too: add ``PropertyProtocol/removeDuplicates(fileID:line:)`` to skip those).
  ///
  /// **Finishes:** iterating finishes once both sources have finished.
  ///
  /// ```swift
  /// let isBusy = isSaving.or(isUploading)             // Property<Bool>
  /// isBusy.sink(in: lifetime) { spinner.isAnimating = $0 }
  /// ```
  /// - Parameter other: the second condition.
  /// - Returns: the derived ``Property``.
  @inlinable public func or<Other: PropertyProtocol<Bool>>(
    _ other: Other, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Property<Bool> {
    let (a, b) = (property, other.property)
    return Property(
      read: { [a = a.reader, b = b.reader] in a() || b() },
      changes: HotSignal(
        node: makeCombineLatest(
          a, b, origin: NodeOrigin(.combineLatest, fileID: fileID, line: line), failures: neverFailure, neverFailure)
      ).hotMap({ $0 || $1 }, fileID: fileID, line: line)
    )
  }
}

extension Property where Value == Bool {
  /// A property that is `true` while every one of `properties` is (ReactiveSwift's `Property.all(_:)`): the
  /// validity of a form made of fields. Its value is computed from the sources' current values when it is read
  /// (`true` for an empty collection); iterating it yields the current result, then a result on every change of
  /// any source (an unchanged result too: add ``PropertyProtocol/removeDuplicates(fileID:line:)`` to skip those).
  ///
  /// **Finishes:** iterating finishes once every source has finished (at once for an empty collection).
  ///
  /// ```swift
  /// let isFormValid = Property.all([nameIsValid, emailIsValid, passwordIsValid])
  /// let signUp = Command(enabledIf: isFormValid) { try await api.signUp() }
  /// ```
  /// - Parameter properties: the conditions, all of one type (write `.property` to mix subjects and
  ///   properties).
  /// - Returns: the derived ``Property``.
  @inlinable public static func all<Properties: Collection>(
    _ properties: Properties,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Property<Bool> where Properties.Element: PropertyProtocol<Bool> {
    let sources = properties.map(\.property)
    guard !sources.isEmpty else { return Property(value: true) }
    let readers = sources.map(\.reader)
    return Property(
      read: { readers.allSatisfy { $0() } },
      changes: HotSignal(node: makeCombineLatest(sources)).hotMap { $0.allSatisfy { $0 } }
    )
  }

  /// A property that is `true` while at least one of `properties` is (ReactiveSwift's `Property.any(_:)`): its
  /// value is computed from the sources' current values when it is read (`false` for an empty collection);
  /// iterating it yields the current result, then a result on every change of any source (an unchanged result
  /// too: add ``PropertyProtocol/removeDuplicates(fileID:line:)`` to skip those).
  ///
  /// **Finishes:** iterating finishes once every source has finished (at once for an empty collection).
  ///
  /// ```swift
  /// let hasErrors = Property.any([nameHasError, emailHasError])
  /// hasErrors.sink(in: lifetime) { banner.isHidden = !$0 }
  /// ```
  /// - Parameter properties: the conditions, all of one type (write `.property` to mix subjects and
  ///   properties).
  /// - Returns: the derived ``Property``.
  @inlinable public static func any<Properties: Collection>(
    _ properties: Properties,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Property<Bool> where Properties.Element: PropertyProtocol<Bool> {
    let sources = properties.map(\.property)
    guard !sources.isEmpty else { return Property(value: false) }
    let readers = sources.map(\.reader)
    return Property(
      read: { readers.contains { $0() } },
      changes: HotSignal(node: makeCombineLatest(sources)).hotMap { $0.contains(true) }
    )
  }
}

/// A property combining the current values of two properties (ReactiveSwift's `Property.combineLatest`): its
/// value is the pair of their current values, read when it is read; iterating it yields the current pair,
/// then a pair on every change of either.
///
/// Inputs that are all properties (or `AsyncCurrentValueSubject`s that cannot fail) get this overload; any other
/// inputs give the operator on any sequence, a ``Signal``.
///
/// **Finishes:** iterating finishes once both sources have finished (their subjects finished or were
/// released).
///
/// ```swift
/// let form = combineLatest(username, password)          // Property<(String, String)>
/// let isValid = form.map { $0.count >= 3 && $1.count >= 8 }
/// password.value = "hunter22"
/// isValid.value   // reflects the new password at once
/// ```
/// - Returns: the combined ``Property``.
@inlinable public func combineLatest<P1: PropertyProtocol, P2: PropertyProtocol>(
  _ p1: P1, _ p2: P2,
  fileID: StaticString = #fileID, line: UInt = #line
) -> Property<(P1.Value, P2.Value)> {
  let (a, b) = (p1.property, p2.property)
  return Property(
    read: { [a = a.reader, b = b.reader] in (a(), b()) },
    changes: HotSignal(
      node: makeCombineLatest(
        a, b, origin: NodeOrigin(.combineLatest, fileID: fileID, line: line), failures: neverFailure, neverFailure))
  )
}

/// A property combining the current values of three properties; see ``combineLatest(_:_:fileID:line:)-(P1,P2,StaticString,UInt)``.
///
/// ```swift
/// let screen = combineLatest(profile, wallet, orders).map(ScreenState.init)
/// ```
/// - Returns: the combined ``Property``.
@inlinable public func combineLatest<P1: PropertyProtocol, P2: PropertyProtocol, P3: PropertyProtocol>(
  _ p1: P1, _ p2: P2, _ p3: P3,
  fileID: StaticString = #fileID, line: UInt = #line
) -> Property<(P1.Value, P2.Value, P3.Value)> {
  let (a, b, c) = (p1.property, p2.property, p3.property)
  return Property(
    read: { [a = a.reader, b = b.reader, c = c.reader] in (a(), b(), c()) },
    changes: HotSignal(
      node: makeCombineLatest(
        a, b, c, origin: NodeOrigin(.combineLatest, fileID: fileID, line: line), failures: neverFailure, neverFailure,
        neverFailure))
  )
}

/// A property combining the current values of four properties; see ``combineLatest(_:_:fileID:line:)-(P1,P2,StaticString,UInt)``.
///
/// ```swift
/// let form = combineLatest(name, email, password, repeated)
/// ```
/// - Returns: the combined ``Property``.
@inlinable
public func combineLatest<P1: PropertyProtocol, P2: PropertyProtocol, P3: PropertyProtocol, P4: PropertyProtocol>(
  _ p1: P1, _ p2: P2, _ p3: P3, _ p4: P4,
  fileID: StaticString = #fileID, line: UInt = #line
) -> Property<(P1.Value, P2.Value, P3.Value, P4.Value)> {
  let (a, b, c, d) = (p1.property, p2.property, p3.property, p4.property)
  return Property(
    read: { [a = a.reader, b = b.reader, c = c.reader, d = d.reader] in (a(), b(), c(), d()) },
    changes: HotSignal(
      node: makeCombineLatest(
        a, b, c, d, origin: NodeOrigin(.combineLatest, fileID: fileID, line: line), failures: neverFailure,
        neverFailure, neverFailure, neverFailure))
  )
}

/// A property combining the current values of five properties; see ``combineLatest(_:_:fileID:line:)-(P1,P2,StaticString,UInt)``.
///
/// ```swift
/// let state = combineLatest(a, b, c, d, e)
/// ```
/// - Returns: the combined ``Property``.
@inlinable
public func combineLatest<
  P1: PropertyProtocol, P2: PropertyProtocol, P3: PropertyProtocol, P4: PropertyProtocol, P5: PropertyProtocol
>(
  _ p1: P1, _ p2: P2, _ p3: P3, _ p4: P4, _ p5: P5,
  fileID: StaticString = #fileID, line: UInt = #line
) -> Property<(P1.Value, P2.Value, P3.Value, P4.Value, P5.Value)> {
  let (a, b, c, d, e) = (p1.property, p2.property, p3.property, p4.property, p5.property)
  return Property(
    read: { [a = a.reader, b = b.reader, c = c.reader, d = d.reader, e = e.reader] in (a(), b(), c(), d(), e()) },
    changes: HotSignal(
      node: makeCombineLatest(
        a, b, c, d, e, origin: NodeOrigin(.combineLatest, fileID: fileID, line: line), failures: neverFailure,
        neverFailure, neverFailure, neverFailure, neverFailure))
  )
}

/// A property combining the current values of six properties; see ``combineLatest(_:_:fileID:line:)-(P1,P2,StaticString,UInt)``.
///
/// ```swift
/// let state = combineLatest(a, b, c, d, e, f)
/// ```
/// - Returns: the combined ``Property``.
@inlinable
public func combineLatest<
  P1: PropertyProtocol, P2: PropertyProtocol, P3: PropertyProtocol, P4: PropertyProtocol, P5: PropertyProtocol,
  P6: PropertyProtocol
>(
  _ p1: P1, _ p2: P2, _ p3: P3, _ p4: P4, _ p5: P5, _ p6: P6,
  fileID: StaticString = #fileID, line: UInt = #line
) -> Property<(P1.Value, P2.Value, P3.Value, P4.Value, P5.Value, P6.Value)> {
  let (a, b, c, d, e, f) = (p1.property, p2.property, p3.property, p4.property, p5.property, p6.property)
  return Property(
    read: { [a = a.reader, b = b.reader, c = c.reader, d = d.reader, e = e.reader, f = f.reader] in
      (a(), b(), c(), d(), e(), f())
    },
    changes: HotSignal(
      node: makeCombineLatest(
        a, b, c, d, e, f, origin: NodeOrigin(.combineLatest, fileID: fileID, line: line), failures: neverFailure,
        neverFailure, neverFailure, neverFailure, neverFailure, neverFailure))
  )
}

/// A property combining the current values of an array of properties, in order. An empty array gives a
/// constant empty array.
///
/// ```swift
/// let allValid = combineLatest(fields.map(\.isValid)).map { $0.allSatisfy { $0 } }
/// ```
/// - Parameter properties: the sources; the value has one element per source, in this order.
/// - Returns: the combined ``Property``.
@inlinable public func combineLatest<P: PropertyProtocol>(
  _ properties: [P], fileID: StaticString = #fileID, line: UInt = #line
) -> Property<[P.Value]> {
  let sources = properties.map(\.property)
  guard !sources.isEmpty else { return Property(value: []) }
  return Property(read: { sources.map(\.value) }, changes: HotSignal(node: makeCombineLatest(sources)))
}
