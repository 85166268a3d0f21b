// The rule of a single-input operator that decides what to do with each value as it arrives (`map`, `filter`,
// `scan`, `removeDuplicates`, `prefix`, …), and the three places that run it: a hot node inside its upstream's
// send, a cold run that its consumer reads one element at a time, and a cold run read in batches. The operator's
// behaviour is written once, in its rule (ReactiveSwift's `Observers/<Operator>`).

/// What a single-input operator does with one input value. Its per-connection state (a `scan`'s accumulator, a
/// `prefix`'s count) is a separate value, ``State``, made by ``start()`` when a hot node connects or a cold run
/// starts, so one rule serves every connection and every run.
///
/// A rule runs synchronously, one value at a time, never two at once: the hot node's upstream delivers serially,
/// and a cold run is read by its one consumer.
@usableFromInline package protocol ElementRule<Input, Output>: Sendable {
  associatedtype Input: Sendable
  associatedtype Output: Sendable
  /// What one connection or one run keeps between values; `Void` for a rule that keeps nothing (`map`).
  associatedtype State = Void
  /// What the user's closure may throw: `Never` for the operators' plain forms, `any Error` for the forms whose
  /// closure throws (a throw fails the result with the error, and the rule is not asked again).
  associatedtype RuleFailure: Error = Never

  /// The state of a new connection or run.
  func start() -> State
  /// What to do with `input`.
  func step(_ input: Input, _ state: inout State) throws(RuleFailure) -> ElementStep<Output>
  /// Whether the rule ended the run with `state` (a `prefix` that passed its count on): a cold run then reads
  /// nothing more from its upstream.
  func isFinished(_ state: State) -> Bool
  /// What the rule passes on when its upstream finishes, before the end (`reduce`'s result, `takeLast`'s last
  /// values); nothing by default. Not asked when the upstream fails, nor after the rule ended the run itself.
  func finish(_ state: inout State) -> [Output]
}

extension ElementRule where State == Void {
  @inlinable package func start() {}
}

extension ElementRule {
  @inlinable package func isFinished(_ state: State) -> Bool { false }
  @inlinable package func finish(_ state: inout State) -> [Output] { [] }
}

/// The outcome of one ``ElementRule/step(_:_:)``.
@usableFromInline package enum ElementStep<Output> {
  /// Passes `Output` on.
  case emit(Output)
  /// Passes `Output` on, then finishes (the last value of `prefix(_:)`).
  case emitAndFinish(Output)
  /// Nothing for this input; `why` is what a trace records (`nil`: nothing, the input was used, as the first of
  /// `combinePrevious`'s pairs). A node that replays its current value holds none any
  /// more when `forgetsCurrent` (a `filter` that dropped its input); otherwise it keeps the last value it passed on
  /// (a `removeDuplicates` that dropped an equal one).
  case drop(_ why: String?, forgetsCurrent: Bool)
  /// Finishes without passing this input on (`prefix(while:)` at the first value that fails).
  case finish
}

// MARK: The hot node

extension Node {
  /// A node over `upstream` that runs `rule` inside each upstream send: one ``ElementRule/State`` per connection,
  /// made when the node connects (so a node that reconnects starts afresh); none is kept for a rule without state.
  @inlinable package static func ruled<Rule: ElementRule>(
    _ upstream: Node<Rule.Input, Failure>, _ rule: Rule, replay: Replay? = nil, origin: NodeOrigin
  ) -> Node where Rule.Output == Element, Rule.RuleFailure == Never {
    ruled(upstream, rule, replay: replay, origin: origin, failures: KeepsFailure<Failure>.self)
  }

  /// ``ruled(_:_:replay:origin:)`` for a rule whose closure may throw, or a node whose failure is not its
  /// upstream's: `failures` maps the upstream's failure and what the rule threw, which ends the node. (A type
  /// rather than closures: a connection captures nothing for it.)
  @inlinable package static func ruled<Rule: ElementRule, Failures: FailureMapping>(
    _ upstream: Node<Rule.Input, Failures.Upstream>, _ rule: Rule, replay: Replay? = nil, origin: NodeOrigin,
    failures: Failures.Type
  ) -> Node where Rule.Output == Element, Failures.Thrown == Rule.RuleFailure, Failures.Output == Failure {
    // Built here rather than through `observing(_:replay:origin:inputs:observer:onEnd:)`: the connection then
    // captures the rule itself, not a closure that captures it (a hot operator's memory is mostly such contexts).
    Node(
      replay: replay ?? Self.replay(following: upstream), restarts: upstream.restarts, origin: origin,
      inputs: .one(upstream)
    ) { node in
      let onValue: @Sendable (Rule.Input) -> Void
      let onEnd: @Sendable (Termination<Failures.Upstream>) -> Void
      if MemoryLayout<Rule.State>.size == 0 {
        // Nothing to keep: no box per connection (a hot `map` costs its closure and nothing else).
        onValue = { value in
          var state = rule.start()
          node.run(rule, on: value, &state, failures: Failures.self)
        }
        onEnd = { termination in
          var state = rule.start()
          node.end(rule, with: termination, &state, failures: Failures.self)
        }
      } else {
        let state = ConnectionState(rule.start())
        onValue = { value in node.run(rule, on: value, &state.value, failures: Failures.self) }
        onEnd = { termination in node.end(rule, with: termination, &state.value, failures: Failures.self) }
      }
      let sink = upstream.addSink(onValue: onValue, onEnd: onEnd)
      return { upstream.removeSink(sink) }
    }
  }

