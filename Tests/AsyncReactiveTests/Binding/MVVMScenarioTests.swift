import AsyncReactive
import AsyncReactiveTesting
import Testing

/// The source documents' screens, written the way the library means them to be: view models are plain actors
/// (not `@MainActor`) that expose state as `nonisolated let` subjects and properties, keep their logic in
/// commands, and never reference a view; the "views" only bind.
@Suite("MVVM scenarios: search screen, login form, lifecycle events")
struct MVVMScenarioTests {
  @Test("search: text bound in, tap bound to the command, executing drives both indicators, results land")
  func searchScreen() async throws {
    let api = FakeSearchAPI()
    let viewModel = SearchScreenViewModel(api: api)
    let view = SearchView()
    var network = view.networkActivityVisible.subscribe().makeAsyncIterator()
    var loadingHidden = view.loadingHidden.subscribe().makeAsyncIterator()
    var shown = view.shownResults.subscribe().makeAsyncIterator()
    var enabled = viewModel.executeSearch.isEnabled.makeAsyncIterator()
    view.bind(to: viewModel)

    // Until the text has two characters, the search is disabled; typing enables it.
    await skip(until: false, in: &enabled)
    view.searchField.send("swift")
    #expect(await enabled.next() == true)

    view.searchButton.send()
    // Each indicator holds its initial value, then the bound `executing` (current value first).
    #expect(await take(3, from: &network) == [false, false, true])
    #expect(await take(3, from: &loadingHidden) == [true, true, false])
    api.release.open()
    #expect(await network.next() == false)
    #expect(await loadingHidden.next() == true)
    #expect(await take(3, from: &shown) == [[], [], ["swift", "swiftui"]])
    #expect(viewModel.results.value == ["swift", "swiftui"])
    #expect(api.queries.all == ["swift"])
    view.lifetime.cancel()
  }

  @Test("login: the button is enabled only while username and password are valid (enabledIf + combineLatest)")
  func loginForm() async throws {
    let viewModel = LoginViewModel()
    let view = LoginView()
    var enabled = view.loginButtonEnabled.subscribe().makeAsyncIterator()
    var disabled = viewModel.logIn.disabledErrors.makeAsyncIterator()
    var tokens = viewModel.logIn.values.makeAsyncIterator()
    view.bind(to: viewModel)

    await skip(until: false, in: &enabled)
    view.usernameField.send("tom")
    view.loginButton.send()  // the password is still empty: refused
    #expect(await disabled.next() != nil)
    view.passwordField.send("secret1")
    #expect(await enabled.next() == true)
    view.loginButton.send()
    #expect(await tokens.next() == "token-tom")
    #expect(await take(2, from: &enabled) == [false, true])  // disabled while the login runs (.reject)
    view.passwordField.send("no")
    #expect(await enabled.next() == false)
    await #expect(throws: CommandError<Never>.disabled) { try await viewModel.logIn.execute() }
    view.lifetime.cancel()
  }

  @Test("lifecycle: each viewWillAppear runs the refresh check; after the view's lifetime, nothing does")
  func lifecycleEvents() async throws {
    let viewModel = OrdersViewModel()
    let viewWillAppear = AsyncPassthroughSubject<Void, Never>()
    let lifetime = Lifetime()
    var checks = viewModel.refreshCheck.values.makeAsyncIterator()
    let binding = viewWillAppear.bind(to: viewModel.refreshCheck, in: lifetime)
    viewWillAppear.send()
    #expect(await checks.next() == 1)
    viewWillAppear.send()
    #expect(await checks.next() == 2)
    lifetime.cancel()
    await binding.value
    #expect(viewWillAppear.consumerCount == 0)
    #expect(try await viewModel.refreshCheck.execute() == 3)
  }
}

