import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("catch, replaceError, mapError, materialize")
struct ErrorOperatorTests {
  /// Sends 1 and 2, then fails with code 3.
  private let failing = Signal<Int, TestError>(makeFailing)
  private let finishing = Signal<Int, TestError>([1, 2])

  // MARK: catch

  @Test("catch switches to the fallback made from the error; the result takes the fallback's failure type")
  func catchSwitchesToFallback() async {
    let recovered = failing.catch { error in Signal<Int, Never>([error.code * 10, 99]) }
    var values: [Int] = []
    for await value in recovered { values.append(value) }  // the fallback cannot fail: plain `for await`
    #expect(values == [1, 2, 30, 99])
  }

  @Test("catch fails with the fallback's typed failure if the fallback fails too")
  func catchFallbackFails() async {
    let recovered = failing.catch { error in Signal<Int, OtherError>.fail(OtherError(code: error.code + 1)) }
    let (values, failure) = await recovered.collectResult()
    #expect(values == [1, 2])
    #expect(failure == OtherError(code: 4))
  }

  @Test("catch passes a sequence that finishes through untouched, without calling the handler")
  func catchWithoutFailure() async {
    let handled = Counter()
    let values = await finishing.catch { _ in
      handled.increment()
      return Signal<Int, Never>.just(0)
    }.collect()
    #expect(values == [1, 2])
    #expect(handled.value == 0)
  }

  // MARK: replaceError

  @Test("replaceError delivers the replacement in place of the failure, then finishes; it cannot fail")
  func replaceErrorReplaces() async {
    var values: [Int] = []
    for await value in failing.replaceError(with: 0) { values.append(value) }
    #expect(values == [1, 2, 0])
    #expect(await finishing.replaceError(with: 0).collect() == [1, 2])
  }

  // MARK: mapError

  @Test("mapError transforms the failure to a new typed failure and keeps the elements")
  func mapErrorTransforms() async throws {
    let mapped = failing.mapError { error in OtherError(code: error.code * 100) }
    let (values, failure) = await mapped.collectResult()
    #expect(values == [1, 2])
    #expect(failure == OtherError(code: 300))
    #expect(try await finishing.mapError { OtherError(code: $0.code) }.collect() == [1, 2])
  }

  // MARK: materialize

  @Test("materialize turns elements and the failure into events and cannot fail")
  func materializeFailure() async {
    var events: [Event<Int, TestError>] = []
    for await event in failing.materialize() { events.append(event) }
    #expect(events == [.value(1), .value(2), .failed(TestError(code: 3))])
  }

  @Test("materialize ends a finishing sequence with .finished")
  func materializeFinished() async {
    #expect(await finishing.materialize().collect() == [.value(1), .value(2), .finished])
    #expect(await Signal<Int, Never>.empty.materialize().collect() == [.finished])
  }

  // MARK: Composition

  @Test("the error operators compose with retry: retry first, then recover")
  func composeWithRetry() async {
    let attempts = Counter()
    let request = Signal<Int, TestError> { (emitter) throws(TestError) in
      emitter.send(attempts.increment())
      throw TestError(code: 502)
    }
    let events = await request.retry(1).catch { error in Signal<Int, Never>.just(-error.code) }.materialize().collect()
    #expect(events == [.value(1), .value(2), .value(-502), .finished])
  }
}

private struct OtherError: Error, Equatable {
  var code: Int
}

private func makeFailing(_ emitter: Signal<Int, TestError>.Emitter) async throws(TestError) {
  await emitter.send(1)
  await emitter.send(2)
  throw TestError(code: 3)
}
