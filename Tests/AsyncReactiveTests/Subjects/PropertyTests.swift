import AsyncReactive
import Testing

@Suite("Property: synchronous derived values, iteration, lifetime")
struct PropertyTests {
  @Test("map: the derived value reflects the source on the very next line, 1,000 of 1,000")
  func mapIsSynchronous() {
    let username = AsyncCurrentValueSubject<String, Never>("")
    let isValid = username.map { $0.count >= 3 }
    #expect(isValid.value == false)
    for round in 0..<1_000 {
      username.value = String(repeating: "x", count: round % 5)
      #expect(isValid.value == (round % 5 >= 3))
    }
  }

  @Test("a derived value is up to date from any thread: 4 writers, each reading its own derived value back")
  func derivedFromAnyThread() async {
    let sources = (0..<4).map { _ in AsyncCurrentValueSubject<Int, Never>(0) }
    let total = combineLatest(sources).map { $0.reduce(0, +) }
    let stale = Counter()
    await withTaskGroup(of: Void.self) { group in
      for (index, source) in sources.enumerated() {
        group.addTask {
          let doubled = source.map { $0 * 2 }
          for value in 1...1_000 {
            source.value = value
            if doubled.value != value * 2 { stale.increment() }
            // The others move too, but this writer's own term is never behind.
            if combineLatest(sources).value[index] != value { stale.increment() }
          }
        }
      }
    }
    #expect(stale.value == 0)
    #expect(total.value == 4_000)
  }

  @Test("combineLatest of 2 to 6 properties and the array form: values and tuple positions")
  func combineLatestArities() {
    let (a, b, c) = (
      AsyncCurrentValueSubject<Int, Never>(1), AsyncCurrentValueSubject<String, Never>("b"), Property(value: 3.0)
    )
    let (d, e, f) = (
      AsyncCurrentValueSubject<Bool, Never>(true), Property(value: "e"), AsyncCurrentValueSubject<Int, Never>(6)
    )
    #expect(combineLatest(a, b).value == (1, "b"))
    #expect(combineLatest(a, b, c).value == (1, "b", 3.0))
    #expect(combineLatest(a, b, c, d).value == (1, "b", 3.0, true))
    #expect(combineLatest(a, b, c, d, e).value == (1, "b", 3.0, true, "e"))
    let six = combineLatest(a, b, c, d, e, f)
    a.value = 10
    f.value = 60
    #expect(six.value == (10, "b", 3.0, true, "e", 60))
    #expect(combineLatest([a, f]).value == [10, 60])
    #expect(combineLatest([Property<Int>]()).value == [])
  }

  @Test("the overloads: properties combine into a Property; any other input gives the stream form")
  func overloadResolution() {
    let name = AsyncCurrentValueSubject<String, Never>("")
    let taps = AsyncPassthroughSubject<Void, Never>()
    let combined: Property<(String, String)> = combineLatest(name, name.property)
    let mapped: Property<Int> = name.map(\.count)
    let unique: Property<Int> = mapped.removeDuplicates()
    let negated: Property<Bool> = name.map(\.isEmpty).not()
    let stream: Signal<(String, Void), Never> = combineLatest(name, taps)
    _ = (combined, unique, negated, stream)
  }

  @Test("iteration: the current value first, then each change in order, and the final value is never lost")
  func iterationOrder() async {
    let count = AsyncCurrentValueSubject<Int, Never>(0)
    let doubled = count.map { $0 * 2 }
    var values = doubled.makeAsyncIterator()
    #expect(await values.next() == 0)
    for value in 1...500 { count.value = value }
    count.finish()
    #expect(await drain(&values) == (1...500).map { $0 * 2 })
  }

  @Test("map repeats an unchanged derived value; removeDuplicates skips it")
  func removeDuplicates() async {
    let text = AsyncCurrentValueSubject<String, Never>("a")
    let lengths = text.map(\.count)
    var all = lengths.makeAsyncIterator()
    var distinct = lengths.removeDuplicates().makeAsyncIterator()
    for value in ["b", "cc", "dd", "e"] { text.value = value }
    text.finish()
    #expect(await drain(&all) == [1, 1, 2, 2, 1])
    #expect(await drain(&distinct) == [1, 2, 1])
  }

