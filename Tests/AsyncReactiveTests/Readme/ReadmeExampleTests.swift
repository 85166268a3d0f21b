import AsyncReactive
import AsyncReactiveTesting
import Testing

// The README's MVVM example, compiled and run, so that the front page cannot drift from the API.
// Keep the two in step: the code between the markers is the README's, word for word.

// README-BEGIN
protocol SearchAPI: Sendable {
  func search(_ text: String) async throws -> [String]
}

/// The view model: a plain actor. State goes out as subjects, the logic lives in a command.
actor SearchViewModel {
  nonisolated let query = AsyncCurrentValueSubject<String, Never>("")
  nonisolated let results = AsyncCurrentValueSubject<[String], Never>([])
  nonisolated let search: Command<String, [String], any Error>
  private let lifetime = Lifetime()

  init<C: Clock<Duration>>(api: some SearchAPI, clock: C = ContinuousClock()) {
    // A new query cancels the search in flight (RxSwift flatMapLatest, an Action that restarts).
    search = Command(policy: .cancelPrevious) { text in try await api.search(text) }
    // Search 300 ms after the last keystroke, for non-empty text that changed.
    query.filter { !$0.isEmpty }.debounce(for: .milliseconds(300), clock: clock).removeDuplicates()
      .bind(to: search, in: lifetime)
    search.values.bind(to: results, in: lifetime)
  }
}

/// The view: it only binds and shows.
func showSearch(_ viewModel: SearchViewModel, in lifetime: Lifetime, print: @escaping @Sendable (String) -> Void) {
  viewModel.search.executing.observe(in: lifetime) { print($0 ? "loading…" : "idle") }
  viewModel.results.observe(in: lifetime) { print("results: \($0.joined(separator: ", "))") }
  viewModel.search.errors.observe(in: lifetime) { print("error: \($0)") }
}
// README-END

@Suite("The README's MVVM example")
struct ReadmeExampleTests {
  struct FakeAPI: SearchAPI {
    func search(_ text: String) async throws -> [String] { [text, text + "ui"] }
  }

  @Test("typing searches after the debounce; the view sees loading, the results, then idle")
  func readmeExampleRuns() async throws {
    let clock = TestClock()
    let viewModel = SearchViewModel(api: FakeAPI(), clock: clock)
    let lifetime = Lifetime()
    let lines = Log<String>()
    var changes = viewModel.search.executing.makeAsyncIterator()
    var results = viewModel.results.subscribe().makeAsyncIterator()
    showSearch(viewModel, in: lifetime) { lines.append($0) }
    #expect(await changes.next() == false)
    #expect(await results.next() == [])

    viewModel.query.send("swift")  // what the text field's change handler does
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(300))
    #expect(await changes.next() == true)
    #expect(await changes.next() == false)
    #expect(await results.next() == ["swift", "swiftui"])
    #expect(viewModel.results.value == ["swift", "swiftui"])
    lifetime.cancel()
  }
}
