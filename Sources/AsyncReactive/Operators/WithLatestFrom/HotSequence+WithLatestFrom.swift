// The hot forms of `withLatestFrom`: evaluated inside the sends of both inputs, so that each element of this
// sequence is paired with the other input's latest element *at the moment it was sent* (RxSwift, ReactiveSwift).
// The same overload set as the stream forms (five failure-type variants, pairs or a closure) plus the two
// property forms, each with `Self: HotSequence`: for hot inputs every one of them is more specific than its
// stream counterpart, so a hot base never falls back to the pull form. Then the same ten for a cold `other` (a
// `Signal`, an `AsyncStream`): still hot, `other` iterated by a pump task per connection. A cold base keeps the
// stream form (each iteration runs the base anew, as ReactiveSwift's `SignalProducer.withLatest(from:)` does).

extension HotSequence {
  /// The node under every hot `withLatestFrom`: it observes `other` before this sequence (so that a current
  /// value is there for the first element) and pairs through the shared ``WithLatestFromRule``.
  @inlinable func hotWithLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable, ResultFailure: Error>(
    _ other: Other,
    combine: @escaping @Sendable (Element, Other.Element) -> Output,
    baseFailure: @escaping @Sendable (Failure) -> ResultFailure,
    otherFailure: @escaping @Sendable (Other.Failure) -> ResultFailure
  ) -> HotSignal<Output, ResultFailure> where Other.Element: Sendable {
    typealias Rule = WithLatestFromRule<Element, Other.Element>
    typealias Inputs = HotInputs<Rule, Output, ResultFailure>
    let inputs: [Inputs.Attach] = [
      Inputs.attach(any: other, index: Rule.otherIndex, failure: otherFailure) { rule, latest in
        rule.receiveLatest(latest)
      },
      Inputs.attach(self, index: Rule.baseIndex, failure: baseFailure) { rule, value in rule.receive(value) },
    ]
    let replay: SubjectStorage<Output, ResultFailure>.Replay = replaysCurrent ? .latest(1) : .none
    return HotSignal(node: Inputs.node(inputs, replay: replay, output: { combine($0.0, $0.1) }) { Rule() })
  }

  /// The node under the property forms: the property's value is read inside this sequence's `send`.
  @inlinable func hotWithLatestValue<Source: PropertyProtocol, Output: Sendable>(
    _ property: Source, combine: @escaping @Sendable (Element, Source.Value) -> Output
  ) -> HotSignal<Output, Failure> {
    HotSignal(
      node: .observing(hotSignal.node) { node in
        { value in node.send(combine(value, property.value)) }
      } onEnd: { node, termination in
        node.terminate(termination)
      })
  }
}

