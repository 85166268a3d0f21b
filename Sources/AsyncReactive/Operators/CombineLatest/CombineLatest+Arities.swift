// The typed entry points of `combineLatest` for 2 to 6 inputs, two per arity: one for inputs that share a failure
// type (`Never` included), one for inputs whose failure types differ (`any Error`). They all forward to
// the shared n-ary engine; the arity only decides how elements are stored and built into outputs.
// Generated from one template so that the arities stay identical; edit them together. Everything is
// `@inlinable` so that the client's module specialises the whole path for its element types.

/// Combines the latest elements of two sequences into tuples: first once every input has produced, then on every
/// element of any input.
///
/// **Finishes:** at once if an input finishes before producing anything (the others are cancelled); otherwise when
/// every input has finished.
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for await (name, password) in combineLatest(nameSubject, passwordSubject) {
///   loginEnabled.send(!name.isEmpty && password.count >= 8)
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
/// - Returns: an ``AsyncCombineLatestSequence`` of `(Base1.Element, Base2.Element)`.
@inlinable public func combineLatest<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2
) -> AsyncCombineLatestSequence<(Base1.Element, Base2.Element), Base1.Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Failure == Base1.Failure
{
  makeCombineLatest(base1, base2, failures: { $0 }, { $0 })
}

/// Combines the latest elements of two sequences into tuples: first once every input has produced, then on every
/// element of any input.
///
/// **Finishes:** at once if an input finishes before producing anything (the others are cancelled); otherwise when
/// every input has finished.
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await (user, settings) in combineLatest(userSignal, settingsStream) {
///   render(user, settings)
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
/// - Returns: an ``AsyncCombineLatestSequence`` of `(Base1.Element, Base2.Element)`.
@inlinable public func combineLatest<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2
) -> AsyncCombineLatestSequence<(Base1.Element, Base2.Element), any Error>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype
{
  makeCombineLatest(base1, base2, failures: { $0 }, { $0 })
}

