#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The measurements of one case.
struct CaseResult {
  var benchmark: BenchmarkCase
  var measurements: [Version: Measurement]

  var ratio: Double? { quotient(.reactive, .callback) }
  /// AsyncReactive's CPU time per event over the callback's.
  var cpuRatio: Double? {
    guard let reactive = measurements[.reactive], let callback = measurements[.callback] else { return nil }
    return reactive.cpuMedian / callback.cpuMedian
  }
  var naiveOverReactive: Double? { quotient(.naive, .reactive) }
  /// Whether AsyncReactive meets the wall-time target and the CPU targets, where the case has them.
  var passes: Bool? {
    let wall = benchmark.target.flatMap { target in ratio.map { $0 <= target } }
    let cpu = benchmark.cpuTarget.flatMap { target in measurements[.reactive].map { $0.cpuOverWall <= target } }
    let cpuRatio = benchmark.cpuRatioTarget.flatMap { target in self.cpuRatio.map { $0 <= target } }
    if wall == nil && cpu == nil && cpuRatio == nil { return nil }
    return (wall ?? true) && (cpu ?? true) && (cpuRatio ?? true)
  }

  private func quotient(_ numerator: Version, _ denominator: Version) -> Double? {
    guard let top = measurements[numerator], let bottom = measurements[denominator] else { return nil }
    return top.median / bottom.median
  }
}

/// DESIGN §8's memory targets, in bytes: an idle iterating consumer (a parked task is ~1.8 KiB) and an idle `sink`
/// (the peers measure 0.75-0.97 KiB).
enum MemoryTargets {
  static let subscriber = 2048
  static let sink = 717
}

/// An absolute figure of AsyncReactive's, judged against a maximum.
struct Figure {
  var name: String
  var value: Int
  var target: Int
  var passes: Bool { value <= target }
}

/// A figure measured without the library, printed beside the row it explains (no target: it is a floor).
struct Reference {
  var name: String
  /// The row whose CPU per event this is part of.
  var row: String
  var cpuPerEvent: Double
}

func printTable(
  _ results: [CaseResult], memory: [Version: Int], sinkMemory: Int?, figures: [Figure] = [],
  references: [Reference] = []
) {
  print(
    padRight("case", 44) + pad("callback", 12) + pad("naive", 12) + pad("AsyncReactive", 15)
      + pad("AR÷cb", 8) + pad("naive÷AR", 10) + pad("target", 8) + pad("AR cpu", 10) + pad("cpu÷wall", 10)
      + pad("cb c÷w", 8) + pad("cb cpu", 10) + pad("cpu÷cb", 13) + "  result"
  )
  for result in results {
    let cb = result.measurements[.callback].map { format($0.median) } ?? "–"
    let naive = result.measurements[.naive].map { format($0.median) } ?? "–"
    let reactive = result.measurements[.reactive].map { format($0.median) } ?? "–"
    let ratio = result.ratio.map { format($0, decimals: 2) + "×" } ?? "–"
    let naiveOverReactive = result.naiveOverReactive.map { format($0, decimals: 1) + "×" } ?? "–"
    let target = result.benchmark.target.map { "≤\(format($0))×" } ?? "–"
    let verdict = result.passes.map { $0 ? "PASS" : "MISS" } ?? ""
    let reactiveCPU = result.measurements[.reactive].map { format($0.cpuMedian) } ?? "–"
    let cpuOverWall =
      result.measurements[.reactive].map {
        format($0.cpuOverWall, decimals: 2) + (result.benchmark.cpuTarget.map { "/≤\(format($0))" } ?? "")
      } ?? "–"
    let callbackCPUOverWall = result.measurements[.callback].map { format($0.cpuOverWall, decimals: 2) } ?? "–"
    let callbackCPU = result.measurements[.callback].map { format($0.cpuMedian) } ?? "–"
    let cpuRatio =
      result.cpuRatio.map {
        format($0, decimals: 2) + "×" + (result.benchmark.cpuRatioTarget.map { "/≤\(format($0))" } ?? "")
      } ?? "–"
    print(
      padRight(result.benchmark.name, 44) + pad(cb, 12) + pad(naive, 12) + pad(reactive, 15) + pad(ratio, 8)
        + pad(naiveOverReactive, 10) + pad(target, 8) + pad(reactiveCPU, 10) + pad(cpuOverWall, 10)
        + pad(callbackCPUOverWall, 8) + pad(callbackCPU, 10) + pad(cpuRatio, 13) + "  " + verdict
    )
  }
  print(
    "(wall ns per \(results.first?.benchmark.unit ?? "event"), median of the runs; AR cpu: CPU ns (user + system) per "
      + "event; cpu÷wall: CPU time over wall time, AsyncReactive (target) and callback; cb cpu: the callback's CPU ns "
      + "per event; cpu÷cb: AR cpu over cb cpu (target); min–max in --json)")
  if !memory.isEmpty {
    let reactive = memory[.reactive] ?? 0
    print(
      "memory per idle subscriber (bytes): callback \(memory[.callback] ?? 0), naive \(memory[.naive] ?? 0), "
        + "AsyncReactive \(reactive)  target ≤\(MemoryTargets.subscriber) (2.0 KiB)  "
        + (reactive <= MemoryTargets.subscriber ? "PASS" : "MISS")
    )
  }
  if let sinkMemory {
    print(
      "memory per idle sink (AsyncReactive's task-free observer, bytes): \(sinkMemory)  target ≤\(MemoryTargets.sink) "
        + "(0.7 KiB)  " + (sinkMemory <= MemoryTargets.sink ? "PASS" : "MISS"))
  }
  for figure in figures {
    print("\(figure.name): \(figure.value)  target ≤\(figure.target)  \(figure.passes ? "PASS" : "MISS")")
  }
  let byName = Dictionary(results.map { ($0.benchmark.name, $0) }, uniquingKeysWith: { first, _ in first })
  for reference in references {
    var line = "\(reference.name): \(format(reference.cpuPerEvent)) CPU ns per delivered event"
    if let callback = byName[reference.row]?.measurements[.callback] {
      line += " (\(format(reference.cpuPerEvent / callback.cpuMedian, decimals: 2))× the callback's CPU"
      if let reactive = byName[reference.row]?.measurements[.reactive] {
        let library = format(reactive.cpuMedian - reference.cpuPerEvent)
        line += "; AsyncReactive's \(format(reactive.cpuMedian)) ns = this + \(library)"
      }
      line += ")"
    }
    print(line)
  }
  if let small = byName["scaling: 10^4 events, 1 consumer"]?.measurements[.reactive],
    let large = byName["scaling: 10^6 events, 1 consumer"]?.measurements[.reactive]
  {
    let growth = large.median / small.median
    print(
      "per-event cost growth 10^4 → 10^6 events: \(format(growth, decimals: 2))×  target ≤1.3×  \(growth <= 1.3 ? "PASS" : "MISS")"
    )
  }
}

