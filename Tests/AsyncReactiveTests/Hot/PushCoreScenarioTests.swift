import AsyncReactive
import AsyncReactiveTesting
import Testing

/// The behaviour differences that ports of real RxSwift and ReactiveSwift view models ran into while operators ran
/// when a consumer pulled: each is now an exact-value test, repeated on fresh graphs with no waiting between sends.
@Suite("Push core: ported view-model scenarios")
struct PushCoreScenarioTests {
  @Test("GitHubSignup: a tap is paired with the password sent just before it (1,000 fresh graphs)")
  func signupPairsTapWithPasswordAtTheTap() async {
    for _ in 0..<1_000 {
      let username = AsyncPassthroughSubject<String, Never>()
      let password = AsyncPassthroughSubject<String, Never>()
      let taps = AsyncPassthroughSubject<Void, Never>()
      let signups = taps.withLatestFrom(combineLatest(username, password)) { $1 }
      let consumer = signups.subscribe()
      username.send("tom")
      password.send("secret1")
      password.send("secret2")
      taps.send()
      password.send("secret3")
      taps.finish()
      let values = await consumer.collect()
      #expect(values.map { "\($0.0)/\($0.1)" } == ["tom/secret2"])
    }
  }

  @Test("withLatestFrom(property): a tap is paired with the value at the tap, not a later edit (1,000 graphs)")
  func propertyPairingReadsTheValueAtTheTap() async {
    for _ in 0..<1_000 {
      let password = AsyncCurrentValueSubject<String, Never>("")
      let taps = AsyncPassthroughSubject<Void, Never>()
      let consumer = taps.withLatestFrom(password) { $1 }.subscribe()
      password.value = "secret"
      taps.send()
      password.value = "later"
      taps.finish()
      #expect(await consumer.collect() == ["secret"])
    }
  }

  @Test("RxSwift testWithLatestFrom_TwoObservablesWithImmediateValues, with do(onNext:) on the other side")
  func immediateValuesArePaired() async {
    for _ in 0..<1_000 {
      let xs = AsyncCurrentValueSubject<Int, Never>(3)
      let ys = AsyncCurrentValueSubject<Int, Never>(5)
      let seen = Counter()
      let result = xs.withLatestFrom(ys.handleEvents(onValue: { _ in seen.increment() })) { "\($0)\($1)" }
      let consumer = result.subscribe()
      xs.send(4)
      xs.finish()
      #expect(await consumer.collect() == ["35", "45"])
      #expect(seen.value == 1)
    }
  }

  @Test("Command.isEnabled iterated, then enabledIf changes: the value at subscription, then the change (1,000)")
  func commandIsEnabledStartsWithTheValueAtSubscription() async {
    for _ in 0..<1_000 {
      let enabled = AsyncCurrentValueSubject<Bool, Never>(false)
      let command = Command<Void, Void, Never>(enabledIf: enabled) {}
      var states = command.isEnabled.makeAsyncIterator()
      enabled.value = true
      #expect(await states.next() == false)
      #expect(await states.next() == true)
    }
  }

  @Test("Kickstarter: values and errors derived from one flatMapLatest send one request per tap (200 graphs)")
  func derivedOutputsShareOneRequest() async {
    struct APIError: Error, Equatable {}
    for round in 0..<200 {
      let submits = AsyncPassthroughSubject<Void, Never>()
      let requests = Counter()
      let fails = round.isMultiple(of: 2)
      let event = submits.flatMapLatest { _ -> Signal<Int, APIError> in
        Signal.future { () throws(APIError) -> Int in
          requests.increment()
          if fails { throw APIError() }
          return 42
        }
      }.materialize()
      let values = event.compactMap { if case .value(let value) = $0 { value } else { nil } }.subscribe()
      let errors = event.compactMap { if case .failed(let error) = $0 { error } else { nil } }.subscribe()
      submits.send()
      if fails {
        var iterator = errors.makeAsyncIterator()
        #expect(await iterator.next() == APIError())
      } else {
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == 42)
      }
      #expect(requests.value == 1)
    }
  }

  @Test("A Property.flatMapLatest ends once the outer and the current inner sources are released")
  func flatMapLatestOverPropertiesFinishesWhenReleased() async {
    for _ in 0..<1_000 {
      var outer: AsyncCurrentValueSubject<Int, Never>? = AsyncCurrentValueSubject(0)
      var inner: AsyncCurrentValueSubject<String, Never>? = AsyncCurrentValueSubject("a")
      var followed: Property<String>? = Property(outer!).flatMapLatest { [property = Property(inner!)] _ in property }
      let consumer = followed!.subscribe()
      inner!.send("b")
      // ReactiveSwift's PropertySpec: everything that could change the state is released.
      (outer, inner, followed) = (nil, nil, nil)
      _ = (outer, inner, followed)
      #expect(await consumer.collect() == ["a", "b"])
    }
  }

  @Test("A command's values and errors are hot: recorded inside the command's publication, one order for both")
  func commandStreamsAreHot() async throws {
    struct Refused: Error {}
    let command = Command<Int, Int, any Error> { input in
      if input < 0 { throw Refused() }
      return input * 2
    }
    let clock = TestClock()
    let values = Recorder(command.values, clock: clock)
    let errors = Recorder(command.errors.map { _ in "refused" }, clock: clock)
    #expect(type(of: command.values) == HotSignal<Int, Never>.self)
    _ = try await command.execute(1)
    #expect(values.values.map(\.value) == [2])  // published before execute returned: no await on the recorder
    _ = try? await command.execute(-1)
    #expect(errors.values.map(\.value) == ["refused"])
    #expect(values.values.count == 1)  // exact: nothing else was emitted
  }
}

@Suite("Push core: bindings end with their lifetime")
struct BindingTeardownTests {
  @Test("ReactiveSwift bindingFromSignal_tearsDownWhenDisposed: nothing is written after cancel() (1,000 rounds)")
  func bindingWritesNothingAfterCancel() async {
    for _ in 0..<1_000 {
      let source = AsyncPassthroughSubject<Int, Never>()
      let target = AsyncCurrentValueSubject<Int, Never>(0)
      let lifetime = Lifetime()
      let binding = source.bind(to: target, in: lifetime)
      lifetime.cancel()
      source.send(1)  // the binding's task may not have started yet: it must not write this
      await binding.value
      #expect(target.value == 0)
    }
  }
}
