import AsyncReactive
import CombineStandIns
import Synchronization
import Testing

// A SwiftUI view file sees Combine's names (SwiftUI re-exports Combine). This file imports stand-ins with those
// names beside AsyncReactive and names every one of them unqualified: if the library declared a type with one of
// Combine's names again, this file would stop compiling with "is ambiguous for type lookup".

/// What a view model written against Combine keeps, next to one written against AsyncReactive.
private final class LegacyModel {
  @Published var title = "legacy"
  let taps = PassthroughSubject<Void, Never>()
  let count = CurrentValueSubject<Int, Never>(0)
  var cancellables: [AnyCancellable] = []
}

@Suite("Library names do not collide with Combine's")
struct CombineNamesTests {
  @Test("Combine's subject names and the library's subjects are used unqualified in one file")
  func bothUnqualified() {
    let legacy = LegacyModel()
    legacy.count.send(2)
    legacy.taps.send(())
    let combineSubject: any Subject<Int, Never> = legacy.count
    combineSubject.send(3)
    var cancelled = false
    legacy.cancellables.append(AnyCancellable { cancelled = true })
    for cancellable in legacy.cancellables { cancellable.cancel() }

    let lifetime = Lifetime()
    let name = AsyncCurrentValueSubject<String, Never>("a")
    let taps = AsyncPassthroughSubject<Int, Never>()
    let replay = AsyncReplaySubject<Int, Never>(bufferSize: 2)
    let asyncSubject: any SubjectProtocol<Int, Never> = taps
    let seen = Recorded()
    taps.sink(in: lifetime) { seen.append($0) }
    asyncSubject.send(1)
    replay.send(7)
    name.send("b")

    #expect(legacy.count.value == 3)
    #expect(legacy.taps.sent.count == 1)
    #expect(legacy.title == "legacy")
    #expect(cancelled)
    #expect(seen.values == [1])
    #expect(name.value == "b")
    lifetime.cancel()
  }
}

/// Values a sink received, readable after `send` returns (the sink runs inside `send`).
private final class Recorded: Sendable {
  private let storage = Mutex<[Int]>([])
  func append(_ value: Int) { storage.withLock { $0.append(value) } }
  var values: [Int] { storage.withLock { $0 } }
}
