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
  var passes: Bool? {
    guard let target = benchmark.target, let ratio else { return nil }
    return ratio <= target
  }

  private func quotient(_ numerator: Version, _ denominator: Version) -> Double? {
    guard let top = measurements[numerator], let bottom = measurements[denominator] else { return nil }
    return top.median / bottom.median
  }
}

func printTable(_ results: [CaseResult], memory: [Version: Int]) {
  print(
    padRight("case", 44) + pad("callback", 12) + pad("naive", 12) + pad("AsyncReactive", 15)
      + pad("AR÷cb", 8) + pad("naive÷AR", 10) + pad("target", 8) + "  result"
  )
  for result in results {
    let cb = result.measurements[.callback].map { format($0.median) } ?? "–"
    let naive = result.measurements[.naive].map { format($0.median) } ?? "–"
    let reactive = result.measurements[.reactive].map { format($0.median) } ?? "–"
    let ratio = result.ratio.map { format($0, decimals: 2) + "×" } ?? "–"
    let naiveOverReactive = result.naiveOverReactive.map { format($0, decimals: 1) + "×" } ?? "–"
    let target = result.benchmark.target.map { "≤\(format($0))×" } ?? "–"
    let verdict = result.passes.map { $0 ? "PASS" : "MISS" } ?? ""
    print(
      padRight(result.benchmark.name, 44) + pad(cb, 12) + pad(naive, 12) + pad(reactive, 15) + pad(ratio, 8)
        + pad(naiveOverReactive, 10) + pad(target, 8) + "  " + verdict
    )
  }
  print("(ns per \(results.first?.benchmark.unit ?? "event"), median of the runs; min–max in --json)")
  if !memory.isEmpty {
    let reactive = memory[.reactive] ?? 0
    print(
      "memory per idle subscriber (bytes): callback \(memory[.callback] ?? 0), naive \(memory[.naive] ?? 0), "
        + "AsyncReactive \(reactive)  target ≤2048  \(reactive <= 2048 ? "PASS" : "MISS")"
    )
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

func writeJSON(_ results: [CaseResult], memory: [Version: Int], to path: String) {
  var entries: [String] = []
  for result in results {
    for (version, measurement) in result.measurements.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      let target = result.benchmark.target.map { "\($0)" } ?? "null"
      let ratio = result.ratio.map { "\($0)" } ?? "null"
      let pass = result.passes.map { "\($0)" } ?? "null"
      entries.append(
        "{\"case\": \"\(result.benchmark.name)\", \"version\": \"\(version.rawValue)\", "
          + "\"unit\": \"ns per \(result.benchmark.unit)\", \"median\": \(measurement.median), "
          + "\"min\": \(measurement.min), \"max\": \(measurement.max), \"ratio\": \(ratio), "
          + "\"target\": \(target), \"pass\": \(pass)}"
      )
    }
  }
  for (version, bytes) in memory.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
    entries.append(
      "{\"case\": \"memory per idle subscriber\", \"version\": \"\(version.rawValue)\", \"unit\": \"bytes\", "
        + "\"median\": \(bytes), \"min\": \(bytes), \"max\": \(bytes), \"target\": 2048, \"pass\": \(bytes <= 2048)}"
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
