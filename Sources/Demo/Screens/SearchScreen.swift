import AsyncReactive

// Screen 4 (source 000): search. The text field is bound into the view model (debounced); each query runs the
// `search` command, whose `executing` drives the spinner and whose `started` says which search began. The
// command's policy is `.cancelPrevious`: a new query while a search runs cancels that search.

/// The search screen's view model. The typed text arrives through ``searchTextChanged(_:)``, bound by the view.
///
/// ```swift
/// let viewModel = SearchViewModel(api: api)
/// field.debounce(for: .milliseconds(100), clock: clock).observe(in: lifetime) { text in
///   await viewModel.searchTextChanged(text)
/// }
/// ```
actor SearchViewModel {
  /// Runs one search; a new one cancels the one in flight.
  nonisolated let search: Command<String, [String], any Error>
  /// The latest results.
  nonisolated let results: Property<[String]>
  /// What the screen says about the search in progress.
  nonisolated let status: Property<String>

  private(set) var query = ""
  private nonisolated let statusSubject = AsyncCurrentValueSubject<String, Never>("")

  init(api: FakeAPI) {
    let results = AsyncCurrentValueSubject<[String], Never>([])
    self.results = Property(results)
    status = Property(statusSubject)
    search = Command(policy: .cancelPrevious) { query in
      let found = try await api.search(query)
      results.send(found)
      return found
    }
  }

  /// The debounced text of the search field.
  func searchTextChanged(_ text: String) {
    guard text != query else { return }
    if search.executing.value {
      statusSubject.send("search \"\(query)\" replaced by \"\(text)\" (policy \(search.policy))")
    }
    query = text
    search.trigger(text)
  }
}

/// The search screen's text view: a field, a spinner, a results list, a status line, and a caption saying which
/// search is running.
@MainActor final class SearchView {
  static let debounce = Duration.milliseconds(100)

  let lifetime = Lifetime()
  let searchField: TextField
  let results: Label
  let spinner: Spinner
  let status: Label
  let caption: Label
  private let screen: Screen

  init(on screen: Screen) {
    self.screen = screen
    searchField = TextField(on: screen)
    results = Label(on: screen, order: 0, text: "results: ")
    spinner = Spinner(on: screen, order: 1) { $0 ? "loading… (spinner on)" : "spinner off" }
    status = Label(on: screen, order: 2)
    caption = Label(on: screen, order: 3)
  }

  /// Binds the view model's outputs to the widgets, and the search field's text into the view model.
  func bind(to viewModel: SearchViewModel, clock: ScenarioClock) {
    viewModel.results.traced("results", on: screen)
      .map { "results: \($0.joined(separator: ", "))" }
      .bind(to: results, \.text, in: lifetime)
    viewModel.search.executing.traced("search.executing", on: screen).bind(to: spinner, \.isAnimating, in: lifetime)
    viewModel.status.traced("status", on: screen).bind(to: status, \.text, in: lifetime)
    // Command.started: each search as it begins, with its query.
    viewModel.search.started.traced("search.started", on: screen)
      .map { "searching \"\($0)\"…" }
      .bind(to: caption, \.text, in: lifetime)
    // RAC(self.viewModel, searchText) = self.searchTextField.rac_textSignal, debounced.
    let text = searchField.texts.traced("searchField", on: screen).debounce(for: Self.debounce, clock: clock)
    text.observe(in: lifetime) { text in await viewModel.searchTextChanged(text) }
  }
}

/// Plays screen 4: "sw" is searched; while it loads the user types "swift", which cancels it.
@MainActor func playSearchScreen(_ stage: Stage) async {
  let viewModel = SearchViewModel(api: stage.api)
  let view = SearchView(on: stage.screen)
  view.bind(to: viewModel, clock: stage.clock)
  // "sw" is searched 100 ms after its keystroke, at 140 ms, and takes at least 205 ms: "swift" comes while it
  // runs, and replaces it at 300 ms, whatever the seed. The user's pauses end as the debounce fires.
  stage.user("types \"s\"")
  await view.searchField.type("s")
  await stage.pause(40)
  stage.user("types \"sw\" (the field is debounced by 100 ms)")
  await view.searchField.type("sw")
  await stage.pause(100)
  await stage.sees { view.spinner.isAnimating && view.caption.text == "searching \"sw\"…" }
  // The search runs along with the user's pause: time moves only once its request is sent.
  await stage.api.waitForRequests("GET /search?q=sw")
  await stage.pause(60)
  stage.user("types \"swift\" while \"sw\" is loading")
  await view.searchField.type("swift")
  await stage.pause(100)
  await stage.sees { !view.status.text.isEmpty && view.caption.text == "searching \"swift\"…" }
  await stage.waitsUntil { view.results.text != "results: " }
  await stage.sees { !view.spinner.isAnimating }
  await stage.pause(100)
  stage.showGraph("what the screen observes (view.lifetime)", view.lifetime.debugGraph())
  stage.user("closes the screen")
  await stage.close(view.lifetime)
}
