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

/// The orders screen's view model, driven by the view's lifecycle.
///
/// ```swift
/// let viewModel = LifecycleViewModel(service: OrdersService(api: api), clock: clock)
/// await viewModel.viewWillAppear()
/// ```
actor LifecycleViewModel {
  static let leaveTimeout = Duration.milliseconds(500)

  /// Reloads the orders if there are none or they went stale; says what it did.
  nonisolated let refreshCheck: Command<Void, String>
  /// Runs while the view is away; fires after ``leaveTimeout``.
  nonisolated let leaveTimer: Command<Void, Void>
  /// The orders the service holds.
  nonisolated let orders: Signal<[Order], Never>

  init(service: OrdersService, clock: ScenarioClock) {
    let cache = CurrentValueSubject<CacheState, Never>(.empty)
    orders = service.orders.values
    refreshCheck = Command {
      switch cache.value {
      case .fresh:
        return "refresh check: orders are fresh, no request"
      case .empty:
        let orders = try await service.orders.value()
        cache.value = .fresh
        return "refresh check: nothing held yet, loaded \(orders.count) orders"
      case .stale:
        let orders = try await service.orders.refresh()
        cache.value = .fresh
        return "refresh check: orders were stale, reloaded \(orders.count) orders"
      }
    }
    leaveTimer = Command(policy: .cancelPrevious) {
      try await clock.sleep(for: Self.leaveTimeout)
      cache.value = .stale
    }
  }

  func viewWillAppear() {
    leaveTimer.cancel()
    refreshCheck.trigger()
  }

  func viewDidDisappear() {
    leaveTimer.trigger()
  }
}

/// The orders screen's text view: forwards its lifecycle events, shows the orders and the timer.
final class LifecycleView: Sendable {
  let lifetime = Lifetime()
  /// `rac_signalForSelector(viewWillAppear:)`, `rac_signalForSelector(viewDidDisappear:)`.
  let viewWillAppear = PassthroughSubject<Void, Never>()
  let viewDidDisappear = PassthroughSubject<Void, Never>()
  let lastCheck = CurrentValueSubject<String, Never>("")
  let timerRunning = CurrentValueSubject<Bool, Never>(false)
  private let timeline: Timeline

  init(timeline: Timeline) {
    self.timeline = timeline
  }

  func bind(to viewModel: LifecycleViewModel) async {
    let (lastCheck, timerRunning, timeline) = (lastCheck, timerRunning, timeline)
    await viewModel.bind(viewWillAppear, in: lifetime) { viewModel, _ in viewModel.viewWillAppear() }
    await viewModel.bind(viewDidDisappear, in: lifetime) { viewModel, _ in viewModel.viewDidDisappear() }
    viewModel.orders.observe(in: lifetime) { orders in
      timeline.log(.view, order: 2, "order list shows \(orders.count) orders")
    }
    viewModel.refreshCheck.values.observe(in: lifetime) { result in
      timeline.log(.view, order: 3, result)
      lastCheck.send(result)
    }
    viewModel.leaveTimer.values.observe(in: lifetime) { _ in
      timeline.log(.view, order: 0, "leave timer fired: orders marked stale")
    }
    viewModel.leaveTimer.executing.observe(in: lifetime) { running in
      render(running, in: timerRunning, on: timeline, order: 1) { $0 ? "leave timer started" : "leave timer stopped" }
    }
  }
}

/// Plays screen 6: appear, disappear briefly (timer cancelled), disappear for longer (timer fires), appear.
func playLifecycleScreen(_ stage: Stage) async {
  let viewModel = LifecycleViewModel(service: OrdersService(api: stage.api), clock: stage.clock)
  let view = LifecycleView(timeline: stage.timeline)
  await view.bind(to: viewModel)
  stage.user("view appears")
  view.viewWillAppear.send()
  await waitUntil(view.lastCheck) { !$0.isEmpty }
  await stage.pause(200)
  stage.user("view disappears (switches tab)")
  view.viewDidDisappear.send()
  await stage.pause(200)
  stage.user("view appears again")
  view.viewWillAppear.send()
  await stage.pause(200)
  stage.user("view disappears, for longer this time")
  view.viewDidDisappear.send()
  await stage.pause(700)
  stage.user("view appears again")
  view.viewWillAppear.send()
  await waitUntil(view.lastCheck) { $0.contains("reloaded") }
  await stage.pause(100)
  stage.user("closes the screen")
  view.lifetime.cancel()
}
