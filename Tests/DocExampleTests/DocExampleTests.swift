import AsyncReactive
import AsyncReactiveTesting
import Testing

// The examples in Generated/ are compiled as the articles show them; the articles' own `@Test` functions (MVVM with
// actors, Testing view models, Building views) run with the suite as they are. These tests run the examples that
// are complete programs and check what their articles say they do.

/// A `@MainActor` label that records each text it shows, and lets a test wait for the n-th.
@MainActor private final class RecordingLabel {
  private(set) var texts: [String] = []
  private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  var text: String? {
    didSet {
      MainActor.assertIsolated("observers run on the caller's actor, here the main actor")
      texts.append(text ?? "")
      let ready = waiters.filter { $0.count <= texts.count }
      waiters.removeAll { $0.count <= texts.count }
      for waiter in ready { waiter.continuation.resume() }
    }
  }

  /// Returns once `count` texts were shown.
  func wait(count: Int) async -> [String] {
    if texts.count < count {
      await withCheckedContinuation { waiters.append((count, $0)) }
    }
    return texts
  }
}

@Suite("The documentation's examples, run")
@MainActor
struct DocExampleTests {
  struct FakeSearchAPI: ReadmeExamples.SearchAPI {
    func search(_ text: String) async throws -> [String] { [text, text + "ui"] }
  }

  @Test("README, MVVM in 30 lines: typing searches after the debounce; the view shows loading, results, idle")
  func readmeSearchScreen() async throws {
    let clock = TestClock()
    let viewModel = ReadmeExamples.SearchViewModel(api: FakeSearchAPI(), clock: clock)
    var changes = viewModel.search.executing.makeAsyncIterator()
    var results = viewModel.results.subscribe().makeAsyncIterator()
    let lifetime = Lifetime()
    let label = RecordingLabel()
    // The README's sentence under the example, word for word:
    ReadmeExamples().showSearch(viewModel, in: lifetime) { [label] in label.text = $0 }
    #expect(await changes.next() == false)
    #expect(await results.next() == [])
    // Each observation delivers in its own order; across the two, the label's order may vary.
    #expect(await label.wait(count: 2).sorted() == ["idle", "results: "])

    viewModel.query.send("swift")  // what the text field's change handler does
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(300))
    #expect(await changes.next() == true)
    #expect(await changes.next() == false)
    #expect(await results.next() == ["swift", "swiftui"])
    #expect(viewModel.results.value == ["swift", "swiftui"])
    let shown = await label.wait(count: 5)
    #expect(shown.filter { $0 == "loading…" || $0 == "idle" }.suffix(2) == ["loading…", "idle"])
    #expect(shown.last { $0.hasPrefix("results") } == "results: swift, swiftui")
    lifetime.cancel()
  }

  @Test("Testing view models: a wrong password shows the server's error one second after the tap")
  func loginShowsTheErrorOfAWrongPassword() async {
    let clock = TestClock()
    await clock.withVirtualTime {
      let viewModel = TestingViewModelsExamples.LoginViewModel(
        api: TestingViewModelsExamples.FakeLoginAPI(clock: clock)
      )
      let errors = Recorder(viewModel.errorMessage, clock: clock)
      viewModel.email.send("tom@example.com")
      viewModel.password.send("wrong-one")
      viewModel.loginTapped.send()
      await clock.run()  // every timer, and what each one wakes
      #expect(errors.values == [Timed("Login failed: wrongPassword", at: .seconds(1))])
    }
  }

  @Test("Getting started: collect() gathers a signal's values (the example's own #expect)")
  func gettingStartedCollect() async throws {
    try await GettingStartedExamples.example6()
  }

  @Test("State and consistency: a derived property is valid on the line after the edit, and the command runs")
  func stateAndConsistencySignup() async throws {
    let viewModel = StateAndConsistencyExamples.viewModel
    let clock = TestClock()
    let signedUp = Recorder(viewModel.signUp.values, clock: clock)
    #expect(viewModel.isValid.value == false)
    try await StateAndConsistencyExamples.example2()
    #expect(viewModel.isValid.value == true)
    #expect(await signedUp.waitForValues(count: 1).map(\.value) == ["tom"])
  }
}
