/// A fixed-capacity FIFO that overwrites its oldest element when full (the replay buffers of subjects).
package struct RingBuffer<Element> {
  private var storage: [Element] = []
  private var start = 0
  package let capacity: Int

  package init(capacity: Int) {
    precondition(capacity >= 0, "Internal inconsistency: negative ring buffer capacity")
    self.capacity = capacity
  }

  package var count: Int { storage.count }
  package var isEmpty: Bool { storage.isEmpty }

  package var last: Element? {
    guard !storage.isEmpty else { return nil }
    return storage[(start + storage.count - 1) % storage.count]
  }

  package mutating func append(_ element: Element) {
    guard capacity > 0 else { return }
    if storage.count < capacity {
      storage.append(element)
    } else {
      storage[start] = element
      start = (start + 1) % capacity
    }
  }

  package mutating func removeAll() {
    storage.removeAll()
    start = 0
  }

  /// Calls `body` on each element, oldest first.
  package func forEach(_ body: (Element) -> Void) {
    for offset in 0..<storage.count { body(storage[(start + offset) % storage.count]) }
  }
}

extension RingBuffer: Sendable where Element: Sendable {}
