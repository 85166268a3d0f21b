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
  nonisolated let username = AsyncCurrentValueSubject<String, Never>("")
  nonisolated let password = AsyncCurrentValueSubject<String, Never>("")
  /// Logs in; enabled only while both fields are valid, and (policy `.reject`) not while a login runs.
  nonisolated let logIn: Command<Void, String, any Error>

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
@MainActor final class LoginView {
  let lifetime = Lifetime()
  let usernameField: TextField
  let passwordField: TextField
  let loginButton: Button
  let signedIn: Label
  let banner: Banner
  private let screen: Screen

  init(on screen: Screen) {
    self.screen = screen
    usernameField = TextField(on: screen)
    passwordField = TextField(on: screen)
    signedIn = Label(on: screen, order: 0) { "signed in: \($0)" }
    banner = Banner(on: screen, order: 1)
    loginButton = Button(on: screen, order: 2)
  }

  func bind(to viewModel: LoginViewModel) {
    usernameField.texts.traced("usernameField", on: screen).bind(to: viewModel.username, in: lifetime)
    passwordField.texts.traced("passwordField", on: screen).bind(to: viewModel.password, in: lifetime)
    // rac_command: the taps trigger the command, its isEnabled drives the button.
    loginButton.taps.traced("loginButton", on: screen)
      .bind(to: viewModel.logIn, enabling: loginButton, \.isEnabled, in: lifetime)
    viewModel.logIn.values.traced("logIn.values", on: screen).bind(to: signedIn, \.text, in: lifetime)
    viewModel.logIn.disabledErrors.traced("logIn.disabledErrors", on: screen).observe(in: lifetime) {
      [weak self] _ in self?.banner.show("tap ignored: the button is disabled")
    }
  }
}

/// Plays screen 5: the button follows the fields' validity; a tap while disabled is refused.
@MainActor func playLoginScreen(_ stage: Stage) async {
  let viewModel = LoginViewModel(api: stage.api)
  let view = LoginView(on: stage.screen)
  view.bind(to: viewModel)
  stage.user("opens the login form (username ≥ 3 characters, password ≥ 6)")
  await stage.sees { !view.loginButton.isEnabled }
  await stage.pause(100)
  stage.user("types username \"tom\"")
  await view.usernameField.type("tom")
  await stage.pause(100)
  stage.user("types password \"1234\"")
  await view.passwordField.type("1234")
  await stage.pause(100)
  stage.user("taps Log in")
  await view.loginButton.tap()
  await stage.sees { view.banner.messages.count == 1 }
  await stage.pause(100)
  stage.user("types password \"secret1\"")
  await view.passwordField.type("secret1")
  await stage.sees { view.loginButton.isEnabled }
  await stage.pause(100)
  stage.user("taps Log in")
  await view.loginButton.tap()
  await stage.sees { !view.loginButton.isEnabled }
  await stage.waitsUntil { !view.signedIn.text.isEmpty }
  await stage.sees { view.loginButton.isEnabled }
  await stage.pause(100)
  stage.showGraph("what the screen observes (view.lifetime)", view.lifetime.debugGraph())
  stage.user("closes the screen")
  await stage.close(view.lifetime)
}
