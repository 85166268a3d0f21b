// The typed entry points of `zip` for 2 to 6 inputs, two per arity: one for inputs that share a failure
// type (`Never` included), one for inputs whose failure types differ (`any Error`). They all forward to
// the shared n-ary engine; the arity only decides how elements are stored and built into outputs.
// Generated from one template so that the arities stay identical; edit them together. Everything is
// `@inlinable` so that the client's module specialises the whole path for its element types.

/// Pairs the n-th elements of two sequences into tuples.
///
/// **Finishes:** as soon as an input has finished and every element it produced was paired (the others are cancelled
/// then).
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for await (question, answer) in zip(questions, answers) {
///   transcript.append("\(question) → \(answer)")
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
/// - Returns: an ``AsyncZipSequence`` of `(Base1.Element, Base2.Element)`.
@inlinable public func zip<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2
) -> AsyncZipSequence<(Base1.Element, Base2.Element), Base1.Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Failure == Base1.Failure
{
  makeZip(base1, base2, failures: { $0 }, { $0 })
}

/// Pairs the n-th elements of two sequences into tuples.
///
/// **Finishes:** as soon as an input has finished and every element it produced was paired (the others are cancelled
/// then).
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await (request, response) in zip(sentRequests, responseStream) {
///   log(request.id, response.status)
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
/// - Returns: an ``AsyncZipSequence`` of `(Base1.Element, Base2.Element)`.
@inlinable public func zip<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2
) -> AsyncZipSequence<(Base1.Element, Base2.Element), any Error>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype
{
  makeZip(base1, base2, failures: { $0 }, { $0 })
}

