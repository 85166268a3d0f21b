import Synchronization

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Splits the values into groups by `key`: sends a ``GroupedSignal`` for each new key, then each value to its
  /// key's group (RxSwift `groupBy(keySelector:)`).
  ///
  /// Each run groups anew. A new key's group is sent before its first value goes into it, so an observer that
  /// observes the group as it gets it (a `flatMap`, a sink) gets that value. Groups are hot and keep nothing: a
  /// consumer that joins a group later gets the values sent after it joined. The input is observed while the
  /// result's consumer is there or any group has a consumer: stopping the consumer of the groups leaves the
  /// groups that are observed running, and the input is let go when the last of them leaves.
  ///
  /// With `numbers.groupBy { $0 % 2 }`:
  ///
  /// | numbers | result              | group 1 | group 0 |
  /// |---------|---------------------|---------|---------|
  /// | 1       | group 1             | 1       |         |
  /// | 2       | group 0             |         | 2       |
  /// | 3       |                     | 3       |         |
  /// | finish  | finish              | finish  | finish  |
  ///
  /// **Finishes:** when the input finishes, after every group finished.
  ///
  /// **Throws:** the input's failure, or the one `key` throws (the input is let go at once): first to every
  /// group, then to the result.
  ///
  /// ```swift
  /// let perRoom = messages.groupBy { $0.room }
  ///   .flatMap { room in room.debounce(for: .seconds(1)).map { (room.key, $0) } }
  /// ```
  /// - Parameter key: the key of a value; values with equal keys go to the same group.
  /// - Returns: a cold ``Signal`` of the groups, in the order their keys first came.
  public func groupBy<Key: Hashable & Sendable>(
    _ key: @escaping @Sendable (Element) throws(Failure) -> Key,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<GroupedSignal<Key, Element, Failure>, Failure> {
    Signal(self).grouped(by: key, failure: { $0 }, origin: NodeOrigin(.groupBy, fileID: fileID, line: line))
  }

  /// Splits the values into groups by `key`, a closure that may throw any error; see the typed form above.
  ///
  /// **Throws:** the input's failure, or the one `key` throws, as `any Error`.
  ///
  /// ```swift
  /// let byCurrency = payments.groupBy { try Currency(code: $0.code) }
  /// ```
  /// - Parameter key: the key of a value; values with equal keys go to the same group.
  /// - Returns: a cold ``Signal`` of the groups, in the order their keys first came.
  @_disfavoredOverload
  public func groupBy<Key: Hashable & Sendable>(
    _ key: @escaping @Sendable (Element) throws -> Key,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Signal<GroupedSignal<Key, Element, any Error>, any Error> {
    Signal(self).grouped(by: key, failure: { $0 }, origin: NodeOrigin(.groupBy, fileID: fileID, line: line))
  }
}

extension Signal {
  /// `groupBy(_:)`, failing with `Output` (the input's failure converted by
  /// `failure`, or the key closure's).
  func grouped<Key: Hashable & Sendable, Output: Error>(
    by key: @escaping @Sendable (Element) throws(Output) -> Key,
    failure: @escaping @Sendable (Failure) -> Output, origin: NodeOrigin
  ) -> Signal<GroupedSignal<Key, Element, Output>, Output> {
    let input = self
    return .create { emitter in
      let run = GroupByRun(emitter: emitter, key: key, origin: origin)
      let stop = input.observe(ColdStart.shared.input(of: "groupBy")) { value in
        run.receive(.value(value))
      } onEnd: { termination in
        switch termination {
        case .finished: run.receive(.end(.finished))
        case .failed(let error): run.receive(.end(.failed(failure(error))))
        }
      }
      run.subgroups.started(stop)
      return { run.subgroups.outerLeft() }
    }
  }
}

/// One run of `groupBy(_:)`: the groups by key, fed one event at a time.
final class GroupByRun<Key: Hashable & Sendable, Element: Sendable, Failure: Error>: Sendable {
  typealias Group = GroupedSignal<Key, Element, Failure>
  let emitter: Signal<Group, Failure>.Emitter
  let key: @Sendable (Element) throws(Failure) -> Key
  let origin: NodeOrigin
  let subgroups = SubgroupRun<Element, Failure>()
  let events = PublicationQueue<SubgroupEvent<Element, Failure>>()
  /// The groups by key, and in the order they were made (to end them in that order); `nil` once the run ended.
  /// Touched only by the thread that delivers ``events``.
  let groups = Mutex<(byKey: [Key: Node<Element, Failure>], inOrder: [Node<Element, Failure>])?>(
    ([:], []))

  init(
    emitter: Signal<Group, Failure>.Emitter, key: @escaping @Sendable (Element) throws(Failure) -> Key,
    origin: NodeOrigin
  ) {
    self.emitter = emitter
    self.key = key
    self.origin = origin
  }

  func receive(_ event: SubgroupEvent<Element, Failure>) {
    events.enqueue(event)
    events.flush { handle($0) }
  }

  private func handle(_ event: SubgroupEvent<Element, Failure>) {
    switch event {
    case .value(let value):
      let groupKey: Key
      do throws(Failure) {
        groupKey = try key(value)
      } catch {
        end(.failed(error))
        return
      }
      let found = groups.withLock { groups -> (node: Node<Element, Failure>, isNew: Bool)? in
        guard groups != nil else { return nil }
        if let node = groups!.byKey[groupKey] { return (node, false) }
        let node = subgroups.makeSubgroup(origin: origin)
        groups!.byKey[groupKey] = node
        groups!.inOrder.append(node)
        return (node, true)
      }
      guard let found else { return }
      if found.isNew { emitter.send(Group(key: groupKey, node: found.node)) }
      found.node.send(value)
    case .end(let termination):
      end(termination)
    case .tick:
      break
    }
  }

  /// Ends every group, then the result, and lets the input go.
  private func end(_ termination: Termination<Failure>) {
    let ended = groups.withLock { groups in
      defer { groups = nil }
      return groups?.inOrder
    }
    guard let ended else { return }
    subgroups.ended()
    for node in ended { node.terminate(termination) }
    switch termination {
    case .finished: emitter.finish()
    case .failed(let error): emitter.fail(error)
    }
  }
}