  @Test("combineLatest iteration: the current combination first, then one per change; finishes when all finish")
  func combinedIteration() async {
    let a = AsyncCurrentValueSubject<Int, Never>(1)
    let b = AsyncCurrentValueSubject<Int, Never>(10)
    let sum = combineLatest(a, b).map { $0 + $1 }
    var values = sum.makeAsyncIterator()
    #expect(await values.next() == 11)
    a.value = 2
    #expect(await values.next() == 12)
    b.value = 20
    #expect(await values.next() == 22)
    a.finish()
    b.value = 30
    #expect(await values.next() == 32)
    b.finish()
    #expect(await values.next() == nil)
  }

  @Test("a constant: its value, one element, then the end")
  func constant() async {
    let title = Property(value: "Orders")
    #expect(title.value == "Orders")
    var values = title.makeAsyncIterator()
    #expect(await drain(&values) == ["Orders"])
    #expect(title.consumerCount == 0)
  }

  @Test("Property(initial:then:): the initial value, then the sequence's; the end keeps the last value")
  func initialThen() async {
    let input = StreamInput<Int>()
    let property = Property(initial: 0, then: input.stream)
    #expect(property.value == 0)
    var values = property.makeAsyncIterator()
    #expect(await values.next() == 0)
    input.continuation.yield(1)
    #expect(await values.next() == 1)
    #expect(property.value == 1)
    input.continuation.yield(2)
    input.continuation.finish()
    #expect(await drain(&values) == [2])
    #expect(property.value == 2)
  }

  @Test("Property(initial:then:): releasing the property cancels its feed and ends its consumers")
  func initialThenReleased() async {
    let input = StreamInput<Int>()
    var property: Property<Int>? = Property(initial: 0, then: input.stream)
    var values = property!.makeAsyncIterator()
    #expect(await values.next() == 0)
    property = nil
    await input.terminated.wait()
    #expect(await values.next() == nil)
  }

  @Test("flatMapLatest: the value reads through the selected inner property; iteration switches inners")
  func flatMapLatest() async {
    let first = AsyncCurrentValueSubject<String, Never>("a")
    let second = AsyncCurrentValueSubject<String, Never>("x")
    let useSecond = AsyncCurrentValueSubject<Bool, Never>(false)
    let selected = useSecond.flatMapLatest { $0 ? second : first }
    #expect(selected.value == "a")
    var values = selected.makeAsyncIterator()
    #expect(await values.next() == "a")
    first.value = "b"
    #expect(selected.value == "b")
    #expect(await values.next() == "b")
    useSecond.value = true
    #expect(selected.value == "x")
    #expect(await values.next() == "x")
    first.value = "c"  // no longer followed
    second.value = "y"
    #expect(await values.next() == "y")
  }

  @Test("consumerCount and hasConsumers on subjects and properties return to zero when consumers stop")
  func consumerCounts() async {
    let subject = AsyncCurrentValueSubject<Int, Never>(0)
    let derived = subject.map { $0 + 1 }
    #expect(!subject.hasConsumers && !derived.hasConsumers)
    var direct: Property<Int>.Iterator? = subject.property.makeAsyncIterator()
    var mapped: Property<Int>.Iterator? = derived.makeAsyncIterator()
    #expect(subject.consumerCount == 2)  // the map reads the subject too
    #expect(subject.property.consumerCount == 2)
    #expect(derived.consumerCount == 1)
    #expect(await mapped?.next() == 1)
    #expect(await direct?.next() == 0)
    mapped = nil
    direct = nil
    #expect(subject.consumerCount == 0)
    #expect(derived.consumerCount == 0 && !derived.hasConsumers)
    let passthrough = AsyncPassthroughSubject<Int, Never>()
    let subscription: SubjectSubscription<Int, Never>? = passthrough.subscribe()
    #expect(passthrough.hasConsumers)
    _ = subscription
  }
}