/// Pairs the n-th elements of three sequences into tuples.
///
/// **Finishes:** as soon as an input has finished and every element it produced was paired (the others are cancelled
/// then).
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await (profile, wallet, orders) in zip(profiles, wallets, orderLists) {
///   render(profile, wallet, orders)   // the n-th answer of each, together
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
///   - base3: the third input; its elements go to position 2 of the tuple.
/// - Returns: an ``AsyncZipSequence`` of `(Base1.Element, Base2.Element, Base3.Element)`.
@inlinable
public func zip<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncZipSequence<(Base1.Element, Base2.Element, Base3.Element), Base1.Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Failure == Base1.Failure,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Failure == Base1.Failure
{
  makeZip(base1, base2, base3, failures: { $0 }, { $0 }, { $0 })
}

/// Pairs the n-th elements of three sequences into tuples.
///
/// **Finishes:** as soon as an input has finished and every element it produced was paired (the others are cancelled
/// then).
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await (user, wallet, avatar) in zip(user, wallet, avatarStream) {
///   render(user, wallet, avatar)
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
///   - base3: the third input; its elements go to position 2 of the tuple.
/// - Returns: an ``AsyncZipSequence`` of `(Base1.Element, Base2.Element, Base3.Element)`.
@inlinable
public func zip<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncZipSequence<(Base1.Element, Base2.Element, Base3.Element), any Error>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype
{
  makeZip(base1, base2, base3, failures: { $0 }, { $0 }, { $0 })
}

/// Pairs the n-th elements of four sequences into tuples.
///
/// **Finishes:** as soon as an input has finished and every element it produced was paired (the others are cancelled
/// then).
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for await (v1, v2, v3, v4) in zip(input1, input2, input3, input4) {
///   handle(v1, v2, v3, v4)
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
///   - base3: the third input; its elements go to position 2 of the tuple.
///   - base4: the fourth input; its elements go to position 3 of the tuple.
/// - Returns: an ``AsyncZipSequence`` of `(Base1.Element, Base2.Element, Base3.Element, Base4.Element)`.
@inlinable
public func zip<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4
) -> AsyncZipSequence<(Base1.Element, Base2.Element, Base3.Element, Base4.Element), Base1.Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Failure == Base1.Failure,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Failure == Base1.Failure,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype, Base4.Failure == Base1.Failure
{
  makeZip(base1, base2, base3, base4, failures: { $0 }, { $0 }, { $0 }, { $0 })
}

/// Pairs the n-th elements of four sequences into tuples.
///
/// **Finishes:** as soon as an input has finished and every element it produced was paired (the others are cancelled
/// then).
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await (v1, v2, v3, v4) in zip(input1, input2, input3, input4) {
///   handle(v1, v2, v3, v4)
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
///   - base3: the third input; its elements go to position 2 of the tuple.
///   - base4: the fourth input; its elements go to position 3 of the tuple.
/// - Returns: an ``AsyncZipSequence`` of `(Base1.Element, Base2.Element, Base3.Element, Base4.Element)`.
@inlinable
public func zip<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4
) -> AsyncZipSequence<(Base1.Element, Base2.Element, Base3.Element, Base4.Element), any Error>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype
{
  makeZip(base1, base2, base3, base4, failures: { $0 }, { $0 }, { $0 }, { $0 })
}

/// Pairs the n-th elements of five sequences into tuples.
///
/// **Finishes:** as soon as an input has finished and every element it produced was paired (the others are cancelled
/// then).
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for await (v1, v2, v3, v4, v5) in zip(input1, input2, input3, input4, input5) {
///   handle(v1, v2, v3, v4, v5)
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
///   - base3: the third input; its elements go to position 2 of the tuple.
///   - base4: the fourth input; its elements go to position 3 of the tuple.
///   - base5: the fifth input; its elements go to position 4 of the tuple.
/// - Returns: an ``AsyncZipSequence`` of `(Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element)`.
@inlinable
public func zip<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5
) -> AsyncZipSequence<(Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element), Base1.Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Failure == Base1.Failure,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Failure == Base1.Failure,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype, Base4.Failure == Base1.Failure,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype, Base5.Failure == Base1.Failure
{
  makeZip(base1, base2, base3, base4, base5, failures: { $0 }, { $0 }, { $0 }, { $0 }, { $0 })
}

/// Pairs the n-th elements of five sequences into tuples.
///
/// **Finishes:** as soon as an input has finished and every element it produced was paired (the others are cancelled
/// then).
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await (v1, v2, v3, v4, v5) in zip(input1, input2, input3, input4, input5) {
///   handle(v1, v2, v3, v4, v5)
/// }
/// ```
/// - Parameters:
///   - base1: the first input; its elements go to position 0 of the tuple.
///   - base2: the second input; its elements go to position 1 of the tuple.
///   - base3: the third input; its elements go to position 2 of the tuple.
///   - base4: the fourth input; its elements go to position 3 of the tuple.
///   - base5: the fifth input; its elements go to position 4 of the tuple.
/// - Returns: an ``AsyncZipSequence`` of `(Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element)`.
@inlinable
public func zip<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5
) -> AsyncZipSequence<(Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element), any Error>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype
{
  makeZip(base1, base2, base3, base4, base5, failures: { $0 }, { $0 }, { $0 }, { $0 }, { $0 })
}

/// Pairs the n-th elements of six sequences into tuples.
///
/// **Finishes:** as soon as an input has finished and every element it produced was paired (the others are cancelled
/// then).
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for await (v1, v2, v3, v4, v5, v6) in zip(input1, input2, input3, input4, input5, input6) {
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
/// - Returns: an ``AsyncZipSequence`` of `(Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element, Base6.Element)`.
@inlinable
public func zip<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable, Base6: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5, _ base6: Base6
) -> AsyncZipSequence<
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
  makeZip(base1, base2, base3, base4, base5, base6, failures: { $0 }, { $0 }, { $0 }, { $0 }, { $0 }, { $0 })
}

/// Pairs the n-th elements of six sequences into tuples.
///
/// **Finishes:** as soon as an input has finished and every element it produced was paired (the others are cancelled
/// then).
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await (v1, v2, v3, v4, v5, v6) in zip(input1, input2, input3, input4, input5, input6) {
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
/// - Returns: an ``AsyncZipSequence`` of `(Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element, Base6.Element)`.
@inlinable
public func zip<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable, Base6: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5, _ base6: Base6
) -> AsyncZipSequence<
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
  makeZip(base1, base2, base3, base4, base5, base6, failures: { $0 }, { $0 }, { $0 }, { $0 }, { $0 }, { $0 })
}

