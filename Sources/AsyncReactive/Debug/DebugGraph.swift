/// A picture of a live graph: every node reachable from where it was taken (the nodes it reads, and the nodes that
/// read it, while they observe it), each with its operator, the line that made it, its state and its consumers.
///
/// Print it for an indented text picture (each graph's last nodes first, their inputs indented below; a node reached
/// again is shown once and referred to by its number), or render ``dot`` (Graphviz) or ``mermaid`` for a picture
/// in a document or an issue comment. A snapshot: the graph goes on after it was taken.
///
/// ```swift
/// let password = AsyncCurrentValueSubject<String, Never>("")
/// let isValid = password.map { $0.count >= 8 }
/// isValid.sink(in: lifetime) { print($0) }
/// print(isValid.debugGraph())
/// // #1 map → Bool (Signup.swift:2) · connected · current: false · observers: sink
/// // └─ #2 AsyncCurrentValueSubject → String · current: "" · observers: #1
/// ```
public struct DebugGraph: Sendable, CustomStringConvertible {
  /// One node of the picture.
  struct Node: Sendable {
    var number: Int
    var name: String
    var output: String
    var site: String?
    var label: String?
    var isSource: Bool
    var snapshot: NodeSnapshot
    var inputs: [Int]
    /// The numbers of the nodes its observers feed, `nil` for a direct observer (`sink`, `observe`, `bind`).
    var observers: [Int?]
  }

  let nodes: [Node]
  /// The numbers of the nodes nothing in the picture reads, in the order the text shows them.
  let roots: [Int]

  /// How many nodes the picture has.
  ///
  /// ```swift
  /// #expect(viewModel.isValid.debugGraph().nodeCount == 3)
  /// ```
  public var nodeCount: Int { nodes.count }

  /// How many edges (a node reading another) the picture has.
  ///
  /// ```swift
  /// #expect(viewModel.isValid.debugGraph().edgeCount == 2)
  /// ```
  public var edgeCount: Int { nodes.reduce(0) { $0 + $1.inputs.count } }

  /// Takes the picture of the graph around `start` (a node of the library's).
  init(around start: any DumpableNode) {
    // Discover every node: inputs and observing nodes, breadth first from `start`; order is deterministic (inputs in
    // their order, observers in call order).
    var found: [ObjectIdentifier: Int] = [:]
    var order: [any DumpableNode] = []
    var snapshots: [NodeSnapshot] = []
    var queue: [any DumpableNode] = [start]
    found[ObjectIdentifier(start)] = 0
    var index = 0
    while index < queue.count {
      let node = queue[index]
      index += 1
      order.append(node)
      let snapshot = node.snapshot()
      snapshots.append(snapshot)
      let neighbours = node.inputs.nodes + snapshot.observers.compactMap { $0 }
      for neighbour in neighbours {
        guard let neighbour = neighbour as? any DumpableNode, found[ObjectIdentifier(neighbour)] == nil else {
          continue
        }
        found[ObjectIdentifier(neighbour)] = found.count
        queue.append(neighbour)
      }
    }
    // Number them in the order the text shows them: each root (a node no other node in the picture reads), then its
    // inputs depth first.
    var isRead = Set<ObjectIdentifier>()
    for node in order {
      for input in node.inputs.nodes { isRead.insert(ObjectIdentifier(input)) }
    }
    var number: [ObjectIdentifier: Int] = [:]
    var shown: [Int] = []  // discovery indices in text order
    func visit(_ discovery: Int) {
      let node = order[discovery]
      guard number[ObjectIdentifier(node)] == nil else { return }
      number[ObjectIdentifier(node)] = shown.count + 1
      shown.append(discovery)
      for input in node.inputs.nodes {
        if let next = found[ObjectIdentifier(input)] { visit(next) }
      }
    }
    var rootDiscoveries: [Int] = []
    for (discovery, node) in order.enumerated() where !isRead.contains(ObjectIdentifier(node)) {
      rootDiscoveries.append(discovery)
      visit(discovery)
    }
    // A cycle has no root: start from where the picture was taken.
    for discovery in order.indices where number[ObjectIdentifier(order[discovery])] == nil {
      rootDiscoveries.append(discovery)
      visit(discovery)
    }
    nodes = shown.map { discovery in
      let node = order[discovery]
      let snapshot = snapshots[discovery]
      return Node(
        number: number[ObjectIdentifier(node)]!,
        name: node.origin.kind.name,
        output: snapshot.output,
        site: node.origin.site,
        label: node.label,
        isSource: !snapshot.hasInputs,
        snapshot: snapshot,
        inputs: node.inputs.nodes.compactMap { number[ObjectIdentifier($0)] },
        observers: snapshot.observers.map { owner in owner.flatMap { number[ObjectIdentifier($0)] } })
    }
    roots = rootDiscoveries.map { number[ObjectIdentifier(order[$0])]! }
  }

