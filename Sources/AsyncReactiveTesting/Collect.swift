import AsyncReactive

extension AsyncSequence {
  /// Iterates the whole sequence and returns its elements in order: the quickest way to assert on a finite
  /// sequence in a test.
  ///
  /// **Throws:** the sequence's failure (elements received before it are lost to the caller; use
  /// ``collectResult()`` to keep them).
  ///
  /// ```swift
  /// let values = await Signal<Int, Never>([1, 2, 3]).collect()
  /// #expect(values == [1, 2, 3])
  /// ```
  public func collect(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> [Element] {
    var values: [Element] = []
    var iterator = makeAsyncIterator()
    while let value = try await iterator.next(isolation: actor) { values.append(value) }
    return values
  }

  /// Iterates the whole sequence and returns the elements received together with how it ended.
  ///
  /// ```swift
  /// let (values, failure) = await signal.retry(1).collectResult()
  /// #expect(values == [1, 1])
  /// #expect(failure != nil)
  /// ```
  public func collectResult(
    isolation actor: isolated (any Actor)? = #isolation
  ) async -> (values: [Element], failure: Failure?) {
    var values: [Element] = []
    var iterator = makeAsyncIterator()
    do throws(Failure) {
      while let value = try await iterator.next(isolation: actor) { values.append(value) }
      return (values, nil)
    } catch {
      return (values, error)
    }
  }
}
