// The typed entry points of `merge` for 2 to 6 inputs, two per arity: one for inputs that share a failure
// type (`Never` included), one for inputs whose failure types differ (`any Error`). They all forward to
// the shared n-ary engine; the arity only decides how elements are stored and built into outputs.
// Generated from one template so that the arities stay identical; edit them together. Everything is
// `@inlinable` so that the client's module specialises the whole path for its element types.

/// Interleaves the elements of two sequences as they are produced.
///
/// **Finishes:** when every input has finished.
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for await _ in merge(viewWillAppear, pullToRefresh) {
///   viewModel.refresh.trigger()
/// }
/// ```
/// - Parameters:
///   - base1: the first input.
///   - base2: the second input.
/// - Returns: an ``AsyncMergeSequence`` of the inputs' elements.
@inlinable public func merge<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2
) -> AsyncMergeSequence<Base1.Element, Base1.Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element,
  Base2.Failure == Base1.Failure
{
  makeMerge(base1, base2, failures: { $0 }, { $0 })
}

/// Interleaves the elements of two sequences as they are produced.
///
/// **Finishes:** when every input has finished.
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await message in merge(pushMessages, polledMessages) {
///   inbox.append(message)
/// }
/// ```
/// - Parameters:
///   - base1: the first input.
///   - base2: the second input.
/// - Returns: an ``AsyncMergeSequence`` of the inputs' elements.
@inlinable public func merge<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2
) -> AsyncMergeSequence<Base1.Element, any Error>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element
{
  makeMerge(base1, base2, failures: { $0 }, { $0 })
}