  /// The indented text picture.
  ///
  /// ```swift
  /// print(viewModel.isSignupEnabled.debugGraph())
  /// ```
  public var description: String {
    var lines: [String] = []
    var drawn = Set<Int>()
    func draw(_ number: Int, prefix: String, connector: String, childPrefix: String) {
      let node = nodes[number - 1]
      if drawn.contains(number) {
        lines.append(prefix + connector + "#\(number) (above)")
        return
      }
      drawn.insert(number)
      lines.append(prefix + connector + line(for: node))
      for (position, input) in node.inputs.enumerated() {
        let last = position == node.inputs.count - 1
        draw(input, prefix: prefix + childPrefix, connector: last ? "└─ " : "├─ ", childPrefix: last ? "   " : "│  ")
      }
    }
    for root in roots { draw(root, prefix: "", connector: "", childPrefix: "") }
    return lines.joined(separator: "\n")
  }

  /// One node's line: number, operator, output, site, state, consumers.
  private func line(for node: Node) -> String {
    var text = "#\(node.number) \(node.name)"
    if let label = node.label { text += " \"\(label)\"" }
    text += " → \(node.output)"
    if let site = node.site { text += " (\(site))" }
    return ([text] + details(of: node)).joined(separator: " · ")
  }

  /// The state and consumers of `node`, as the text and the pictures' labels show them.
  private func details(of node: Node) -> [String] {
    var parts: [String] = []
    let snapshot = node.snapshot
    if !node.isSource { parts.append(snapshot.connected ? "connected" : "not connected") }
    if let ending = snapshot.ending { parts.append(ending) }
    if let current = snapshot.current { parts.append("current: \(current)") }
    if !node.observers.isEmpty {
      parts.append("observers: " + node.observers.map { $0.map { "#\($0)" } ?? "sink" }.joined(separator: ", "))
    }
    let iterators = snapshot.iterators + snapshot.boundedQueues
    if iterators > 0 {
      var text = iterators == 1 ? "1 iterator" : "\(iterators) iterators"
      if snapshot.boundedQueues > 0 { text += " (\(snapshot.boundedQueues) bounded)" }
      text += ", \(snapshot.queued) queued"
      parts.append(text)
    }
    return parts
  }

  /// The picture as a Graphviz graph: `dot -Tsvg graph.dot > graph.svg`. A box per node, an edge from each input to
  /// the node that reads it.
  ///
  /// ```swift
  /// try viewModel.isSignupEnabled.debugGraph().dot.write(toFile: "signup.dot", atomically: true, encoding: .utf8)
  /// ```
  public var dot: String {
    var lines = ["digraph AsyncReactive {", "  rankdir=BT;", "  node [shape=box, fontname=\"Menlo\"];"]
    for node in nodes {
      let label = ([headline(of: node)] + details(of: node)).joined(separator: "\\n")
      let shape = node.isSource ? ", style=rounded" : ""
      lines.append("  n\(node.number) [label=\"\(Self.escapedForDot(label))\"\(shape)];")
    }
    for node in nodes {
      for input in node.inputs { lines.append("  n\(input) -> n\(node.number);") }
    }
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  /// The picture as a Mermaid flowchart, for a Markdown document or an issue comment (in a `mermaid` code block).
  ///
  /// ```swift
  /// print("```mermaid\n\(viewModel.isSignupEnabled.debugGraph().mermaid)\n```")
  /// ```
  public var mermaid: String {
    var lines = ["flowchart BT"]
    for node in nodes {
      let label = ([headline(of: node)] + details(of: node)).joined(separator: "<br/>")
      let (open, close) = node.isSource ? ("([", "])") : ("[", "]")
      lines.append("  n\(node.number)\(open)\"\(Self.escapedForMermaid(label))\"\(close)")
    }
    for node in nodes {
      for input in node.inputs { lines.append("  n\(input) --> n\(node.number)") }
    }
    return lines.joined(separator: "\n")
  }

  /// `#2 map → Bool (Signup.swift:14)`.
  private func headline(of node: Node) -> String {
    var text = "#\(node.number) \(node.name)"
    if let label = node.label { text += " \"\(label)\"" }
    text += " → \(node.output)"
    if let site = node.site { text += " (\(site))" }
    return text
  }

  private static func escapedForDot(_ text: String) -> String {
    text.replacingOccurrences("\\", with: "\\\\").replacingOccurrences("\"", with: "\\\"")
      .replacingOccurrences("\\\\n", with: "\\n")
  }

  private static func escapedForMermaid(_ text: String) -> String {
    text.replacingOccurrences("\"", with: "#quot;")
  }
}

extension String {
  /// Every occurrence of `target` replaced by `replacement` (the standard library alone, without Foundation).
  fileprivate func replacingOccurrences(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = self[...]
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    result += rest
    return result
  }
}

extension HotSequence {
  /// A picture of the live graph around this node: what it reads, what reads it, each node's operator, the line
  /// that made it, its state and its consumers. Print it, or render its ``DebugGraph/dot`` or
  /// ``DebugGraph/mermaid``.
  ///
  /// ```swift
  /// print(viewModel.isSignupEnabled.debugGraph())
  /// ```
  public func debugGraph() -> DebugGraph {
    DebugGraph(around: hotSignal.node)
  }
}
