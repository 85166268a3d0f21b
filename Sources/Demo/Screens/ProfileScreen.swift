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
  nonisolated let dataSubject = PassthroughSubject<User, any Error>()
  nonisolated let moneySubject = PassthroughSubject<Wallet, any Error>()
  nonisolated let orderListSubject = PassthroughSubject<[Order], any Error>()

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
    into subject: PassthroughSubject<Value, any Error>,
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
final class ProfileView: Sendable {
  let lifetime = Lifetime()
  let summary = CurrentValueSubject<String, Never>("")
  private let timeline: Timeline

  init(timeline: Timeline) {
    self.timeline = timeline
  }

  func bind(to viewModel: ProfileViewModel) {
    let summary = summary
    let timeline = timeline
    combineLatest(viewModel.dataSubject, viewModel.moneySubject, viewModel.orderListSubject)
      .observe(in: lifetime) { user, wallet, orders in
        render("\(user.name) · \(wallet.money) · \(orders.count) orders", in: summary, on: timeline) {
          "UI updated once, with all three: \($0)"
        }
      } onFailure: { error in
        timeline.log(.view, "error: \(error)")
      }
  }
}

/// Plays screen 1: the three requests answer in an order the seed decides; the UI updates once, after the last.
func playProfileScreen(_ stage: Stage) async {
  let viewModel = ProfileViewModel(service: AccountService(api: stage.api))
  let view = ProfileView(timeline: stage.timeline)
  view.bind(to: viewModel)
  stage.user("opens the account screen: profile, wallet and orders are requested at once")
  await viewModel.load()
  await waitUntil(view.summary) { !$0.isEmpty }
  await stage.pause(100)
  stage.user("closes the screen")
  view.lifetime.cancel()
}
