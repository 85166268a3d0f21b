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
    return storage[(start + storage.count - 1) % storage.count]
  }

  @inlinable package mutating func append(_ element: Element) {
    guard capacity > 0 else { return }
    if storage.count < capacity {
      storage.append(element)
    } else {
      storage[start] = element
      start = (start + 1) % capacity
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
