// The hot forms of `withLatestFrom`: evaluated inside the sends of both inputs, so that each element of this
// sequence is paired with the other input's latest element *at the moment it was sent* (RxSwift, ReactiveSwift).
// The node builders the operator on any sequence (AsyncSequence+WithLatestFrom.swift) runs: `other` is observed as
// what its value is (a property read at each send, a hot one inside its sends, a cold one run per connection).

extension HotSequence {
  /// The node under every hot `withLatestFrom`: it observes `other` before this sequence (so that a current
  /// value is there for the first element) and pairs through the shared ``WithLatestFromRule``.
  @inlinable func hotWithLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable, ResultFailure: Error>(
    origin: NodeOrigin = NodeOrigin(.withLatestFrom),
    _ other: Other,
    combine: @escaping @Sendable (Element, Other.Element) -> Output,
    baseFailure: @escaping @Sendable (Failure) -> ResultFailure,
    otherFailure: @escaping @Sendable (Other.Failure) -> ResultFailure
  ) -> HotSignal<Output, ResultFailure> where Other.Element: Sendable {
    // A property (a derived `Property`, a current-value subject that cannot fail) is read, not observed: its value
    // at this sequence's send, computed from its sources' current values. Decided once, from the value.
    if let property = (other as? any PropertyProtocol<Other.Element>)?.property {
      return hotWithLatestValue(origin: origin, property, combine: combine, failure: baseFailure)
    }
    typealias Rule = WithLatestFromRule<Element, Other.Element>
    typealias Inputs = HotInputs<Rule, Output, ResultFailure>
    let inputs: [Inputs.Attach] = [
      Inputs.attach(any: other, index: Rule.otherIndex, failure: otherFailure) { rule, latest in
        rule.receiveLatest(latest)
      },
      Inputs.attach(self, index: Rule.baseIndex, failure: baseFailure) { rule, value in rule.receive(value) },
    ]
    let replay: SubjectStorage<Output, ResultFailure>.Replay = replaysCurrent ? .current : .none
    let inputNodes = NodeInputs([hotSignal.node, graphInput(other)].compactMap { $0 })
    return HotSignal(
      node: Inputs.node(
        inputs, replay: replay, origin: origin, inputNodes: inputNodes, output: { combine($0.0, $0.1) }
      ) { Rule() })
  }

  /// The node under the property forms: the property's value is read inside this sequence's `send`.
  @inlinable func hotWithLatestValue<Source: PropertyProtocol, Output: Sendable, ResultFailure: Error>(
    origin: NodeOrigin = NodeOrigin(.withLatestFrom),
    _ property: Source, combine: @escaping @Sendable (Element, Source.Value) -> Output,
    failure: @escaping @Sendable (Failure) -> ResultFailure
  ) -> HotSignal<Output, ResultFailure> {
    HotSignal(
      node: .observing(hotSignal.node, origin: origin, inputs: .many([hotSignal.node, property.hotSignal.node])) {
        node in
        { value in node.send(combine(value, property.value)) }
      } onEnd: { node, termination in
        node.terminate(mapTermination(termination, failure))
      })
  }
}

