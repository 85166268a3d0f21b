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

  nonisolated let orderListSubject = PassthroughSubject<[Order], any Error>()
  /// How many attempts the latest load made.
  nonisolated let attempts = CurrentValueSubject<Int, Never>(0)

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
final class OrderListView: Sendable {
  let lifetime = Lifetime()
  let status = CurrentValueSubject<String, Never>("")
  private let timeline: Timeline

  init(timeline: Timeline) {
    self.timeline = timeline
  }

  func bind(to viewModel: OrderListViewModel) {
    let status = status
    let timeline = timeline
    let attempts = viewModel.attempts
    viewModel.orderListSubject.observe(in: lifetime) { orders in
      render("\(orders.count) orders", in: status, on: timeline) { "shows \($0) (after \(attempts.value) attempts)" }
    } onFailure: { error in
      render("error", in: status, on: timeline) { _ in
        "shows the error: \(error) (after \(attempts.value) attempts)"
      }
    }
  }
}

/// Plays screen 3: two failures then success; then a pull to refresh against a backend that always fails.
func playOrderListScreen(_ stage: Stage) async {
  let viewModel = OrderListViewModel(service: OrdersService(api: stage.api))
  let view = OrderListView(timeline: stage.timeline)
  view.bind(to: viewModel)
  stage.api.failNext(2, of: .orders)
  stage.user("opens the order list (the backend will fail twice; retry(\(OrderListViewModel.retryTimes)))")
  await viewModel.load()
  await waitUntil(view.status) { !$0.isEmpty }
  await stage.pause(100)
  stage.api.failNext(.max, of: .orders)
  stage.user("pulls to refresh (the backend is down now)")
  await viewModel.reload()
  await waitUntil(view.status) { $0 == "error" }
  await stage.pause(100)
  stage.user("closes the screen")
  view.lifetime.cancel()
}
