import AsyncReactive

extension AsyncSequence {
  /// Iterates the whole sequence and returns its elements in order: the quickest way to assert on a finite
  /// sequence in a test.
  ///
  /// **Throws:** the sequence's failure (elements received before it are lost to the caller; use
  /// ``collectResult(isolation:)`` to keep them).
  ///
  /// **No timeout:** it iterates in the calling task until the end, so on a sequence that does not end (a
  /// subject nobody finishes, a `Property`) it waits forever. For such a sequence use a ``Recorder`` and its
  /// ``Recorder/waitForValues(count:timeout:fileID:filePath:line:column:)`` or
  /// ``Recorder/waitForEnd(timeout:fileID:filePath:line:column:)``, which fail the test after a timeout.
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
  /// **No timeout:** like ``collect(isolation:)``, it waits for the end; use a ``Recorder`` for a sequence that may not
  /// end.
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
