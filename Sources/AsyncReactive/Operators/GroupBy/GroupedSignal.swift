/// One group of ``_Concurrency/AsyncSequence/groupBy(_:fileID:line:)->Signal<GroupedSignal<Key,Self.Element,Self.Failure>,Self.Failure>``:
/// `key`, as a hot signal (RxSwift's `GroupedObservable`).
///
/// A group is hot and keeps nothing: a consumer gets the values sent after it joined, so observe a group as it
/// arrives (in the `flatMap` or the observer that receives it), as in RxSwift. A group ends when the input ends,
/// with the input's failure, or with the key closure's.
///
/// ```swift
/// let byParity = numbers.groupBy { $0 % 2 }
/// let labelled = byParity.flatMap { group in group.map { "\(group.key): \($0)" } }
/// ```
public struct GroupedSignal<Key: Hashable & Sendable, Element: Sendable, Failure: Error>: HotSequence {
  /// The key every value of this group has.
  ///
  /// ```swift
  /// byParity.observe(in: lifetime) { group in print("new group", group.key) }
  /// ```
  public let key: Key

  /// The group's node.
  let node: Node<Element, Failure>

  init(key: Key, node: Node<Element, Failure>) {
    self.key = key
    self.node = node
  }

  /// The group as a ``HotSignal``.
  ///
  /// ```swift
  /// let values: HotSignal<Int, Never> = group.hotSignal
  /// ```
  public var hotSignal: HotSignal<Element, Failure> { HotSignal(node: node) }

  /// Registers a consumer of the group and starts iterating: `for await value in group`.
  ///
  /// ```swift
  /// for await value in group { print(group.key, value) }
  /// ```
  public func makeAsyncIterator() -> SubjectSubscription<Element, Failure>.Iterator {
    hotSignal.makeAsyncIterator()
  }
}
