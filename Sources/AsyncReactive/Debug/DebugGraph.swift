/// A picture of a live graph: every node reachable from where it was taken (the nodes it reads, and the nodes that
/// read it, while they observe it), each with its operator, the line that made it, its state and its consumers.
///
/// Each operator records the line that applied it (its `fileID:` and `line:` arguments, which default to the
/// caller's), whether it was applied to a hot sequence, a `Signal` or any `AsyncSequence`, except `prefix(_:)`,
/// `dropFirst(_:)` and `catch`; the library's own nodes show no line.
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
    /// The nodes its connection runs (a flatten's inner sequences), drawn below it after its inputs.
    var runs: [Int]
    /// Its observers in call order: `#n` for a node, the consumer's description for an observation or a binding,
    /// `sink` for a plain `sink`.
    var observers: [String]
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
  public var edgeCount: Int { nodes.reduce(0) { $0 + $1.inputs.count + $1.runs.count } }

  /// Takes the picture of the graph around `start`, a node of the library's (anything else gives an empty picture).
  package init(around object: any AnyObject & Sendable) {
    self.init(around: [object])
  }

  /// Takes the picture of the graphs around `starts`, nodes of the library's (anything else is left out); a node
  /// that two of them reach is drawn once.
  package init(around objects: [any AnyObject & Sendable]) {
    // Discover every node: inputs and observing nodes, breadth first from each start in turn; order is deterministic
    // (inputs in their order, observers in call order).
    var found: [ObjectIdentifier: Int] = [:]
    var order: [any DumpableNode] = []
    var snapshots: [NodeSnapshot] = []
    var queue: [any DumpableNode] = []
    for case let start as any DumpableNode in objects where found[ObjectIdentifier(start)] == nil {
      found[ObjectIdentifier(start)] = found.count
      queue.append(start)
    }
    var index = 0
    while index < queue.count {
      let node = queue[index]
      index += 1
      order.append(node)
      let snapshot = node.snapshot()
      snapshots.append(snapshot)
      let neighbours = node.inputs.nodes + snapshot.runs + snapshot.observers.compactMap { $0 }
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
    for (discovery, node) in order.enumerated() {
      for input in node.inputs.nodes + snapshots[discovery].runs { isRead.insert(ObjectIdentifier(input)) }
    }
    var number: [ObjectIdentifier: Int] = [:]
    var shown: [Int] = []  // discovery indices in text order
    func visit(_ discovery: Int) {
      let node = order[discovery]
      guard number[ObjectIdentifier(node)] == nil else { return }
      number[ObjectIdentifier(node)] = shown.count + 1
      shown.append(discovery)
      for input in node.inputs.nodes + snapshots[discovery].runs {
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
        runs: snapshot.runs.compactMap { number[ObjectIdentifier($0)] },
        observers: snapshot.observers.map { owner in
          guard let owner else { return "sink" }
          if let number = number[ObjectIdentifier(owner)] { return "#\(number)" }
          if let consumer = owner as? any DumpableConsumer { return consumer.consumerDescription() }
          return "sink"
        })
    }
    roots = rootDiscoveries.map { number[ObjectIdentifier(order[$0])]! }
  }

  /// One node described on its own, as a leak report names it: `map → Int (Search.swift:12) · connected · 1
  /// observer · 1 iterator, 0 queued`.
  package static func line(describing object: any AnyObject & Sendable) -> String {
    guard let node = object as? any DumpableNode else { return "\(type(of: object))" }
    let snapshot = node.snapshot()
    var text = node.origin.kind.name
    if let label = node.label { text += " \"\(label)\"" }
    text += " → \(snapshot.output)"
    if let site = node.origin.site { text += " (\(site))" }
    var parts = [text]
    if snapshot.hasInputs { parts.append(snapshot.connected ? "connected" : "not connected") }
    if let ending = snapshot.ending { parts.append(ending) }
    if let current = snapshot.current { parts.append("current: \(current)") }
    let observers = snapshot.observers.count
    if observers > 0 { parts.append(observers == 1 ? "1 observer" : "\(observers) observers") }
    let iterators = snapshot.iterators + snapshot.boundedQueues
    if iterators > 0 {
      parts.append((iterators == 1 ? "1 iterator" : "\(iterators) iterators") + ", \(snapshot.queued) queued")
    }
    return parts.joined(separator: " · ")
  }

  /// The indented text picture; `(no nodes)` for an empty one (a lifetime that observes nothing now).
  ///
  /// ```swift
  /// print(viewModel.isSignupEnabled.debugGraph())
  /// ```
  public var description: String {
    guard !nodes.isEmpty else { return "(no nodes)" }
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
      // Its inputs, then what its connection runs (marked `runs`).
      let children = node.inputs.map { ($0, "") } + node.runs.map { ($0, "runs ") }
      for (position, (child, mark)) in children.enumerated() {
        let last = position == children.count - 1
        draw(
          child, prefix: prefix + childPrefix, connector: (last ? "└─ " : "├─ ") + mark,
          childPrefix: last ? "   " : "│  ")
      }
    }
    for root in roots { draw(root, prefix: "", connector: "", childPrefix: "") }
    return lines.joined(separator: "\n")
  }

  /// One node's line: number, operator, output, site, state, consumers.
  private func line(for node: Node) -> String {
    ([headline(of: node)] + details(of: node)).joined(separator: " · ")
  }

  /// The state and consumers of `node`, as the text and the pictures' labels show them.
  private func details(of node: Node) -> [String] {
    var parts: [String] = []
    let snapshot = node.snapshot
    if !node.isSource { parts.append(snapshot.connected ? "connected" : "not connected") }
    if let ending = snapshot.ending { parts.append(ending) }
    if let current = snapshot.current { parts.append("current: \(current)") }
    if let connection = snapshot.connection { parts.append(connection) }
    if !node.observers.isEmpty {
      parts.append("observers: " + node.observers.joined(separator: ", "))
    }
    if let lastEvent = snapshot.lastEvent { parts.append("last: \(lastEvent)") }
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
      for run in node.runs { lines.append("  n\(run) -> n\(node.number) [style=dashed, label=\"runs\"];") }
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
      for run in node.runs { lines.append("  n\(run) -. runs .-> n\(node.number)") }
    }
    return lines.joined(separator: "\n")
  }

  /// The picture as an SVG image, laid out by the library itself (no Graphviz needed): the nodes nothing reads at the
  /// top, each input one row below the lowest node that reads it and under the middle of its readers, an arrow from
  /// each input to the node that reads it (dashed for what a connection runs). For a document or a page that shows
  /// images.
  ///
  /// ```swift
  /// print(viewModel.isSignupEnabled.debugGraph().svg)   // save as signup.svg
  /// ```
  public var svg: String {
    // Rows from the top: the nodes nothing in the picture reads first, each input one row below the lowest node that
    // reads it, so that an input sits right under its readers and edges stay short.
    var row = [Int](repeating: 0, count: nodes.count + 1)
    for _ in nodes {
      for node in nodes {
        for input in node.inputs + node.runs { row[input] = max(row[input], row[node.number] + 1) }
      }
    }
    let charWidth = 7.2
    let lineHeight = 16.0
    let padding = 8.0
    let gap = (x: 24.0, y: 48.0)
    let labels = nodes.map { [headline(of: $0)] + details(of: $0) }
    let sizes = labels.map { lines in
      (
        width: Double(lines.map(\.count).max() ?? 0) * charWidth + 2 * padding,
        height: Double(lines.count) * lineHeight + 2 * padding
      )
    }
    let rows = (row.max() ?? 0) + 1
    var readers = [[Int]](repeating: [], count: nodes.count + 1)
    for node in nodes {
      for input in node.inputs + node.runs { readers[input].append(node.number) }
    }
    // Within a row, a node goes under the middle of its readers (the rows above are placed first).
    var members = [[Int]](repeating: [], count: rows)
    for node in nodes { members[row[node.number]].append(node.number) }
    var center = [Double](repeating: 0, count: nodes.count + 1)
    var rowWidths = [Double](repeating: 0, count: rows)
    for rowIndex in 0..<rows {
      if rowIndex > 0 {
        members[rowIndex].sort { left, right in
          func key(_ number: Int) -> Double {
            let placed = readers[number].filter { row[$0] < rowIndex }
            return placed.isEmpty ? .infinity : placed.reduce(0) { $0 + center[$1] } / Double(placed.count)
          }
          let (a, b) = (key(left), key(right))
          return a != b ? a < b : left < right
        }
      }
      var x = 0.0
      for number in members[rowIndex] {
        center[number] = x + sizes[number - 1].width / 2
        x += sizes[number - 1].width + gap.x
      }
      rowWidths[rowIndex] = max(0, x - gap.x)
    }
    let rowHeights = members.map { $0.map { sizes[$0 - 1].height }.max() ?? 0 }
    let width = (rowWidths.max() ?? 0) + 2 * gap.x
    let height = rowHeights.reduce(0, +) + gap.y * Double(rows - 1) + 2 * gap.x
    // Row 0 at the top: inputs feed upwards into the nodes that read them.
    var frames = [(x: Double, y: Double, width: Double, height: Double)](
      repeating: (0, 0, 0, 0), count: nodes.count + 1)
    var top = gap.x
    for rowIndex in 0..<rows {
      var x = (width - rowWidths[rowIndex]) / 2
      for number in members[rowIndex] {
        let size = sizes[number - 1]
        frames[number] = (x, top + (rowHeights[rowIndex] - size.height) / 2, size.width, size.height)
        x += size.width + gap.x
      }
      top += rowHeights[rowIndex] + gap.y
    }
    func number(_ value: Double) -> String { String(Int(value.rounded())) }
    var svg = [
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(number(width))\" height=\"\(number(height))\" "
        + "font-family=\"Menlo, monospace\" font-size=\"12\">",
      "  <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" "
        + "markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555\"/></marker></defs>",
      "  <rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
    ]
    for node in nodes {
      let to = frames[node.number]
      for (input, dashed) in node.inputs.map({ ($0, false) }) + node.runs.map({ ($0, true) }) {
        let from = frames[input]
        svg.append(
          "  <line x1=\"\(number(from.x + from.width / 2))\" y1=\"\(number(from.y))\" "
            + "x2=\"\(number(to.x + to.width / 2))\" y2=\"\(number(to.y + to.height))\" stroke=\"#555\" "
            + (dashed ? "stroke-dasharray=\"4 3\" " : "") + "marker-end=\"url(#arrow)\"/>")
      }
    }
    for node in nodes {
      let frame = frames[node.number]
      let radius = node.isSource ? 12 : 3
      let fill = node.isSource ? "#eef5ff" : "#f7f7f7"
      svg.append(
        "  <rect x=\"\(number(frame.x))\" y=\"\(number(frame.y))\" width=\"\(number(frame.width))\" "
          + "height=\"\(number(frame.height))\" rx=\"\(radius)\" fill=\"\(fill)\" stroke=\"#333\"/>")
      for (index, text) in labels[node.number - 1].enumerated() {
        let y = frame.y + padding + lineHeight * Double(index) + 12
        let weight = index == 0 ? " font-weight=\"bold\"" : ""
        svg.append(
          "  <text x=\"\(number(frame.x + padding))\" y=\"\(number(y))\"\(weight)>\(Self.escapedForXML(text))</text>")
      }
    }
    svg.append("</svg>")
    return svg.joined(separator: "\n")
  }

  private static func escapedForXML(_ text: String) -> String {
    text.replacingOccurrences("&", with: "&amp;").replacingOccurrences("<", with: "&lt;")
      .replacingOccurrences(">", with: "&gt;").replacingOccurrences("\"", with: "&quot;")
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