extension HotSequence {
  // MARK: Pairs
  /// Pairs each element with the latest element of `other`, inside the sends: an element is paired with what
  /// `other` held when the element was sent (RxSwift `withLatestFrom`, ReactiveSwift `withLatest(from:)`).
  ///
  /// Only this sequence's elements produce output; the ones sent before `other` has produced anything are
  /// dropped (RxSwift).
  ///
  /// **Finishes:** when this sequence finishes; the end of `other` changes nothing.
  ///
  /// **Throws:** nothing: neither input can fail.
  ///
  /// ```swift
  /// let credentials = signupTaps.withLatestFrom(combineLatest(username, password))
  /// password.send("secret2")
  /// signupTaps.send()      // credentials has produced ((), ("tom", "secret2")) when this returns
  /// ```
  /// - Parameter other: the sequence whose latest element goes with each element.
  /// - Returns: a ``HotSignal`` of `(Element, Other.Element)`.
  @inlinable public func withLatestFrom<Other: HotSequence>(
    _ other: Other
  ) -> HotSignal<(Element, Other.Element), Never>
  where Other.Element: Sendable, Failure == Never, Other.Failure == Never {
    hotWithLatestFrom(other, combine: { ($0, $1) }, baseFailure: neverFailure, otherFailure: neverFailure)
  }
  /// Pairs each element with the latest element of `other`, inside the sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-32yjb`` does; only what differs is written here.
  ///
  /// **Throws:** the inputs' common `Failure`, as soon as either fails.
  ///
  /// ```swift
  /// let pairs = orders.withLatestFrom(rates)   // HotSignal<(Order, Rate), Failure>
  /// ```
  @inlinable public func withLatestFrom<Other: HotSequence>(
    _ other: Other
  ) -> HotSignal<(Element, Other.Element), Failure>
  where Other.Element: Sendable, Other.Failure == Failure {
    hotWithLatestFrom(other, combine: { ($0, $1) }, baseFailure: { $0 }, otherFailure: { $0 })
  }
  /// Pairs each element with the latest element of `other`, inside the sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-32yjb`` does; only what differs is written here.
  ///
  /// **Throws:** the other input's `Failure`, as soon as it fails.
  ///
  /// ```swift
  /// let pairs = orders.withLatestFrom(rates)   // HotSignal<(Order, Rate), Other.Failure>
  /// ```
  @inlinable public func withLatestFrom<Other: HotSequence>(
    _ other: Other
  ) -> HotSignal<(Element, Other.Element), Other.Failure>
  where Other.Element: Sendable, Failure == Never {
    hotWithLatestFrom(other, combine: { ($0, $1) }, baseFailure: neverFailure, otherFailure: { $0 })
  }
  /// Pairs each element with the latest element of `other`, inside the sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-32yjb`` does; only what differs is written here.
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails.
  ///
  /// ```swift
  /// let pairs = orders.withLatestFrom(rates)   // HotSignal<(Order, Rate), Failure>
  /// ```
  @inlinable public func withLatestFrom<Other: HotSequence>(
    _ other: Other
  ) -> HotSignal<(Element, Other.Element), Failure>
  where Other.Element: Sendable, Other.Failure == Never {
    hotWithLatestFrom(other, combine: { ($0, $1) }, baseFailure: { $0 }, otherFailure: neverFailure)
  }
  /// Pairs each element with the latest element of `other`, inside the sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-32yjb`` does; only what differs is written here.
  ///
  /// **Throws:** the first error of either input, as `any Error` (for inputs whose failure types differ).
  ///
  /// ```swift
  /// let pairs = orders.withLatestFrom(rates)   // HotSignal<(Order, Rate), any Error>
  /// ```
  @inlinable public func withLatestFrom<Other: HotSequence>(
    _ other: Other
  ) -> HotSignal<(Element, Other.Element), any Error> {
    hotWithLatestFrom(other, combine: { ($0, $1) }, baseFailure: { $0 }, otherFailure: { $0 })
  }
  // MARK: Combined by a closure
  /// Combines each element with the latest element of `other` through `combine`, inside the sends (RxSwift
  /// `withLatestFrom(_:resultSelector:)`).
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-32yjb`` does; `combine` runs once per element, on the sending thread, outside any lock.
  ///
  /// **Throws:** nothing: neither input can fail.
  ///
  /// ```swift
  /// let signups = signupTaps.withLatestFrom(combineLatest(username, password)) { $1 }
  /// ```
  /// - Parameters:
  ///   - other: the sequence whose latest element goes with each element.
  ///   - combine: makes an output from an element and the latest element of `other`.
  /// - Returns: a ``HotSignal`` of the combined values.
  @inlinable public func withLatestFrom<Other: HotSequence, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output
  ) -> HotSignal<Output, Never>
  where Other.Element: Sendable, Failure == Never, Other.Failure == Never {
    hotWithLatestFrom(other, combine: combine, baseFailure: neverFailure, otherFailure: neverFailure)
  }
  /// Combines each element with the latest element of `other` through `combine`, inside the sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-32yjb`` does, each pair combined by
  /// `combine`; only what differs is written here.
  ///
  /// **Throws:** the inputs' common `Failure`, as soon as either fails.
  ///
  /// ```swift
  /// let totals = orders.withLatestFrom(rates) { $0.total * $1 }   // HotSignal<Double, Failure>
  /// ```
  @inlinable public func withLatestFrom<Other: HotSequence, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output
  ) -> HotSignal<Output, Failure>
  where Other.Element: Sendable, Other.Failure == Failure {
    hotWithLatestFrom(other, combine: combine, baseFailure: { $0 }, otherFailure: { $0 })
  }
  /// Combines each element with the latest element of `other` through `combine`, inside the sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-32yjb`` does, each pair combined by
  /// `combine`; only what differs is written here.
  ///
  /// **Throws:** the other input's `Failure`, as soon as it fails.
  ///
  /// ```swift
  /// let totals = orders.withLatestFrom(rates) { $0.total * $1 }   // HotSignal<Double, Other.Failure>
  /// ```
  @inlinable public func withLatestFrom<Other: HotSequence, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output
  ) -> HotSignal<Output, Other.Failure>
  where Other.Element: Sendable, Failure == Never {
    hotWithLatestFrom(other, combine: combine, baseFailure: neverFailure, otherFailure: { $0 })
  }
  /// Combines each element with the latest element of `other` through `combine`, inside the sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-32yjb`` does, each pair combined by
  /// `combine`; only what differs is written here.
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails.
  ///
  /// ```swift
  /// let totals = orders.withLatestFrom(rates) { $0.total * $1 }   // HotSignal<Double, Failure>
  /// ```
  @inlinable public func withLatestFrom<Other: HotSequence, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output
  ) -> HotSignal<Output, Failure>
  where Other.Element: Sendable, Other.Failure == Never {
    hotWithLatestFrom(other, combine: combine, baseFailure: { $0 }, otherFailure: neverFailure)
  }
  /// Combines each element with the latest element of `other` through `combine`, inside the sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-32yjb`` does, each pair combined by
  /// `combine`; only what differs is written here.
  ///
  /// **Throws:** the first error of either input, as `any Error` (for inputs whose failure types differ).
  ///
  /// ```swift
  /// let totals = orders.withLatestFrom(rates) { $0.total * $1 }   // HotSignal<Double, any Error>
  /// ```
  @inlinable public func withLatestFrom<Other: HotSequence, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output
  ) -> HotSignal<Output, any Error> {
    hotWithLatestFrom(other, combine: combine, baseFailure: { $0 }, otherFailure: { $0 })
  }
  // MARK: The latest value of a property

  /// Pairs each element with the current value of `property`, read inside this sequence's `send`: a tap is paired
  /// with the text that was in the field when it was tapped, never a later edit.
  ///
  /// A property always has a value, so no element is dropped.
  ///
  /// **Finishes:** when this sequence finishes. **Throws:** nothing: neither input can fail.
  ///
  /// ```swift
  /// let submits = taps.withLatestFrom(viewModel.password)
  /// taps.send()
  /// viewModel.password.value = "later"     // the tap was paired with the password before this edit
  /// ```
  /// - Parameter property: the property whose value goes with each element.
  /// - Returns: a ``HotSignal`` of `(Element, Source.Value)`.
  @inlinable public func withLatestFrom<Source: PropertyProtocol>(
    _ property: Source
  ) -> HotSignal<(Element, Source.Value), Never> where Failure == Never {
    hotWithLatestValue(property) { ($0, $1) }
  }

  /// Pairs each element with the current value of `property`, read inside this sequence's `send`.
  ///
  /// Works as ``withLatestFrom(_:)->HotSignal<(Self.Element,Source.Value),Never>`` does, for a sequence that can
  /// fail. **Throws:** this sequence's `Failure`.
  ///
  /// ```swift
  /// let requests = refreshes.withLatestFrom(viewModel.filter)   // HotSignal<((), Filter), APIError>
  /// ```
  @inlinable public func withLatestFrom<Source: PropertyProtocol>(
    _ property: Source
  ) -> HotSignal<(Element, Source.Value), Failure> {
    hotWithLatestValue(property) { ($0, $1) }
  }

  /// Combines each element with the current value of `property` through `combine`, inside this sequence's
  /// `send`.
  ///
  /// Works as ``withLatestFrom(_:)->HotSignal<(Self.Element,Source.Value),Never>`` does.
  ///
  /// ```swift
  /// let signups = taps.withLatestFrom(combineLatest(username, password)) { _, form in form }
  /// ```
  @inlinable public func withLatestFrom<Source: PropertyProtocol, Output: Sendable>(
    _ property: Source,
    _ combine: @escaping @Sendable (Element, Source.Value) -> Output
  ) -> HotSignal<Output, Never> where Failure == Never {
    hotWithLatestValue(property, combine: combine)
  }

  /// Combines each element with the current value of `property` through `combine`, inside this sequence's
  /// `send`, for a sequence that can fail. **Throws:** this sequence's `Failure`.
  ///
  /// ```swift
  /// let queries = refreshes.withLatestFrom(viewModel.filter) { $1.query }   // HotSignal<String, APIError>
  /// ```
  @inlinable public func withLatestFrom<Source: PropertyProtocol, Output: Sendable>(
    _ property: Source,
    _ combine: @escaping @Sendable (Element, Source.Value) -> Output
  ) -> HotSignal<Output, Failure> {
    hotWithLatestValue(property, combine: combine)
  }
}

