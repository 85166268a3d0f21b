import AsyncReactive

// Screen 6 (source 000, rule 5): lifecycle events become signals that the view forwards to the view model.
// Appearing runs a refresh check; disappearing starts a leave timer; appearing again cancels it. When the
// timer fires, the held orders are marked stale and the next appearance reloads them.

/// What the refresh check finds.
enum CacheState: Sendable, Equatable {
  case empty
  case fresh
  case stale
}

/// The orders screen's view model, driven by the view's lifecycle. Its commands call its own methods: they are
/// declared in `init` with a ``WeakReference`` to the view model (`Command(owner:)`), which they never keep alive.
///
/// ```swift
/// let viewModel = LifecycleViewModel(service: OrdersService(api: api), clock: clock)
/// await viewModel.viewWillAppear()
/// ```
actor LifecycleViewModel {
  static let leaveTimeout = Duration.milliseconds(500)

  /// Reloads the orders if there are none or they went stale; says what it did.
  nonisolated let refreshCheck: Command<Void, String, any Error>
  /// Runs while the view is away; fires after ``leaveTimeout``.
  nonisolated let leaveTimer: Command<Void, Void, any Error>
  /// The orders the service holds: the resource's hot stream, replaying the held list.
  nonisolated let orders: HotSignal<[Order], Never>

  private let service: OrdersService
  private let clock: ScenarioClock
  private var cache = CacheState.empty

  init(service: OrdersService, clock: ScenarioClock) {
    self.service = service
    self.clock = clock
    orders = service.orders.values
    let this = WeakReference<LifecycleViewModel>()
    refreshCheck = Command(owner: this) { viewModel in try await viewModel.checkRefresh() }
    leaveTimer = Command(owner: this, policy: .cancelPrevious) { viewModel in try await viewModel.runLeaveTimer() }
    this.set(self)
  }

  func viewWillAppear() {
    leaveTimer.cancel()
    refreshCheck.trigger()
  }

  func viewDidDisappear() {
    leaveTimer.trigger()
  }

  private func checkRefresh() async throws -> String {
    switch cache {
    case .fresh:
      return "refresh check: orders are fresh, no request"
    case .empty:
      let orders = try await service.orders.value()
      cache = .fresh
      return "refresh check: nothing held yet, loaded \(orders.count) orders"
    case .stale:
      let orders = try await service.orders.refresh()
      cache = .fresh
      return "refresh check: orders were stale, reloaded \(orders.count) orders"
    }
  }

  private func runLeaveTimer() async throws {
    try await clock.sleep(for: Self.leaveTimeout)
    cache = .stale
  }
}

/// The orders screen's text view: forwards its lifecycle events, shows the orders and the timer.
@MainActor final class LifecycleView {
  let lifetime = Lifetime()
  /// `rac_signalForSelector(viewWillAppear:)`, `rac_signalForSelector(viewDidDisappear:)`.
  let viewWillAppear: LifecycleEvent
  let viewDidDisappear: LifecycleEvent
  let banner: Banner
  let leaveTimer: Spinner
  let orderList: TableView<Order>
  let lastCheck: Label
  private let screen: Screen

  init(on screen: Screen) {
    self.screen = screen
    viewWillAppear = LifecycleEvent(on: screen)
    viewDidDisappear = LifecycleEvent(on: screen)
    banner = Banner(on: screen, order: 0)
    leaveTimer = Spinner(on: screen, order: 1) { $0 ? "leave timer started" : "leave timer stopped" }
    orderList = TableView(on: screen, order: 2) { "order list shows \($0.count) orders" }
    lastCheck = Label(on: screen, order: 3)
  }

  func bind(to viewModel: LifecycleViewModel) {
    viewWillAppear.events.observe(in: lifetime) { _ in await viewModel.viewWillAppear() }
    viewDidDisappear.events.observe(in: lifetime) { _ in await viewModel.viewDidDisappear() }
    viewModel.orders.traced("orders", on: screen).bind(to: orderList, \.rows, in: lifetime)
    viewModel.refreshCheck.values.traced("refreshCheck.values", on: screen).bind(to: lastCheck, \.text, in: lifetime)
    viewModel.leaveTimer.values.traced("leaveTimer.values", on: screen).observe(in: lifetime) { [weak self] _ in
      self?.banner.show("leave timer fired: orders marked stale")
    }
    viewModel.leaveTimer.executing.traced("leaveTimer.executing", on: screen)
      .bind(to: leaveTimer, \.isAnimating, in: lifetime)
  }
}

/// Plays screen 6: appear, disappear briefly (timer cancelled), disappear for longer (timer fires), appear.
@MainActor func playLifecycleScreen(_ stage: Stage) async {
  let viewModel = LifecycleViewModel(service: OrdersService(api: stage.api), clock: stage.clock)
  let view = LifecycleView(on: stage.screen)
  view.bind(to: viewModel)
  stage.user("view appears")
  await view.viewWillAppear.happen()
  await stage.waitsUntil { view.orderList.reloads == 1 && !view.lastCheck.text.isEmpty }
  await stage.pause(200)
  stage.user("view disappears (switches tab)")
  await view.viewDidDisappear.happen()
  // The timer would fire at +500 ms, but the view appears again before: whenever its sleep starts, it is cancelled.
  await stage.sees { view.leaveTimer.isAnimating }
  await stage.pause(200)
  stage.user("view appears again")
  await view.viewWillAppear.happen()
  await stage.sees { !view.leaveTimer.isAnimating && view.lastCheck.text.hasSuffix("no request") }
  await stage.pause(200)
  stage.user("view disappears, for longer this time")
  await view.viewDidDisappear.happen()
  await stage.sees { view.leaveTimer.isAnimating }
  // The user is away until the timer fires, and comes back 200 ms later (700 ms after leaving).
  await stage.waitsUntil { !view.leaveTimer.isAnimating && view.banner.messages.count == 1 }
  await stage.pause(200)
  stage.user("view appears again")
  await view.viewWillAppear.happen()
  await stage.waitsUntil { view.orderList.reloads == 2 && view.lastCheck.text.contains("were stale") }
  await stage.pause(100)
  stage.showGraph("what the screen observes (view.lifetime)", view.lifetime.debugGraph())
  stage.user("closes the screen")
  await stage.close(view.lifetime)
}
