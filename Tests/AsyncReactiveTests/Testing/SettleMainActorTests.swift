import AsyncReactive
import AsyncReactiveTesting
import Testing

/// A view model whose command's work waits a second on the test clock.
actor SlowSignupViewModel {
  nonisolated let username = AsyncCurrentValueSubject<String, Never>("")
  nonisolated let signUp: Command<Void, String, Never>

  init(clock: TestClock) {
    let username = username
    signUp = Command(enabledIf: username.map { $0.count >= 3 }) {
      try? await clock.sleep(for: .seconds(1))
      return "welcome \(username.value)"
    }
  }
}

/// A `@MainActor` view bound to it: a button bound to the command, a spinner observing `executing`, a label bound
/// to the command's values and one to the username.
@MainActor final class SlowSignupView {
  let lifetime = Lifetime()
  let button = FakeButton()
  let nameLabel = FakeLabel()
  let greeting = FakeLabel()
  private(set) var spinner: [Bool] = []

  func bind(to viewModel: SlowSignupViewModel) {
    button.taps.bind(to: viewModel.signUp, enabling: button, \.isEnabled, in: lifetime)
    viewModel.username.bind(to: nameLabel, \.text, in: lifetime)
    viewModel.signUp.executing.observe(in: lifetime) { [weak self] executing in self?.spinner.append(executing) }
    viewModel.signUp.values.bind(to: greeting, \.text, in: lifetime)
  }
}

@Suite("settle() covers the main actor: a @MainActor view is up to date when it returns")
@MainActor
struct SettleMainActorTests {
  @Test("values, enabled states and a command's executing reach the view by settle(), across advance(by:), 200 runs")
  func viewIsUpToDateAfterSettle() async {
    for _ in 0..<200 {
      let clock = TestClock()
      await clock.withVirtualTime {
        let viewModel = SlowSignupViewModel(clock: clock)
        let view = SlowSignupView()
        view.bind(to: viewModel)
        await clock.settle()
        #expect(view.button.changes.all == [false])
        #expect(view.nameLabel.changes.all == [""])
        #expect(view.spinner == [false])

        viewModel.username.value = "tom"
        await clock.settle()
        #expect(view.button.changes.all == [false, true])
        #expect(view.nameLabel.changes.all == ["", "tom"])

        view.button.tap()
        await clock.settle()
        #expect(view.spinner == [false, true])
        #expect(view.button.changes.all == [false, true, false])  // disabled while it runs
        #expect(view.greeting.changes.all == [])

        await clock.advance(by: .seconds(1))
        #expect(view.greeting.changes.all == ["welcome tom"])
        #expect(view.spinner == [false, true, false])
        #expect(view.button.changes.all == [false, true, false, true])
        view.lifetime.cancel()
      }
    }
  }
}
