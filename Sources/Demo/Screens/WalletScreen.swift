import AsyncReactive

// Screen 2 (source 004, scenario 2): dependent requests. The user first, then the wallet from the user, with
// flatMap; the wallet's money goes to `moneySubject`.

/// The wallet screen's view model: loads the user (from the app-wide ``UserService``), then that user's wallet.
///
/// ```swift
/// let viewModel = WalletViewModel(users: UserService(api: api), api: api)
/// await viewModel.load()
/// ```
actor WalletViewModel {
  nonisolated let moneySubject = AsyncPassthroughSubject<String, any Error>()

  private let users: UserService
  private let api: FakeAPI
  private let requests = Lifetime()

  init(users: UserService, api: FakeAPI) {
    self.users = users
    self.api = api
  }

  /// Requests the user, then, from it, the wallet.
  func load() {
    let users = users
    let api = api
    let money = moneySubject
    Signal<User, any Error>.future { try await users.user.value() }
      .flatMap { user in Signal<Wallet, any Error>.future { try await api.wallet(for: user) } }
      .observe(in: requests) { wallet in
        money.send(wallet.money)
      } onFailure: { error in
        money.fail(error)
      }
  }
}

/// The wallet screen's text view: one label showing the money.
@MainActor final class WalletView {
  let lifetime = Lifetime()
  let money: Label
  private let screen: Screen

  init(on screen: Screen) {
    self.screen = screen
    money = Label(on: screen)
  }

  func bind(to viewModel: WalletViewModel) {
    viewModel.moneySubject.traced("moneySubject", on: screen)
      .map { "money label: \($0)" }
      .catch { error in Signal.just("error: \(error)") }
      .bind(to: money, \.text, in: lifetime)
  }
}

/// Plays screen 2: `GET /user`, then `GET /wallet?user=Tom`, then the label.
@MainActor func playWalletScreen(_ stage: Stage) async {
  let viewModel = WalletViewModel(users: UserService(api: stage.api), api: stage.api)
  let view = WalletView(on: stage.screen)
  view.bind(to: viewModel)
  stage.user("opens the wallet screen: the user is requested, then the wallet from the user (flatMap)")
  await viewModel.load()
  await stage.waitsUntil { !view.money.text.isEmpty }
  await stage.pause(100)
  stage.showGraph("what the screen observes (view.lifetime)", view.lifetime.debugGraph())
  stage.user("closes the screen")
  await stage.close(view.lifetime)
}
