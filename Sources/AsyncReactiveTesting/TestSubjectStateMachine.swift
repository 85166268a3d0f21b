/// What a consumer of a ``TestSubject`` receives.
package enum TestSubjectDelivery<Element: Sendable, Failure: Error>: Sendable {
  case value(Element)
  case finished
  case failed(Failure)
}

/// The pure state of a ``TestSubject``: its consumers with what each has received, taken and handled, the end,
/// and the senders waiting for the consumers to handle what they sent.
///
/// A consumer has *handled* a value once it comes back for the next one (calls `next()` again) or stops; it
/// has handled the end once it received it or stopped. Every method returns what the caller must resume, so the
/// subject resumes continuations after releasing its lock. Generic over the continuation types so that it can
/// be unit-tested synchronously with plain values.
package struct TestSubjectStateMachine<Element: Sendable, Failure: Error, Consumer: Sendable, Waiter: Sendable>:
  Sendable
{
  package typealias Delivery = TestSubjectDelivery<Element, Failure>

  private struct ConsumerState: Sendable {
    var id: Int
    /// Its place in subscription order, from 1: how failure messages name it.
    var number: Int
    /// The values sent to it and not taken yet.
    var buffer: [Element] = []
    /// How many values were sent to it since it subscribed.
    var received = 0
    /// How many of them `next()` returned.
    var taken = 0
    /// How many of them it had taken when it last called `next()`: those it has handled.
    var handled = 0
    /// Its `next()` call waiting for a value.
    var parked: Consumer?
  }

  /// A `send`, `finish` or `fail` caller waiting for each consumer to handle its event.
  private struct Sender: Sendable {
    var id: Int
    /// Per consumer, how many values it must have handled; `Int.max` for the end, which only stopping handles.
    var handledAtLeast: [Int: Int]
    var waiter: Waiter
  }

  private struct ConsumerWaiter: Sendable {
    var id: Int
    var count: Int
    var waiter: Waiter
  }

  /// What a consumer's `next()` does.
  package enum NextAction: Sendable {
    /// Return this at once.
    case deliver(Delivery?)
    /// Wait: the continuation was parked.
    case park
  }

  /// Consumers in subscription order.
  private var consumers: [ConsumerState] = []
  private var terminal: Delivery?
  private var senders: [Sender] = []
  private var consumerWaiters: [ConsumerWaiter] = []
  private var nextID = 0
  private var subscriptions = 0

  package init() {}

  package var consumerCount: Int { consumers.count }

  /// Hands out an identifier for a consumer, a sender or a waiter.
  package mutating func makeID() -> Int {
    defer { nextID += 1 }
    return nextID
  }

  /// Registers a consumer (at `makeAsyncIterator()`).
  /// - Returns: the `waitForConsumers` callers to resume.
  package mutating func subscribe(id: Int) -> [Waiter] {
    subscriptions += 1
    consumers.append(ConsumerState(id: id, number: subscriptions))
    var resumed: [Waiter] = []
    consumerWaiters.removeAll { waiter in
      guard waiter.count <= consumers.count else { return false }
      resumed.append(waiter.waiter)
      return true
    }
    return resumed
  }

  /// Sends `element` to every consumer; `sender` waits until each has handled it.
  /// - Returns: the parked consumers to resume with the value, and the senders to resume (`sender` itself if
  ///   nobody listens or the subject has ended).
  package mutating func send(
    _ element: Element,
    sender: Waiter,
    id: Int
  ) -> (consumers: [Consumer], senders: [Waiter]) {
    guard terminal == nil, !consumers.isEmpty else { return ([], [sender]) }
    var resumed: [Consumer] = []
    var handledAtLeast: [Int: Int] = [:]
    for index in consumers.indices {
      consumers[index].received += 1
      handledAtLeast[consumers[index].id] = consumers[index].received
      if let parked = consumers[index].parked {
        consumers[index].parked = nil
        consumers[index].taken += 1
        resumed.append(parked)
      } else {
        consumers[index].buffer.append(element)
      }
    }
    senders.append(Sender(id: id, handledAtLeast: handledAtLeast, waiter: sender))
    return (resumed, [])
  }

  /// Ends the subject with `end` (`.finished` or `.failed`); `sender` waits until each consumer has received
  /// the end or stopped.
  /// - Returns: the parked consumers to resume with the end, and the senders to resume (`sender` itself if no
  ///   consumer is left to wait for, or the subject had ended already).
  package mutating func terminate(
    _ end: Delivery,
    sender: Waiter,
    id: Int
  ) -> (consumers: [Consumer], senders: [Waiter]) {
    guard terminal == nil else { return ([], [sender]) }
    terminal = end
    var resumed: [Consumer] = []
    var handledAtLeast: [Int: Int] = [:]
    consumers.removeAll { consumer in
      // A parked consumer has an empty buffer: it receives the end now, and that handles it.
      guard let parked = consumer.parked else {
        handledAtLeast[consumer.id] = .max
        return false
      }
      resumed.append(parked)
      return true
    }
    senders.append(Sender(id: id, handledAtLeast: handledAtLeast, waiter: sender))
    // The consumers that received the end may have been all that this or an earlier sender waited for.
    return (resumed, satisfiedSenders())
  }

  /// The consumer `id` calls `next()`: everything it took before is handled.
  /// - Returns: what `next()` does, and the senders to resume.
  package mutating func next(
    id: Int,
    consumer: Consumer,
    isCancelled: Bool
  ) -> (action: NextAction, senders: [Waiter]) {
    guard let index = consumers.firstIndex(where: { $0.id == id }) else {
      // It stopped already (cancelled, or it received the end).
      return (.deliver(nil), [])
    }
    consumers[index].handled = consumers[index].taken
    if isCancelled {
      consumers.remove(at: index)
      return (.deliver(nil), satisfiedSenders())
    }
    if !consumers[index].buffer.isEmpty {
      consumers[index].taken += 1
      let element = consumers[index].buffer.removeFirst()
      return (.deliver(.value(element)), satisfiedSenders())
    }
    if let terminal {
      consumers.remove(at: index)
      return (.deliver(terminal), satisfiedSenders())
    }
    consumers[index].parked = consumer
    return (.park, satisfiedSenders())
  }

  /// The consumer `id` stopped: its task was cancelled, or its iterator was released.
  /// - Returns: its parked `next()` to resume with `nil`, and the senders to resume.
  package mutating func stop(id: Int) -> (consumer: Consumer?, senders: [Waiter]) {
    guard let index = consumers.firstIndex(where: { $0.id == id }) else { return (nil, []) }
    let parked = consumers.remove(at: index).parked
    return (parked, satisfiedSenders())
  }

  /// Gives up on the sender `id` (its task was cancelled).
  /// - Returns: the sender to resume, or `nil` if it was resumed already.
  package mutating func cancelSender(id: Int) -> Waiter? {
    guard let index = senders.firstIndex(where: { $0.id == id }) else { return nil }
    return senders.remove(at: index).waiter
  }

  /// Registers a caller waiting for `count` consumers.
  /// - Returns: the caller, if it must be resumed at once (enough consumers, or its task is cancelled).
  package mutating func waitForConsumers(_ count: Int, waiter: Waiter, id: Int, isCancelled: Bool) -> Waiter? {
    if isCancelled || consumers.count >= count { return waiter }
    consumerWaiters.append(ConsumerWaiter(id: id, count: count, waiter: waiter))
    return nil
  }

  /// Gives up on the consumer waiter `id`.
  /// - Returns: the waiter to resume, or `nil` if it was resumed already.
  package mutating func cancelConsumerWaiter(id: Int) -> Waiter? {
    guard let index = consumerWaiters.firstIndex(where: { $0.id == id }) else { return nil }
    return consumerWaiters.remove(at: index).waiter
  }

  /// Whether the sender `id` is still waiting.
  package func isWaiting(sender id: Int) -> Bool {
    senders.contains { $0.id == id }
  }

  /// The consumers that have not handled what the sender `id` sent yet, described for a failure message, such as
  /// `consumer 1 has not taken it (it took 0 of the 1 value sent to it)`, each named by its place in
  /// subscription order; empty if none.
  package func describePending(sender id: Int) -> [String] {
    guard let sender = senders.first(where: { $0.id == id }) else { return [] }
    var lines: [String] = []
    for consumer in consumers {
      guard let required = sender.handledAtLeast[consumer.id], consumer.handled < required else { continue }
      let values = consumer.received == 1 ? "the 1 value" : "the \(consumer.received) values"
      let record =
        consumer.received == 0 ? "nothing was sent to it" : "it took \(consumer.taken) of \(values) sent to it"
      let number = consumer.number
      if required == .max {
        let buffered = consumer.buffer.count
        let state = buffered > 0 ? "\(buffered) still buffered" : "it has not asked for the next value"
        lines.append("consumer \(number) has not received the end (\(record); \(state))")
      } else if consumer.taken < required {
        lines.append("consumer \(number) has not taken it (\(record))")
      } else {
        lines.append("consumer \(number) took it but has not asked for the next value (\(record))")
      }
    }
    return lines
  }

  /// Removes and returns the senders whose every consumer has handled their event (or stopped).
  private mutating func satisfiedSenders() -> [Waiter] {
    guard !senders.isEmpty else { return [] }
    var handled: [Int: Int] = [:]
    for consumer in consumers { handled[consumer.id] = consumer.handled }
    var resumed: [Waiter] = []
    senders.removeAll { sender in
      let pending = sender.handledAtLeast.contains { id, required in (handled[id] ?? .max) < required }
      guard !pending else { return false }
      resumed.append(sender.waiter)
      return true
    }
    return resumed
  }
}
