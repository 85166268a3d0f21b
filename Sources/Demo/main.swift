#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// `swift run Demo --help` for the options; the scenarios are in Screens/, the plumbing in Support/.
let status = await DemoCommand.run(
  arguments: Array(CommandLine.arguments.dropFirst()),
  output: { print($0) },
  errors: { message in
    // Straight to file descriptor 2: the C `stderr` global is not concurrency-safe to name in Swift 6.
    var line = message + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
  }
)
exit(status)