// MARK: A cold other input

extension HotSequence {
  /// Pairs each element with the latest element of a cold `other` (a ``Signal``, an `AsyncStream`), inside this
  /// sequence's sends.
  ///
  /// The result is hot, as with a hot `other` (``HotSequence/withLatestFrom(_:)-32yjb``): an element is paired inside its `send`
  /// with what `other` last produced. `other` is iterated by one pump task from the result's first consumer to its
  /// last (a later connection runs it anew), so its elements count from the moment its pump hands them over, and
  /// the elements sent before its first one are dropped (RxSwift).
  ///
  /// **Finishes:** when this sequence finishes; the end of `other` changes nothing.
  ///
  /// **Throws:** nothing: neither input can fail.
  ///
  /// ```swift
  /// let settings = Signal.future { await store.loadSettings() }
  /// let saves = saveTaps.withLatestFrom(settings)   // HotSignal<((), Settings), Never>
  /// ```
  /// - Parameter other: the cold sequence whose latest element goes with each element.
  /// - Returns: a ``HotSignal`` of `(Element, Other.Element)`.
  @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable>(
    _ other: Other
  ) -> HotSignal<(Element, Other.Element), Never>
  where Other.Element: Sendable, Failure == Never, Other.Failure == Never {
    hotWithLatestFrom(other, combine: { ($0, $1) }, baseFailure: neverFailure, otherFailure: neverFailure)
  }