@Suite("Subjects and properties end their consumers when released")
struct SubjectReleaseTests {
  @Test("each kind of subject, released, finishes its consumers after what they had buffered")
  func subjectsFinishOnRelease() async {
    var passthrough: AsyncPassthroughSubject<Int, Never>? = AsyncPassthroughSubject()
    var current: AsyncCurrentValueSubject<Int, Never>? = AsyncCurrentValueSubject(0)
    var replay: AsyncReplaySubject<Int, Never>? = AsyncReplaySubject(bufferSize: 1)
    var p = passthrough!.subscribe().makeAsyncIterator()
    var c = current!.makeAsyncIterator()
    var r = replay!.subscribe().makeAsyncIterator()
    passthrough!.send(1)
    current!.send(1)
    replay!.send(1)
    (passthrough, current, replay) = (nil, nil, nil)
    #expect(await drain(&p) == [1])
    #expect(await drain(&c) == [0, 1])
    #expect(await drain(&r) == [1])
  }

  @Test("a consumer never keeps its subject alive")
  func consumersDoNotRetain() async {
    weak var weakSubject: AsyncCurrentValueSubject<Int, Never>?
    var values: Property<Int>.Iterator
    do {
      let subject = AsyncCurrentValueSubject<Int, Never>(7)
      weakSubject = subject
      values = subject.map { $0 }.makeAsyncIterator()
    }
    #expect(weakSubject == nil)
    #expect(await drain(&values) == [7])
  }

  @Test("a view model released while a view observes its derived state: the loop ends, no task left")
  func viewModelReleased() async {
    let lifetime = Lifetime()
    let seen = Log<Bool>()
    var viewModel: SignupViewModel? = SignupViewModel()
    weak let weakViewModel = viewModel
    let first = Gate()
    let observation = viewModel!.isValid.observe(in: lifetime) { valid in
      seen.append(valid)
      first.open()
    }
    await first.wait()
    viewModel = nil
    #expect(weakViewModel == nil)
    await observation.value  // ends by itself: the lifetime is still alive
    #expect(seen.all == [false])
    #expect(!lifetime.hasEnded)
  }
}

private actor SignupViewModel {
  nonisolated let username = AsyncCurrentValueSubject<String, Never>("")
  nonisolated let password = AsyncCurrentValueSubject<String, Never>("")
  nonisolated let isValid: Property<Bool>

  init() {
    isValid = combineLatest(username, password).map { $0.count >= 3 && $1.count >= 8 }
  }
}

/// `Property(initial:then:)` over a hot source lives as long as that source (ReactiveSwift's `PropertySpec`).
@Suite("Property(initial:then:) lifetimes over a hot source")
struct PropertyLifetimeTests {
  @Test("releasing the property does not end its consumers while the source lives; the source's end ends them")
  func consumersOutliveTheProperty() {
    let source = AsyncCurrentValueSubject<Int, Never>(1)
    var property: Property<Int>? = Property(initial: 0, then: source)
    let log = Log<String>()
    let lifetime = Lifetime()
    property!.hotSignal.map { $0 * 10 }.sink(in: lifetime) {
      log.append("\($0)")
    } onEnd: { _ in
      log.append("end")
    }
    property = nil
    source.send(2)
    #expect(log.all == ["10", "20"])
    source.finish()
    #expect(log.all == ["10", "20", "end"])
    #expect(source.consumerCount == 0)
  }

  @Test("released with no consumer, it stops observing the source; its last consumer leaving later does too")
  func observationEndsWithTheLastObserver() {
    let source = AsyncCurrentValueSubject<Int, Never>(1)
    var property: Property<Int>? = Property(initial: 0, then: source)
    #expect(source.consumerCount == 1)  // the property keeps its value current
    source.send(5)
    #expect(property?.value == 5)
    property = nil
    #expect(source.consumerCount == 0)

    var kept: Property<Int>? = Property(initial: 0, then: source)
    let log = Log<Int>()
    let lifetime = Lifetime()
    kept!.sink(in: lifetime) { log.append($0) }
    kept = nil
    source.send(6)
    #expect(log.all == [5, 6])
    #expect(source.consumerCount == 1)
    lifetime.cancel()
    #expect(source.consumerCount == 0)
    source.send(7)
    #expect(log.all == [5, 6])
  }

