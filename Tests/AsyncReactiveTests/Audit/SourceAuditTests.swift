import Foundation
import Testing

/// The README's table of unsafe and underscored attributes (and underscored borrows) is the truth: this counts them
/// in the library.
@Suite("Source audit: unsafe and underscored attributes")
struct SourceAuditTests {
  /// The package's root, from this file's path (Tests/AsyncReactiveTests/Audit/SourceAuditTests.swift).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Every Swift line of the library's two modules, with its file.
  static func libraryLines() throws -> [(file: String, number: Int, text: String)] {
    var lines: [(String, Int, String)] = []
    for module in ["Sources/AsyncReactive", "Sources/AsyncReactiveTesting"] {
      let directory = root.appendingPathComponent(module)
      let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)!
      for case let url as URL in files where url.pathExtension == "swift" {
        let text = try String(contentsOf: url, encoding: .utf8)
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
          lines.append((url.lastPathComponent, index + 1, line))
        }
      }
    }
    return lines
  }

  /// The counts the README's table states: `| \`@attribute\` | 4 | … |`.
  static func readmeCounts() throws -> [String: Int] {
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    var counts: [String: Int] = [:]
    for line in readme.components(separatedBy: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 2, let count = Int(cells[1]) else { continue }
      counts[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = count
    }
    return counts
  }

  @Test("each attribute is used as often as the README says")
  func countsMatchTheReadme() throws {
    let stated = try Self.readmeCounts()
    let attributes = [
      "@unchecked Sendable", "@_inheritActorContext", "@_disfavoredOverload", "nonisolated(unsafe)",
      "@preconcurrency", "_withUnsafeGuaranteedRef", "@exclusivity(unchecked)",
    ]
    let code = try Self.libraryLines().filter { !$0.text.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
    for attribute in attributes {
      let used = code.reduce(0) { $0 + $1.text.components(separatedBy: attribute).count - 1 }
      #expect(
        stated[attribute] == used,
        "README says \(stated[attribute].map(String.init) ?? "nothing") for \(attribute); the code has \(used)")
    }
  }

  @Test("every @unchecked Sendable has its argument in a comment beside it (just above, or first in its body)")
  func uncheckedSendableIsArgued() throws {
    let lines = try Self.libraryLines()
    for (index, line) in lines.enumerated() where line.text.contains("@unchecked Sendable") {
      guard !line.text.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { continue }
      let beside = lines[max(0, index - 4)..<min(lines.count, index + 4)].filter { $0.file == line.file }.map(\.text)
      #expect(
        beside.contains { $0.contains("// Safe") },
        "\(line.file):\(line.number) declares @unchecked Sendable without a \"// Safe …\" argument beside it")
    }
  }
}
