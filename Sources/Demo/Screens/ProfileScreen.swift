import AsyncReactive

// Screen 1 (source 004, scenario 1): several requests, one completion. The view model exposes one subject per
// request; the view combines them and updates once, when all three have answered.

/// The account screen's view model: feeds `dataSubject`, `moneySubject` and `orderListSubject` from three
/// requests started at once. It never references a view.
///
/// ```swift
/// let viewModel = ProfileViewModel(service: AccountService(api: api))
/// await viewModel.load()
/// ```
actor ProfileViewModel {
  nonisolated let dataSubject = AsyncPassthroughSubject<User, any Error>()
  nonisolated let moneySubject = AsyncPassthroughSubject<Wallet, any Error>()
  nonisolated let orderListSubject = AsyncPassthroughSubject<[Order], any Error>()

  private let service: AccountService
  /// The requests belong to the view model: releasing it cancels them.
  private let requests = Lifetime()

  init(service: AccountService) {
    self.service = service
  }

  /// Starts the three requests concurrently; each answer goes to its subject.
  func load() {
    Self.request(service.profile, into: dataSubject, in: requests)
    Self.request(service.wallet, into: moneySubject, in: requests)
    Self.request(service.orders, into: orderListSubject, in: requests)
  }

  private static func request<Value>(
    _ resource: Resource<Value>,
    into subject: AsyncPassthroughSubject<Value, any Error>,
    in lifetime: Lifetime
  ) {
    lifetime.run { @Sendable in
      do {
        subject.send(try await resource.value())
      } catch {
        subject.fail(error)
      }
    }
  }
}

/// The account screen's text view: one label, updated from `combineLatest` of the three subjects.
@MainActor final class ProfileView {
  let lifetime = Lifetime()
  let summary: Label
  private let screen: Screen

  init(on screen: Screen) {
    self.screen = screen
    summary = Label(on: screen)
  }

  func bind(to viewModel: ProfileViewModel) {
    // Traced after `combineLatest`: what the label shows. (An input's value that combineLatest only holds shows
    // nothing, so nothing tells virtual time to wait for its line.)
    combineLatest(viewModel.dataSubject, viewModel.moneySubject, viewModel.orderListSubject)
      .traced("combineLatest", on: screen)
      .map { user, wallet, orders in
        "UI updated once, with all three: \(user.name) · \(wallet.money) · \(orders.count) orders"
      }
      .catch { error in Signal.just("error: \(error)") }
      .bind(to: summary, \.text, in: lifetime)
  }
}

/// Plays screen 1: the three requests answer in an order the seed decides; the UI updates once, after the last.
@MainActor func playProfileScreen(_ stage: Stage) async {
  let viewModel = ProfileViewModel(service: AccountService(api: stage.api))
  let view = ProfileView(on: stage.screen)
  view.bind(to: viewModel)
  stage.user("opens the account screen: profile, wallet and orders are requested at once")
  await viewModel.load()
  // One action, three timers: time moves only once all three requests are sent.
  await stage.api.waitForRequests("GET /profile", "GET /wallet?user=Tom", "GET /orders")
  await stage.waitsUntil { !view.summary.text.isEmpty }
  await stage.pause(100)
  stage.showGraph("what the screen observes (view.lifetime)", view.lifetime.debugGraph())
  stage.user("closes the screen")
  await stage.close(view.lifetime)
}
