import AsyncReactive

// Screen 5: the login form. The button is enabled only while both fields are valid: `isEnabled` of a command
// created with `enabledIf:` a derived property, the `combineLatest` of the two validations, which the command
// reads at each tap.

/// The login form's view model.
///
/// ```swift
/// let viewModel = LoginViewModel(api: api)
/// viewModel.username.send("tom")
/// ```
actor LoginViewModel {
  nonisolated let username = CurrentValueSubject<String, Never>("")
  nonisolated let password = CurrentValueSubject<String, Never>("")
  /// Logs in; enabled only while both fields are valid, and (policy `.reject`) not while a login runs.
  nonisolated let logIn: Command<Void, String>

  init(api: FakeAPI) {
    let (username, password) = (username, password)
    // A derived property: its value is computed from the fields' current values whenever the command reads it,
    // so the button starts disabled, and a tap right after an edit is judged on that edit.
    let canLogIn = combineLatest(username.map(Self.isValidUsername), password.map(Self.isValidPassword))
      .map { $0 && $1 }
    logIn = Command(enabledIf: canLogIn) {
      try await api.logIn(username: username.value, password: password.value)
    }
  }

  @Sendable static func isValidUsername(_ name: String) -> Bool { name.count >= 3 }
  @Sendable static func isValidPassword(_ password: String) -> Bool { password.count >= 6 }
}

/// The login form's text view: two fields and a button.
final class LoginView: Sendable {
  let lifetime = Lifetime()
  let usernameField = PassthroughSubject<String, Never>()
  let passwordField = PassthroughSubject<String, Never>()
  let loginButton = PassthroughSubject<Void, Never>()
  /// `nil` until the first value arrives, so the initial state is printed too.
  let buttonEnabled = CurrentValueSubject<Bool?, Never>(nil)
  let signedIn = CurrentValueSubject<String, Never>("")
  private let timeline: Timeline

  init(timeline: Timeline) {
    self.timeline = timeline
  }

  func bind(to viewModel: LoginViewModel) {
    let (buttonEnabled, signedIn, timeline) = (buttonEnabled, signedIn, timeline)
    usernameField.bind(to: viewModel.username, in: lifetime)
    passwordField.bind(to: viewModel.password, in: lifetime)
    loginButton.bind(to: viewModel.logIn, in: lifetime)
    viewModel.logIn.values.observe(in: lifetime) { token in
      render(token, in: signedIn, on: timeline, order: 0) { "signed in: \($0)" }
    }
    viewModel.logIn.disabledErrors.observe(in: lifetime) { _ in
      timeline.log(.view, order: 1, "tap ignored: the button is disabled")
    }
    viewModel.logIn.isEnabled.observe(in: lifetime) { enabled in
      render(enabled, in: buttonEnabled, on: timeline, order: 2) { $0 == true ? "button enabled" : "button disabled" }
    }
  }
}

/// Plays screen 5: the button follows the fields' validity; a tap while disabled is refused.
func playLoginScreen(_ stage: Stage) async {
  let viewModel = LoginViewModel(api: stage.api)
  let view = LoginView(timeline: stage.timeline)
  view.bind(to: viewModel)
  stage.user("opens the login form (username ≥ 3 characters, password ≥ 6)")
  await stage.pause(100)
  stage.user("types username \"tom\"")
  view.usernameField.send("tom")
  await stage.pause(100)
  stage.user("types password \"1234\"")
  view.passwordField.send("1234")
  await stage.pause(100)
  stage.user("taps Log in")
  view.loginButton.send()
  await stage.pause(100)
  stage.user("types password \"secret1\"")
  view.passwordField.send("secret1")
  await waitUntil(view.buttonEnabled) { $0 == true }
  await stage.pause(100)
  stage.user("taps Log in")
  view.loginButton.send()
  await waitUntil(view.signedIn) { !$0.isEmpty }
  await waitUntil(view.buttonEnabled) { $0 == true }
  await stage.pause(100)
  stage.user("closes the screen")
  view.lifetime.cancel()
}
