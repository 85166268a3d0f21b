import AsyncReactive

// Screen 3 (source 004, scenario 3): retry on failure. `retry(3)` means up to 3 retries after the first
// attempt, so at most 4 attempts (RAC's counting; RxSwift's `retry(3)` would make 3 attempts in all).

/// The order list's view model: loads the list with up to `retryTimes` retries; the outcome goes to
/// `orderListSubject`, which fails with the last error when every attempt failed.
///
/// ```swift
/// let viewModel = OrderListViewModel(service: OrdersService(api: api))
/// await viewModel.load()
/// ```
actor OrderListViewModel {
  static let retryTimes = 3

  nonisolated let orderListSubject = AsyncPassthroughSubject<[Order], any Error>()
  /// How many attempts the latest load made.
  nonisolated let attempts = AsyncCurrentValueSubject<Int, Never>(0)

  private let service: OrdersService
  private let requests = Lifetime()

  init(service: OrdersService) {
    self.service = service
  }

  /// The "initial" operation: the held list, or a request.
  func load() {
    run { service in try await service.orders.value() }
  }

  /// Pull to refresh: asks the backend again.
  func reload() {
    run { service in try await service.orders.refresh() }
  }

  private func run(_ operation: @escaping @Sendable (OrdersService) async throws -> [Order]) {
    let service = service
    let attempts = attempts
    let subject = orderListSubject
    attempts.value = 0
    Signal<[Order], any Error>.future {
      attempts.value += 1
      return try await operation(service)
    }
    .retry(Self.retryTimes)
    .observe(in: requests) { orders in
      subject.send(orders)
    } onFailure: { error in
      subject.fail(error)
    }
  }
}

/// The order list's text view: the list, or the error.
@MainActor final class OrderListView {
  let lifetime = Lifetime()
  let status: Label
  private let screen: Screen

  init(on screen: Screen) {
    self.screen = screen
    status = Label(on: screen)
  }

  func bind(to viewModel: OrderListViewModel) {
    let attempts = viewModel.attempts
    viewModel.orderListSubject.traced("orderListSubject", on: screen)
      .map { "shows \($0.count) orders (after \(attempts.value) attempts)" }
      .catch { error in Signal.just("shows the error: \(error) (after \(attempts.value) attempts)") }
      .bind(to: status, \.text, in: lifetime)
  }
}

/// Plays screen 3: two failures then success; then a pull to refresh against a backend that always fails.
@MainActor func playOrderListScreen(_ stage: Stage) async {
  let viewModel = OrderListViewModel(service: OrdersService(api: stage.api))
  let view = OrderListView(on: stage.screen)
  view.bind(to: viewModel)
  stage.api.failNext(2, of: .orders)
  stage.user("opens the order list (the backend will fail twice; retry(\(OrderListViewModel.retryTimes)))")
  await viewModel.load()
  await stage.waitsUntil { !view.status.text.isEmpty }
  await stage.pause(100)
  stage.api.failNext(.max, of: .orders)
  stage.user("pulls to refresh (the backend is down now)")
  await viewModel.reload()
  await stage.waitsUntil { view.status.text.hasPrefix("shows the error") }
  await stage.pause(100)
  // The view's binding ended with the failure (`catch` → `just`, which finishes): its lifetime observes nothing
  // now, so the picture is the view model's subject.
  stage.showGraph("orderListSubject", viewModel.orderListSubject.debugGraph())
  stage.user("closes the screen")
  await stage.close(view.lifetime)
}
