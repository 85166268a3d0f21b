/// A fixed-capacity FIFO that overwrites its oldest element when full (the replay buffers of subjects).
@usableFromInline package struct RingBuffer<Element> {
  @usableFromInline var storage: [Element] = []
  @usableFromInline var start = 0
  @usableFromInline let capacity: Int

  @inlinable package init(capacity: Int) {
    precondition(capacity >= 0, "Internal inconsistency: negative ring buffer capacity")
    self.capacity = capacity
  }

  @inlinable package var count: Int { storage.count }
  @inlinable package var isEmpty: Bool { storage.isEmpty }

  @inlinable package var last: Element? {
    guard !storage.isEmpty else { return nil }
    // `start` is below `count`, so one subtraction wraps the index: no `%` (an integer division) on every read
    // of a current value.
    var index = start + storage.count - 1
    if index >= storage.count { index -= storage.count }
    return storage[index]
  }

  @inlinable package mutating func append(_ element: Element) {
    guard capacity > 0 else { return }
    if storage.count < capacity {
      storage.append(element)
    } else {
      storage[start] = element
      start += 1
      if start == capacity { start = 0 }
    }
  }

  @inlinable package mutating func removeAll() {
    storage.removeAll()
    start = 0
  }

  /// The elements, oldest first.
  @inlinable package var inOrder: [Element] {
    Array(storage[start...] + storage[..<start])
  }
}

extension RingBuffer: Sendable where Element: Sendable {}
