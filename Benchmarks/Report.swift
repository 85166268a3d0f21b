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
  var naiveOverReactive: Double? { quotient(.naive, .reactive) }
  /// Whether AsyncReactive meets the wall-time target and the CPU ÷ wall target, where the case has them.
  var passes: Bool? {
    let wall = benchmark.target.flatMap { target in ratio.map { $0 <= target } }
    let cpu = benchmark.cpuTarget.flatMap { target in measurements[.reactive].map { $0.cpuOverWall <= target } }
    if wall == nil && cpu == nil { return nil }
    return (wall ?? true) && (cpu ?? true)
  }

  private func quotient(_ numerator: Version, _ denominator: Version) -> Double? {
    guard let top = measurements[numerator], let bottom = measurements[denominator] else { return nil }
    return top.median / bottom.median
  }
}

/// An absolute figure of AsyncReactive's, judged against a maximum.
struct Figure {
  var name: String
  var value: Int
  var target: Int
  var passes: Bool { value <= target }
}

func printTable(_ results: [CaseResult], memory: [Version: Int], sinkMemory: Int?, figures: [Figure] = []) {
  print(
    padRight("case", 44) + pad("callback", 12) + pad("naive", 12) + pad("AsyncReactive", 15)
      + pad("AR÷cb", 8) + pad("naive÷AR", 10) + pad("target", 8) + pad("AR cpu", 10) + pad("cpu÷wall", 10)
      + pad("cb c÷w", 8) + pad("cb cpu", 10) + "  result"
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
    print(
      padRight(result.benchmark.name, 44) + pad(cb, 12) + pad(naive, 12) + pad(reactive, 15) + pad(ratio, 8)
        + pad(naiveOverReactive, 10) + pad(target, 8) + pad(reactiveCPU, 10) + pad(cpuOverWall, 10)
        + pad(callbackCPUOverWall, 8) + pad(callbackCPU, 10) + "  " + verdict
    )
  }
  print(
    "(wall ns per \(results.first?.benchmark.unit ?? "event"), median of the runs; AR cpu: CPU ns (user + system) per "
      + "event; cpu÷wall: CPU time over wall time, AsyncReactive (target) and callback; cb cpu: the callback's CPU ns "
      + "per event; min–max in --json)")
  if !memory.isEmpty {
    let reactive = memory[.reactive] ?? 0
    print(
      "memory per idle subscriber (bytes): callback \(memory[.callback] ?? 0), naive \(memory[.naive] ?? 0), "
        + "AsyncReactive \(reactive)  target ≤1229 (1.2 KiB)  \(reactive <= 1229 ? "PASS" : "MISS")"
    )
  }
  if let sinkMemory {
    print(
      "memory per idle sink (AsyncReactive's task-free observer, bytes): \(sinkMemory)  target ≤1229  "
        + (sinkMemory <= 1229 ? "PASS" : "MISS"))
  }
  for figure in figures {
    print("\(figure.name): \(figure.value)  target ≤\(figure.target)  \(figure.passes ? "PASS" : "MISS")")
  }
  let byName = Dictionary(results.map { ($0.benchmark.name, $0) }, uniquingKeysWith: { first, _ in first })
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
  _ results: [CaseResult], memory: [Version: Int], sinkMemory: Int?, figures: [Figure] = [], to path: String
) {
  var entries: [String] = []
  for result in results {
    for (version, measurement) in result.measurements.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      let target = result.benchmark.target.map { "\($0)" } ?? "null"
      let ratio = result.ratio.map { "\($0)" } ?? "null"
      let pass = result.passes.map { "\($0)" } ?? "null"
      let cpuTarget = result.benchmark.cpuTarget.map { "\($0)" } ?? "null"
      entries.append(
        "{\"case\": \"\(result.benchmark.name)\", \"version\": \"\(version.rawValue)\", "
          + "\"unit\": \"ns per \(result.benchmark.unit)\", \"median\": \(measurement.median), "
          + "\"min\": \(measurement.min), \"max\": \(measurement.max), \"ratio\": \(ratio), "
          + "\"target\": \(target), \"pass\": \(pass), \"cpu_median\": \(measurement.cpuMedian), "
          + "\"cpu_over_wall\": \(measurement.cpuOverWall), \"cpu_over_wall_target\": \(cpuTarget)}"
      )
    }
  }
  for (version, bytes) in memory.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
    entries.append(
      "{\"case\": \"memory per idle subscriber\", \"version\": \"\(version.rawValue)\", \"unit\": \"bytes\", "
        + "\"median\": \(bytes), \"min\": \(bytes), \"max\": \(bytes), \"target\": 1229, \"pass\": \(bytes <= 1229)}"
    )
  }
  if let sinkMemory {
    entries.append(
      "{\"case\": \"memory per idle sink\", \"version\": \"AsyncReactive\", \"unit\": \"bytes\", "
        + "\"median\": \(sinkMemory), \"min\": \(sinkMemory), \"max\": \(sinkMemory), \"target\": 1229, "
        + "\"pass\": \(sinkMemory <= 1229)}"
    )
  }
  for figure in figures {
    entries.append(
      "{\"case\": \"\(figure.name)\", \"version\": \"AsyncReactive\", \"unit\": \"count\", "
        + "\"median\": \(figure.value), \"min\": \(figure.value), \"max\": \(figure.value), "
        + "\"target\": \(figure.target), \"pass\": \(figure.passes)}"
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
