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

/// The view: it only binds and shows. Observers run on the caller's actor, here the main actor, so `show` may
/// touch the widgets directly.
@MainActor
func showSearch(_ viewModel: SearchViewModel, in lifetime: Lifetime, show: @escaping (String) -> Void) {
  viewModel.search.executing.observe(in: lifetime) { show($0 ? "loading…" : "idle") }
  viewModel.results.observe(in: lifetime) { show("results: \($0.joined(separator: ", "))") }
  viewModel.search.errors.observe(in: lifetime) { show("error: \($0)") }
}
// README-END

/// A `@MainActor` view with a label, as the README's sentence under the example calls `showSearch`.
@MainActor private final class SearchScreenView {
  let lifetime = Lifetime()
  let label = FakeLabel()

  func show(_ viewModel: SearchViewModel) {
    // The README's line, word for word:
    showSearch(viewModel, in: lifetime) { [label] in label.text = $0 }
  }
}

@Suite("The README's MVVM example")
@MainActor
struct ReadmeExampleTests {
  struct FakeAPI: SearchAPI {
    func search(_ text: String) async throws -> [String] { [text, text + "ui"] }
  }

  @Test("typing searches after the debounce; a @MainActor view's label shows loading, the results, then idle")
  func readmeExampleRuns() async throws {
    let clock = TestClock()
    let viewModel = SearchViewModel(api: FakeAPI(), clock: clock)
    var changes = viewModel.search.executing.makeAsyncIterator()
    var results = viewModel.results.subscribe().makeAsyncIterator()
    let view = SearchScreenView()
    view.show(viewModel)
    #expect(await changes.next() == false)
    #expect(await results.next() == [])
    // Each observation delivers in its own order; across the two, the label's order may vary.
    #expect(await view.label.changes.wait(count: 2).compactMap { $0 }.sorted() == ["idle", "results: "])

    viewModel.query.send("swift")  // what the text field's change handler does
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(300))
    #expect(await changes.next() == true)
    #expect(await changes.next() == false)
    #expect(await results.next() == ["swift", "swiftui"])
    #expect(viewModel.results.value == ["swift", "swiftui"])
    let shown = await view.label.changes.wait(count: 5)
    #expect(shown.filter { $0 == "loading…" || $0 == "idle" }.suffix(2) == ["loading…", "idle"])
    #expect(shown.last { $0?.hasPrefix("results") == true } == "results: swift, swiftui")
    view.lifetime.cancel()
  }
}
