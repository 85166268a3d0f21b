/// One event of a marble timeline: a value, the finish, or a failure with `TestError(code:)`.
enum ModelEvent: Hashable, Sendable, CustomStringConvertible {
  case value(Int)
  case finished
  case failed(Int)

  var isEnd: Bool {
    if case .value = self { return false }
    return true
  }

  var description: String {
    switch self {
    case .value(let value): "\(value)"
    case .finished: "finished"
    case .failed(let code): "failed(\(code))"
    }
  }
}

/// An event recorded at an integer tick (1 tick = 1 second of `TestClock`), printed as RxTest prints it: `12@1`.
struct TickedEvent: Hashable, Sendable, CustomStringConvertible {
  var tick: Int
  var event: ModelEvent

  var description: String { "\(event)@\(tick)" }
}

/// The hot input of a program: a passthrough subject, or a current-value subject with its initial value.
enum ModelSource: Hashable, Sendable, CustomStringConvertible {
  case passthrough
  case currentValue(Int)

  var description: String {
    switch self {
    case .passthrough: "Passthrough()"
    case .currentValue(let value): "CurrentValue(\(value))"
    }
  }
}

/// What an operator reads: a source (`s0`, `s1`) or an earlier node (`n0`, `n1`, …).
enum ModelRef: Hashable, Sendable, CustomStringConvertible {
  case source(Int)
  case node(Int)

  var description: String {
    switch self {
    case .source(let index): "s\(index)"
    case .node(let index): "n\(index)"
    }
  }
}

/// The operators the model knows, each with the parameters that make its closure (so a program is plain data
/// that both the model and the library runner build from).
enum ModelOperator: Hashable, Sendable {
  /// `map { $0 + add }`.
  case map(add: Int)
  /// `filter { $0 % modulus == 0 }`.
  case filter(modulus: Int)
  /// `compactMap { $0 % divisor == 0 ? $0 / divisor : nil }`.
  case compactMap(divisor: Int)
  /// `scan(seed, +)`.
  case scan(seed: Int)
  case removeDuplicates
  case dropFirst(Int)
  case prefix(Int)
  /// `merge(input, other)`.
  case merge(ModelRef)
  /// `combineLatest(input, other).map { $0 * 100 + $1 }`.
  case combineLatest(ModelRef)
  /// `zip(input, other).map { $0 * 100 + $1 }`.
  case zip(ModelRef)
  /// `input.withLatestFrom(other) { $0 * 100 + $1 }`.
  case withLatestFrom(ModelRef)
  case delay(Int)
  case debounce(Int)
  /// `throttle(for:clock:latest: false)`, the form whose timeline is RxSwift's.
  case throttle(Int)
  /// `timeout`, its timeout mapped to `TestError(code: 99)`.
  case timeout(Int)
  /// `flatMapLatest { v in timer(after: ticks + |v| % 2).map { _ in v } }`.
  case flatMapLatest(Int)
  /// `flatMap(.merge) { v in timer(after: ticks + |v| % 2).map { _ in v } }`.
  case flatMapMerge(Int)
  /// `catch { _ in Signal.just(value) }`.
  case catchJust(Int)

  /// The second input of a two-input operator.
  var other: ModelRef? {
    switch self {
    case .merge(let other), .combineLatest(let other), .zip(let other), .withLatestFrom(let other): other
    default: nil
    }
  }

  /// Whether the operator keeps nothing between events, so a late consumer's replay is the input's, transformed.
  var isStateless: Bool {
    switch self {
    case .map, .filter, .compactMap: true
    default: false
    }
  }

  /// The same operator reading `other` instead.
  func with(other: ModelRef) -> ModelOperator {
    switch self {
    case .merge: .merge(other)
    case .combineLatest: .combineLatest(other)
    case .zip: .zip(other)
    case .withLatestFrom: .withLatestFrom(other)
    default: self
    }
  }

