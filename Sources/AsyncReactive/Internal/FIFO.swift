/// A first-in first-out queue with O(1) removal at the front: taken elements are released at once, and the used
/// prefix is dropped when the queue runs dry or when it makes up half of the storage.
@usableFromInline package struct FIFO<Element> {
  @usableFromInline var elements: [Element?] = []
  @usableFromInline var head = 0

  @inlinable package init() {}

  @inlinable package var count: Int { elements.count - head }
  @inlinable package var isEmpty: Bool { head == elements.count }

  @inlinable package mutating func append(_ element: Element) {
    elements.append(element)
  }

  /// Removes and returns the oldest element, `nil` when there is none.
  @inlinable package mutating func popFirst() -> Element? {
    guard head < elements.count, let element = elements[head].take() else { return nil }
    head += 1
    if head == elements.count {
      elements.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64 && head * 2 >= elements.count {
      // A queue that never runs dry: drop the used prefix now and then.
      elements.removeFirst(head)
      head = 0
    }
    return element
  }

  /// Removes and returns the oldest element; the caller knows there is one.
  @inlinable package mutating func removeFirst() -> Element {
    guard let element = popFirst() else {
      preconditionFailure("Internal inconsistency: a value was taken from an empty queue")
    }
    return element
  }

  @inlinable package mutating func removeAll() {
    elements = []
    head = 0
  }
}

extension FIFO: Sendable where Element: Sendable {}
