import AsyncReactive
import Testing

// A file that imports AsyncReactive: the library's merging `flatMap { }` applies to the library's own sequences
// only; a foreign sequence keeps the standard library's `flatMap`, and `flatMap(.merge) { }` merges any
// `Sendable` sequence. Each `let` with an explicit type does not compile if the call resolves elsewhere.
// StandardFlatMapTests.swift checks the same `AsyncStream.flatMap` in a file that does not import the library.

@Suite("flatMap in a file that imports AsyncReactive", .timeLimit(.minutes(1)))
struct FlatMapImportTests {
  @Test("AsyncStream.flatMap { } stays the standard library's sequential flatMap where the library is imported")
  func asyncStreamFlatMapIsStandard() async {
    let outer = AsyncStream<Int> { input in
      input.yield(1)
      input.yield(2)
      input.finish()
    }
    let flattened: AsyncFlatMapSequence<AsyncStream<Int>, AsyncStream<Int>> = outer.flatMap { value in
      AsyncStream<Int> { input in
        input.yield(value)
        input.yield(value * 10)
        input.finish()
      }
    }
    var values: [Int] = []
    for await value in flattened { values.append(value) }
    #expect(values == [1, 10, 2, 20])
  }

  @Test("AsyncStream.flatMap(.merge) { } merges: an inner's value arrives while an earlier inner is still open")
  func explicitMergeOnAsyncStream() async {
    let (outer, outerInput) = AsyncStream.makeStream(of: Int.self)
    let inners = [AsyncStream.makeStream(of: String.self), AsyncStream.makeStream(of: String.self)]
    let merged: Signal<String, Never> = outer.flatMap(.merge) {
      inners[$0].stream
    }
    await expectMerging(merged, outer: outerInput, inners: inners.map(\.continuation))
  }

  @Test("a library sequence's .flatMap { } merges: Signal, a subscription (also after an async map), a subject")
  func libraryTypesMerge() async {
    let inners = [AsyncStream.makeStream(of: String.self), AsyncStream.makeStream(of: String.self)]
    let (outer, outerInput) = AsyncStream.makeStream(of: Int.self)
    let signal = Signal(outer)
    let onSignal: Signal<String, Never> = signal.flatMap {
      inners[$0].stream
    }
    await expectMerging(onSignal, outer: outerInput, inners: inners.map(\.continuation))

    let subject = AsyncPassthroughSubject<Int, Never>()
    let onSubscription: Signal<Int, Never> =
      subject.subscribe().flatMap { Signal<Int, Never>.just($0 * 10) }
    // The standard library's `async` map over a library sequence is still a library sequence.
    let afterAsyncMap: Signal<Int, Never> =
      subject.subscribe().map { value async in value + 1 }.flatMap { Signal<Int, Never>.just($0 * 10) }
    let hot: Signal<Int, Never> = subject.flatMap { Signal<Int, Never>.just($0 * 10) }
    let explicitHot: Signal<Int, Never> = subject.flatMap(.merge) { Signal<Int, Never>.just($0 * 10) }
    #expect(hot.isHot && explicitHot.isHot)
    var subscription = onSubscription.makeAsyncIterator()
    var afterAsyncMapValues = afterAsyncMap.makeAsyncIterator()
    var hotValues = hot.makeAsyncIterator()
    var explicitHotValues = explicitHot.makeAsyncIterator()
    subject.send(1)
    subject.finish()
    #expect(await subscription.next() == 10)
    #expect(await subscription.next() == nil)
    #expect(await afterAsyncMapValues.next() == 20)
    #expect(await afterAsyncMapValues.next() == nil)
    #expect(await hotValues.next() == 10)
    #expect(await hotValues.next() == nil)
    #expect(await explicitHotValues.next() == 10)
    #expect(await explicitHotValues.next() == nil)
  }
}

/// Drives a merge of two inners made from outer values 0 and 1: inner 1's value must arrive while inner 0 is still
/// open, which a sequential flatMap never delivers (it would wait for inner 0 to finish).
private func expectMerging<Merged: AsyncSequence<String, Never>>(
  _ merged: Merged, outer: AsyncStream<Int>.Continuation, inners: [AsyncStream<String>.Continuation]
) async {
  var iterator = merged.makeAsyncIterator()
  outer.yield(0)
  inners[0].yield("a1")
  #expect(await iterator.next(isolation: nil) == "a1")
  outer.yield(1)
  inners[1].yield("b1")  // inner 0 is still open
  #expect(await iterator.next(isolation: nil) == "b1")
  inners[0].yield("a2")
  #expect(await iterator.next(isolation: nil) == "a2")
  inners[0].finish()
  inners[1].finish()
  outer.finish()
  #expect(await iterator.next(isolation: nil) == nil)
}
