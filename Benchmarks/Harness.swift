#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Command-line options: `--filter SUBSTRING`, `--quick`, `--json FILE`, `--only callback|naive|reactive`.
struct Options {
  static let usage =
    "usage: Benchmarks [--filter SUBSTRING] [--quick] [--json FILE] [--svg FILE] [--only callback|naive|reactive]"

  var filter: String?
  var quick = false
  var jsonPath: String?
  /// Where to write the table as an SVG bar chart.
  var svgPath: String?
  /// Runs one version alone (for profiling one implementation with perf or callgrind); ratios show "–".
  var only: Version?

  var versions: [Version] { only.map { [$0] } ?? Version.allCases }
  /// Internal: measure memory per idle subscriber of one version in this (fresh) process and print it.
  var memoryProbe: Version?
  /// Internal: measure memory per idle `sink` observer in this (fresh) process and print it.
  var sinkMemoryProbe = false
  /// Internal: measure the bytes one hot operator adds between a subject and an idle sink, and print them.
  var hotOperatorMemoryProbe = false
  /// Internal: measure memory per idle `observe(in:)` of a subject in this (fresh) process and print it.
  var observeMemoryProbe = false

  static func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var rest = arguments.dropFirst()[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--filter": options.filter = rest.popFirst()
      case "--quick": options.quick = true
      case "--json": options.jsonPath = rest.popFirst()
      case "--svg": options.svgPath = rest.popFirst()
      case "--memory-probe-sink": options.sinkMemoryProbe = true
      case "--memory-probe-hot-operator": options.hotOperatorMemoryProbe = true
      case "--memory-probe-observe": options.observeMemoryProbe = true
      case "--memory-probe":
        options.memoryProbe = rest.popFirst().flatMap(Version.init(argument:))
        if options.memoryProbe == nil { exit(2) }
      case "--only":
        switch rest.popFirst() {
        case "callback": options.only = .callback
        case "naive": options.only = .naive
        case "reactive": options.only = .reactive
        default:
          FileHandleStderr.write("--only takes callback, naive or reactive\n\(usage)\n")
          exit(2)
        }
      case "--help", "-h":
        print(usage)
        exit(0)
      default:
        FileHandleStderr.write("unknown option \(argument)\n\(usage)\n")
        exit(2)
      }
    }
    return options
  }
}

enum FileHandleStderr {
  static func write(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = systemWrite(2, bytes.baseAddress, bytes.count) }
  }
}

/// Which implementation a measurement ran.
enum Version: String, CaseIterable {
  case callback = "callback"
  case naive = "naive AsyncStream"
  case reactive = "AsyncReactive"

  /// The command-line spelling (`--only`, `--memory-probe`).
  var argument: String {
    switch self {
    case .callback: "callback"
    case .naive: "naive"
    case .reactive: "reactive"
    }
  }

  init?(argument: String) {
    guard let version = Version.allCases.first(where: { $0.argument == argument }) else { return nil }
    self = version
  }
}

/// Runs this executable again with `arguments` and returns what it printed on standard output: a fresh
/// process, so that a measurement of resident memory does not reuse pages another measurement freed.
func runSelf(_ arguments: [String]) -> String? {
  #if canImport(Glibc)
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    let path = "/proc/self/exe"
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
    close(pipeEnds[1])
    defer { close(pipeEnds[0]) }
    guard spawned == 0 else { return nil }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(pipeEnds[0], &buffer, buffer.count)
      if count <= 0 { break }
      output += buffer[0..<count]
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return String(decoding: output, as: UTF8.self)
  #else
    return nil
  #endif
}

/// One measured run: how long it took and the checksum it computed.
struct Run {
  var nanoseconds: Double
  var checksum: Int
}

/// The statistics of one version of one case.
struct Measurement {
  /// Wall time per event, ns.
  var median: Double
  var min: Double
  var max: Double
  /// CPU time (user + system, every thread of the process) per event, ns: the median of the same runs.
  var cpuMedian: Double

  /// CPU time over wall time: 1 means one core busy for the duration; a waiting consumer that spins shows here.
  var cpuOverWall: Double { cpuMedian / median }
}

/// A benchmark case: the same work in three versions, each returning a checksum that must agree.
struct BenchmarkCase {
  var name: String
  /// What one "event" is, for the ns/event column.
  var unit: String
  /// How many events one run processes.
  var events: Int
  /// Target ratio AsyncReactive ÷ callback (nil: reported, not judged).
  var target: Double?
  /// Target for AsyncReactive's CPU time ÷ its wall time (DESIGN §8: rows that end in a `sink` or a send-side
  /// observer, one core like the callback), nil: reported, not judged.
  var cpuTarget: Double? = nil
  /// Target for AsyncReactive's CPU time per event ÷ the callback's (DESIGN §8: rows with an iterating consumer,
  /// where a sender and a consumer task are the floor; combineLatest of 3: 1.2), nil: reported, not judged.
  var cpuRatioTarget: Double? = nil
  var run: (Version) async -> Int
}

func now() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Runs one version: a warm-up, then `repetitions` timed runs; returns ns per event and the checksum.
func measure(
  _ benchmark: BenchmarkCase,
  _ version: Version,
  repetitions: Int
) async -> (Measurement, Int) {
  var checksum = await benchmark.run(version)  // warm-up
  var samples: [Double] = []
  var cpuSamples: [Double] = []
  for repetition in 1...repetitions {
    FileHandleStderr.write("  \(benchmark.name) · \(version.rawValue) · run \(repetition)/\(repetitions)\n")
    let start = now()
    let cpuStart = cpuNanoseconds()
    let result = await benchmark.run(version)
    let elapsed = Double(now() - start)
    cpuSamples.append(Double(cpuNanoseconds() - cpuStart) / Double(benchmark.events))
    if result != checksum {
      FileHandleStderr.write(
        "\nresult check failed: \(benchmark.name) \(version.rawValue) gave \(result), then \(checksum)\n")
      exit(1)
    }
    checksum = result
    samples.append(elapsed / Double(benchmark.events))
  }
  samples.sort()
  cpuSamples.sort()
  let measurement = Measurement(
    median: samples[samples.count / 2], min: samples.first!, max: samples.last!,
    cpuMedian: cpuSamples[cpuSamples.count / 2])
  return (measurement, checksum)
}

/// CPU time the process has used so far (user + system, all threads), in ns.
func cpuNanoseconds() -> UInt64 {
  var usage = rusage()
  #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
  #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
  #endif
  func nanoseconds(_ time: timeval) -> UInt64 { UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1_000 }
  return nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime)
}

/// Resident set size in bytes, read from /proc/self/statm (Linux; peak RSS elsewhere).
func residentBytes() -> Int {
  #if canImport(Glibc)
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 128)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return 0 }
    let line = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let fields = String(decoding: line, as: UTF8.self).split(separator: " ")
    guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  #else
    return peakResidentBytes()
  #endif
}

/// Peak resident set size in bytes.
func peakResidentBytes() -> Int {
  var usage = rusage()
  #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
  #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024
  #endif
}

func format(_ value: Double, decimals: Int = 1) -> String {
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  var text = "\(rounded)"
  if decimals == 0, text.hasSuffix(".0") { text.removeLast(2) }
  return text
}

func pad(_ text: String, _ width: Int) -> String {
  text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

func padRight(_ text: String, _ width: Int) -> String {
  text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

#if canImport(Glibc)
  private let systemWrite = Glibc.write
#else
  private let systemWrite = Darwin.write
#endif
