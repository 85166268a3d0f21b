import AsyncReactiveTesting

// The demo's fake UIKit: main-actor widgets that print on the timeline what a real screen would show, and
// controls whose events the user's script sends. A view only binds them to its view model.
//
// A control's events come from a `TestSubject`, whose `send` returns once the binding has handled the event:
// when the user's `tap()` or `type(_:)` returns, the view model has it, and time may move.

/// A text label; prints its text each time it changes.
///
/// ```swift
/// let money = Label(on: screen) { "money label: \($0)" }
/// viewModel.money.bind(to: money, \.text, in: lifetime)
/// ```
@MainActor final class Label {
  var text: String {
    didSet { if text != oldValue { screen.show(describe(text), order: order) } }
  }
  private let screen: Screen
  private let order: Int
  private let describe: (String) -> String

  /// A label showing `text` (not printed); `order` ranks it among the widgets of one instant; `describe` says
  /// how a change is printed.
  init(on screen: Screen, order: Int = 0, text: String = "", _ describe: @escaping (String) -> String = { $0 }) {
    self.screen = screen
    self.order = order
    self.text = text
    self.describe = describe
  }
}

/// An activity indicator; prints each time it starts or stops.
///
/// ```swift
/// let spinner = Spinner(on: screen) { $0 ? "loading…" : "done" }
/// viewModel.search.executing.bind(to: spinner, \.isAnimating, in: lifetime)
/// ```
@MainActor final class Spinner {
  var isAnimating = false {
    didSet { if isAnimating != oldValue { screen.show(describe(isAnimating), order: order) } }
  }
  private let screen: Screen
  private let order: Int
  private let describe: (Bool) -> String

  init(on screen: Screen, order: Int = 0, _ describe: @escaping (Bool) -> String) {
    self.screen = screen
    self.order = order
    self.describe = describe
  }
}

/// A button: the user taps it; prints each time it turns enabled or disabled (enabled at first, as UIKit's).
///
/// ```swift
/// loginButton.taps.bind(to: viewModel.logIn, enabling: loginButton, \.isEnabled, in: lifetime)
/// await loginButton.tap()
/// ```
@MainActor final class Button {
  /// The taps, for bindings.
  nonisolated let taps = TestSubject<Void, Never>()
  var isEnabled = true {
    didSet { if isEnabled != oldValue { screen.show(isEnabled ? "button enabled" : "button disabled", order: order) } }
  }
  private let screen: Screen
  private let order: Int

  init(on screen: Screen, order: Int = 0) {
    self.screen = screen
    self.order = order
  }

  /// The user taps the button; returns once the binding has handled the tap. A disabled button takes taps too
  /// (the command refuses them), so that the demo can show a refused tap.
  func tap() async {
    await taps.send((), timeout: screen.patience)
  }
}

/// A text field: the user types into it.
///
/// ```swift
/// usernameField.texts.bind(to: viewModel.username, in: lifetime)
/// await usernameField.type("tom")
/// ```
@MainActor final class TextField {
  /// The field's text after each edit, for bindings.
  nonisolated let texts = TestSubject<String, Never>()
  private let screen: Screen

  init(on screen: Screen) {
    self.screen = screen
  }

  /// The user edits the field to `text`; returns once the binding has handled the edit.
  func type(_ text: String) async {
    await texts.send(text, timeout: screen.patience)
  }
}

/// A table; prints each time it is reloaded, even with the same rows (`reloadData`).
///
/// ```swift
/// let orderList = TableView<Order>(on: screen) { "order list shows \($0.count) orders" }
/// viewModel.orders.bind(to: orderList, \.rows, in: lifetime)
/// ```
@MainActor final class TableView<Row> {
  var rows: [Row] = [] {
    didSet {
      reloads += 1
      screen.show(describe(rows), order: order)
    }
  }
  /// How many times the table was reloaded.
  private(set) var reloads = 0
  private let screen: Screen
  private let order: Int
  private let describe: ([Row]) -> String

  init(on screen: Screen, order: Int = 0, _ describe: @escaping ([Row]) -> String) {
    self.screen = screen
    self.order = order
    self.describe = describe
  }
}

/// A message banner; prints each message it shows, even the same one again.
///
/// ```swift
/// banner.show("tap ignored: the button is disabled")
/// await stage.sees { banner.messages.count == 1 }
/// ```
@MainActor final class Banner {
  private(set) var messages: [String] = []
  private let screen: Screen
  private let order: Int

  init(on screen: Screen, order: Int = 0) {
    self.screen = screen
    self.order = order
  }

  func show(_ message: String) {
    messages.append(message)
    screen.show(message, order: order)
  }
}

/// A lifecycle event of a view controller (`viewWillAppear`, `viewDidDisappear`); the script makes it happen.
///
/// ```swift
/// viewWillAppear.events.observe(in: lifetime) { _ in await viewModel.viewWillAppear() }
/// await viewWillAppear.happen()
/// ```
@MainActor final class LifecycleEvent {
  /// Each time the event happens, for bindings (`rac_signalForSelector:`).
  nonisolated let events = TestSubject<Void, Never>()
  private let screen: Screen

  init(on screen: Screen) {
    self.screen = screen
  }

  /// The event happens; returns once the binding has handled it.
  func happen() async {
    await events.send((), timeout: screen.patience)
  }
}