/// Builds the sequence once the overload chose how each input's failure becomes the result's.
@inlinable func makeZip<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Failure: Error>(
  _ base1: Base1, _ base2: Base2,
  failures failure1: @escaping @Sendable (Base1.Failure) -> Failure,
  _ failure2: @escaping @Sendable (Base2.Failure) -> Failure
) -> AsyncZipSequence<(Base1.Element, Base2.Element), Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype
{
  typealias Rule = ZipRule<(ZipBuffer<Base1.Element>, ZipBuffer<Base2.Element>), (Base1.Element, Base2.Element)>
  return AsyncZipSequence {
    let cell = NaryRuleCell(
      Rule(inputCount: 2, empty: (ZipBuffer(), ZipBuffer())) { buffers in
        (buffers.0.removeFirst(), buffers.1.removeFirst())
      }
    )
    return NaryStorage(
      inputs: [
        .subscribe(base1, index: 0, failure: failure1, rule: cell) { rule, element in
          rule.receive(from: 0) { $0.0.append(element) }
        },
        .subscribe(base2, index: 1, failure: failure2, rule: cell) { rule, element in
          rule.receive(from: 1) { $0.1.append(element) }
        },
      ]
    )
  }
}

@inlinable
func makeZip<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable, Failure: Error
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3,
  failures failure1: @escaping @Sendable (Base1.Failure) -> Failure,
  _ failure2: @escaping @Sendable (Base2.Failure) -> Failure,
  _ failure3: @escaping @Sendable (Base3.Failure) -> Failure
) -> AsyncZipSequence<(Base1.Element, Base2.Element, Base3.Element), Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype
{
  typealias Rule = ZipRule<
    (ZipBuffer<Base1.Element>, ZipBuffer<Base2.Element>, ZipBuffer<Base3.Element>),
    (Base1.Element, Base2.Element, Base3.Element)
  >
  return AsyncZipSequence {
    let cell = NaryRuleCell(
      Rule(inputCount: 3, empty: (ZipBuffer(), ZipBuffer(), ZipBuffer())) { buffers in
        (buffers.0.removeFirst(), buffers.1.removeFirst(), buffers.2.removeFirst())
      }
    )
    return NaryStorage(
      inputs: [
        .subscribe(base1, index: 0, failure: failure1, rule: cell) { rule, element in
          rule.receive(from: 0) { $0.0.append(element) }
        },
        .subscribe(base2, index: 1, failure: failure2, rule: cell) { rule, element in
          rule.receive(from: 1) { $0.1.append(element) }
        },
        .subscribe(base3, index: 2, failure: failure3, rule: cell) { rule, element in
          rule.receive(from: 2) { $0.2.append(element) }
        },
      ]
    )
  }
}

@inlinable
func makeZip<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Failure: Error
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4,
  failures failure1: @escaping @Sendable (Base1.Failure) -> Failure,
  _ failure2: @escaping @Sendable (Base2.Failure) -> Failure,
  _ failure3: @escaping @Sendable (Base3.Failure) -> Failure,
  _ failure4: @escaping @Sendable (Base4.Failure) -> Failure
) -> AsyncZipSequence<(Base1.Element, Base2.Element, Base3.Element, Base4.Element), Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype
{
  typealias Rule = ZipRule<
    (ZipBuffer<Base1.Element>, ZipBuffer<Base2.Element>, ZipBuffer<Base3.Element>, ZipBuffer<Base4.Element>),
    (Base1.Element, Base2.Element, Base3.Element, Base4.Element)
  >
  return AsyncZipSequence {
    let cell = NaryRuleCell(
      Rule(inputCount: 4, empty: (ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer())) { buffers in
        (buffers.0.removeFirst(), buffers.1.removeFirst(), buffers.2.removeFirst(), buffers.3.removeFirst())
      }
    )
    return NaryStorage(
      inputs: [
        .subscribe(base1, index: 0, failure: failure1, rule: cell) { rule, element in
          rule.receive(from: 0) { $0.0.append(element) }
        },
        .subscribe(base2, index: 1, failure: failure2, rule: cell) { rule, element in
          rule.receive(from: 1) { $0.1.append(element) }
        },
        .subscribe(base3, index: 2, failure: failure3, rule: cell) { rule, element in
          rule.receive(from: 2) { $0.2.append(element) }
        },
        .subscribe(base4, index: 3, failure: failure4, rule: cell) { rule, element in
          rule.receive(from: 3) { $0.3.append(element) }
        },
      ]
    )
  }
}

