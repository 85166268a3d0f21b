import Synchronization
import Testing

// This file never imports AsyncReactive, but its module does (in FlatMapImportTests.swift) and has no
// MemberImportVisibility, so every public extension member of the library is visible here too. The library's
// merging `flatMap { }` exists only on its own sequences, so here, as in any file, `AsyncStream.flatMap { }` is
// the standard library's sequential `flatMap`. The `let` with the explicit type does not compile if the call
// resolves to any other `flatMap`; the test checks the order a merge would not keep.

@Suite("flatMap in a file that does not import AsyncReactive", .timeLimit(.minutes(1)))
struct StandardFlatMapTests {
  @Test("AsyncStream.flatMap { } is the standard library's: one inner at a time, the next outer value read after")
  func asyncStreamFlatMapIsSequential() async {
    let (outer, outerInput) = AsyncStream.makeStream(of: Int.self)
    let (first, firstInput) = AsyncStream.makeStream(of: String.self)
    let second = AsyncStream<String> { input in
      input.yield("b1")
      input.finish()
    }
    let transformed = Mutex<[Int]>([])
    let flattened: AsyncFlatMapSequence<AsyncStream<Int>, AsyncStream<String>> = outer.flatMap { index in
      transformed.withLock { $0.append(index) }
      return index == 0 ? first : second
    }
    outerInput.yield(0)
    outerInput.yield(1)
    outerInput.finish()
    var iterator = flattened.makeAsyncIterator()
    firstInput.yield("a1")
    #expect(await iterator.next() == "a1")
    // The outer value 1 is ready and its inner's "b1" would be too, but a sequential flatMap does not read the
    // outer again before inner 0 finishes (a merge reads it at once and would deliver "b1" before "a2").
    #expect(transformed.withLock { $0 } == [0])
    firstInput.yield("a2")
    #expect(await iterator.next() == "a2")
    #expect(transformed.withLock { $0 } == [0])
    firstInput.finish()
    #expect(await iterator.next() == "b1")
    #expect(transformed.withLock { $0 } == [0, 1])
    #expect(await iterator.next() == nil)
  }
}