/// Interleaves the elements of three sequences as they are produced.
///
/// **Finishes:** when every input has finished.
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for await _ in merge(viewWillAppear, pullToRefresh, retryTaps) {
///   viewModel.refresh.trigger()
/// }
/// ```
/// - Parameters:
///   - base1: the first input.
///   - base2: the second input.
///   - base3: the third input.
/// - Returns: an ``AsyncMergeSequence`` of the inputs' elements.
@inlinable
public func merge<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncMergeSequence<Base1.Element, Base1.Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element,
  Base2.Failure == Base1.Failure,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Element == Base1.Element,
  Base3.Failure == Base1.Failure
{
  makeMerge(base1, base2, base3, failures: { $0 }, { $0 }, { $0 })
}

/// Interleaves the elements of three sequences as they are produced.
///
/// **Finishes:** when every input has finished.
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await message in merge(pushMessages, polledMessages, localDrafts) {
///   inbox.append(message)
/// }
/// ```
/// - Parameters:
///   - base1: the first input.
///   - base2: the second input.
///   - base3: the third input.
/// - Returns: an ``AsyncMergeSequence`` of the inputs' elements.
@inlinable
public func merge<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncMergeSequence<Base1.Element, any Error>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Element == Base1.Element
{
  makeMerge(base1, base2, base3, failures: { $0 }, { $0 }, { $0 })
}

/// Interleaves the elements of four sequences as they are produced.
///
/// **Finishes:** when every input has finished.
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for await value in merge(input1, input2, input3, input4) {
///   handle(value)
/// }
/// ```
/// - Parameters:
///   - base1: the first input.
///   - base2: the second input.
///   - base3: the third input.
///   - base4: the fourth input.
/// - Returns: an ``AsyncMergeSequence`` of the inputs' elements.
@inlinable
public func merge<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4
) -> AsyncMergeSequence<Base1.Element, Base1.Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element,
  Base2.Failure == Base1.Failure,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Element == Base1.Element,
  Base3.Failure == Base1.Failure,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype, Base4.Element == Base1.Element,
  Base4.Failure == Base1.Failure
{
  makeMerge(base1, base2, base3, base4, failures: { $0 }, { $0 }, { $0 }, { $0 })
}

/// Interleaves the elements of four sequences as they are produced.
///
/// **Finishes:** when every input has finished.
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await value in merge(input1, input2, input3, input4) {
///   handle(value)
/// }
/// ```
/// - Parameters:
///   - base1: the first input.
///   - base2: the second input.
///   - base3: the third input.
///   - base4: the fourth input.
/// - Returns: an ``AsyncMergeSequence`` of the inputs' elements.
@inlinable
public func merge<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4
) -> AsyncMergeSequence<Base1.Element, any Error>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Element == Base1.Element,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype, Base4.Element == Base1.Element
{
  makeMerge(base1, base2, base3, base4, failures: { $0 }, { $0 }, { $0 }, { $0 })
}

/// Interleaves the elements of five sequences as they are produced.
///
/// **Finishes:** when every input has finished.
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for await value in merge(input1, input2, input3, input4, input5) {
///   handle(value)
/// }
/// ```
/// - Parameters:
///   - base1: the first input.
///   - base2: the second input.
///   - base3: the third input.
///   - base4: the fourth input.
///   - base5: the fifth input.
/// - Returns: an ``AsyncMergeSequence`` of the inputs' elements.
@inlinable
public func merge<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5
) -> AsyncMergeSequence<Base1.Element, Base1.Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element,
  Base2.Failure == Base1.Failure,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Element == Base1.Element,
  Base3.Failure == Base1.Failure,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype, Base4.Element == Base1.Element,
  Base4.Failure == Base1.Failure,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype, Base5.Element == Base1.Element,
  Base5.Failure == Base1.Failure
{
  makeMerge(base1, base2, base3, base4, base5, failures: { $0 }, { $0 }, { $0 }, { $0 }, { $0 })
}

/// Interleaves the elements of five sequences as they are produced.
///
/// **Finishes:** when every input has finished.
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await value in merge(input1, input2, input3, input4, input5) {
///   handle(value)
/// }
/// ```
/// - Parameters:
///   - base1: the first input.
///   - base2: the second input.
///   - base3: the third input.
///   - base4: the fourth input.
///   - base5: the fifth input.
/// - Returns: an ``AsyncMergeSequence`` of the inputs' elements.
@inlinable
public func merge<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5
) -> AsyncMergeSequence<Base1.Element, any Error>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Element == Base1.Element,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype, Base4.Element == Base1.Element,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype, Base5.Element == Base1.Element
{
  makeMerge(base1, base2, base3, base4, base5, failures: { $0 }, { $0 }, { $0 }, { $0 }, { $0 })
}

/// Interleaves the elements of six sequences as they are produced.
///
/// **Finishes:** when every input has finished.
///
/// **Throws:** the inputs' common `Failure`, as soon as any input fails (the others are cancelled). When no input can
/// fail, neither can the result: iterate it with plain `for await`.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for await value in merge(input1, input2, input3, input4, input5, input6) {
///   handle(value)
/// }
/// ```
/// - Parameters:
///   - base1: the first input.
///   - base2: the second input.
///   - base3: the third input.
///   - base4: the fourth input.
///   - base5: the fifth input.
///   - base6: the sixth input.
/// - Returns: an ``AsyncMergeSequence`` of the inputs' elements.
@inlinable
public func merge<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable, Base6: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5, _ base6: Base6
) -> AsyncMergeSequence<Base1.Element, Base1.Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element,
  Base2.Failure == Base1.Failure,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Element == Base1.Element,
  Base3.Failure == Base1.Failure,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype, Base4.Element == Base1.Element,
  Base4.Failure == Base1.Failure,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype, Base5.Element == Base1.Element,
  Base5.Failure == Base1.Failure,
  Base6.Element: Sendable, Base6.AsyncIterator: SendableMetatype, Base6.Element == Base1.Element,
  Base6.Failure == Base1.Failure
{
  makeMerge(base1, base2, base3, base4, base5, base6, failures: { $0 }, { $0 }, { $0 }, { $0 }, { $0 }, { $0 })
}

/// Interleaves the elements of six sequences as they are produced.
///
/// **Finishes:** when every input has finished.
///
/// **Throws:** the first error of any input, as `any Error`, as soon as it happens (the others are cancelled). This
/// overload serves inputs whose failure types differ; inputs that share one keep it.
///
/// **Cancellation:** cancelling the consuming task or dropping the iterator cancels every input.
///
/// ```swift
/// for try await value in merge(input1, input2, input3, input4, input5, input6) {
///   handle(value)
/// }
/// ```
/// - Parameters:
///   - base1: the first input.
///   - base2: the second input.
///   - base3: the third input.
///   - base4: the fourth input.
///   - base5: the fifth input.
///   - base6: the sixth input.
/// - Returns: an ``AsyncMergeSequence`` of the inputs' elements.
@inlinable
public func merge<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable, Base6: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5, _ base6: Base6
) -> AsyncMergeSequence<Base1.Element, any Error>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Element == Base1.Element,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype, Base4.Element == Base1.Element,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype, Base5.Element == Base1.Element,
  Base6.Element: Sendable, Base6.AsyncIterator: SendableMetatype, Base6.Element == Base1.Element
{
  makeMerge(base1, base2, base3, base4, base5, base6, failures: { $0 }, { $0 }, { $0 }, { $0 }, { $0 }, { $0 })
}