func writeJSON(
  _ results: [CaseResult], memory: [Version: Int], sinkMemory: Int?, figures: [Figure] = [],
  references: [Reference] = [], to path: String
) {
  var entries: [String] = []
  for result in results {
    for (version, measurement) in result.measurements.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      let target = result.benchmark.target.map { "\($0)" } ?? "null"
      let ratio = result.ratio.map { "\($0)" } ?? "null"
      let pass = result.passes.map { "\($0)" } ?? "null"
      let cpuTarget = result.benchmark.cpuTarget.map { "\($0)" } ?? "null"
      let cpuRatio = result.cpuRatio.map { "\($0)" } ?? "null"
      let cpuRatioTarget = result.benchmark.cpuRatioTarget.map { "\($0)" } ?? "null"
      entries.append(
        "{\"case\": \"\(result.benchmark.name)\", \"version\": \"\(version.rawValue)\", "
          + "\"unit\": \"ns per \(result.benchmark.unit)\", \"median\": \(measurement.median), "
          + "\"min\": \(measurement.min), \"max\": \(measurement.max), \"ratio\": \(ratio), "
          + "\"target\": \(target), \"pass\": \(pass), \"cpu_median\": \(measurement.cpuMedian), "
          + "\"cpu_over_wall\": \(measurement.cpuOverWall), \"cpu_over_wall_target\": \(cpuTarget), "
          + "\"cpu_ratio\": \(cpuRatio), \"cpu_ratio_target\": \(cpuRatioTarget)}"
      )
    }
  }
  for (version, bytes) in memory.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
    entries.append(
      "{\"case\": \"memory per idle subscriber\", \"version\": \"\(version.rawValue)\", \"unit\": \"bytes\", "
        + "\"median\": \(bytes), \"min\": \(bytes), \"max\": \(bytes), \"target\": \(MemoryTargets.subscriber), "
        + "\"pass\": \(bytes <= MemoryTargets.subscriber)}"
    )
  }
  if let sinkMemory {
    entries.append(
      "{\"case\": \"memory per idle sink\", \"version\": \"AsyncReactive\", \"unit\": \"bytes\", "
        + "\"median\": \(sinkMemory), \"min\": \(sinkMemory), \"max\": \(sinkMemory), "
        + "\"target\": \(MemoryTargets.sink), \"pass\": \(sinkMemory <= MemoryTargets.sink)}"
    )
  }
  for figure in figures {
    entries.append(
      "{\"case\": \"\(figure.name)\", \"version\": \"AsyncReactive\", \"unit\": \"count\", "
        + "\"median\": \(figure.value), \"min\": \(figure.value), \"max\": \(figure.value), "
        + "\"target\": \(figure.target), \"pass\": \(figure.passes)}"
    )
  }
  for reference in references {
    entries.append(
      "{\"case\": \"\(reference.name)\", \"version\": \"reference\", \"unit\": \"cpu ns per event\", "
        + "\"median\": \(reference.cpuPerEvent), \"min\": \(reference.cpuPerEvent), \"max\": \(reference.cpuPerEvent)}"
    )
  }
  let json = "[\n  " + entries.joined(separator: ",\n  ") + "\n]\n"
  guard let file = fopen(path, "w") else {
    FileHandleStderr.write("cannot write \(path)\n")
    exit(1)
  }
  _ = json.withCString { fputs($0, file) }
  fclose(file)
}

