/// The elements of one zip input that are waiting for their partners, oldest first.
@usableFromInline struct ZipBuffer<Element: Sendable>: Sendable {
  /// Taken elements are set to `nil` (released at once); the array is reset whenever it runs dry.
  @usableFromInline var elements: [Element?] = []
  @usableFromInline var head = 0

  @inlinable init() {}

  @inlinable mutating func append(_ element: Element) {
    elements.append(element)
  }

  /// Removes and returns the oldest element; the zip rule calls it only when there is one.
  @inlinable mutating func removeFirst() -> Element {
    guard head < elements.count, let element = elements[head].take() else {
      preconditionFailure("Internal inconsistency: zip took from an empty buffer")
    }
    head += 1
    if head == elements.count {
      elements.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64 && head * 2 >= elements.count {
      // An input that stays ahead never runs dry: drop the used prefix now and then.
      elements.removeFirst(head)
      head = 0
    }
    return element
  }
}
