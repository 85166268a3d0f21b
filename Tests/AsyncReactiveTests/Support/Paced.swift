import AsyncReactive

/// A sequence whose iterator tells when it is asked for each element: once the operator's task asks for element
/// n+1 (``pulled(_:)`` with n+1), it has handed element n to the operator.
struct Paced<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
  typealias Element = Base.Element
  typealias Failure = Base.Failure

  let base: Base
  private let pulls = (0..<16).map { _ in Gate() }

  init(_ base: Base) {
    self.base = base
  }

  /// Waits until the iterator has been asked for `count` elements.
  func pulled(_ count: Int) async {
    await pulls[count - 1].wait()
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), pulls: pulls)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let pulls: [Gate]
    var count = 0

    mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      if count < pulls.count { pulls[count].open() }
      count += 1
      return try await base.next(isolation: actor)
    }
  }
}