/// Writes the table as an SVG bar chart (no dependency: the SVG is text): one bar per case with a ratio,
/// AsyncReactive's wall time ÷ the callback baseline's on a logarithmic axis, green where the case meets its
/// wall-time target, red where it misses it, grey where it has none (CPU targets are judged in the table only); each target is a dark tick on its row, and the
/// callback baseline (1×) a dashed line.
func writeSVG(_ results: [CaseResult], to path: String) {
  let rows = results.compactMap { result in result.ratio.map { (result, $0) } }
  let labelWidth = 540.0
  let plotWidth = 520.0
  let rowHeight = 22.0
  let top = 40.0
  let height = top + Double(rows.count) * rowHeight + 40
  let width = labelWidth + plotWidth + 90
  // The axis spans powers of two around the ratios and targets: 1/4× to 64× at most.
  let low = 0.25
  let high = 64.0
  func x(_ ratio: Double) -> Double {
    let clamped = min(max(ratio, low), high)
    return labelWidth + (log2(clamped) - log2(low)) / (log2(high) - log2(low)) * plotWidth
  }
  func escape(_ text: String) -> String {
    text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
  }
  var svg = """
    <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
    font-family="-apple-system, Helvetica, Arial, sans-serif" font-size="12">
    <rect width="100%" height="100%" fill="white"/>
    <text x="10" y="20" font-size="14" font-weight="bold">AsyncReactive ÷ callback baseline, wall time per event \
    (lower is better; log scale)</text>

    """
  var tick = low
  while tick <= high {
    let position = x(tick)
    let label = tick < 1 ? "1/\(Int(1 / tick))×" : "\(Int(tick))×"
    svg += "<line x1=\"\(position)\" y1=\"\(top - 6)\" x2=\"\(position)\" y2=\"\(height - 30)\" stroke=\"#e5e5e5\"/>\n"
    svg += "<text x=\"\(position)\" y=\"\(height - 14)\" text-anchor=\"middle\" fill=\"#555\">\(label)</text>\n"
    tick *= 2
  }
  let parity = x(1)
  svg += "<line x1=\"\(parity)\" y1=\"\(top - 6)\" x2=\"\(parity)\" y2=\"\(height - 30)\" stroke=\"#333\" "
  svg += "stroke-dasharray=\"4 3\"/>\n"
  for (index, (result, ratio)) in rows.enumerated() {
    let y = top + Double(index) * rowHeight
    // Judged on the wall-time target only, which is what the bar shows (the CPU targets are in the table).
    let meetsTarget = result.benchmark.target.map { ratio <= $0 }
    let color = meetsTarget.map { $0 ? "#3a9d5d" : "#d0504a" } ?? "#9a9a9a"
    var name = result.benchmark.name
    // Long names keep both ends: what is measured, and what it ends in ("→ 1 sink").
    if name.count > 84 { name = String(name.prefix(50)) + "…" + String(name.suffix(33)) }
    svg += "<text x=\"\(labelWidth - 8)\" y=\"\(y + 14)\" text-anchor=\"end\">\(escape(name))</text>\n"
    svg += "<rect x=\"\(x(low))\" y=\"\(y + 3)\" width=\"\(x(ratio) - x(low))\" height=\"\(rowHeight - 8)\" "
    svg += "fill=\"\(color)\"/>\n"
    // The figure goes right of the bar, or right of the target's tick when the tick is just past the bar's end.
    var labelX = x(ratio) + 4
    if let target = result.benchmark.target, x(target) > x(ratio) - 3, x(target) < x(ratio) + 44 {
      labelX = x(target) + 5
    }
    svg += "<text x=\"\(labelX)\" y=\"\(y + 14)\" fill=\"#333\">\(format(ratio, decimals: 2))×</text>\n"
    if let target = result.benchmark.target {
      svg += "<line x1=\"\(x(target))\" y1=\"\(y + 1)\" x2=\"\(x(target))\" y2=\"\(y + rowHeight - 3)\" "
      svg += "stroke=\"#111\" stroke-width=\"2.5\"/>\n"
    }
  }
  svg += "</svg>\n"
  guard let file = fopen(path, "w") else {
    FileHandleStderr.write("cannot write \(path)\n")
    exit(1)
  }
  _ = svg.withCString { fputs($0, file) }
  fclose(file)
}

extension String {
  /// This text with every `target` replaced by `replacement` (no Foundation in the benchmarks).
  fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self { if character == target { result += replacement } else { result.append(character) } }
    return result
  }
}