  @Test("its value is the initial one until the source sends, and follows the source with no consumer")
  func valueWithoutConsumers() {
    let source = AsyncPassthroughSubject<Int, Never>()
    let property = Property(initial: 0, then: source)
    #expect(property.value == 0)
    source.send(3)
    #expect(property.value == 3)
    source.finish()
    #expect(property.value == 3)
  }
}

/// `flatMapLatest` over properties lives as long as its outer property and its current inner (ReactiveSwift's
/// `PropertySpec`, flatten `.latest`): a replaced inner is released, and the result ends once the outer property
/// and the last inner are gone.
@Suite("Property.flatMapLatest lifetimes")
struct FlattenedPropertyLifetimeTests {
  typealias Inner = AsyncCurrentValueSubject<Int, Never>

  @Test("values follow the latest inner; releasing the outer, which holds the last inner, ends the result")
  func outerReleasedEndsIt() {
    let first = Inner(0)
    var second: Inner? = Inner(10)
    var third: Inner? = Inner(20)
    var outer: AsyncCurrentValueSubject<Inner, Never>? = AsyncCurrentValueSubject(first)
    let log = Log<String>()
    let lifetime = Lifetime()
    outer!.flatMapLatest { $0 }.hotSignal.sink(in: lifetime) {
      log.append("\($0)")
    } onEnd: { _ in
      log.append("end")
    }
    #expect(log.all == ["0"])
    outer!.value = second!
    second!.value = 11
    outer!.value = third!
    third!.value = 21
    #expect(log.all == ["0", "10", "11", "20", "21"])
    second!.value = 12
    second = nil
    third!.value = 22
    third = nil  // the outer still holds it as its value
    #expect(log.all == ["0", "10", "11", "20", "21", "22"])
    outer = nil
    #expect(log.all == ["0", "10", "11", "20", "21", "22", "end"])
    lifetime.cancel()
  }

  @Test("a replaced inner is released; the last one goes with the outer and the flattened property")
  func replacedInnersAreReleased() {
    var first: Inner? = Inner(0)
    var second: Inner? = Inner(10)
    var third: Inner? = Inner(20)
    weak let weakFirst = first
    weak let weakSecond = second
    weak let weakThird = third
    var outer: AsyncCurrentValueSubject<Inner, Never>? = AsyncCurrentValueSubject(first!)
    var flattened: Property<Int>? = outer!.flatMapLatest { $0 }
    let ended = Log<Bool>()
    let lifetime = Lifetime()
    flattened!.hotSignal.sink(in: lifetime, onValue: { _ in }, onEnd: { _ in ended.append(true) })
    first = nil
    outer!.value = second!
    #expect(weakFirst == nil)
    second = nil
    outer!.value = third!
    #expect(weakSecond == nil)
    third = nil
    outer = nil
    flattened = nil
    #expect(weakThird == nil)
    #expect(ended.all == [true])
    lifetime.cancel()
  }

  @Test("inner released first: the result goes on while the outer holds it, and ends when the outer goes")
  func innerReleasedFirst() {
    var inner: Inner? = Inner(1)
    weak let weakInner = inner
    var outer: AsyncCurrentValueSubject<Inner, Never>? = AsyncCurrentValueSubject(inner!)
    let log = Log<String>()
    let lifetime = Lifetime()
    outer!.flatMapLatest { $0 }.hotSignal.sink(in: lifetime) {
      log.append("\($0)")
    } onEnd: { _ in
      log.append("end")
    }
    inner!.value = 2
    inner = nil
    #expect(weakInner != nil)  // the outer's value
    outer!.value.value = 3
    #expect(log.all == ["1", "2", "3"])
    outer = nil
    #expect(weakInner == nil)
    #expect(log.all == ["1", "2", "3", "end"])
    lifetime.cancel()
  }
}