/// Combines the latest elements of three sequences into tuples: first once every input has produced, then on every
/// element of any input.
///
/// **Finishes:** at once if an input finishes before producing anything (the others are cancelled); otherwise when
/// every input has finished.
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await (profile, wallet, orders) in combineLatest(profiles, wallets, orderLists) {
///   render(profile, wallet, orders)   // once all three answered, then on each update
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
///   - base3: the third input; its elements go to position 2 of the tuple.
/// - Returns: an ``AsyncCombineLatestSequence`` of `(Base1.Element, Base2.Element, Base3.Element)`.
@inlinable
public func combineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncCombineLatestSequence<(Base1.Element, Base2.Element, Base3.Element), Base1.Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Failure == Base1.Failure,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Failure == Base1.Failure
{
  makeCombineLatest(base1, base2, base3, failures: { $0 }, { $0 }, { $0 })
}

/// Combines the latest elements of three sequences into tuples: first once every input has produced, then on every
/// element of any input.
///
/// **Finishes:** at once if an input finishes before producing anything (the others are cancelled); otherwise when
/// every input has finished.
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// let ready = combineLatest(user, wallet, networkStatus)   // mixed failure types
/// for try await (user, wallet, online) in ready { render(user, wallet, online) }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
///   - base3: the third input; its elements go to position 2 of the tuple.
/// - Returns: an ``AsyncCombineLatestSequence`` of `(Base1.Element, Base2.Element, Base3.Element)`.
@inlinable
public func combineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncCombineLatestSequence<(Base1.Element, Base2.Element, Base3.Element), any Error>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype
{
  makeCombineLatest(base1, base2, base3, failures: { $0 }, { $0 }, { $0 })
}

/// Combines the latest elements of four sequences into tuples: first once every input has produced, then on every
/// element of any input.
///
/// **Finishes:** at once if an input finishes before producing anything (the others are cancelled); otherwise when
/// every input has finished.
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for await (v1, v2, v3, v4) in combineLatest(input1, input2, input3, input4) {
///   handle(v1, v2, v3, v4)
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
///   - base3: the third input; its elements go to position 2 of the tuple.
///   - base4: the fourth input; its elements go to position 3 of the tuple.
/// - Returns: an ``AsyncCombineLatestSequence`` of `(Base1.Element, Base2.Element, Base3.Element, Base4.Element)`.
@inlinable
public func combineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4
) -> AsyncCombineLatestSequence<(Base1.Element, Base2.Element, Base3.Element, Base4.Element), Base1.Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Failure == Base1.Failure,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Failure == Base1.Failure,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype, Base4.Failure == Base1.Failure
{
  makeCombineLatest(base1, base2, base3, base4, failures: { $0 }, { $0 }, { $0 }, { $0 })
}

/// Combines the latest elements of four sequences into tuples: first once every input has produced, then on every
/// element of any input.
///
/// **Finishes:** at once if an input finishes before producing anything (the others are cancelled); otherwise when
/// every input has finished.
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await (v1, v2, v3, v4) in combineLatest(input1, input2, input3, input4) {
///   handle(v1, v2, v3, v4)
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
///   - base3: the third input; its elements go to position 2 of the tuple.
///   - base4: the fourth input; its elements go to position 3 of the tuple.
/// - Returns: an ``AsyncCombineLatestSequence`` of `(Base1.Element, Base2.Element, Base3.Element, Base4.Element)`.
@inlinable
public func combineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4
) -> AsyncCombineLatestSequence<(Base1.Element, Base2.Element, Base3.Element, Base4.Element), any Error>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype
{
  makeCombineLatest(base1, base2, base3, base4, failures: { $0 }, { $0 }, { $0 }, { $0 })
}

/// Combines the latest elements of five sequences into tuples: first once every input has produced, then on every
/// element of any input.
///
/// **Finishes:** at once if an input finishes before producing anything (the others are cancelled); otherwise when
/// every input has finished.
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for await (v1, v2, v3, v4, v5) in combineLatest(input1, input2, input3, input4, input5) {
///   handle(v1, v2, v3, v4, v5)
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
///   - base3: the third input; its elements go to position 2 of the tuple.
///   - base4: the fourth input; its elements go to position 3 of the tuple.
///   - base5: the fifth input; its elements go to position 4 of the tuple.
/// - Returns: an ``AsyncCombineLatestSequence`` of `(Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element)`.
@inlinable
public func combineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5
) -> AsyncCombineLatestSequence<
  (Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element), Base1.Failure
>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Failure == Base1.Failure,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Failure == Base1.Failure,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype, Base4.Failure == Base1.Failure,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype, Base5.Failure == Base1.Failure
{
  makeCombineLatest(base1, base2, base3, base4, base5, failures: { $0 }, { $0 }, { $0 }, { $0 }, { $0 })
}

/// Combines the latest elements of five sequences into tuples: first once every input has produced, then on every
/// element of any input.
///
/// **Finishes:** at once if an input finishes before producing anything (the others are cancelled); otherwise when
/// every input has finished.
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await (v1, v2, v3, v4, v5) in combineLatest(input1, input2, input3, input4, input5) {
///   handle(v1, v2, v3, v4, v5)
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
///   - base3: the third input; its elements go to position 2 of the tuple.
///   - base4: the fourth input; its elements go to position 3 of the tuple.
///   - base5: the fifth input; its elements go to position 4 of the tuple.
/// - Returns: an ``AsyncCombineLatestSequence`` of `(Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element)`.
@inlinable
public func combineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5
) -> AsyncCombineLatestSequence<(Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element), any Error>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype
{
  makeCombineLatest(base1, base2, base3, base4, base5, failures: { $0 }, { $0 }, { $0 }, { $0 }, { $0 })
}

/// Combines the latest elements of six sequences into tuples: first once every input has produced, then on every
/// element of any input.
///
/// **Finishes:** at once if an input finishes before producing anything (the others are cancelled); otherwise when
/// every input has finished.
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for await (v1, v2, v3, v4, v5, v6) in combineLatest(input1, input2, input3, input4, input5, input6) {
///   handle(v1, v2, v3, v4, v5, v6)
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
///   - base3: the third input; its elements go to position 2 of the tuple.
///   - base4: the fourth input; its elements go to position 3 of the tuple.
///   - base5: the fifth input; its elements go to position 4 of the tuple.
///   - base6: the sixth input; its elements go to position 5 of the tuple.
/// - Returns: an ``AsyncCombineLatestSequence`` of `(Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element, Base6.Element)`.
@inlinable
public func combineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable, Base6: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5, _ base6: Base6
) -> AsyncCombineLatestSequence<
  (Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element, Base6.Element), Base1.Failure
>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Failure == Base1.Failure,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Failure == Base1.Failure,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype, Base4.Failure == Base1.Failure,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype, Base5.Failure == Base1.Failure,
  Base6.Element: Sendable, Base6.AsyncIterator: SendableMetatype, Base6.Failure == Base1.Failure
{
  makeCombineLatest(base1, base2, base3, base4, base5, base6, failures: { $0 }, { $0 }, { $0 }, { $0 }, { $0 }, { $0 })
}

/// Combines the latest elements of six sequences into tuples: first once every input has produced, then on every
/// element of any input.
///
/// **Finishes:** at once if an input finishes before producing anything (the others are cancelled); otherwise when
/// every input has finished.
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await (v1, v2, v3, v4, v5, v6) in combineLatest(input1, input2, input3, input4, input5, input6) {
///   handle(v1, v2, v3, v4, v5, v6)
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
///   - base3: the third input; its elements go to position 2 of the tuple.
///   - base4: the fourth input; its elements go to position 3 of the tuple.
///   - base5: the fifth input; its elements go to position 4 of the tuple.
///   - base6: the sixth input; its elements go to position 5 of the tuple.
/// - Returns: an ``AsyncCombineLatestSequence`` of `(Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element, Base6.Element)`.
@inlinable
public func combineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable, Base6: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5, _ base6: Base6
) -> AsyncCombineLatestSequence<
  (Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element, Base6.Element), any Error
>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype,
  Base6.Element: Sendable, Base6.AsyncIterator: SendableMetatype
{
  makeCombineLatest(base1, base2, base3, base4, base5, base6, failures: { $0 }, { $0 }, { $0 }, { $0 }, { $0 }, { $0 })
}

/// Builds the sequence once the overload chose how each input's failure becomes the result's.
@inlinable func makeCombineLatest<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Failure: Error>(
  _ base1: Base1, _ base2: Base2,
  failures failure1: @escaping @Sendable (Base1.Failure) -> Failure,
  _ failure2: @escaping @Sendable (Base2.Failure) -> Failure
) -> AsyncCombineLatestSequence<(Base1.Element, Base2.Element), Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype
{
  typealias Rule = CombineLatestRule<(Base1.Element?, Base2.Element?), (Base1.Element, Base2.Element)>
  return AsyncCombineLatestSequence {
    let cell = NaryRuleCell(Rule(inputCount: 2, empty: (nil, nil)) { latest in (latest.0!, latest.1!) })
    return NaryStorage(
      inputs: [
        .subscribe(base1, index: 0, failure: failure1, rule: cell) { rule, element in
          rule.receive(from: 0) { $0.0 = element }
        },
        .subscribe(base2, index: 1, failure: failure2, rule: cell) { rule, element in
          rule.receive(from: 1) { $0.1 = element }
        },
      ]
    )
  }
}

@inlinable
func makeCombineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable, Failure: Error
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3,
  failures failure1: @escaping @Sendable (Base1.Failure) -> Failure,
  _ failure2: @escaping @Sendable (Base2.Failure) -> Failure,
  _ failure3: @escaping @Sendable (Base3.Failure) -> Failure
) -> AsyncCombineLatestSequence<(Base1.Element, Base2.Element, Base3.Element), Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype
{
  typealias Rule = CombineLatestRule<
    (Base1.Element?, Base2.Element?, Base3.Element?), (Base1.Element, Base2.Element, Base3.Element)
  >
  return AsyncCombineLatestSequence {
    let cell = NaryRuleCell(Rule(inputCount: 3, empty: (nil, nil, nil)) { latest in (latest.0!, latest.1!, latest.2!) })
    return NaryStorage(
      inputs: [
        .subscribe(base1, index: 0, failure: failure1, rule: cell) { rule, element in
          rule.receive(from: 0) { $0.0 = element }
        },
        .subscribe(base2, index: 1, failure: failure2, rule: cell) { rule, element in
          rule.receive(from: 1) { $0.1 = element }
        },
        .subscribe(base3, index: 2, failure: failure3, rule: cell) { rule, element in
          rule.receive(from: 2) { $0.2 = element }
        },
      ]
    )
  }
}

