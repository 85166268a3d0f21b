import AsyncReactive

// Screen 4 (source 000): search. The text field is bound into the view model (debounced); each query runs the
// `search` command, whose `executing` drives the spinner. The command's policy is `.cancelPrevious`: a new
// query while a search runs cancels that search.

/// The search screen's view model. The typed text arrives through ``searchTextChanged(_:)``, bound by the view.
///
/// ```swift
/// let viewModel = SearchViewModel(api: api)
/// await viewModel.bind(field.debounce(for: .milliseconds(100), clock: clock), in: lifetime) { vm, text in
///   vm.searchTextChanged(text)
/// }
/// ```
actor SearchViewModel {
  /// Runs one search; a new one cancels the one in flight.
  nonisolated let search: Command<String, [String]>
  /// The latest results.
  nonisolated let results: Property<[String]>
  /// What the screen says about the search in progress.
  nonisolated let status: Property<String>

  private(set) var query = ""
  private nonisolated let statusSubject = CurrentValueSubject<String, Never>("")

  init(api: FakeAPI) {
    let results = CurrentValueSubject<[String], Never>([])
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

/// The search screen's text view: a field, a spinner, a results list, a status line.
final class SearchView: Sendable {
  static let debounce = Duration.milliseconds(100)

  let lifetime = Lifetime()
  let spinner = CurrentValueSubject<Bool, Never>(false)
  let results = CurrentValueSubject<[String], Never>([])
  let status = CurrentValueSubject<String, Never>("")
  private let timeline: Timeline

  init(timeline: Timeline) {
    self.timeline = timeline
  }

  /// Binds the view model's outputs to the widgets, and the search field's text into the view model.
  func bind(to viewModel: SearchViewModel, searchField: Typing, clock: ScenarioClock) async {
    let (spinner, results, status, timeline) = (spinner, results, status, timeline)
    viewModel.search.executing.observe(in: lifetime) { running in
      render(running, in: spinner, on: timeline, order: 1) { $0 ? "loading… (spinner on)" : "spinner off" }
    }
    viewModel.results.observe(in: lifetime) { list in
      render(list, in: results, on: timeline, order: 0) { "results: \($0.joined(separator: ", "))" }
    }
    viewModel.status.observe(in: lifetime) { text in
      render(text, in: status, on: timeline, order: 2) { $0 }
    }
    // RAC(self.viewModel, searchText) = self.searchTextField.rac_textSignal, debounced.
    await viewModel.bind(searchField.debounce(for: Self.debounce, clock: clock), in: lifetime) { viewModel, text in
      viewModel.searchTextChanged(text)
    }
  }
}

/// Plays screen 4: "sw" is searched; while it loads the user types "swift", which cancels it.
func playSearchScreen(_ stage: Stage) async {
  let viewModel = SearchViewModel(api: stage.api)
  let view = SearchView(timeline: stage.timeline)
  // "sw" is searched 100 ms after its keystroke, at 140 ms, and takes at least 205 ms: "swift" comes while it
  // runs, and replaces it at 300 ms, whatever the seed.
  let searchField = Typing(
    stage,
    [
      (.zero, "s", "types \"s\""),
      (.milliseconds(40), "sw", "types \"sw\" (the field is debounced by 100 ms)"),
      (.milliseconds(200), "swift", "types \"swift\" while \"sw\" is loading"),
    ]
  )
  await view.bind(to: viewModel, searchField: searchField, clock: stage.clock)
  await waitUntil(view.results) { !$0.isEmpty }
  await waitUntil(view.spinner) { !$0 }
  await stage.pause(100)
  stage.user("closes the screen")
  view.lifetime.cancel()
}
