/// A sequence the library does not know: it forwards to `base` without being one of the library's types (no
/// `HotSequence`, no `ReactiveSequence`), as a user's own wrapper around a subject or a stream would. The library
/// treats it as foreign and cold: each run iterates it once more (a subject's wrapper subscribes anew).
struct Foreign<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable {
  typealias Element = Base.Element
  typealias Failure = Base.Failure

  let base: Base

  init(_ base: Base) {
    self.base = base
  }

  func makeAsyncIterator() -> Base.AsyncIterator { base.makeAsyncIterator() }
}