@inlinable
func makeCombineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Failure: Error
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4,
  failures failure1: @escaping @Sendable (Base1.Failure) -> Failure,
  _ failure2: @escaping @Sendable (Base2.Failure) -> Failure,
  _ failure3: @escaping @Sendable (Base3.Failure) -> Failure,
  _ failure4: @escaping @Sendable (Base4.Failure) -> Failure
) -> AsyncCombineLatestSequence<(Base1.Element, Base2.Element, Base3.Element, Base4.Element), Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype
{
  typealias Rule = CombineLatestRule<
    (Base1.Element?, Base2.Element?, Base3.Element?, Base4.Element?),
    (Base1.Element, Base2.Element, Base3.Element, Base4.Element)
  >
  return AsyncCombineLatestSequence {
    let cell = NaryRuleCell(
      Rule(inputCount: 4, empty: (nil, nil, nil, nil)) { latest in (latest.0!, latest.1!, latest.2!, latest.3!) })
    return NaryStorage(
      inputs: [
        .subscribe(base1, index: 0, failure: failure1, rule: cell) { rule, element in
          rule.receive(from: 0) { $0.0 = element }
        },
        .subscribe(base2, index: 1, failure: failure2, rule: cell) { rule, element in
          rule.receive(from: 1) { $0.1 = element }
        },
        .subscribe(base3, index: 2, failure: failure3, rule: cell) { rule, element in
          rule.receive(from: 2) { $0.2 = element }
        },
        .subscribe(base4, index: 3, failure: failure4, rule: cell) { rule, element in
          rule.receive(from: 3) { $0.3 = element }
        },
      ]
    )
  }
}

