import AsyncReactive
import AsyncReactiveTesting
import Observation
import Synchronization
import Testing

// What the documentation's examples take as given: the services, models, widgets and sources they name without
// declaring them. Scripts/extract-doc-examples.py writes the examples into Generated/, one namespace
// (`<Article>Examples`) per article; a name every article uses the same way is declared here at module scope, a
// name one article uses its own way in an extension of that article's namespace (found first from its examples).
// Nothing here runs in the examples' functions; the tests in DocExampleTests.swift run some of them.

// MARK: - Models and the service

struct User: Sendable, Equatable {
  var id = 1
  var name = "Tom"
  var avatarURL = "https://example.com/tom.png"
}

struct Wallet: Sendable, Equatable {
  var money = 100
}

struct Order: Sendable, Equatable {
  var id = 1
}

struct Profile: Sendable, Equatable {
  var name = "Tom"
}

struct Session: Sendable, Equatable {
  var user = User()
}

struct AnalyticsEvent: Sendable, Equatable {
  var name = "tap"
}

struct Payment: Sendable, Equatable {
  var amount = 0
}

enum APIError: Error, Equatable {
  case server(Int)
}

enum OrdersError: Error {
  case network(any Error)
}

enum LoginError: Error {
  case wrongPassword
}

/// A request of a callback API, which the callback's caller may cancel.
struct Request: Sendable {
  func cancel() {}
}

/// The back end, as the examples call it: async functions, a callback API and cold signals.
struct FakeAPI: Sendable {
  var orders: Signal<[Order], any Error> { Signal.just([Order()]) }
  var balance: Signal<Int, any Error> { Signal.just(100) }

  func fetchUser() async throws -> User { User() }
  func user() async throws -> User { User() }
  func wallet(for user: User) async throws -> Wallet { Wallet() }
  func profile() async throws -> Profile { Profile() }
  func orders() async throws -> [Order] { [Order()] }
  func search(_ query: String) async throws -> [String] { [query] }
  func trending() async throws -> [String] { [] }
  func signUp() async throws {}
  @discardableResult func signUp(_ username: String, _ password: String) async throws -> String { username }
  func logIn() async throws(LoginError) -> Session { Session() }
  func logIn(_ username: String, _ password: String) async throws -> String { username }
  func upload(_ batch: [AnalyticsEvent]) async throws {}

  func requestUserWallet(_ completion: @escaping @Sendable (Result<Wallet, any Error>) -> Void) -> Request {
    completion(.success(Wallet()))
    return Request()
  }
}

let api = FakeAPI()

/// What an app keeps from earlier runs.
struct Cache: Sendable {
  var orders = [Order()]
  var profile = Profile()
}

let cache = Cache()
let cachedProfile = Profile()
let order = Order()

/// The service of the signup screen (StateAndConsistency).
struct SignupAPI: Sendable {
  func signUp(_ username: String, _ password: String) async throws -> String { username }
}

/// The service of the search screen (the landing page's view model).
struct SearchAPI: Sendable {
  var search: @Sendable (String) async throws -> [String] = { [$0] }
}

/// The service of the login screen (TestingViewModels).
protocol LoginAPI: Sendable {
  func logIn(email: String, password: String) async throws -> String
}

// MARK: - What views show

func show(_ value: Any) {}
func render(_ value: Any) {}
func render(_ name: String, _ avatar: String) {}
func hide(_ value: Any) {}
func hideSpinner() {}
func showError(_ error: any Error) {}
func showAlert(_ error: any Error) {}
func showAlert(_ messages: [String]) {}
func showOffline() {}
func showSlowNetworkHint() {}
func scheduleRender() {}
func log(_ line: String) {}

/// A thread-safe list (DebugOperator).
final class Log<Value: Sendable>: Sendable {
  private let values = Mutex<[Value]>([])

  func append(_ value: Value) { values.withLock { $0.append(value) } }

  var all: [Value] { values.withLock { $0 } }
}

// MARK: - UIKit- and SwiftUI-like widgets (Linux has neither)

@MainActor final class UILabel {
  var text: String?
}

@MainActor final class UIActivityIndicatorView {
  var isAnimating = false
}

@MainActor final class UIButton {
  var isEnabled = true

