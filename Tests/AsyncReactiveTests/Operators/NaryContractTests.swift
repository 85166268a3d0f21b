import AsyncReactive
import AsyncReactiveTesting
import Testing

/// What combineLatest, zip and merge promise alike (they run on one engine, `NaryConnection`), checked for each
/// operator through its three-input overload and its array form. What sets them apart is in their own suites.
@Suite("n-ary contract")
struct NaryContractTests {
  @Test(
    "an input that fails fails the result at once with its typed error and cancels the others",
    arguments: NaryForm.allCases, 0..<3
  )
  func inputFailure(_ form: NaryForm, failing position: Int) async throws {
    let failing = AsyncPassthroughSubject<Int, TestError>()
    let watched = [WatchedInput<Int, TestError>(), WatchedInput<Int, TestError>()]
    var others = watched.map(\.signal).makeIterator()
    let inputs = (0..<3).map { $0 == position ? Signal(failing) : others.next()! }
    let outputs = form.subscribe(inputs)
    Task {
      for input in watched { await input.started.wait() }
      failing.fail(TestError(code: position))
    }
    do throws(TestError) {
      _ = try await outputs.next()
      Issue.record("expected the failure of input \(position)")
    } catch {
      #expect(error == TestError(code: position))
    }
    for input in watched { await input.cancelled.wait() }
    #expect(try await outputs.next() == nil)
  }

  @Test(
    "an input that finishes before producing does not end the result: a later failure of another input fails it",
    arguments: NaryForm.combining
  )
  func inputFinishingEmptyThenFailure(_ form: NaryForm) async {
    let inputs = (0..<3).map { _ in AsyncPassthroughSubject<Int, TestError>() }
    let outputs = form.subscribe(inputs)
    inputs[0].finish()
    inputs[2].fail(TestError(code: 4))
    do throws(TestError) {
      let output = try await outputs.next()
      Issue.record("expected the failure of input 2, got \(String(describing: output))")
    } catch {
      #expect(error == TestError(code: 4))
    }
  }

  @Test(
    "an input that finishes before producing: the result ends when every other input has ended (RxSwift's rule)",
    arguments: NaryForm.combining
  )
  func inputFinishingEmpty(_ form: NaryForm) async throws {
    let inputs = (0..<3).map { _ in AsyncPassthroughSubject<Int, Never>() }
    let outputs = form.subscribe(inputs)
    inputs[0].finish()
    inputs[1].send(1)
    inputs[2].send(2)
    inputs[1].finish()
    inputs[2].finish()
    #expect(await outputs.next() == nil)  // no output: input 0 never produced
  }
  @Test("merge keeps going when an input finishes: it ends when every input has")
  func mergeOutlivesAnEmptyInput() async {
    for form in [NaryForm.merge3, .mergeArray] {
      let inputs = (0..<3).map { _ in AsyncPassthroughSubject<Int, Never>() }
      let outputs = form.subscribe(inputs)
      inputs[0].finish()
      inputs[1].send(1)
      #expect(await outputs.next() == [1])
      inputs[1].finish()
      inputs[2].finish()
      #expect(await outputs.next() == nil)
    }
  }

  @Test("cancelling the consuming task cancels every input", arguments: NaryForm.allCases)
  func consumerCancellation(_ form: NaryForm) async {
    let watched = [WatchedInput<Int, Never>(), WatchedInput<Int, Never>(), WatchedInput<Int, Never>()]
    let consumer = Task {
      let outputs = form.subscribe(watched.map(\.signal))
      while await outputs.next() != nil { Issue.record("no input sends") }
    }
    for input in watched { await input.started.wait() }
    consumer.cancel()
    for input in watched { await input.cancelled.wait() }
    await consumer.value
  }

  @Test(
    "dropping the iterator after a value cancels every input",
    arguments: NaryForm.allCases
  )
  func iteratorDrop(_ form: NaryForm) async {
    let inputs = [StreamInput<Int>(), StreamInput<Int>(), StreamInput<Int>()]
    func firstOutput() async -> [Int]? {
      let outputs = form.subscribe(inputs.map(\.stream))
      for input in inputs { input.continuation.yield(1) }
      return await outputs.next()
    }
    #expect(await firstOutput() == (form.isMerge ? [1] : [1, 1, 1]))
    for input in inputs { await input.terminated.wait() }
  }

