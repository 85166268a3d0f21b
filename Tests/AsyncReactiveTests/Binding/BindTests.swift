import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("bind(to:in:): subjects, commands and actor state")
struct BindTests {
  @Test("bind(to: subject) forwards in order until the lifetime ends; the subject is not finished")
  func bindToSubject() async {
    let source = AsyncPassthroughSubject<Int, Never>()
    let target = AsyncCurrentValueSubject<Int, Never>(0)
    let lifetime = Lifetime()
    var seen = target.subscribe().makeAsyncIterator()
    let binding = source.bind(to: target, in: lifetime)
    #expect(source.consumerCount == 1)  // registered before bind returned: nothing sent now is lost
    source.send(1)
    source.send(2)
    #expect(await take(3, from: &seen) == [0, 1, 2])
    lifetime.cancel()
    await binding.value
    #expect(source.consumerCount == 0)
    source.send(3)
    target.send(4)
    #expect(await seen.next() == 4)
  }

  @Test("bind(to: subject) over an AsyncStream: the source finishing ends the binding, not the subject")
  func freeFunctionWithStream() async {
    let input = StreamInput<String>()
    let target = AsyncPassthroughSubject<String, Never>()
    let lifetime = Lifetime()
    var seen = target.subscribe().makeAsyncIterator()
    let binding = input.stream.bind(to: target, in: lifetime)
    input.continuation.yield("a")
    input.continuation.yield("b")
    input.continuation.finish()
    await binding.value
    target.send("c")
    #expect(await take(3, from: &seen) == ["a", "b", "c"])
  }

  @Test("ending the lifetime stops the source's work")
  func lifetimeStopsSource() async {
    let input = StreamInput<Int>()
    let lifetime = Lifetime()
    input.stream.bind(to: AsyncPassthroughSubject<Int, Never>(), in: lifetime)
    lifetime.cancel()
    await input.terminated.wait()
  }

  @Test("bind(to: command) triggers a run per element; a refused element goes to disabledErrors")
  func bindToCommand() async {
    let taps = AsyncPassthroughSubject<Void, Never>()
    let release = Latch()
    let runs = Counter()
    let command = Command<Void, Int, any Error> {
      let run = runs.increment()
      if run == 1 { try await release.pass() }
      return run
    }
    let lifetime = Lifetime()
    var values = command.values.makeAsyncIterator()
    var disabled = command.disabledErrors.makeAsyncIterator()
    var executing = command.executing.makeAsyncIterator()
    taps.bind(to: command, in: lifetime)
    #expect(await executing.next() == false)
    taps.send()
    #expect(await executing.next() == true)
    taps.send()  // the first run is still in flight: refused under .reject
    #expect(await disabled.next() != nil)
    release.open()
    #expect(await values.next() == 1)
    #expect(await executing.next() == false)
    taps.send()
    #expect(await values.next() == 2)
    #expect(runs.value == 2)
  }

  @Test("a binding keeps its command while it lives (RxSwift's rx.action), and lets go of it when the lifetime ends")
  func bindKeepsTheCommand() async {
    let taps = AsyncPassthroughSubject<Void, Never>()
    let lifetime = Lifetime()
    let runs = Counter()
    weak var weakCommand: Command<Void, Void, Never>?
    func makeCommand() -> Command<Void, Void, Never> {
      let command = Command<Void, Void, Never> { runs.increment() }
      weakCommand = command
      return command
    }
    taps.bind(to: makeCommand(), in: lifetime)
    #expect(weakCommand != nil)
    var values = weakCommand!.values.makeAsyncIterator()
    taps.send()  // admitted inside the send; the run ends in the command's task
    #expect(await values.next() != nil)
    taps.send()
    #expect(await values.next() != nil)
    #expect(runs.value == 2)
    lifetime.cancel()
    #expect(weakCommand == nil)
  }

  @Test("a cold source bound to a command made for the binding runs it too")
  func coldBindKeepsTheCommand() async {
    let lifetime = Lifetime()
    let runs = Counter()
    let done = Gate()
    let command = Command<Int, Void, Never>(policy: .enqueue) { value in
      runs.increment()
      if value == 3 { done.open() }
    }
    // A cold source that stays open, as a screen's appearances do: the binding, and so the command, live on.
    let appearances = concat(Signal<Int, Never>([1, 2, 3]), Signal<Int, Never>.never)
    let binding = appearances.bind(to: command, in: lifetime)
    _ = consume command
    await done.wait()
    #expect(runs.value == 3)
    lifetime.cancel()
    await binding.value
  }

  @Test("an actor's observe(in:) assigns its isolated state in order until the lifetime ends")
  func bindIntoActor() async {
    let texts = AsyncPassthroughSubject<String, Never>()
    let viewModel = TextViewModel()
    var changes = viewModel.changes.subscribe().makeAsyncIterator()
    let lifetime = Lifetime()
    let binding = await viewModel.follow(texts, in: lifetime)
    texts.send("s")
    texts.send("sw")
    #expect(await take(2, from: &changes) == ["s", "sw"])
    #expect(await viewModel.searchText == "sw")
    lifetime.cancel()
    await binding.value
    #expect(texts.consumerCount == 0)
  }

  @Test("an observation that calls into an actor it captures weakly does not keep the actor alive")
  func bindIntoActorIsWeak() async {
    let texts = AsyncPassthroughSubject<String, Never>()
    let lifetime = Lifetime()
    weak var weakViewModel: TextViewModel?
    let binding: ObservationHandle
    do {
      let viewModel = TextViewModel()
      weakViewModel = viewModel
      binding = texts.observe(in: lifetime) { [weak viewModel] text in await viewModel?.set(text) }
    }
    #expect(weakViewModel == nil)
    texts.send("late")  // reaches no actor
    lifetime.cancel()
    await binding.value
    #expect(texts.consumerCount == 0)
  }
}

/// A view model with actor-isolated state, which only a binding closure can reach.
private actor TextViewModel {
  /// Reports each assignment, so that tests can wait for it.
  nonisolated let changes = AsyncPassthroughSubject<String, Never>()

  var searchText = "" {
    didSet { changes.send(searchText) }
  }

  /// Assigns each text: the closure runs isolated to this actor, the caller of `observe(in:)`.
  func follow(_ texts: AsyncPassthroughSubject<String, Never>, in lifetime: Lifetime) -> ObservationHandle {
    texts.observe(in: lifetime) { self.searchText = $0 }
  }

  func set(_ text: String) { searchText = text }
}
