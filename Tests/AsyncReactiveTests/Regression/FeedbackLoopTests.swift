import AsyncReactive
import AsyncReactiveTesting
import Testing

/// RxExample's GitHub search written with RxFeedback, ported: the state is a current-value subject read through a
/// `Property`; a query derived from the state drives a `flatMapLatest` of requests whose responses are bound back
/// into the commands that reduce into the state; the search text comes in through a generic input (a throttled
/// subject at the call site) merged with a load-more trigger.
enum GitHubSearch {
  struct State: Sendable, Equatable {
    var search = ""
    var nextPage: String?
    var shouldLoadNextPage = true
    var results: [String] = []
    var failed = false
  }

  enum Event: Sendable {
    case searchChanged(String)
    case response(Result<(repositories: [String], nextPage: String?), SearchError>)
    case startLoadingNextPage
  }

  struct SearchError: Error, Equatable {}

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .searchChanged(let search):
      state.search = search
      state.results = []
      state.failed = false
      state.nextPage = search.isEmpty ? nil : "search?q=\(search)"
      state.shouldLoadNextPage = !search.isEmpty
    case .startLoadingNextPage:
      state.shouldLoadNextPage = true
    case .response(.success(let page)):
      state.results += page.repositories
      state.nextPage = page.nextPage
      state.shouldLoadNextPage = false
    case .response(.failure):
      state.shouldLoadNextPage = false
      state.failed = true
    }
  }

  /// The API: each request is logged when it is made and answers after 100 ms of the test clock.
  final class API: Sendable {
    let clock: TestClock
    let requests = Log<String>()

    init(clock: TestClock) {
      self.clock = clock
    }

    func search(_ url: String) -> Signal<(repositories: [String], nextPage: String?), any Error> {
      let clock = clock
      let requests = requests
      return Signal.future {
        requests.append(url)
        try await clock.sleep(for: .milliseconds(100))
        return (["\(url) #1", "\(url) #2"], url.hasSuffix("&page=2") ? nil : "\(url)&page=2")
      }
    }
  }

  actor ViewModel {
    nonisolated let state = AsyncCurrentValueSubject<State, Never>(State())
    nonisolated let commands = AsyncPassthroughSubject<Event, Never>()
    nonisolated let property: Property<State>
    let lifetime = Lifetime()

    init(
      searchText: some AsyncSequence<String, Never> & Sendable,
      loadNextPage: some AsyncSequence<Void, Never> & Sendable,
      api: API
    ) {
      let state = state
      property = Property(state)
      commands.observe(in: lifetime) { event in
        state.modify { GitHubSearch.reduce(&$0, event) }
      }
      state.map { $0.shouldLoadNextPage ? $0.nextPage : nil }
        .removeDuplicates()
        .flatMapLatest { url -> Signal<Event, Never> in
          guard let url else { return .empty }
          return api.search(url)
            .map { Event.response(.success($0)) }
            .replaceError(with: .response(.failure(SearchError())))
        }
        .bind(to: commands, in: lifetime)
      merge(searchText.map { Event.searchChanged($0) }, loadNextPage.map { Event.startLoadingNextPage })
        .bind(to: commands, in: lifetime)
    }
  }

  /// The screen's parts: what the view sends, the view model, a recording of its results.
  struct Screen {
    let clock: TestClock
    let api: API
    let searchText = AsyncPassthroughSubject<String, Never>()
    let loadNextPage = AsyncPassthroughSubject<Void, Never>()
    let viewModel: ViewModel
    let results: Recorder<[String], Never>

    init(clock: TestClock) {
      self.clock = clock
      api = API(clock: clock)
      viewModel = ViewModel(
        searchText: searchText.throttle(for: .milliseconds(300), clock: clock), loadNextPage: loadNextPage, api: api)
      results = Recorder(viewModel.property.map(\.results).removeDuplicates(), clock: clock)
    }

    /// Types a query, loads its first page and its second, then types another query while its request runs.
    func play() async {
      searchText.send("swift")
      await clock.settle()
      #expect(api.requests.all == ["search?q=swift"])
      await clock.advance(by: .milliseconds(100))
      #expect(viewModel.property.value.results == ["search?q=swift #1", "search?q=swift #2"])
      loadNextPage.send()
      await clock.settle()
      #expect(api.requests.all == ["search?q=swift", "search?q=swift&page=2"])
      await clock.advance(by: .milliseconds(100))
      #expect(viewModel.property.value.results.count == 4)
      #expect(viewModel.property.value.nextPage == nil)
      await clock.advance(by: .milliseconds(300))
      searchText.send("rx")
      await clock.settle()
      #expect(api.requests.all.last == "search?q=rx")
      await clock.advance(by: .milliseconds(100))
      #expect(viewModel.property.value.results == ["search?q=rx #1", "search?q=rx #2"])
      #expect(
        results.values.map(\.value) == [
          [], ["search?q=swift #1", "search?q=swift #2"],
          [
            "search?q=swift #1", "search?q=swift #2", "search?q=swift&page=2 #1", "search?q=swift&page=2 #2",
          ],
          [], ["search?q=rx #1", "search?q=rx #2"],
        ])
    }
  }
}

/// The screen built in the suite's `init()`, outside the virtual time, as the ported tests do.
@Suite("feedback loop: RxFeedback's GitHub search, ported", .timeLimit(.minutes(2)))
struct FeedbackLoopTests {
  let screen = GitHubSearch.Screen(clock: TestClock())

  @Test("built in the suite's init(): every request is made, every response reduced")
  func builtInInit() async {
    await screen.clock.withVirtualTime { await screen.play() }
  }

  @Test("built outside the virtual time: exact, 200 runs")
  func builtOutsideVirtualTime() async {
    for _ in 0..<StressProfile.current.screenRounds {
      let screen = GitHubSearch.Screen(clock: TestClock())
      await screen.clock.withVirtualTime { await screen.play() }
    }
  }

  @Test("built inside the virtual time: exact, 200 runs")
  func builtInsideVirtualTime() async {
    for _ in 0..<StressProfile.current.screenRounds {
      let clock = TestClock()
      await clock.withVirtualTime {
        let screen = GitHubSearch.Screen(clock: clock)
        await screen.play()
      }
    }
  }
}