  @Test("breaking out of a for-await loop cancels every input")
  func breakCancelsInputs() async {
    // The loops are written out, not parameterised: the point is the `break` of a real `for await`.
    var inputs = [StreamInput<Int>(), StreamInput<Int>()]
    for input in inputs { input.continuation.yield(1) }
    for await (first, second) in combineLatest(inputs[0].stream, inputs[1].stream) {
      #expect(first == 1 && second == 1)
      break
    }
    for input in inputs { await input.terminated.wait() }

    inputs = [StreamInput<Int>(), StreamInput<Int>()]
    for input in inputs { input.continuation.yield(2) }
    for await (first, second) in zip(inputs[0].stream, inputs[1].stream) {
      #expect(first == 2 && second == 2)
      break
    }
    for input in inputs { await input.terminated.wait() }

    inputs = [StreamInput<Int>(), StreamInput<Int>()]
    inputs[0].continuation.yield(3)
    for await value in merge(inputs[0].stream, inputs[1].stream) {
      #expect(value == 3)
      break
    }
    for input in inputs { await input.terminated.wait() }
  }

  @Test("an iterator dropped before its first next() unsubscribes from subjects at once", arguments: NaryForm.allCases)
  func droppedBeforeFirstNext(_ form: NaryForm) {
    let subjects = [
      AsyncPassthroughSubject<Int, Never>(), AsyncPassthroughSubject<Int, Never>(),
      AsyncPassthroughSubject<Int, Never>(),
    ]
    do {
      let outputs = form.subscribe(subjects)
      #expect(subjects.map(\.consumerCount) == [1, 1, 1])
      _ = outputs
    }
    #expect(subjects.map(\.consumerCount) == [0, 0, 0])
  }

  @Test("an empty array of inputs finishes at once without a value, re-iterable or not")
  func emptyArrayForms() async {
    let signals: [Signal<Int, Never>] = []
    let subjects: [AsyncPassthroughSubject<Int, Never>] = []
    for form in [NaryForm.combineLatestArray, .zipArray, .mergeArray] {
      #expect(await form.subscribe(signals).next() == nil, "\(form)")
      #expect(await form.subscribe(subjects).next() == nil, "\(form)")
    }
    // The re-iterable array forms (Signals) finish on every iteration.
    #expect(await combineLatest(signals).retry(1).collect().isEmpty)
    #expect(await zip(signals).retry(1).collect().isEmpty)
    #expect(await merge(signals).retry(1).collect().isEmpty)
  }

  @Test("the array forms over re-iterable inputs are re-iterable: retry runs every input again")
  func arrayFormsRetry() async throws {
    for form in [NaryForm.combineLatestArray, .zipArray, .mergeArray] {
      let inputs = RerunInputs(count: 3)
      let signals = (0..<3).map { inputs.typed($0) }
      let values: [[Int]]
      switch form {
      case .combineLatestArray:
        let combined = combineLatest(signals)
        let _: Signal<[Int], TestError> = combined
        values = try await combined.retry(1).collect()
      case .zipArray:
        let zipped = zip(signals)
        let _: Signal<[Int], TestError> = zipped
        values = try await zipped.retry(1).collect()
      default:
        let merged = merge(signals)
        let _: Signal<Int, TestError> = merged
        values = [try await merged.retry(1).collect().sorted()]
      }
      #expect(values == [inputs.secondAttempt], "\(form)")
      #expect(inputs.runCounts == [2, 2, 2], "\(form)")
    }
    // An array of subjects gives a Signal that is hot at run time (one shared node, evaluated inside the sends).
    let subjects = [AsyncPassthroughSubject<Int, Never>()]
    #expect(isHot(combineLatest(subjects), as: Signal<[Int], Never>.self))
    #expect(isHot(zip(subjects), as: Signal<[Int], Never>.self))
    #expect(isHot(merge(subjects), as: Signal<Int, Never>.self))
  }
}
