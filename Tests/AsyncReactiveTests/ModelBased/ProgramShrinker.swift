/// Makes a program on which the library and the model differ smaller while they still differ: drops the late
/// recorder, operators, unused sources and sends, then lowers values, parameters and ticks, until no single step
/// keeps the difference.
enum ProgramShrinker {
  static func shrink(
    _ program: ModelProgram, options: ProgramGenerator.Options,
    stillDiffers: (ModelProgram) async -> Bool
  ) async -> ModelProgram {
    var smallest = program
    var improved = true
    while improved {
      improved = false
      for candidate in candidates(smallest)
      where ProgramGenerator.isInScope(candidate, options: options) {
        if await stillDiffers(candidate) {
          smallest = candidate
          improved = true
          break
        }
      }
    }
    return smallest
  }

  /// Every program one step smaller than `program`, the biggest steps first.
  static func candidates(_ program: ModelProgram) -> [ModelProgram] {
    var result: [ModelProgram] = []
    if program.late != nil {
      var candidate = program
      candidate.late = nil
      result.append(candidate)
    }
    for index in program.nodes.indices.reversed() {
      result.append(removingNode(index, from: program))
    }
    if program.sources.count == 2 && !program.upstream(of: program.recorded).contains(.source(1))
      && program.late.map({ !program.upstream(of: $0.ref).contains(.source(1)) }) ?? true
      && !program.nodes.contains(where: { $0.input == .source(1) || $0.op.other == .source(1) })
    {
      var candidate = program
      candidate.sources.removeLast()
      candidate.sends.removeAll { $0.source == 1 }
      result.append(candidate)
    }
    // Halves of the sends, then each send.
    if program.sends.count > 1 {
      let half = program.sends.count / 2
      for range in [0..<half, half..<program.sends.count] {
        var candidate = program
        candidate.sends.removeSubrange(range)
        result.append(candidate)
      }
    }
    for index in program.sends.indices {
      var candidate = program
      candidate.sends.remove(at: index)
      result.append(candidate)
    }
    for (index, source) in program.sources.enumerated() {
      if case .currentValue(let value) = source {
        var candidate = program
        candidate.sources[index] = .passthrough
        result.append(candidate)
        if value != 0 {
          candidate.sources[index] = .currentValue(0)
          result.append(candidate)
        }
      }
    }
    for (index, node) in program.nodes.enumerated() {
      for op in simpler(node.op) {
        var candidate = program
        candidate.nodes[index].op = op
        result.append(candidate)
      }
    }
    for (index, send) in program.sends.enumerated() {
      var smaller: [ModelAction] = []
      switch send.action {
      case .send(let value) where value != 0: smaller = [.send(0), .send(value - 1)]
      case .fail(let code) where code != 1: smaller = [.fail(1)]
      case .fail: smaller = [.finish]
      default: break
      }
      for action in smaller {
        var candidate = program
        candidate.sends[index].action = action
        result.append(candidate)
      }
    }
    // Earlier ticks: every send from one on moves back a tick, keeping the order.
    for index in program.sends.indices where program.sends[index].tick > 1 {
      guard index == 0 || program.sends[index - 1].tick < program.sends[index].tick else { continue }
      var candidate = program
      for later in index..<candidate.sends.count { candidate.sends[later].tick -= 1 }
      result.append(candidate)
    }
    if let late = program.late, late.tick > 1 {
      var candidate = program
      candidate.late?.tick -= 1
      result.append(candidate)
    }
    return result
  }

  /// `program` without node `index`: its readers read its input instead.
  static func removingNode(_ index: Int, from program: ModelProgram) -> ModelProgram {
    let replacement = program.nodes[index].input
    func renumber(_ ref: ModelRef) -> ModelRef {
      switch ref {
      case .node(index): replacement
      case .node(let other) where other > index: .node(other - 1)
      default: ref
      }
    }
    var candidate = program
    candidate.nodes.remove(at: index)
    candidate.nodes = candidate.nodes.map { node in
      var node = node
      node.input = renumber(node.input)
      if let other = node.op.other { node.op = node.op.with(other: renumber(other)) }
      return node
    }
    candidate.recorded = renumber(program.recorded)
    if let late = program.late { candidate.late?.ref = renumber(late.ref) }
    return candidate
  }

  private static func simpler(_ op: ModelOperator) -> [ModelOperator] {
    switch op {
    case .map(let add) where add > 1: [.map(add: 1)]
    case .filter(let modulus) where modulus > 2: [.filter(modulus: 2)]
    case .compactMap(let divisor) where divisor > 2: [.compactMap(divisor: 2)]
    case .scan(let seed) where seed > 0: [.scan(seed: 0)]
    case .dropFirst(let count) where count > 1: [.dropFirst(count - 1)]
    case .prefix(let count) where count > 1: [.prefix(count - 1)]
    case .delay(let ticks) where ticks > 1: [.delay(ticks - 1)]
    case .debounce(let ticks) where ticks > 1: [.debounce(ticks - 1)]
    case .throttle(let ticks) where ticks > 1: [.throttle(ticks - 1)]
    case .timeout(let ticks) where ticks > 1: [.timeout(ticks - 1)]
    case .flatMapLatest(let ticks) where ticks > 1: [.flatMapLatest(ticks - 1)]
    case .flatMapMerge(let ticks) where ticks > 1: [.flatMapMerge(ticks - 1)]
    case .catchJust(let value) where value > 0: [.catchJust(0)]
    default: []
    }
  }
}