  /// One upstream value through `rule`, inside the upstream's send.
  @inlinable @inline(__always) package func run<Rule: ElementRule, Failures: FailureMapping>(
    _ rule: Rule, on value: Rule.Input, _ state: inout Rule.State, failures: Failures.Type
  ) where Rule.Output == Element, Failures.Thrown == Rule.RuleFailure, Failures.Output == Failure {
    // A rule that threw is not asked again (its node has ended; later values are not for it).
    if Failures.ruleThrows, isTerminated { return }
    do throws(Rule.RuleFailure) {
      apply(try rule.step(value, &state), to: value)
    } catch {
      terminate(.failed(Failures.thrown(error)))
    }
  }

  /// The upstream's end through `rule`: what the rule kept goes out inside the upstream's finish (a node that a
  /// throw ended ignores it), then the end.
  @inlinable @inline(__always) package func end<Rule: ElementRule, Failures: FailureMapping>(
    _ rule: Rule, with termination: Termination<Failures.Upstream>, _ state: inout Rule.State,
    failures: Failures.Type
  ) where Rule.Output == Element, Failures.Output == Failure {
    if case .finished = termination {
      for output in rule.finish(&state) { send(output) }
    }
    terminate(mapTermination(termination, Failures.upstream))
  }

  /// Does what a rule's step said with the input `value`.
  @inlinable @inline(__always) package func apply<Input: Sendable>(_ step: ElementStep<Element>, to value: Input) {
    switch step {
    case .emit(let output):
      send(output)
    case .drop(let why, let forgetsCurrent):
      if let why { traceDropped(value, why) }
      if forgetsCurrent { forgetCurrentIfReplaying() }
    case .emitAndFinish(let output):
      send(output)
      terminate(.finished)
    case .finish:
      terminate(.finished)
    }
  }

  /// A current-value node whose last input produced nothing holds no current output any more.
  @inlinable package func forgetCurrentIfReplaying() {
    if case .none = replay { return }
    forgetCurrent()
  }
}

// MARK: Cold runs

extension Signal {
  /// Applies `rule`: on a hot signal, a node now (the result is hot and shared); on a cold one, in each run: a node
  /// of the run's graph when an operator observes the run, and for a consumer that reads the run, the rule run on
  /// what it reads (no node, no lock; one element at a time when the upstream is read so).
  ///
  /// - Parameters:
  ///   - replay: what the node replays, when not what follows from its upstream's (see
  ///     ``Node/replay(following:)``).
  ///   - origin: the operator and where it was made, for a graph dump.
  @inlinable package func ruled<Rule: ElementRule>(
    _ rule: Rule, replay: Node<Rule.Output, Failure>.Replay? = nil, origin: NodeOrigin
  ) -> Signal<Rule.Output, Failure> where Rule.Input == Element, Rule.RuleFailure == Never {
    ruled(rule, replay: replay, origin: origin, failures: KeepsFailure<Failure>.self)
  }

  /// ``ruled(_:replay:origin:)`` for a rule whose closure may throw: the result fails with `any Error`, the
  /// upstream's failure or what the rule threw.
  @inlinable package func ruledTrying<Rule: ElementRule>(
    _ rule: Rule, origin: NodeOrigin
  ) -> Signal<Rule.Output, any Error> where Rule.Input == Element, Rule.RuleFailure == any Error {
    ruled(rule, replay: nil, origin: origin, failures: ErasesFailure<Failure>.self)
  }