  /// Pairs each element with the latest element of a cold `other`, inside this sequence's sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-5xrri`` does.
  ///
  /// **Throws:** the inputs' common `Failure`, as soon as either fails.
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal)   // HotSignal<((), Settings), Failure>
  /// ```
  @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable>(
    _ other: Other
  ) -> HotSignal<(Element, Other.Element), Failure> where Other.Element: Sendable, Other.Failure == Failure {
    hotWithLatestFrom(other, combine: { ($0, $1) }, baseFailure: { $0 }, otherFailure: { $0 })
  }

  /// Pairs each element with the latest element of a cold `other`, inside this sequence's sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-5xrri`` does.
  ///
  /// **Throws:** the cold input's `Failure`, as soon as it fails; this sequence cannot fail.
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal)   // HotSignal<((), Settings), Other.Failure>
  /// ```
  @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable>(
    _ other: Other
  ) -> HotSignal<(Element, Other.Element), Other.Failure> where Other.Element: Sendable, Failure == Never {
    hotWithLatestFrom(other, combine: { ($0, $1) }, baseFailure: neverFailure, otherFailure: { $0 })
  }

  /// Pairs each element with the latest element of a cold `other`, inside this sequence's sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-5xrri`` does.
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails; the cold input cannot fail.
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal)   // HotSignal<((), Settings), Failure>
  /// ```
  @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable>(
    _ other: Other
  ) -> HotSignal<(Element, Other.Element), Failure> where Other.Element: Sendable, Other.Failure == Never {
    hotWithLatestFrom(other, combine: { ($0, $1) }, baseFailure: { $0 }, otherFailure: neverFailure)
  }

  /// Pairs each element with the latest element of a cold `other`, inside this sequence's sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-5xrri`` does.
  ///
  /// **Throws:** the first failure of either input, as `any Error` (for inputs whose failure types differ).
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal)   // HotSignal<((), Settings), any Error>
  /// ```
  @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable>(
    _ other: Other
  ) -> HotSignal<(Element, Other.Element), any Error> where Other.Element: Sendable {
    hotWithLatestFrom(other, combine: { ($0, $1) }, baseFailure: { $0 }, otherFailure: { $0 })
  }

  /// Combines each element with the latest element of a cold `other` through `combine`, inside this sequence's sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-5xrri`` does, each pair combined by `combine` (once per element, outside any lock).
  ///
  /// **Throws:** nothing: neither input can fail.
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal) { $1.theme }   // HotSignal<Theme, Never>
  /// ```
  @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output
  ) -> HotSignal<Output, Never> where Other.Element: Sendable, Failure == Never, Other.Failure == Never {
    hotWithLatestFrom(other, combine: combine, baseFailure: neverFailure, otherFailure: neverFailure)
  }

  /// Combines each element with the latest element of a cold `other` through `combine`, inside this sequence's sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-5xrri`` does, each pair combined by `combine` (once per element, outside any lock).
  ///
  /// **Throws:** the inputs' common `Failure`, as soon as either fails.
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal) { $1.theme }   // HotSignal<Theme, Failure>
  /// ```
  @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output
  ) -> HotSignal<Output, Failure> where Other.Element: Sendable, Other.Failure == Failure {
    hotWithLatestFrom(other, combine: combine, baseFailure: { $0 }, otherFailure: { $0 })
  }

  /// Combines each element with the latest element of a cold `other` through `combine`, inside this sequence's sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-5xrri`` does, each pair combined by `combine` (once per element, outside any lock).
  ///
  /// **Throws:** the cold input's `Failure`, as soon as it fails; this sequence cannot fail.
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal) { $1.theme }   // HotSignal<Theme, Other.Failure>
  /// ```
  @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output
  ) -> HotSignal<Output, Other.Failure> where Other.Element: Sendable, Failure == Never {
    hotWithLatestFrom(other, combine: combine, baseFailure: neverFailure, otherFailure: { $0 })
  }

  /// Combines each element with the latest element of a cold `other` through `combine`, inside this sequence's sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-5xrri`` does, each pair combined by `combine` (once per element, outside any lock).
  ///
  /// **Throws:** this sequence's `Failure`, as soon as it fails; the cold input cannot fail.
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal) { $1.theme }   // HotSignal<Theme, Failure>
  /// ```
  @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output
  ) -> HotSignal<Output, Failure> where Other.Element: Sendable, Other.Failure == Never {
    hotWithLatestFrom(other, combine: combine, baseFailure: { $0 }, otherFailure: neverFailure)
  }

  /// Combines each element with the latest element of a cold `other` through `combine`, inside this sequence's sends.
  ///
  /// Works as ``HotSequence/withLatestFrom(_:)-5xrri`` does, each pair combined by `combine` (once per element, outside any lock).
  ///
  /// **Throws:** the first failure of either input, as `any Error` (for inputs whose failure types differ).
  ///
  /// ```swift
  /// let saves = saveTaps.withLatestFrom(settingsSignal) { $1.theme }   // HotSignal<Theme, any Error>
  /// ```
  @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable, Output: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Element, Other.Element) -> Output
  ) -> HotSignal<Output, any Error> where Other.Element: Sendable {
    hotWithLatestFrom(other, combine: combine, baseFailure: { $0 }, otherFailure: { $0 })
  }

}
