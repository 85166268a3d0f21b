import AsyncReactive
import AsyncReactiveTesting
import Testing

// Issue 12, point 5: a helper that hides its type, `var loading: some AsyncSequence<Bool, Never> & Sendable`,
// must go into every entry point as it is. The opaque type promises nothing about its iterator, so an entry point
// that asked for `AsyncIterator: SendableMetatype` rejected it ("type '(some Sendable & AsyncSequence<Bool,
// Never>).AsyncIterator' does not conform to the 'SendableMetatype' protocol"). Each test below fails to compile
// if that constraint comes back on the entry point it calls, and checks the values as well.

/// What a user's helper returns: the sequence behind an opaque type (a subject behind one is still subscribed when
/// the consumer's iterator is made).
private func opaque<Base: AsyncSequence & Sendable>(_ base: Base) -> some AsyncSequence<Base.Element, Base.Failure>
  & Sendable
{
  base
}

/// A re-iterable sequence behind an opaque type, for `retry`.
private func opaqueReiterable<Element: Sendable, Failure: Error>(
  _ signal: Signal<Element, Failure>
) -> some ReiterableAsyncSequence<Element, Failure> & Sendable {
  signal
}

/// Compiles only when `flatMap` resolved to AsyncReactive's merge and not to the standard library's sequential
/// `flatMap`.
private func isMerge<Element, Failure>(_: Signal<Element, Failure>) -> Bool { true }

/// Compiles only when `map` resolved to the library's map (on a ``ReactiveSequence``), which returns a `Signal`.
private func isReactiveMap<Element, Failure>(_: Signal<Element, Failure>) -> Bool { true }

/// A helper that keeps the library's fast `map` by saying its sequence is a ``ReactiveSequence``.
private func opaqueReactive<Element: Sendable>(
  _ subject: AsyncPassthroughSubject<Element, Never>
) -> some ReactiveSequence<Element, Never> & Sendable {
  subject
}

/// A helper that keeps the library's merging `flatMap { }` by saying its sequence is a ``ReactiveSequence``.
private func opaqueReactiveSignal<Element: Sendable>(
  _ signal: Signal<Element, Never>
) -> some ReactiveSequence<Element, Never> & Sendable {
  signal
}

private actor Screen {
  var shown: [String] = []
  func record(_ value: String) { shown.append(value) }

  /// Records each text; the closure runs isolated to this actor.
  func follow(_ texts: some AsyncSequence<String, Never> & Sendable, in lifetime: Lifetime) -> ObservationHandle {
    texts.observe(in: lifetime) { self.record($0) }
  }
}

@Suite("Opaque sequences")
struct OpaqueSequenceTests {
  @Test("observe and the failing observe take an opaque sequence")
  func observe() async {
    let lifetime = Lifetime()
    let seen = Log<Int>()
    await opaque(Signal<Int, Never>([1, 2, 3])).observe(in: lifetime) { seen.append($0) }.value
    let failure = Log<TestError>()
    await opaque(
      Signal<Int, TestError> { emitter throws(TestError) in
        emitter.send(4)
        throw TestError(code: 7)
      }
    )
    .observe(in: lifetime, onValue: { seen.append($0) }, onFailure: { failure.append($0) }).value
    #expect(seen.all == [1, 2, 3, 4])
    #expect(failure.all == [TestError(code: 7)])
  }

  @Test("bind to a subject, to a command and an actor's observe take an opaque sequence")
  func bind() async {
    let lifetime = Lifetime()
    let target = AsyncCurrentValueSubject<Int, Never>(0)
    await opaque(Signal<Int, Never>([1, 2])).bind(to: target, in: lifetime).value
    #expect(target.value == 2)

    let runs = Log<Int>()
    let command = Command<Int, Void, Never>(policy: .enqueue) { runs.append($0) }
    await opaque(Signal<Int, Never>([5])).bind(to: command, in: lifetime).value
    try? await command.execute(0)  // enqueued after the bound runs: when it returns, they have run
    #expect(runs.all == [5, 0])

    let screen = Screen()
    await screen.follow(opaque(Signal<String, Never>(["a", "b"])), in: lifetime).value
    #expect(await screen.shown == ["a", "b"])
  }

  @Test("observe(in:) on the main actor, bind(to:_:in:) and the button binding take an opaque sequence")
  @MainActor func viewBindings() async throws {
    let lifetime = Lifetime()
    let label = FakeLabel()
    let titles = Changes<String>()
    await opaque(Signal<String, Never>(["a", "b"])).observe(in: lifetime) { titles.append($0) }.value
    #expect(titles.all == ["a", "b"])
    await opaque(Signal<String, Never>(["c"])).bind(to: label, \.text, in: lifetime).value
    #expect(label.text == "c")

    let button = FakeButton()
    let command = Command<Void, String, Never> { "ran" }
    var values = command.values.makeAsyncIterator()
    let binding = opaque(button.taps).bind(to: command, enabling: button, \.isEnabled, in: lifetime)
    button.tap()
    #expect(await values.next() == "ran")
    lifetime.cancel()
    await binding.value
  }

