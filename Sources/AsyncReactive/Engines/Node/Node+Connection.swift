import Synchronization

// How a hot operator's node observes its inputs: connected from its first observer to its last.

extension Node {
  /// How a hot operator's node starts observing its inputs; returns how to stop. Called without any lock, by one
  /// thread at a time, when the node gains its first observer; `nil` for a subject, which has no inputs.
  @usableFromInline package typealias Connector = @Sendable (Node) -> @Sendable () -> Void

  /// Whether the node observes its inputs now, and who is changing that.
  @usableFromInline struct InputLink: Sendable {
    /// How to stop observing the inputs; `nil` while not connected.
    @usableFromInline var disconnect: (@Sendable () -> Void)?
    /// A thread is connecting or disconnecting now; others leave it a note (`dirty`), and a registration waits
    /// for it (see ``Node/reconcileInputs(registering:)``).
    @usableFromInline var busy = false
    @usableFromInline var dirty = false
    /// The thread that is busy, to let a registration made by that thread itself (from inside the connection)
    /// go on instead of waiting for itself.
    @usableFromInline var owner: UInt = 0
    /// How many times the node connected: a connection that sends with ``Node/send(_:epoch:)`` is heard
    /// only while it is the current one.
    @usableFromInline var epoch = 0

    @inlinable init() {}
  }

  /// The current connection's number, read by a connector when it connects (see ``send(_:epoch:)``).
  @inlinable package var epoch: Int { state.withLock { $0.link.epoch } }

  /// Connects the node to its inputs when it has observers and has not ended, and disconnects it when it has
  /// none (ReactiveSwift's reference-counted `Signal`): called after every registration change.
  ///
  /// Connecting runs outside the lock (it registers with the inputs, which may replay into this node and so
  /// into user code). One thread at a time does it; a change meanwhile, on another thread or from inside the
  /// connection (a sink that stops observing during its first value), leaves a note that makes that thread
  /// look again before it lets go. A node that ended never connects again: it stays ended, like its inputs.
  ///
  /// A registration (`registering`) must return with the node connected, so that a value sent right after it is
  /// seen: when another thread is busy with the link (connecting, or disconnecting after its last observer left),
  /// it waits until the node is connected or that thread is done, then looks again itself. A registration made by
  /// the busy thread itself, from inside the connection, does not wait: that thread connects once it returns.
  /// Known limit: two threads that each connect a node and, from user code run during that connection (a replayed
  /// value reaching a sink), register with the node the other is connecting would wait for each other; the library
  /// itself never registers from inside a connection that way.
  @inlinable package func reconcileInputs(registering: Bool = false) {
    guard let connector else { return }
    let me = registering ? currentThreadID() : 0
    while true {
      let claim = state.withLock { state -> LinkClaim in
        if !state.link.busy {
          state.link.busy = true
          state.link.owner = me
          return .mine
        }
        state.link.dirty = true
        if !registering || state.link.owner == me || state.link.disconnect != nil || state.terminal != nil {
          // Connected (and it stays so while this registration lasts), ended, or being connected by this thread.
          return .leave
        }
        return .wait
      }
      switch claim {
      case .mine: break
      case .leave: return
      case .wait:
        yieldThread()
        continue
      }
      break
    }
    while true {
      let step = state.withLock { state -> LinkStep in
        let wanted = state.terminal == nil && registered.load(ordering: .relaxed) > 0
        if wanted && state.link.disconnect == nil {
          state.link.epoch &+= 1
          return .connect
        }
        if !wanted, let disconnect = state.link.disconnect {
          state.link.disconnect = nil
          // The connection is over as soon as it is decided: what it still delivers is not heard (`send(_:epoch:)`).
          state.link.epoch &+= 1
          // What a disconnected node last held is stale by the time it connects again.
          if state.terminal == nil { state.forgetReplay() }
          return .disconnect(disconnect)
        }
        if state.link.dirty {
          state.link.dirty = false
          return .again
        }
        state.link.busy = false
        state.link.owner = 0
        return .done
      }
      switch step {
      case .connect:
        let previous = CreationRank.beginConnecting(self, as: rank)
        let disconnect = connector(self)
        CreationRank.endConnecting(previous)
        state.withLock { $0.link.disconnect = disconnect }
      case .disconnect(let disconnect):
        disconnect()
      case .again:
        continue
      case .done:
        return
      }
    }
  }

  /// Whether ``reconcileInputs(registering:)`` may change the link now, decided under the lock.
  @usableFromInline enum LinkClaim {
    case mine
    case leave
    case wait
  }

  /// What ``reconcileInputs(registering:)`` does next, decided under the lock.
  @usableFromInline enum LinkStep {
    case connect
    case disconnect(@Sendable () -> Void)
    case again
    case done
  }
}