  func onTap(_ action: @escaping @MainActor () -> Void) {}
}

@MainActor final class UIView {
  var isHidden = false

  func hide() { isHidden = true }
}

@MainActor final class TableView {
  func show(_ rows: [String]) {}
}

@MainActor let label = UILabel()
@MainActor let spinner = UIActivityIndicatorView()
@MainActor let header = UIView()
@MainActor let banner = UIView()

@MainActor protocol View {}

@resultBuilder enum ViewBuilder {
  static func buildExpression(_ view: some View) -> any View { view }
  static func buildBlock(_ views: any View...) -> Group { Group() }
  static func buildOptional(_ view: (any View)?) -> any View { Group() }
}

struct Group: View {}

struct Form: View {
  init(@ViewBuilder content: () -> Group) {}
}

struct TextField: View {
  init(_ title: String, text: Binding<String>) {}
}

struct Button: View {
  init(_ title: String, action: @escaping () -> Void) {}

  func disabled(_ disabled: Bool) -> Button { self }
}

struct ProgressView: View {}

struct Binding<Value> {
  init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {}
}

// MARK: - Sources the examples read

/// A view model with what the operator guides and the migration guide read from one.
actor ScreenViewModel {
  nonisolated let searchText = AsyncCurrentValueSubject<String, Never>("")
  nonisolated let title = Property<String>(AsyncCurrentValueSubject("Search"))
  nonisolated let results = Property<[String]>(AsyncCurrentValueSubject([]))
  nonisolated let positions = AsyncPassthroughSubject<Double, Never>()
  nonisolated let search = Command<String, [String], Never> { query in [query] }
  nonisolated let refresh = Command<Void, Void, Never> {}
  nonisolated let submit = Command<Void, Void, Never> {}
}

let viewModel = ScreenViewModel()
let lifetime = Lifetime()
let testClock = TestClock()

/// The global view model of the migration guide's extension, with the state it keeps isolated.
actor SearchViewModel {
  var query = ""
  nonisolated let results = Property<[String]>(AsyncCurrentValueSubject([]))
}

/// A `@MainActor` view controller, the context of the migration guide's fragment of a view.
@MainActor final class ResultsViewController {
  let viewModel = SearchViewModel()
  let lifetime = Lifetime()
  let tableView = TableView()
}

/// Model methods the operator guides await.
struct ScreenModel: Sendable {
  func search(_ query: String) async {}
  func loadMoreIfNeeded(at offset: Double) async {}
}

let model = ScreenModel()

let orders = AsyncPassthroughSubject<[Order], Never>()
let searchText = AsyncPassthroughSubject<String, Never>()
let query = AsyncPassthroughSubject<String, Never>()
let queries = AsyncPassthroughSubject<String, Never>()
let username = AsyncCurrentValueSubject<String, Never>("")
let password = AsyncCurrentValueSubject<String, Never>("")
let valid = Property(AsyncCurrentValueSubject(true))
let reachability = AsyncCurrentValueSubject<Bool, Never>(true)
let analyticsEvents = AsyncPassthroughSubject<AnalyticsEvent, Never>()
let scrollOffset = AsyncPassthroughSubject<Double, Never>()
let scrollOffsets = AsyncPassthroughSubject<Double, Never>()
let positions = AsyncPassthroughSubject<Double, Never>()
let payments = AsyncPassthroughSubject<Payment, Never>()
let toasts = AsyncPassthroughSubject<String, Never>()
let searches = AsyncPassthroughSubject<[String], Never>()
let liveEvents = AsyncPassthroughSubject<AnalyticsEvent, Never>()
let savedEvents = [AnalyticsEvent()]
let session = AsyncPassthroughSubject<Session, Never>()
let price = AsyncPassthroughSubject<Int, Never>()
let quantity = 2
let moneySubject = AsyncCurrentValueSubject<Int, Never>(0)
let loadingHidden = AsyncCurrentValueSubject<Bool, Never>(true)