  /// The code the operator stands for, applied to `input`.
  func describe(input: String) -> String {
    switch self {
    case .map(let add): "\(input).map{$0+\(add)}"
    case .filter(let modulus): "\(input).filter{$0%\(modulus)==0}"
    case .compactMap(let divisor): "\(input).compactMap{$0%\(divisor)==0 ? $0/\(divisor) : nil}"
    case .scan(let seed): "\(input).scan(\(seed),+)"
    case .removeDuplicates: "\(input).removeDuplicates()"
    case .dropFirst(let count): "\(input).dropFirst(\(count))"
    case .prefix(let count): "\(input).prefix(\(count))"
    case .merge(let other): "merge(\(input), \(other))"
    case .combineLatest(let other): "combineLatest(\(input), \(other)).map{$0*100+$1}"
    case .zip(let other): "zip(\(input), \(other)).map{$0*100+$1}"
    case .withLatestFrom(let other): "\(input).withLatestFrom(\(other)){$0*100+$1}"
    case .delay(let ticks): "\(input).delay(\(ticks))"
    case .debounce(let ticks): "\(input).debounce(\(ticks))"
    case .throttle(let ticks): "\(input).throttle(\(ticks), latest: false)"
    case .timeout(let ticks): "\(input).timeout(\(ticks)) /* timeout → failed(99) */"
    case .flatMapLatest(let ticks): "\(input).flatMapLatest{v in timer(\(ticks)+|v|%2).map{_ in v}}"
    case .flatMapMerge(let ticks): "\(input).flatMap(.merge){v in timer(\(ticks)+|v|%2).map{_ in v}}"
    case .catchJust(let value): "\(input).catch{_ in just(\(value))}"
    }
  }
}

/// The pure transforms of the operators' closures, shared by the model and the runner so both compute the same
/// values.
enum ModelClosures {
  /// The code the timeout failure is mapped to.
  static let timeoutCode = 99

  static func pair(_ first: Int, _ second: Int) -> Int { first * 100 + second }

  static func keeps(_ value: Int, modulus: Int) -> Bool { value % modulus == 0 }

  static func compact(_ value: Int, divisor: Int) -> Int? { value % divisor == 0 ? value / divisor : nil }

  /// The inner timer's delay, in ticks, for `value`.
  static func innerTicks(_ ticks: Int, value: Int) -> Int { ticks + abs(value) % 2 }
}

/// An operator applied to an earlier node or a source.
struct ModelNode: Hashable, Sendable {
  var input: ModelRef
  var op: ModelOperator
}

/// What a program does to a source at a tick.
enum ModelAction: Hashable, Sendable {
  case send(Int)
  case finish
  case fail(Int)
}

/// One step of the schedule: `action` on source `source` at tick `tick`.
struct ModelSend: Hashable, Sendable, CustomStringConvertible {
  var tick: Int
  var source: Int
  var action: ModelAction

  var description: String {
    switch action {
    case .send(let value): "s\(source).send(\(value))@\(tick)"
    case .finish: "s\(source).finish()@\(tick)"
    case .fail(let code): "s\(source).fail(\(code))@\(tick)"
    }
  }
}

/// A recorder attached to `ref` at tick `tick`, after the timers due then and before that tick's sends.
struct ModelLateRecorder: Hashable, Sendable {
  var ref: ModelRef
  var tick: Int
}

/// A random program: sources, operators made in order (`n0`, `n1`, …), one recorder attached at tick 0, maybe a
/// late one, and the sends; its description is the code it stands for.
struct ModelProgram: Hashable, Sendable, CustomStringConvertible {
  /// The tick the runner advances to after the last send, far enough for every timer of a program to be due.
  static let finalTick = 80

  var sources: [ModelSource]
  var nodes: [ModelNode]
  var recorded: ModelRef
  var late: ModelLateRecorder?
  /// In tick order; sends at one tick run in this order.
  var sends: [ModelSend]

  var description: String {
    var lines = sources.enumerated().map { "s\($0.offset) = \($0.element)" }
    lines += nodes.enumerated().map { "n\($0.offset) = \($0.element.op.describe(input: $0.element.input.description))" }
    lines.append("record \(recorded) @0" + (late.map { "; record \($0.ref) @\($0.tick)" } ?? ""))
    lines.append("sends: " + (sends.isEmpty ? "none" : sends.map(\.description).joined(separator: ", ")))
    return lines.joined(separator: "; ")
  }

  /// Every node and source that `ref` reads, itself included.
  func upstream(of ref: ModelRef) -> Set<ModelRef> {
    var result: Set<ModelRef> = [ref]
    var pending = [ref]
    while let next = pending.popLast() {
      guard case .node(let index) = next else { continue }
      let node = nodes[index]
      for input in [node.input, node.op.other].compactMap({ $0 }) where result.insert(input).inserted {
        pending.append(input)
      }
    }
    return result
  }
}