  /// The one implementation of ``ruled(_:replay:origin:)`` and ``ruledTrying(_:origin:)``: `failures` maps the
  /// upstream's failure and what the rule threw.
  @inlinable package func ruled<Rule: ElementRule, Failures: FailureMapping>(
    _ rule: Rule, replay: Node<Rule.Output, Failures.Output>.Replay?, origin: NodeOrigin, failures: Failures.Type
  ) -> Signal<Rule.Output, Failures.Output>
  where Rule.Input == Element, Failures.Upstream == Failure, Failures.Thrown == Rule.RuleFailure {
    typealias OutputFailure = Failures.Output
    if case .hot(let upstream) = core {
      return Signal<Rule.Output, OutputFailure>(
        hot: .ruled(upstream, rule, replay: replay, origin: origin, failures: Failures.self))
    }
    let upstream = self
    let node: @Sendable (ColdStart) -> Node<Rule.Output, OutputFailure> = { start in
      .ruled(upstream.node(start), rule, replay: replay, origin: origin, failures: Failures.self)
    }
    if let makeUpstream = upstream.makeSynchronousNext {
      return Signal<Rule.Output, OutputFailure>(
        cold: ColdRecipe(node: node) {
          let upstreamNext = makeUpstream()
          let run = ClosureState(SynchronousRuleRun<Rule>(state: rule.start()))
          return { () throws(OutputFailure) in
            // The upstream finished: what the rule kept for its end, one per read.
            if run.value.upstreamFinished { return run.value.nextKept() }
            while !rule.isFinished(run.value.state) {
              let input: Element?
              do throws(Failure) { input = try upstreamNext() } catch { throw Failures.upstream(error) }
              guard let input else {
                run.value.upstreamFinished = true
                run.value.kept = rule.finish(&run.value.state)
                return run.value.nextKept()
              }
              let step: ElementStep<Rule.Output>
              do throws(Rule.RuleFailure) { step = try rule.step(input, &run.value.state) } catch {
                throw Failures.thrown(error)
              }
              switch step {
              case .emit(let output), .emitAndFinish(let output): return output
              case .drop: continue
              case .finish: return nil
              }
            }
            return nil
          }
        })
    }
    return Signal<Rule.Output, OutputFailure>(
      cold: ColdRecipe(
        node: node,
        pull: {
          let upstreamPull = upstream.pull()
          let run = ClosureState(RuleRun<Rule, Element, OutputFailure>(state: rule.start()))
          return { batch in
            // What the rule threw after it had passed values on in the same batch: those come first.
            if let failure = run.value.failure.take() { throw failure }
            while batch.isEmpty && !run.value.ended {
              try await upstreamPull(&run.value.inputs)
              if run.value.inputs.isEmpty {
                // The upstream finished: what the rule kept for its end goes out, then the end. (An upstream that
                // stops because its consumer was cancelled has not finished: nothing is made of its end.)
                run.value.ended = true
                if !Task.isCancelled { batch.append(contentsOf: rule.finish(&run.value.state)) }
                return
              }
              defer { run.value.inputs.removeAll(keepingCapacity: true) }
              for input in run.value.inputs {
                let step: ElementStep<Rule.Output>
                do throws(Rule.RuleFailure) {
                  step = try rule.step(input, &run.value.state)
                } catch {
                  run.value.ended = true
                  if batch.isEmpty { throw Failures.thrown(error) }
                  run.value.failure = Failures.thrown(error)
                  return
                }
                switch step {
                case .emit(let output):
                  batch.append(output)
                  continue
                case .drop:
                  continue
                case .emitAndFinish(let output):
                  batch.append(output)
                  run.value.ended = true
                case .finish:
                  run.value.ended = true
                }
                break
              }
            }
          }
        }, drivable: upstream.isDrivable))
  }
}

/// A cold run read one element at a time through a rule (see ``Signal/ruled(_:replay:origin:failures:)``).
@usableFromInline package struct SynchronousRuleRun<Rule: ElementRule> {
  @usableFromInline var state: Rule.State
  /// Whether the upstream finished: what the rule kept for its end (``kept``) is read next.
  @usableFromInline var upstreamFinished = false
  @usableFromInline var kept: [Rule.Output] = []
  @usableFromInline var keptIndex = 0

  @inlinable init(state: Rule.State) {
    self.state = state
  }

  /// The next value the rule kept for its end; `nil` once all were read.
  @inlinable mutating func nextKept() -> Rule.Output? {
    guard keptIndex < kept.count else { return nil }
    defer { keptIndex += 1 }
    return kept[keptIndex]
  }
}

/// A cold run read in batches through a rule (see ``Signal/ruled(_:replay:origin:failures:)``).
@usableFromInline package struct RuleRun<Rule: ElementRule, Input, Failure: Error> {
  @usableFromInline var state: Rule.State
  /// The upstream's last batch, being run through the rule.
  @usableFromInline var inputs: [Input] = []
  /// The rule finished the run, or threw.
  @usableFromInline var ended = false
  /// What the rule threw, when values of the same batch were handed over first.
  @usableFromInline var failure: Failure?

  @inlinable init(state: Rule.State) {
    self.state = state
  }
}

/// How a rule's node maps the failures it can end with: its upstream's, and what its rule threw.
@usableFromInline package protocol FailureMapping: SendableMetatype {
  associatedtype Upstream: Error
  associatedtype Thrown: Error
  associatedtype Output: Error
  /// Whether the rule may throw: only then does its node check, per value, that it has not ended.
  static var ruleThrows: Bool { get }
  static func upstream(_ failure: Upstream) -> Output
  static func thrown(_ failure: Thrown) -> Output
}

/// A rule that never throws, whose node fails as its upstream does (the operators' plain forms).
@usableFromInline package enum KeepsFailure<Upstream: Error>: FailureMapping {
  @inlinable package static var ruleThrows: Bool { false }
  @inlinable package static func upstream(_ failure: Upstream) -> Upstream { failure }
  @inlinable package static func thrown(_ failure: Never) -> Upstream {}
}

/// A rule whose closure may throw: its node fails with `any Error`, its upstream's failure or what it threw.
@usableFromInline package enum ErasesFailure<Upstream: Error>: FailureMapping {
  @inlinable package static var ruleThrows: Bool { true }
  @inlinable package static func upstream(_ failure: Upstream) -> any Error { failure }
  @inlinable package static func thrown(_ failure: any Error) -> any Error { failure }
}
