// swift-tools-version: 6.2
import PackageDescription

/// Settings shared by every target: Swift 6 language mode comes with the tools version; these add the
/// upcoming features our style relies on. Tools 6.2 because the library uses `SendableMetatype`.
let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
  name: "AsyncReactive",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "AsyncReactive", targets: ["AsyncReactive"]),
    .library(name: "AsyncReactiveTesting", targets: ["AsyncReactiveTesting"]),
  ],
  targets: [
    .target(name: "AsyncReactive", swiftSettings: strictSettings),
    .target(name: "AsyncReactiveTesting", dependencies: ["AsyncReactive"], swiftSettings: strictSettings),
    .executableTarget(
      name: "Benchmarks",
      dependencies: ["AsyncReactive"],
      path: "Benchmarks",
      // The chart the benchmark writes with `--svg`, the page that explains the figures, and the view models whose
      // type-checking Scripts/typecheck-probe.py times (type-checked on their own, not built into the benchmark).
      exclude: ["results.svg", "README.md", "TypeCheck"],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "Demo",
      dependencies: ["AsyncReactive", "AsyncReactiveTesting"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "DemoTests",
      dependencies: ["Demo", "AsyncReactive", "AsyncReactiveTesting"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "AsyncReactiveTests",
      dependencies: ["AsyncReactive", "AsyncReactiveTesting"],
      swiftSettings: strictSettings
    ),
    // Every ```swift block of the README and the DocC catalog, written into Generated/ by
    // Scripts/extract-doc-examples.py, so that an example that stops compiling fails the build.
    .testTarget(
      name: "DocExampleTests",
      dependencies: ["AsyncReactive", "AsyncReactiveTesting"],
      swiftSettings: strictSettings
    ),
    // Stand-ins with Combine's type names (Linux has no Combine), for the test below.
    .target(name: "CombineStandIns", path: "Tests/CombineStandIns", swiftSettings: strictSettings),
    // Without MemberImportVisibility, as in an app that has not adopted it: what importing the library does to
    // files that do not import it, and to names other modules declare.
    .testTarget(
      name: "ImportVisibilityTests",
      dependencies: ["AsyncReactive", "CombineStandIns"],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