let taps = AsyncPassthroughSubject<Void, Never>()
let signupTaps = AsyncPassthroughSubject<Void, Never>()
let submitTaps = AsyncPassthroughSubject<Void, Never>()
let loginTaps = AsyncPassthroughSubject<Void, Never>()
let loginButtonTaps = AsyncPassthroughSubject<Void, Never>()
let retryTaps = AsyncPassthroughSubject<Void, Never>()
let pullToRefresh = AsyncPassthroughSubject<Void, Never>()
let viewWillAppear = AsyncPassthroughSubject<Void, Never>()
let viewWillDisappear = AsyncPassthroughSubject<Void, Never>()
let viewDidAppear = AsyncPassthroughSubject<Void, Never>()
let displayLink = AsyncPassthroughSubject<Void, Never>()

/// The search field of the migration guide: its texts as a hot sequence.
struct SearchField: Sendable {
  let texts = AsyncPassthroughSubject<String, Never>()
}

let searchField = SearchField()

/// A sensor whose readings may stop coming (TimeoutOperator).
struct Sensor: Sendable {
  var readings: Signal<Double, any Error> { Signal.just(20) }
}

let sensor = Sensor()
let pages = Signal<[String], APIError>.just(["page 1"])

struct SentRequest: Sendable {
  var id = 1
  var time = 0
}

struct ReceivedResponse: Sendable {
  var time = 1
}

let sentRequests = Signal<SentRequest, any Error>.just(SentRequest())
let receivedResponses = Signal<ReceivedResponse, any Error>.just(ReceivedResponse())

/// The words of a line, as the flatMap guide's inner sequence.
func words(in line: String) -> Signal<String, Never> {
  Signal(line.split(separator: " ").map(String.init))
}

// MARK: - Per article

extension APIContractsExamples {
  static let search = Command<String, [String], Never> { query in [query] }
  static let saving = Command<Void, Void, Never> {}
}

extension BuildingViewsExamples {
  /// The signup screen's view model that the views bind to.
  actor SignupViewModel {
    nonisolated let username = AsyncCurrentValueSubject<String, Never>("")
    nonisolated let greeting = Property<String>(AsyncCurrentValueSubject("Hello"))
    nonisolated let signUp: Command<Void, String, any Error>

    init(api: SignupAPI) {
      let username = username
      signUp = Command { try await api.signUp(username.value, "hunter22") }
    }
  }
}

extension BuildingViewsExamples.SignupViewController {
  func showAlert(_ error: any Error) {}
  func showAlert(_ messages: [String]) {}
}

extension BuildingViewsExamples.LifecycleViewModel {
  func checkRefresh() -> Bool { true }
  func appeared() {}
}

extension MVVMWithActorsExamples.SearchAPI {
  /// A service that finds the query itself.
  static let fake = Self { query in [query] }
}

extension StateAndConsistencyExamples {
  static let viewModel = SignupViewModel(api: SignupAPI())
  static let nameIsValid = Property(AsyncCurrentValueSubject(true))
  static let emailIsValid = Property(AsyncCurrentValueSubject(true))
  static let passwordIsValid = Property(AsyncCurrentValueSubject(true))
  static let isOnline = Property(AsyncCurrentValueSubject(true))

  struct Reachability: Sendable {
    let isOnline = AsyncPassthroughSubject<Bool, Never>()
  }

  static let reachability = Reachability()
}

extension WithLatestFromOperatorExamples {
  struct FormState: Sendable {
    var name = ""
  }

  actor FormViewModel {
    nonisolated let submit = Command<FormState, Void, Never> { (_: FormState) in }
  }

  static let formState = AsyncCurrentValueSubject<FormState, Never>(FormState())
  static let viewModel = FormViewModel()
}

extension RemoveDuplicatesOperatorExamples {
  static func search(_ text: String) {}
}

extension GettingStartedExamples {
  @MainActor static let refreshButton = UIButton()
  @MainActor static var session: Session?
  static func showWrongPassword() {}
}

extension MigratingFromReactiveCocoaAndRxSwiftExamples {
  /// Kickstarter's typed API error.
  struct ErrorEnvelope: Error {
    var errorMessages: [String] = []
  }

  /// A service whose calls fail with an `ErrorEnvelope`.
  struct Service: Sendable {
    func login(_ email: String, _ password: String) async throws(ErrorEnvelope) -> User { User() }
    func uploadProgress(of id: Int) -> Signal<Double, ErrorEnvelope> { Signal([0.5, 1.0]) }
  }

  static let service = Service()
  static let email = AsyncCurrentValueSubject<String, Never>("")
}
