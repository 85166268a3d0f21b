import AsyncReactive
import AsyncReactiveTesting
import Testing

// The example of the DocC article "Testing view models", compiled and run: keep the two in step.

private protocol LoginAPI: Sendable {
  func logIn(email: String, password: String) async throws -> String
}

/// Inputs are subjects the view sends to, outputs are hot signals and properties the view observes.
private actor LoginViewModel {
  // Inputs
  nonisolated let email = AsyncCurrentValueSubject<String, Never>("")
  nonisolated let password = AsyncCurrentValueSubject<String, Never>("")
  nonisolated let loginTapped = AsyncPassthroughSubject<Void, Never>()
  // Outputs
  nonisolated let isLoginEnabled: Property<Bool>
  nonisolated let loggedIn: HotSignal<String, Never>
  nonisolated let errorMessage: HotSignal<String, Never>
  /// The business logic; kept by the view model (a binding holds a command weakly).
  nonisolated let logIn: Command<(String, String), String, any Error>
  private let lifetime = Lifetime()

  init(api: some LoginAPI) {
    isLoginEnabled = combineLatest(email, password).map { $0.contains("@") && $1.count >= 8 }.removeDuplicates()
    let logIn = Command<(String, String), String, any Error>(enabledIf: isLoginEnabled) { email, password in
      try await api.logIn(email: email, password: password)
    }
    self.logIn = logIn
    loginTapped.withLatestFrom(combineLatest(email, password)) { $1 }.bind(to: logIn, in: lifetime)
    loggedIn = logIn.values
    errorMessage = logIn.errors.map { "Login failed: \($0)" }
  }
}

/// A fake server that answers after one second of the test's clock.
private struct FakeLoginAPI: LoginAPI {
  let clock: TestClock

  func logIn(email: String, password: String) async throws -> String {
    try await clock.sleep(for: .seconds(1))
    guard password == "hunter22" else { throw LoginError.wrongPassword }
    return String(email.prefix { $0 != "@" })
  }
}

private enum LoginError: Error {
  case wrongPassword
}

@Suite("The \"Testing view models\" article")
struct TestingViewModelsArticleTests {
  @Test func logsInOnceTheServerAnswers() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let viewModel = LoginViewModel(api: FakeLoginAPI(clock: clock))
      let enabled = Recorder(viewModel.isLoginEnabled, clock: clock)
      let loggedIn = Recorder(viewModel.loggedIn, clock: clock)
      let errors = Recorder(viewModel.errorMessage, clock: clock)

      viewModel.email.send("tom@example.com")
      viewModel.password.send("hunter22")
      #expect(enabled.values.map(\.value) == [false, true])  // recorded inside the sends: no await needed

      viewModel.loginTapped.send()
      await clock.settle()
      #expect(loggedIn.values.isEmpty)  // the request is in flight: nothing yet, exactly

      await clock.advance(by: .seconds(1))
      #expect(loggedIn.values == [Timed("tom", at: .seconds(1))])
      await clock.settle()
      #expect(loggedIn.values.count == 1)
      #expect(errors.values.isEmpty)  // and nothing else happened
    }
  }

  @Test func showsTheErrorOfAWrongPassword() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let viewModel = LoginViewModel(api: FakeLoginAPI(clock: clock))
      let errors = Recorder(viewModel.errorMessage, clock: clock)
      viewModel.email.send("tom@example.com")
      viewModel.password.send("wrong-one")
      viewModel.loginTapped.send()
      await clock.run()  // every timer, and what each one wakes
      #expect(errors.values == [Timed("Login failed: wrongPassword", at: .seconds(1))])
    }
  }
}
