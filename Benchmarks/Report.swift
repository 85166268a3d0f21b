#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The measurements of one case.
struct CaseResult {
  var benchmark: BenchmarkCase
  var measurements: [Version: Measurement]

  var ratio: Double { measurements[.reactive]!.median / measurements[.callback]!.median }
  var naiveOverReactive: Double { measurements[.naive]!.median / measurements[.reactive]!.median }
  var passes: Bool? { benchmark.target.map { ratio <= $0 } }
}

func printTable(_ results: [CaseResult], memory: [Version: Int]) {
  print(
    padRight("case", 44) + pad("callback", 12) + pad("naive", 12) + pad("AsyncReactive", 15)
      + pad("AR÷cb", 8) + pad("naive÷AR", 10) + pad("target", 8) + "  result"
  )
  for result in results {
    let cb = result.measurements[.callback]!
    let naive = result.measurements[.naive]!
    let reactive = result.measurements[.reactive]!
    let target = result.benchmark.target.map { "≤\(format($0))×" } ?? "–"
    let verdict = result.passes.map { $0 ? "PASS" : "MISS" } ?? ""
    print(
      padRight(result.benchmark.name, 44) + pad(format(cb.median), 12) + pad(format(naive.median), 12)
        + pad(format(reactive.median), 15) + pad(format(result.ratio, decimals: 2) + "×", 8)
        + pad(format(result.naiveOverReactive, decimals: 1) + "×", 10) + pad(target, 8) + "  " + verdict
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
  if let small = byName["scaling: 10^4 events, 1 consumer"], let large = byName["scaling: 10^6 events, 1 consumer"] {
    let growth = large.measurements[.reactive]!.median / small.measurements[.reactive]!.median
    print(
      "per-event cost growth 10^4 → 10^6 events: \(format(growth, decimals: 2))×  target ≤1.3×  \(growth <= 1.3 ? "PASS" : "MISS")"
    )
  }
}

func writeJSON(_ results: [CaseResult], memory: [Version: Int], to path: String) {
  var entries: [String] = []
  for result in results {
    for version in Version.allCases {
      let measurement = result.measurements[version]!
      let target = result.benchmark.target.map { "\($0)" } ?? "null"
      let pass = result.passes.map { "\($0)" } ?? "null"
      entries.append(
        "{\"case\": \"\(result.benchmark.name)\", \"version\": \"\(version.rawValue)\", "
          + "\"unit\": \"ns per \(result.benchmark.unit)\", \"median\": \(measurement.median), "
          + "\"min\": \(measurement.min), \"max\": \(measurement.max), \"ratio\": \(result.ratio), "
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