  @Test("the AsyncStream bridge takes an opaque sequence")
  func asAsyncStream() async throws {
    var values: [Int] = []
    for await value in opaque(Signal<Int, Never>([1, 2])).asAsyncStream() { values.append(value) }
    for try await value in opaque(Signal<Int, any Error>([3])).asAsyncThrowingStream() { values.append(value) }
    #expect(values == [1, 2, 3])
  }

  @Test("the array forms of combineLatest, zip and merge take opaque sequences")
  func naryArrays() async {
    let a = opaque(Signal<Int, Never>([1]))
    let b = opaque(Signal<Int, Never>([2]))
    #expect(await combineLatest([a, b]).collect() == [[1, 2]])
    #expect(await zip([a, b]).collect() == [[1, 2]])
    #expect(await merge([a]).collect() == [1])
  }

  @Test("an opaque subject is still subscribed when the consumer's iterator is made")
  func subscribesAtMakeIterator() async {
    let left = AsyncPassthroughSubject<Int, Never>()
    let right = AsyncPassthroughSubject<Int, Never>()
    var iterator = combineLatest([opaque(left), opaque(right)]).makeAsyncIterator()
    left.send(1)  // sent before the first `next()`: must not be lost
    right.send(2)
    #expect(await iterator.next() == [1, 2])
    left.finish()
    right.finish()
    #expect(await iterator.next() == nil)
  }

  @Test("flatMap(.merge), flatMap(maxConcurrent:), flatMapLatest and concatMap take opaque outers and inners")
  func flatMap() async throws {
    let outer = opaque(Signal<Int, Never>([1, 2]))
    // An opaque `some AsyncSequence` is a sequence from outside the library: `.flatMap { }` is the standard
    // library's sequential one there, and `flatMap(.merge)` merges.
    let merged = outer.flatMap(.merge) { value in opaque(Signal<Int, Never>([value * 10])) }
    #expect(isMerge(merged))
    #expect(await merged.collect().sorted() == [10, 20])
    let sequential: AsyncFlatMapSequence<_, _> = outer.flatMap { value in opaque(Signal<Int, Never>([value * 10])) }
    var values: [Int] = []
    for await value in sequential { values.append(value) }
    #expect(values == [10, 20])
    // A helper that says its sequence is a `ReactiveSequence` keeps `.flatMap { }` the merge.
    let reactive = opaqueReactiveSignal(Signal<Int, Never>([1, 2]))
    let reactiveMerged = reactive.flatMap { value in opaque(Signal<Int, Never>([value * 10])) }
    #expect(isMerge(reactiveMerged))
    #expect(await reactiveMerged.collect().sorted() == [10, 20])
    #expect(await outer.flatMap(maxConcurrent: 1) { opaque(Signal<Int, Never>([$0])) }.collect() == [1, 2])
    #expect(await outer.concatMap { opaque(Signal<Int, Never>([$0, $0])) }.collect() == [1, 1, 2, 2])
    #expect(await outer.flatMapLatest { opaque(Signal<Int, Never>([$0])) }.collect().last == 2)

    let failing = opaque(Signal<Int, TestError>([3]))
    let typed = failing.flatMap { value in opaque(Signal<Int, TestError>([value])) }
    #expect(try await typed.collect() == [3])
    let mixed = outer.flatMap { value throws in opaque(Signal<Int, TestError>([value])) }
    #expect(try await mixed.collect().sorted() == [1, 2])
  }

  @Test("withLatestFrom takes an opaque sequence on either side, and an opaque base with a property")
  func withLatestFrom() async {
    // Over a sequence, `other` is followed by a task: once it asks `latest` for its 2nd element, it holds the 1st.
    let values = AsyncPassthroughSubject<Int, Never>()
    let latest = AsyncPassthroughSubject<String, Never>()
    let (forClosure, forPairs) = (Paced(latest), Paced(latest))
    let combined = Recorder(opaque(values).withLatestFrom(opaque(forClosure)) { "\($0)\($1)" }, clock: TestClock())
    let paired = Recorder(opaque(values).withLatestFrom(opaque(forPairs)).map { "\($0)\($1)" }, clock: TestClock())
    latest.send("a")
    await forClosure.pulled(2)
    await forPairs.pulled(2)
    values.send(1)
    values.finish()
    #expect(await combined.waitForEnd()?.value == .finished)
    #expect(await paired.waitForEnd()?.value == .finished)
    #expect(combined.values.map(\.value) == ["1a"])
    #expect(paired.values.map(\.value) == ["1a"])

    // Over a property, its value is read when the element is processed, in the consumer's `next()`.
    let state = AsyncCurrentValueSubject<String, Never>("s")
    let taps = AsyncPassthroughSubject<Int, Never>()
    var reads = opaque(taps).withLatestFrom(state.property) { "\($0)\($1)" }.makeAsyncIterator()
    taps.send(2)
    #expect(await reads.next() == "2s")
    state.value = "t"
    taps.send(3)
    #expect(await reads.next() == "3t")
  }

