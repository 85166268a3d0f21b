import AsyncReactive

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Benchmarks: each case runs the same work through a RAC-style callback baseline, a naive AsyncStream
// version and AsyncReactive, checks that the three agree, and prints ns per event and the ratios.

let options = Options.parse(CommandLine.arguments)
if options.hotOperatorMemoryProbe {
  print(mappedSinkBytes(count: options.quick ? 1_000 : 10_000))
} else if options.observeMemoryProbe {
  print(idleObserveBytes(count: options.quick ? 1_000 : 10_000))
} else if options.sinkMemoryProbe {
  print(idleSinkBytes(count: options.quick ? 1_000 : 10_000))
} else if let version = options.memoryProbe {
  print(await idleSubscriberBytes(version, count: options.quick ? 1_000 : 10_000))
} else {
  await runBenchmarks(options)
}

func runBenchmarks(_ options: Options) async {
  let scale = options.quick ? 100 : 1
  let repetitions = options.quick ? 3 : 5
  var cases: [BenchmarkCase] = [
    BenchmarkCase(
      name: "subject → 1 consumer, map + filter", unit: "event", events: 1_000_000 / scale, target: 2.0,
      cpuRatioTarget: 2.0
    ) {
      await fanOut($0, events: 1_000_000 / scale, consumers: 1, mapFilter: true)
    },
    BenchmarkCase(
      name: "subject → 100 consumers",
      unit: "delivered event",
      events: 10_000 / scale * 100,
      target: 2.0,
      cpuRatioTarget: 2.0
    ) {
      await fanOut($0, events: 10_000 / scale, consumers: 100, mapFilter: false)
    },
  ]
  for exponent in 4...6 {
    var events = 1
    for _ in 0..<exponent { events *= 10 }
    events /= scale
    cases.append(
      BenchmarkCase(
        name: "scaling: 10^\(exponent) events, 1 consumer", unit: "event", events: events, target: 2.0,
        cpuRatioTarget: 2.0
      ) {
        await fanOut($0, events: events, consumers: 1, mapFilter: false)
      }
    )
  }
  for consumers in [1, 10, 100, 1_000, 10_000] {
    let events = max(10, 1_000_000 / scale / consumers)
    cases.append(
      BenchmarkCase(
        name: "scaling: \(consumers) consumers",
        unit: "delivered event",
        events: events * consumers,
        target: nil,
        cpuRatioTarget: 2.0
      ) {
        await fanOut($0, events: events, consumers: consumers, mapFilter: false)
      }
    )
  }
  cases.append(
    BenchmarkCase(
      name: "subject → 1 synchronous sink", unit: "event", events: 1_000_000 / scale, target: 2.0, cpuTarget: 1.2
    ) {
      await synchronousObserver($0, events: 1_000_000 / scale)
    }
  )
  for traced in [false, true] {
    cases.append(
      BenchmarkCase(
        name: "subject → map → filter → 1 sink\(traced ? ", traced (AsyncReactiveDebug)" : "")", unit: "event",
        events: 1_000_000 / scale, target: nil
      ) {
        await synchronousMapFilter($0, events: 1_000_000 / scale, traced: traced)
      }
    )
  }
  cases.append(
    BenchmarkCase(
      name: "sporadic: subject → 1 consumer, 20 µs apart", unit: "event", events: 2_000 / scale, target: nil
    ) {
      await sporadic($0, events: 2_000 / scale, pauseMicroseconds: 20)
    }
  )
  cases += extraCases(scale: scale)
  cases += propertyCases(scale: scale)
  cases += hotCases(scale: scale)
  cases += coldCases(scale: scale)

  // Memory first: later cases leave freed heap behind that new subscribers would reuse unseen.
  var memory: [Version: Int] = [:]
  if options.filter.map({ "memory per idle subscriber".contains($0) }) ?? true {
    FileHandleStderr.write("memory per idle subscriber\n")
    for version in options.versions {
      // Each version in a process of its own: in one process, a version measured after another would reuse
      // the pages the first one freed and look smaller than it is.
      let probe = ["--memory-probe", version.argument] + (options.quick ? ["--quick"] : [])
      if let output = runSelf(probe), let bytes = Int(output.split(separator: "\n").last ?? "") {
        memory[version] = bytes
      } else {
        memory[version] = await idleSubscriberBytes(version, count: options.quick ? 1_000 : 10_000)
      }
    }
  }

  var sinkMemory: Int?
  if options.filter.map({ "memory per idle subscriber".contains($0) }) ?? true, options.versions.contains(.reactive) {
    let probe = ["--memory-probe-sink"] + (options.quick ? ["--quick"] : [])
    if let output = runSelf(probe), let bytes = Int(output.split(separator: "\n").last ?? "") {
      sinkMemory = bytes
    } else {
      sinkMemory = idleSinkBytes(count: options.quick ? 1_000 : 10_000)
    }
  }

  // The push core's absolute figures: what one hot operator adds to an idle observer, and the tasks alive
  // inside a hot graph (the consumer's own task is not one of them).
  var figures: [Figure] = []
  if options.filter.map({ "memory per hot operator".contains($0) }) ?? true, options.versions.contains(.reactive) {
    // Both in fresh processes (see `mappedSinkBytes`).
    let count = options.quick ? 1_000 : 10_000
    let quick = options.quick ? ["--quick"] : []
    let mapped =
      runSelf(["--memory-probe-hot-operator"] + quick).flatMap { Int($0.split(separator: "\n").last ?? "") }
      ?? mappedSinkBytes(count: count)
    let direct =
      sinkMemory ?? runSelf(["--memory-probe-sink"] + quick).flatMap { Int($0.split(separator: "\n").last ?? "") }
      ?? idleSinkBytes(count: count)
    let bytes = max(0, mapped - direct)
    figures.append(
      Figure(name: "memory per hot operator (bytes, between a subject and an idle sink)", value: bytes, target: 256))
  }
  if options.filter.map({ "memory per idle observe(in:)".contains($0) }) ?? true, options.versions.contains(.reactive) {
    let probe = ["--memory-probe-observe"] + (options.quick ? ["--quick"] : [])
    let bytes =
      runSelf(probe).flatMap { Int($0.split(separator: "\n").last ?? "") }
      ?? idleObserveBytes(count: options.quick ? 1_000 : 10_000)
    figures.append(
      Figure(name: "memory per idle observe(in:) of a subject (bytes, no task while idle)", value: bytes, target: 768))
  }
  if options.filter.map({ "tasks alive inside a hot graph".contains($0) }) ?? true, options.versions.contains(.reactive)
  {
    figures.append(
      Figure(
        name: "tasks alive inside a hot graph (combineLatest of 3 + withLatestFrom + map, 1 consumer)",
        value: await tasksInsideHotGraph(), target: 0))
  }

  var results: [CaseResult] = []
  for benchmark in cases where options.filter.map({ benchmark.name.contains($0) }) ?? true {
    FileHandleStderr.write("\(benchmark.name)\n")
    var measurements: [Version: Measurement] = [:]
    var checksums: [Version: Int] = [:]
    for version in options.versions {
      let (measurement, checksum) = await measure(benchmark, version, repetitions: repetitions)
      measurements[version] = measurement
      checksums[version] = checksum
    }
    if Set(checksums.values).count > 1 {
      FileHandleStderr.write("result check failed: \(benchmark.name) versions disagree: \(checksums)\n")
      exit(1)
    }
    results.append(CaseResult(benchmark: benchmark, measurements: measurements))
  }

  // The largest fan-out's own tasks, without the library: the floor under that row's CPU per delivered event.
  var references: [Reference] = []
  let largestFanOut = 10_000
  let fanOutRow = "scaling: \(largestFanOut) consumers"
  if options.filter.map({ fanOutRow.contains($0) }) ?? true {
    FileHandleStderr.write("\(fanOutRow): the consumer tasks alone\n")
    let eventsPerConsumer = max(10, 1_000_000 / scale / largestFanOut)
    let floor = await consumerTaskFloor(
      consumers: largestFanOut, eventsPerConsumer: eventsPerConsumer, repetitions: repetitions)
    references.append(
      Reference(
        name: "\(fanOutRow): its \(largestFanOut) consumer tasks alone, no library (created, suspended at most once, "
          + "resumed, joined; \(eventsPerConsumer) events per task)",
        row: fanOutRow, cpuPerEvent: floor))
  }

  printTable(results, memory: memory, sinkMemory: sinkMemory, figures: figures, references: references)
  if let path = options.jsonPath {
    writeJSON(results, memory: memory, sinkMemory: sinkMemory, figures: figures, references: references, to: path)
  }
  if let path = options.svgPath {
    writeSVG(results, to: path)
  }
}
