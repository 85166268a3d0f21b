// What a node gives a consumer that joins later: its replayed values, its current value, each input's latest.

extension Node {
  /// What a new consumer is given before live values.
  @usableFromInline package enum Replay: Sendable {
    /// Nothing (AsyncPassthroughSubject).
    case none
    /// The last `n` values, also after the subject terminated (AsyncReplaySubject).
    case latest(Int)
    /// The current value, until the subject terminates (AsyncCurrentValueSubject).
    case current
    /// The latest value from each input that gives a new observer one (`replays[i]`), in input order, until the
    /// node ends: what a fresh subscription to a `merge` of current values gives at once (each input's current
    /// value). What an input without a current value sent (a passthrough subject, a time node) is not replayed: a
    /// fresh subscription would get nothing of it.
    case eachInput(replays: [Bool])

    /// Whether the node replays exactly its current value (a rule that keeps it up to date without emitting,
    /// ``Node/replaceCurrent(_:)``, does so only then).
    @inlinable package var keepsCurrent: Bool {
      if case .current = self { return true }
      return false
    }
  }

  /// Sends `element`, which came from input `input` of a ``Replay/eachInput(_:)`` node: it becomes that input's
  /// replayed value.
  @inlinable package func send(_ element: Element, fromInput input: Int) {
    if _slowPath(extras != nil) { traceSent(element) }
    let admitted = state.withLock { state -> Admitted in
      guard state.terminal == nil else { return .nothing }
      state.inputValues[input] = element
      return admit(element, in: &state)
    }
    deliver(element, admitted)
  }

  /// Input `input` of a ``Replay/eachInput(_:)`` node ended: a consumer that joins now is given nothing of it.
  @inlinable package func forgetInput(_ input: Int) {
    state.withLock { state in
      if state.terminal == nil { state.inputValues[input] = nil }
    }
  }

  /// Replaces the current value with what `body` makes of it and sends the result, in one critical section: no
  /// other send comes between the read and the write, so concurrent modifications lose nothing. `body` runs under
  /// the lock. After termination it runs on a copy of the last value and nothing changes (a send is ignored
  /// then); when it throws, nothing changes either.
  @inlinable package func modifyCurrent<Result, BodyFailure: Error>(
    _ body: (inout Element) throws(BodyFailure) -> Result
  ) throws(BodyFailure) -> Result {
    let (result, element, admitted) = try state.withLock {
      state throws(BodyFailure) -> (Result, Element, Admitted) in
      // A current-value storage always holds exactly one value.
      var value = state.replay.last!
      let result = try body(&value)
      guard state.terminal == nil else { return (result, value, .nothing) }
      return (result, value, admit(value, in: &state))
    }
    deliver(element, admitted)
    return result
  }

  /// Forgets the replayed current value: the last input event of a current-value node produced nothing (a
  /// `filter` dropped it), so a consumer that joins now must not be given an older output as current.
  @inlinable package func forgetCurrent() {
    state.withLock { state in
      if state.terminal == nil { state.forgetReplay() }
    }
  }

  /// Makes `element` what a consumer that joins now is given as the node's current value, without sending it: an
  /// input changed what a fresh subscription would compute (`withLatestFrom`'s other input, `sample(on:)`'s base)
  /// without the node emitting. Only for a node that replays its current value; nothing after the end.
  @inlinable package func replaceCurrent(_ element: Element) {
    state.withLock { state in
      // A ring of one: the append replaces the previous value, as a send's does.
      if state.terminal == nil { state.replay.append(element) }
    }
  }

  /// Forgets the replayed current value and, from now on, keeps one (`keepsCurrent`) or none: the node switched to
  /// an input that does or does not give a new observer a current value (`catch` switching to its fallback), so a
  /// consumer that joins from now on is given that input's current value, or nothing. For a node that replays at
  /// most its current value.
  @inlinable package func switchReplay(keepsCurrent: Bool) {
    let dropped = state.withLock { state -> RingBuffer<Element>? in
      guard state.terminal == nil else { return nil }
      var dropped = RingBuffer<Element>(capacity: keepsCurrent ? 1 : 0)
      swap(&dropped, &state.replay)
      return dropped
    }
    // The forgotten value is released after the lock (its release may run other nodes' code).
    withExtendedLifetime(dropped) {}
  }

  /// The latest value (the current value of a AsyncCurrentValueSubject), `nil` when there is none.
  @inlinable package var latest: Element? {
    state.withLock { $0.replay.last }
  }
}
