import AsyncReactive
import AsyncReactiveTesting
import Testing

/// The observers of one source are called in the order the observing nodes were created (ReactiveSwift's rule),
/// whatever order their consumers attach in: a view model does not depend on who subscribes first.
@Suite("Sibling order: observers of a source are called in creation order")
struct SiblingOrderTests {
  /// An operator applied to the source, its output tagged; `other` is a second input where the operator takes one.
  struct Shape: Sendable, CustomTestStringConvertible {
    let name: String
    let make:
      @Sendable (AsyncPassthroughSubject<Int, Never>, AsyncCurrentValueSubject<Int, Never>, String) -> Signal<
        String, Never
      >
    var testDescription: String { name }
  }

  static let shapes: [Shape] = [
    Shape(name: "map") { source, _, tag in source.map { "\(tag)\($0)" } },
    Shape(name: "filter") { source, _, tag in source.filter { $0 > 0 }.map { "\(tag)\($0)" } },
    Shape(name: "compactMap") { source, _, tag in source.compactMap { "\(tag)\($0)" } },
    Shape(name: "scan") { source, _, tag in source.scan(0, +).map { "\(tag)\($0)" } },
    Shape(name: "removeDuplicates") { source, _, tag in
      source.removeDuplicates().map { "\(tag)\($0)" }
    },
    Shape(name: "merge") { source, other, tag in merge(source, other).map { "\(tag)\($0)" } },
    Shape(name: "combineLatest") { source, other, tag in
      combineLatest(source, other).map { "\(tag)\($0 + $1)" }
    },
    Shape(name: "withLatestFrom") { source, other, tag in
      source.withLatestFrom(other).map { "\(tag)\($0)" }
    },
    Shape(name: "flatMapLatest") { source, other, tag in
      source.flatMapLatest { value in other.map { "\(tag)\(value + $0)" } }
    },
    Shape(name: "flatMap") { source, other, tag in
      source.flatMap { value in other.map { "\(tag)\(value + $0)" } }
    },
  ]

  @Test(
    "two nodes over one source: the one created first is called first, whichever consumer came first",
    arguments: shapes)
  func creationOrderWins(_ shape: Shape) {
    let source = AsyncPassthroughSubject<Int, Never>()
    let other = AsyncCurrentValueSubject<Int, Never>(0)
    let first = shape.make(source, other, "A")
    let second = shape.make(source, other, "B")
    let log = Log<String>()
    let lifetime = Lifetime()
    second.sink(in: lifetime) { log.append($0) }  // the later node's consumer attaches first
    first.sink(in: lifetime) { log.append($0) }
    let before = log.all.count  // what the current value of `other` gave at once
    source.send(1)
    #expect(log.all.dropFirst(before).map { $0.prefix(1) } == ["A", "B"])
    lifetime.cancel()
  }

  @Test(
    "Kickstarter's search: `clears` declared before the title's combination reaches the list first, in both attach orders",
    arguments: [false, true])
  func searchClearsBeforeTheTitleTurns(titleFirst: Bool) {
    let query = AsyncPassthroughSubject<String, Never>()
    let popular = AsyncCurrentValueSubject<[String], Never>(["popular"])
    let clears = query.map { _ in "clear" }  // declared first, as in the view model
    let title = combineLatest(query, popular).map { text, _ in text.isEmpty ? "title shown" : "title hidden" }
    let log = Log<String>()
    let lifetime = Lifetime()
    if titleFirst {
      title.sink(in: lifetime) { log.append($0) }
      clears.sink(in: lifetime) { log.append($0) }
    } else {
      clears.sink(in: lifetime) { log.append($0) }
      title.sink(in: lifetime) { log.append($0) }
    }
    query.send("swift")
    query.send("")
    #expect(log.all == ["clear", "title hidden", "clear", "title shown"])
    lifetime.cancel()
  }

  @Test("a consumer attached directly to the source takes its place when it attaches")
  func directConsumerWhenItAttaches() {
    let source = AsyncPassthroughSubject<Int, Never>()
    let node = source.map { "node \($0)" }  // created before the direct consumer attaches
    let log = Log<String>()
    let lifetime = Lifetime()
    source.sink(in: lifetime) { log.append("direct \($0)") }
    node.sink(in: lifetime) { log.append($0) }  // connects later, but was created first
    source.send(1)
    #expect(log.all == ["node 1", "direct 1"])
    let late = Lifetime()
    source.sink(in: late) { log.append("late \($0)") }
    source.send(2)
    #expect(log.all == ["node 1", "direct 1", "node 2", "direct 2", "late 2"])
    late.cancel()
    lifetime.cancel()
  }
}