extension HotSequence {
  /// Pairs each element with the latest element of `other`, inside the sends: an element is paired with what `other`
  /// held when the element was sent (RxSwift `withLatestFrom`, ReactiveSwift `withLatest(from:)`).
  ///
  /// ```swift
  /// let settings = Signal.future { await store.loadSettings() }
  /// let saves = saveTaps.withLatestFrom(settings)   // HotSignal<((), Settings), Never>
  /// ```
  /// - Parameter other: the sequence whose latest element goes with each element.
  /// - Returns: a ``HotSignal`` of `(Element, Other.Element)`.
  @inlinable package func hotWithLatestFrom<Other: AsyncSequence & Sendable>(
    _ other: Other,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<(Element, Other.Element), Never>
  where Other.Element: Sendable, Failure == Never, Other.Failure == Never {
    hotWithLatestFrom(
      origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: { ($0, $1) },
      baseFailure: neverFailure, otherFailure: neverFailure)
  }

  /// Pairs each element with the latest element of `other`, inside the sends.
  ///
  /// **Throws:** the inputs' common `Failure`, as soon as either fails.
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal)   // HotSignal<((), Settings), Failure>
  /// ```
  @inlinable package func hotWithLatestFrom<Other: AsyncSequence & Sendable>(
    _ other: Other,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<(Element, Other.Element), Failure> where Other.Element: Sendable, Other.Failure == Failure {
    hotWithLatestFrom(
      origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: { ($0, $1) },
      baseFailure: { $0 }, otherFailure: { $0 })
  }

  /// Pairs each element with the latest element of `other`, inside the sends.
  ///
  /// **Throws:** the cold input's `Failure`, as soon as it fails; this sequence cannot fail.
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal)   // HotSignal<((), Settings), Other.Failure>
  /// ```
  @inlinable package func hotWithLatestFrom<Other: AsyncSequence & Sendable>(
    _ other: Other,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<(Element, Other.Element), Other.Failure> where Other.Element: Sendable, Failure == Never {
    hotWithLatestFrom(
      origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: { ($0, $1) },
      baseFailure: neverFailure, otherFailure: { $0 })
  }

  /// Pairs each element with the latest element of `other`, inside the sends.
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails; the cold input cannot fail.
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal)   // HotSignal<((), Settings), Failure>
  /// ```
  @inlinable package func hotWithLatestFrom<Other: AsyncSequence & Sendable>(
    _ other: Other,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<(Element, Other.Element), Failure> where Other.Element: Sendable, Other.Failure == Never {
    hotWithLatestFrom(
      origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: { ($0, $1) },
      baseFailure: { $0 }, otherFailure: neverFailure)
  }

  /// Pairs each element with the latest element of `other`, inside the sends.
  ///
  /// **Throws:** the first failure of either input, as `any Error` (for inputs whose failure types differ).
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal)   // HotSignal<((), Settings), any Error>
  /// ```
  @inlinable package func hotWithLatestFrom<Other: AsyncSequence & Sendable>(
    _ other: Other,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<(Element, Other.Element), any Error> where Other.Element: Sendable {
    hotWithLatestFrom(
      origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: { ($0, $1) },
      baseFailure: { $0 }, otherFailure: { $0 })
  }

  /// Combines each element with the latest element of `other` through `combine`, inside the sends.
  ///
  /// **Throws:** nothing: neither input can fail.
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal) { $1.theme }   // HotSignal<Theme, Never>
  /// ```
  @inlinable package func hotWithLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Output, Never> where Other.Element: Sendable, Failure == Never, Other.Failure == Never {
    hotWithLatestFrom(
      origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: combine,
      baseFailure: neverFailure, otherFailure: neverFailure)
  }

  /// Combines each element with the latest element of `other` through `combine`, inside the sends.
  ///
  /// **Throws:** the inputs' common `Failure`, as soon as either fails.
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal) { $1.theme }   // HotSignal<Theme, Failure>
  /// ```
  @inlinable package func hotWithLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Output, Failure> where Other.Element: Sendable, Other.Failure == Failure {
    hotWithLatestFrom(
      origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: combine, baseFailure: { $0 },
      otherFailure: { $0 })
  }

  /// Combines each element with the latest element of `other` through `combine`, inside the sends.
  ///
  /// **Throws:** the cold input's `Failure`, as soon as it fails; this sequence cannot fail.
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal) { $1.theme }   // HotSignal<Theme, Other.Failure>
  /// ```
  @inlinable package func hotWithLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Output, Other.Failure> where Other.Element: Sendable, Failure == Never {
    hotWithLatestFrom(
      origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: combine,
      baseFailure: neverFailure, otherFailure: { $0 })
  }

  /// Combines each element with the latest element of `other` through `combine`, inside the sends.
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails; the cold input cannot fail.
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal) { $1.theme }   // HotSignal<Theme, Failure>
  /// ```
  @inlinable package func hotWithLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Output, Failure> where Other.Element: Sendable, Other.Failure == Never {
    hotWithLatestFrom(
      origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: combine, baseFailure: { $0 },
      otherFailure: neverFailure)
  }

  /// Combines each element with the latest element of `other` through `combine`, inside the sends.
  ///
  /// **Throws:** the first failure of either input, as `any Error` (for inputs whose failure types differ).
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal) { $1.theme }   // HotSignal<Theme, any Error>
  /// ```
  @inlinable package func hotWithLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> HotSignal<Output, any Error> where Other.Element: Sendable {
    hotWithLatestFrom(
      origin: NodeOrigin(.withLatestFrom, fileID: fileID, line: line), other, combine: combine, baseFailure: { $0 },
      otherFailure: { $0 })
  }

}