@inlinable
func makeCombineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable, Failure: Error
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5,
  failures failure1: @escaping @Sendable (Base1.Failure) -> Failure,
  _ failure2: @escaping @Sendable (Base2.Failure) -> Failure,
  _ failure3: @escaping @Sendable (Base3.Failure) -> Failure,
  _ failure4: @escaping @Sendable (Base4.Failure) -> Failure,
  _ failure5: @escaping @Sendable (Base5.Failure) -> Failure
) -> AsyncCombineLatestSequence<(Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element), Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype
{
  typealias Rule = CombineLatestRule<
    (Base1.Element?, Base2.Element?, Base3.Element?, Base4.Element?, Base5.Element?),
    (Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element)
  >
  return AsyncCombineLatestSequence {
    let cell = NaryRuleCell(
      Rule(inputCount: 5, empty: (nil, nil, nil, nil, nil)) { latest in
        (latest.0!, latest.1!, latest.2!, latest.3!, latest.4!)
      })
    return NaryStorage(
      inputs: [
        .subscribe(base1, index: 0, failure: failure1, rule: cell) { rule, element in
          rule.receive(from: 0) { $0.0 = element }
        },
        .subscribe(base2, index: 1, failure: failure2, rule: cell) { rule, element in
          rule.receive(from: 1) { $0.1 = element }
        },
        .subscribe(base3, index: 2, failure: failure3, rule: cell) { rule, element in
          rule.receive(from: 2) { $0.2 = element }
        },
        .subscribe(base4, index: 3, failure: failure4, rule: cell) { rule, element in
          rule.receive(from: 3) { $0.3 = element }
        },
        .subscribe(base5, index: 4, failure: failure5, rule: cell) { rule, element in
          rule.receive(from: 4) { $0.4 = element }
        },
      ]
    )
  }
}

@inlinable
func makeCombineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable, Base6: AsyncSequence & Sendable, Failure: Error
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5, _ base6: Base6,
  failures failure1: @escaping @Sendable (Base1.Failure) -> Failure,
  _ failure2: @escaping @Sendable (Base2.Failure) -> Failure,
  _ failure3: @escaping @Sendable (Base3.Failure) -> Failure,
  _ failure4: @escaping @Sendable (Base4.Failure) -> Failure,
  _ failure5: @escaping @Sendable (Base5.Failure) -> Failure,
  _ failure6: @escaping @Sendable (Base6.Failure) -> Failure
) -> AsyncCombineLatestSequence<
  (Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element, Base6.Element), Failure
>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype,
  Base6.Element: Sendable, Base6.AsyncIterator: SendableMetatype
{
  typealias Rule = CombineLatestRule<
    (Base1.Element?, Base2.Element?, Base3.Element?, Base4.Element?, Base5.Element?, Base6.Element?),
    (Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element, Base6.Element)
  >
  return AsyncCombineLatestSequence {
    let cell = NaryRuleCell(
      Rule(inputCount: 6, empty: (nil, nil, nil, nil, nil, nil)) { latest in
        (latest.0!, latest.1!, latest.2!, latest.3!, latest.4!, latest.5!)
      })
    return NaryStorage(
      inputs: [
        .subscribe(base1, index: 0, failure: failure1, rule: cell) { rule, element in
          rule.receive(from: 0) { $0.0 = element }
        },
        .subscribe(base2, index: 1, failure: failure2, rule: cell) { rule, element in
          rule.receive(from: 1) { $0.1 = element }
        },
        .subscribe(base3, index: 2, failure: failure3, rule: cell) { rule, element in
          rule.receive(from: 2) { $0.2 = element }
        },
        .subscribe(base4, index: 3, failure: failure4, rule: cell) { rule, element in
          rule.receive(from: 3) { $0.3 = element }
        },
        .subscribe(base5, index: 4, failure: failure5, rule: cell) { rule, element in
          rule.receive(from: 4) { $0.4 = element }
        },
        .subscribe(base6, index: 5, failure: failure6, rule: cell) { rule, element in
          rule.receive(from: 5) { $0.5 = element }
        },
      ]
    )
  }
}