/// Reads values until `value` arrives (a command's `isEnabled` may or may not start with the
/// before-`enabledIf` `true`, depending on whether its observation ran yet).
private func skip<Iterator: AsyncIteratorProtocol>(
  until value: Iterator.Element,
  in iterator: inout Iterator
) async where Iterator.Failure == Never, Iterator.Element: Equatable {
  while let next = await iterator.next(isolation: #isolation), next != value {}
}

// MARK: Search screen (000: RAC(self.viewModel, searchText) = rac_textSignal; rac_command; executing)

private final class FakeSearchAPI: Sendable {
  let release = Latch()
  let queries = Log<String>()

  func search(_ query: String) async throws -> [String] {
    queries.append(query)
    try await release.pass()
    return [query, query + "ui"]
  }
}

private actor SearchScreenViewModel {
  nonisolated let searchText: AsyncCurrentValueSubject<String, Never>
  nonisolated let results: Property<[String]>
  nonisolated let executeSearch: Command<Void, [String], any Error>

  init(api: FakeSearchAPI) {
    let searchText = AsyncCurrentValueSubject<String, Never>("")
    let results = AsyncCurrentValueSubject<[String], Never>([])
    self.searchText = searchText
    self.results = Property(results)
    executeSearch = Command(enabledIf: searchText.map { $0.count >= 2 }) {
      let found = try await api.search(searchText.value)
      results.send(found)
      return found
    }
  }
}

private final class SearchView: Sendable {
  let lifetime = Lifetime()
  let searchField = AsyncPassthroughSubject<String, Never>()
  let searchButton = AsyncPassthroughSubject<Void, Never>()
  let networkActivityVisible = AsyncCurrentValueSubject<Bool, Never>(false)
  let loadingHidden = AsyncCurrentValueSubject<Bool, Never>(true)
  let shownResults = AsyncCurrentValueSubject<[String], Never>([])

  func bind(to viewModel: SearchScreenViewModel) {
    searchField.bind(to: viewModel.searchText, in: lifetime)
    searchButton.bind(to: viewModel.executeSearch, in: lifetime)
    viewModel.executeSearch.executing.bind(to: networkActivityVisible, in: lifetime)
    // RAC's `[executing not]`.
    viewModel.executeSearch.executing.not().bind(to: loadingHidden, in: lifetime)
    viewModel.results.bind(to: shownResults, in: lifetime)
  }
}

// MARK: Login form (RAC's classic: the button enabled by combineLatest of the fields' validity)

private actor LoginViewModel {
  nonisolated let username: AsyncCurrentValueSubject<String, Never>
  nonisolated let password: AsyncCurrentValueSubject<String, Never>
  nonisolated let logIn: Command<Void, String, Never>

  init() {
    let username = AsyncCurrentValueSubject<String, Never>("")
    let password = AsyncCurrentValueSubject<String, Never>("")
    self.username = username
    self.password = password
    let valid = combineLatest(username, password).map { name, password in name.count >= 3 && password.count >= 6 }
    logIn = Command(enabledIf: valid) { "token-" + username.value }
  }
}

private final class LoginView: Sendable {
  let lifetime = Lifetime()
  let usernameField = AsyncPassthroughSubject<String, Never>()
  let passwordField = AsyncPassthroughSubject<String, Never>()
  let loginButton = AsyncPassthroughSubject<Void, Never>()
  let loginButtonEnabled = AsyncCurrentValueSubject<Bool, Never>(true)

  func bind(to viewModel: LoginViewModel) {
    usernameField.bind(to: viewModel.username, in: lifetime)
    passwordField.bind(to: viewModel.password, in: lifetime)
    loginButton.bind(to: viewModel.logIn, in: lifetime)
    viewModel.logIn.isEnabled.bind(to: loginButtonEnabled, in: lifetime)
  }
}

// MARK: Lifecycle events (000: rac_signalForSelector(viewWillAppear:) forwarded to a command)

private actor OrdersViewModel {
  nonisolated let refreshCheck: Command<Void, Int, Never>

  init() {
    let checks = Counter()
    refreshCheck = Command { checks.increment() }
  }
}