@inlinable
func makeZip<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable, Failure: Error
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5,
  failures failure1: @escaping @Sendable (Base1.Failure) -> Failure,
  _ failure2: @escaping @Sendable (Base2.Failure) -> Failure,
  _ failure3: @escaping @Sendable (Base3.Failure) -> Failure,
  _ failure4: @escaping @Sendable (Base4.Failure) -> Failure,
  _ failure5: @escaping @Sendable (Base5.Failure) -> Failure
) -> AsyncZipSequence<(Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element), Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype
{
  typealias Rule = ZipRule<
    (
      ZipBuffer<Base1.Element>, ZipBuffer<Base2.Element>, ZipBuffer<Base3.Element>, ZipBuffer<Base4.Element>,
      ZipBuffer<Base5.Element>
    ), (Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element)
  >
  return AsyncZipSequence {
    let cell = NaryRuleCell(
      Rule(inputCount: 5, empty: (ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer())) { buffers in
        (
          buffers.0.removeFirst(), buffers.1.removeFirst(), buffers.2.removeFirst(), buffers.3.removeFirst(),
          buffers.4.removeFirst()
        )
      }
    )
    return NaryStorage(
      inputs: [
        .subscribe(base1, index: 0, failure: failure1, rule: cell) { rule, element in
          rule.receive(from: 0) { $0.0.append(element) }
        },
        .subscribe(base2, index: 1, failure: failure2, rule: cell) { rule, element in
          rule.receive(from: 1) { $0.1.append(element) }
        },
        .subscribe(base3, index: 2, failure: failure3, rule: cell) { rule, element in
          rule.receive(from: 2) { $0.2.append(element) }
        },
        .subscribe(base4, index: 3, failure: failure4, rule: cell) { rule, element in
          rule.receive(from: 3) { $0.3.append(element) }
        },
        .subscribe(base5, index: 4, failure: failure5, rule: cell) { rule, element in
          rule.receive(from: 4) { $0.4.append(element) }
        },
      ]
    )
  }
}

@inlinable
func makeZip<
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
) -> AsyncZipSequence<
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
  typealias Rule = ZipRule<
    (
      ZipBuffer<Base1.Element>, ZipBuffer<Base2.Element>, ZipBuffer<Base3.Element>, ZipBuffer<Base4.Element>,
      ZipBuffer<Base5.Element>, ZipBuffer<Base6.Element>
    ), (Base1.Element, Base2.Element, Base3.Element, Base4.Element, Base5.Element, Base6.Element)
  >
  return AsyncZipSequence {
    let cell = NaryRuleCell(
      Rule(inputCount: 6, empty: (ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer())) {
        buffers in
        (
          buffers.0.removeFirst(), buffers.1.removeFirst(), buffers.2.removeFirst(), buffers.3.removeFirst(),
          buffers.4.removeFirst(), buffers.5.removeFirst()
        )
      }
    )
    return NaryStorage(
      inputs: [
        .subscribe(base1, index: 0, failure: failure1, rule: cell) { rule, element in
          rule.receive(from: 0) { $0.0.append(element) }
        },
        .subscribe(base2, index: 1, failure: failure2, rule: cell) { rule, element in
          rule.receive(from: 1) { $0.1.append(element) }
        },
        .subscribe(base3, index: 2, failure: failure3, rule: cell) { rule, element in
          rule.receive(from: 2) { $0.2.append(element) }
        },
        .subscribe(base4, index: 3, failure: failure4, rule: cell) { rule, element in
          rule.receive(from: 3) { $0.3.append(element) }
        },
        .subscribe(base5, index: 4, failure: failure5, rule: cell) { rule, element in
          rule.receive(from: 4) { $0.4.append(element) }
        },
        .subscribe(base6, index: 5, failure: failure6, rule: cell) { rule, element in
          rule.receive(from: 5) { $0.5.append(element) }
        },
      ]
    )
  }
}
