/// How `single()` and `single(where:)` fail: the upstream finished without a (matching) value, sent a second one, or
/// failed (RxSwift's `RxError.noElements` and `RxError.moreThanOneElement`).
///
/// ```swift
/// do throws(SingleFailure<APIError>) {
///   for try await user in api.users(named: name).single() { show(user) }
/// } catch .noElements {
///   showNotFound()
/// } catch .moreThanOneElement {
///   showAmbiguous()
/// } catch .failed(let error) {
///   show(error)
/// }
/// ```
public enum SingleFailure<Failure: Error>: Error {
  /// The upstream finished without a value (for `single(where:)`, without a value that matches).
  case noElements
  /// The upstream sent a second value (that matches); the upstream is let go at once.
  case moreThanOneElement
  /// The upstream failed, or the predicate of `single(where:)` threw.
  case failed(Failure)
}

extension SingleFailure: Equatable where Failure: Equatable {}

extension SingleFailure: Hashable where Failure: Hashable {}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Passes on the upstream's one value, and fails if it has none or a second one (RxSwift `single()`).
  ///
  /// The value is passed on when it comes; the result finishes when the upstream does, so that a second value can
  /// still fail it.
  ///
  /// | upstream      | result                          |
  /// |---------------|---------------------------------|
  /// | 2             | 2                               |
  /// | 3             | fails: `.moreThanOneElement`    |
  ///
  /// **Finishes:** when the upstream finishes after exactly one value. **Throws:** ``SingleFailure/noElements``
  /// when the upstream finishes without a value, ``SingleFailure/moreThanOneElement`` at the second value (the
  /// upstream is let go), ``SingleFailure/failed(_:)`` with the upstream's failure.
  ///
  /// ```swift
  /// let account = try await accounts.single().first(where: { _ in true })   // exactly one, or a failure
  /// ```
  /// - Returns: a ``Signal`` of at most one value; hot when this sequence is.
  @inlinable public func single(fileID: StaticString = #fileID, line: UInt = #line) -> Signal<
    Element, SingleFailure<Failure>
  > {
    Signal(self).lift(synchronous: true) {
      $0.hotSingle(where: { _ throws(Failure) in true }, origin: NodeOrigin(.single, fileID: fileID, line: line))
    }
  }

  /// Passes on the upstream's one value that matches `predicate`, and fails if none or a second one matches
  /// (RxSwift `single(_:)`); values that do not match are dropped.
  ///
  /// **Finishes:** when the upstream finishes after exactly one matching value. **Throws:**
  /// ``SingleFailure/noElements`` when the upstream finishes without a matching value,
  /// ``SingleFailure/moreThanOneElement`` at the second one (the upstream is let go), ``SingleFailure/failed(_:)``
  /// with the upstream's failure or what `predicate` throws (at once).
  ///
  /// ```swift
  /// for try await admin in members.single(where: { $0.isAdmin }) { show(admin) }
  /// ```
  /// - Parameter predicate: whether a value is the one; it may throw the upstream's failure type.
  /// - Returns: a ``Signal`` of at most one value; hot when this sequence is.
  @inlinable public func single(
    where predicate: @escaping @Sendable (Element) throws(Failure) -> Bool,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Element, SingleFailure<Failure>> {
    Signal(self).lift(synchronous: true) {
      $0.hotSingle(where: predicate, origin: NodeOrigin(.single, fileID: fileID, line: line))
    }
  }
}

extension HotSequence {
  /// Passes on the one value that matches `predicate` inside the upstream's `send`, failing the node at a second
  /// one, or at the upstream's finish when none came; one count per connection (``single(fileID:line:)``).
  @inlinable package func hotSingle(
    where predicate: @escaping @Sendable (Element) throws(Failure) -> Bool, origin: NodeOrigin
  ) -> HotSignal<Element, SingleFailure<Failure>> {
    HotSignal<Element, SingleFailure<Failure>>(
      node: .observing(hotSignal.node, origin: origin) { node in
        let seen = ConnectionState(false)
        return (
          onValue: { value in
            guard !node.isTerminated else { return }
            do throws(Failure) {
              guard try predicate(value) else { return }
            } catch {
              node.terminate(.failed(.failed(error)))
              return
            }
            if seen.value {
              node.terminate(.failed(.moreThanOneElement))
            } else {
              seen.value = true
              node.send(value)
            }
          },
          onEnd: { termination in
            guard !node.isTerminated else { return }
            switch termination {
            case .finished: node.terminate(seen.value ? .finished : .failed(.noElements))
            case .failed(let failure): node.terminate(.failed(.failed(failure)))
            }
          }
        )
      })
  }
}
