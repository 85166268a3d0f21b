import AsyncReactive
import Testing

/// RxExample's GitHubSignup and the seed's login screen, ported 1:1 from RxSwift: the three places where a
/// "latest value" read used to be stale. Each runs 1,000 rounds and must read the latest value every time.
@Suite("Ported signup: no stale reads")
struct StaleReadScenarioTests {
  @Test("signupTaps.withLatestFrom(combineLatest(username, password)) { $1 }: a tap right after an edit uses it")
  func tapAfterEditUsesTheEdit() async {
    let username = AsyncCurrentValueSubject<String, Never>("tom")
    let password = AsyncCurrentValueSubject<String, Never>("")
    let taps = AsyncPassthroughSubject<Void, Never>()
    var signups = taps.withLatestFrom(combineLatest(username, password)) { $1 }.makeAsyncIterator()
    var stale = 0
    for round in 0..<1_000 {
      password.send("secret-\(round)")
      taps.send()
      let credentials = await signups.next()
      if credentials?.1 != "secret-\(round)" || credentials?.0 != "tom" { stale += 1 }
    }
    #expect(stale == 0)
  }

  @Test("two current-value subjects: the base's first value is paired, never dropped (RxSwift gives \"35\")")
  func immediateValuesArePaired() async {
    var results: [String] = []
    for _ in 0..<1_000 {
      let base = AsyncCurrentValueSubject<Int, Never>(3)
      let other = AsyncCurrentValueSubject<Int, Never>(5)
      var pairs = base.withLatestFrom(other) { "\($0)\($1)" }.makeAsyncIterator()
      results.append(await pairs.next() ?? "dropped")
    }
    #expect(results == Array(repeating: "35", count: 1_000))
  }

  @Test("Command(enabledIf: combineLatest(u, p).map(valid)): a tap right after an edit follows that edit")
  func enabledIfFollowsTheLatestEdit() async {
    let username = AsyncCurrentValueSubject<String, Never>("tom")
    let password = AsyncCurrentValueSubject<String, Never>("")
    let valid = combineLatest(username, password).map { $0.count >= 3 && $1.count >= 8 }
    let runs = Counter()
    let signUp = Command(enabledIf: valid) { runs.increment() }
    var wrong = 0
    for round in 0..<1_000 {
      password.send("long-enough-\(round)")
      if !signUp.isEnabled.value { wrong += 1 }
      if await Outcome(catching: { try await signUp.execute() }) != .value(round + 1) { wrong += 1 }
      password.send("abc")
      if signUp.isEnabled.value { wrong += 1 }
      if await Outcome(catching: { try await signUp.execute() }) != .disabled { wrong += 1 }
      // The refused call must not run the work.
      if runs.value != round + 1 { wrong += 1 }
    }
    #expect(wrong == 0)
  }

  @Test("a command starts in enabledIf's state: isEnabled's first value is false and a tap does not run")
  func noEnabledFlashOnLoad() async {
    var flashes = 0
    for _ in 0..<1_000 {
      let username = AsyncCurrentValueSubject<String, Never>("")
      let password = AsyncCurrentValueSubject<String, Never>("")
      let runs = Counter()
      let logIn = Command(enabledIf: combineLatest(username, password).map { !$0.isEmpty && !$1.isEmpty }) {
        runs.increment()
      }
      var isEnabled = logIn.isEnabled.makeAsyncIterator()
      if await isEnabled.next() != false { flashes += 1 }
      logIn.trigger()
      if runs.value != 0 { flashes += 1 }
    }
    #expect(flashes == 0)
    let never = Command(enabledIf: Property(value: false)) { (value: Int) in value }
    #expect(await Outcome(catching: { try await never.execute(1) }) == .disabled)
  }

  @Test("withLatestFrom picks the synchronous form for every property argument and failure type (compile-time)")
  func overloads() {
    typealias Form = Property<(String, String)>
    let text = AsyncCurrentValueSubject<String, Never>("")
    let taps = AsyncPassthroughSubject<Void, Never>()
    let failing = Signal<Int, TestError>.just(1)
    let form = combineLatest(text, text)
    let _: Signal<(String, String), Never> = taps.withLatestFrom(form) { $1 }
    let _: Signal<(Void, (String, String)), Never> = taps.withLatestFrom(form)
    let _: Signal<String, Never> = text.withLatestFrom(text) { $0 + $1 }
    let typed: Signal<Int, TestError> = failing.withLatestFrom(form) { n, _ in n }
    let _: Signal<(Int, String), TestError> = failing.withLatestFrom(text)
    // The base's failure type is kept.
    let _: TestError.Type = type(of: typed).Failure.self
  }
}
