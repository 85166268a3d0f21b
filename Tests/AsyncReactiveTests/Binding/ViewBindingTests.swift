import AsyncReactive
import Testing

// A fake `@MainActor` UIKit layer: what a view binding to a view model looks like in an app.

/// Records every value a property of a fake control took, and lets a test wait for the n-th.
@MainActor final class Changes<Value: Sendable> {
  private(set) var all: [Value] = []
  private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  func append(_ value: Value) {
    MainActor.assertIsolated("bindings must run on the caller's actor, here the main actor")
    all.append(value)
    let ready = waiters.filter { $0.count <= all.count }
    waiters.removeAll { $0.count <= all.count }
    for waiter in ready { waiter.continuation.resume() }
  }

  /// Returns once `count` values were recorded.
  func wait(count: Int) async -> [Value] {
    if all.count < count {
      await withCheckedContinuation { waiters.append((count, $0)) }
    }
    return all
  }
}

@MainActor final class FakeLabel {
  let changes = Changes<String?>()
  var text: String? {
    didSet { changes.append(text) }
  }
}

@MainActor final class FakeButton {
  let changes = Changes<Bool>()
  let taps = AsyncPassthroughSubject<Void, Never>()
  var isEnabled = true {
    didSet { changes.append(isEnabled) }
  }
  func tap() { taps.send() }
}

@MainActor final class SignupView {
  let lifetime = Lifetime()
  let nameLabel = FakeLabel()
  let signUpButton = FakeButton()
  let titles = Changes<String>()
  private let deinitialized: Gate

  init(deinitialized: Gate) {
    self.deinitialized = deinitialized
  }

  deinit { deinitialized.open() }

  /// Three one-line bindings, no `@Sendable` or `@MainActor` annotations; `[weak self]` because the view owns the
  /// lifetime that keeps the closure.
  func bind(to viewModel: SignupFormViewModel) -> [ObservationHandle] {
    [
      viewModel.title.observe(in: lifetime) { [weak self] title in self?.titles.append(title) },
      viewModel.username.bind(to: nameLabel, \.text, in: lifetime),
      signUpButton.taps.bind(to: viewModel.signUp, enabling: signUpButton, \.isEnabled, in: lifetime),
    ]
  }
}

actor SignupFormViewModel {
  nonisolated let username = AsyncCurrentValueSubject<String, Never>("")
  nonisolated let title: Property<String>
  nonisolated let signUp: Command<Void, String, Never>

  init() {
    let username = username
    title = username.map { $0.isEmpty ? "Sign up" : "Sign up as \($0)" }
    signUp = Command(enabledIf: username.map { $0.count >= 3 }) { "welcome \(username.value)" }
  }
}

@Suite("Binding views: weak targets on the caller's actor")
@MainActor
struct ViewBindingTests {
  @Test("observe(in:), bind(to:_:) and a button bound to a command deliver in order, on the main actor")
  func bindingsDeliverOnTheMainActor() async throws {
    let viewModel = SignupFormViewModel()
    let view = SignupView(deinitialized: Gate())
    _ = view.bind(to: viewModel)
    var values = viewModel.signUp.values.makeAsyncIterator()

    #expect(await view.titles.wait(count: 1) == ["Sign up"])
    #expect(await view.nameLabel.changes.wait(count: 1) == [""])
    #expect(await view.signUpButton.changes.wait(count: 1) == [false])  // disabled from the start

    viewModel.username.value = "tom"
    #expect(await view.titles.wait(count: 2) == ["Sign up", "Sign up as tom"])
    #expect(await view.nameLabel.changes.wait(count: 2) == ["", "tom"])
    #expect(await view.signUpButton.changes.wait(count: 2) == [false, true])

    view.signUpButton.tap()
    #expect(await values.next() == "welcome tom")
  }

  @Test("a view released while its view model lives: it deallocates, and every observing task ends")
  func viewDeallocates() async {
    let viewModel = SignupFormViewModel()
    let deinitialized = Gate()
    var view: SignupView? = SignupView(deinitialized: deinitialized)
    let tasks = view!.bind(to: viewModel)
    _ = await view!.titles.wait(count: 1)
    weak let weakView = view
    view = nil
    await deinitialized.wait()
    #expect(weakView == nil)
    for task in tasks { await task.value }  // ended by the view's lifetime, which died with it
    #expect(viewModel.username.consumerCount == 0)
    #expect(viewModel.title.consumerCount == 0)
    #expect(viewModel.signUp.isEnabled.consumerCount == 0)
  }

  @Test("a target that goes away while the lifetime lives on ends its binding at the next value")
  func targetGoneLifetimeAlive() async {
    let lifetime = Lifetime()
    let text = AsyncCurrentValueSubject<String, Never>("a")
    var label: FakeLabel? = FakeLabel()
    let binding = text.bind(to: label!, \.text, in: lifetime)
    _ = await label!.changes.wait(count: 1)
    weak let weakLabel = label
    label = nil
    #expect(weakLabel == nil)  // the binding held it weakly
    text.value = "b"
    await binding.value
    #expect(text.consumerCount == 0)
    #expect(!lifetime.hasEnded)
  }

  @Test("ending the lifetime ends the binding; the target is untouched afterwards")
  func lifetimeEnds() async {
    let lifetime = Lifetime()
    let text = AsyncCurrentValueSubject<String, Never>("a")
    let label = FakeLabel()
    let binding = text.bind(to: label, \.text, in: lifetime)
    _ = await label.changes.wait(count: 1)
    lifetime.cancel()
    await binding.value
    text.value = "b"
    #expect(label.text == "a")
    #expect(text.consumerCount == 0)
  }
}