/// Builds the sequence once the overload chose how each input's failure becomes the result's.
@inlinable func makeMerge<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Failure: Error>(
  _ base1: Base1, _ base2: Base2,
  failures failure1: @escaping @Sendable (Base1.Failure) -> Failure,
  _ failure2: @escaping @Sendable (Base2.Failure) -> Failure
) -> AsyncMergeSequence<Base1.Element, Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element
{
  AsyncMergeSequence {
    NaryStorage(
      inputs: [
        .forwarding(base1, failure: failure1),
        .forwarding(base2, failure: failure2),
      ]
    )
  }
}

@inlinable
func makeMerge<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable, Failure: Error
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3,
  failures failure1: @escaping @Sendable (Base1.Failure) -> Failure,
  _ failure2: @escaping @Sendable (Base2.Failure) -> Failure,
  _ failure3: @escaping @Sendable (Base3.Failure) -> Failure
) -> AsyncMergeSequence<Base1.Element, Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Element == Base1.Element
{
  AsyncMergeSequence {
    NaryStorage(
      inputs: [
        .forwarding(base1, failure: failure1),
        .forwarding(base2, failure: failure2),
        .forwarding(base3, failure: failure3),
      ]
    )
  }
}

@inlinable
func makeMerge<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Failure: Error
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4,
  failures failure1: @escaping @Sendable (Base1.Failure) -> Failure,
  _ failure2: @escaping @Sendable (Base2.Failure) -> Failure,
  _ failure3: @escaping @Sendable (Base3.Failure) -> Failure,
  _ failure4: @escaping @Sendable (Base4.Failure) -> Failure
) -> AsyncMergeSequence<Base1.Element, Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Element == Base1.Element,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype, Base4.Element == Base1.Element
{
  AsyncMergeSequence {
    NaryStorage(
      inputs: [
        .forwarding(base1, failure: failure1),
        .forwarding(base2, failure: failure2),
        .forwarding(base3, failure: failure3),
        .forwarding(base4, failure: failure4),
      ]
    )
  }
}

@inlinable
func makeMerge<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable,
  Base4: AsyncSequence & Sendable, Base5: AsyncSequence & Sendable, Failure: Error
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3, _ base4: Base4, _ base5: Base5,
  failures failure1: @escaping @Sendable (Base1.Failure) -> Failure,
  _ failure2: @escaping @Sendable (Base2.Failure) -> Failure,
  _ failure3: @escaping @Sendable (Base3.Failure) -> Failure,
  _ failure4: @escaping @Sendable (Base4.Failure) -> Failure,
  _ failure5: @escaping @Sendable (Base5.Failure) -> Failure
) -> AsyncMergeSequence<Base1.Element, Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Element == Base1.Element,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype, Base4.Element == Base1.Element,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype, Base5.Element == Base1.Element
{
  AsyncMergeSequence {
    NaryStorage(
      inputs: [
        .forwarding(base1, failure: failure1),
        .forwarding(base2, failure: failure2),
        .forwarding(base3, failure: failure3),
        .forwarding(base4, failure: failure4),
        .forwarding(base5, failure: failure5),
      ]
    )
  }
}

@inlinable
func makeMerge<
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
) -> AsyncMergeSequence<Base1.Element, Failure>
where
  Base1.Element: Sendable, Base1.AsyncIterator: SendableMetatype,
  Base2.Element: Sendable, Base2.AsyncIterator: SendableMetatype, Base2.Element == Base1.Element,
  Base3.Element: Sendable, Base3.AsyncIterator: SendableMetatype, Base3.Element == Base1.Element,
  Base4.Element: Sendable, Base4.AsyncIterator: SendableMetatype, Base4.Element == Base1.Element,
  Base5.Element: Sendable, Base5.AsyncIterator: SendableMetatype, Base5.Element == Base1.Element,
  Base6.Element: Sendable, Base6.AsyncIterator: SendableMetatype, Base6.Element == Base1.Element
{
  AsyncMergeSequence {
    NaryStorage(
      inputs: [
        .forwarding(base1, failure: failure1),
        .forwarding(base2, failure: failure2),
        .forwarding(base3, failure: failure3),
        .forwarding(base4, failure: failure4),
        .forwarding(base5, failure: failure5),
        .forwarding(base6, failure: failure6),
      ]
    )
  }
}