  @Test("share takes an opaque sequence")
  func share() async {
    let shared = opaque(Signal<Int, Never>([1, 2])).share(replay: 2)
    #expect(await shared.collect() == [1, 2])
  }

  @Test("Property(initial:then:) and Command(enabledIf:) over it take an opaque sequence")
  func propertyAndCommand() async throws {
    let source = AsyncPassthroughSubject<Bool, Never>()
    let enabled = Property(initial: false, then: opaque(source))
    let command = Command(enabledIf: enabled) { "ran" }
    #expect(enabled.value == false)
    await #expect(throws: CommandError<Never>.disabled) { try await command.execute() }
    var changes = enabled.makeAsyncIterator()
    #expect(await changes.next() == false)
    source.send(true)
    #expect(await changes.next() == true)
    #expect(try await command.execute() == "ran")
  }

  @Test("Signal(_:), Signal.deferred and retry take opaque sequences")
  func signals() async {
    #expect(await Signal(opaque(Signal<Int, Never>([1]))).collect() == [1])
    #expect(await Signal.deferred { opaque(Signal<Int, Never>([2])) }.collect() == [2])
    let attempts = Counter()
    let flaky = opaqueReiterable(
      Signal<Int, TestError> { emitter throws(TestError) in
        if attempts.increment() < 3 { throw TestError() }
        emitter.send(3)
      })
    let result = await flaky.retry(2).collectResult()
    #expect(result.values == [3])
    #expect(result.failure == nil)
  }

  @Test("some ReactiveSequence<T, F> keeps the library's map, and works with every operator too")
  func reactiveSequenceSpelling() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let doubled = opaqueReactive(subject).map { $0 * 2 }
    #expect(isReactiveMap(doubled))
    var iterator = combineLatest([doubled, opaqueReactive(subject).map { $0 * 3 }]).makeAsyncIterator()
    subject.send(1)
    #expect(await iterator.next() == [2, 3])
    subject.finish()
    #expect(await iterator.next() == nil)
  }

  @Test("the stateless operators take an opaque sequence")
  func statelessOperators() async {
    let numbers = opaque(Signal<Int, Never>([1, 1, 2]))
    #expect(await numbers.removeDuplicates().collect() == [1, 2])
    #expect(await numbers.scan(0, +).collect() == [1, 2, 4])
    #expect(await numbers.prepend(0).collect() == [0, 1, 1, 2])
    #expect(await numbers.map { $0 * 2 }.collect() == [2, 2, 4])
    #expect(await numbers.materialize().collect().count == 4)
    #expect(await opaque(Signal<Bool, Never>([true])).not().collect() == [false])
    let failing = opaque(Signal<Int, TestError>.fail(TestError()))
    #expect(await failing.replaceError(with: 9).collect() == [9])
    #expect(await failing.catch { _ in opaque(Signal<Int, Never>([8])) }.collect() == [8])
    let mapped = await failing.mapError { _ in TestError(code: 2) }.collectResult()
    #expect(mapped.failure == TestError(code: 2))
  }

  @Test("combineLatest, zip and merge of 2 to 6 opaque inputs, and the time operators and Recorder over one")
  func naryAndTimeOperators() async throws {
    let a = opaque(Signal<Int, Never>([1]))
    let f = opaque(Signal<Int, TestError>([2]))
    #expect(await combineLatest(a, a).collect().map { [$0, $1] } == [[1, 1]])
    #expect(try await combineLatest(a, f).collect().map { [$0, $1] } == [[1, 2]])
    #expect(await zip(a, a).collect().map { [$0, $1] } == [[1, 1]])
    #expect(await merge(a, a).collect() == [1, 1])
    #expect(await combineLatest(a, a, a, a, a, a).collect().count == 1)
    #expect(await zip(a, a, a, a, a, a).collect().count == 1)
    #expect(await merge(a, a, a, a, a, a).collect().count == 6)
    let clock = TestClock()
    let recorder = Recorder(a, clock: clock)
    #expect(await recorder.waitForValues(count: 1) == [Timed(1, at: .zero)])
    _ = a.debounce(for: .seconds(1), clock: clock)
    _ = a.throttle(for: .seconds(1), clock: clock, latest: true)
    _ = a.delay(for: .seconds(1), clock: clock)
    _ = f.timeout(.seconds(1), clock: clock)
    _ = a.timeout(.seconds(1), clock: clock, fallback: opaque(Signal<Int, Never>([3])))
    _ = a.buffer(every: .seconds(1), clock: clock)
  }
}
