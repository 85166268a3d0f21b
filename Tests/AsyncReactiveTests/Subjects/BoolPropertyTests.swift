import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("and, or, all, any over Bool properties")
struct BoolPropertyTests {
  @Test("and / or: the value is computed at once from both current values, for every combination")
  func truthTables() {
    let a = AsyncCurrentValueSubject<Bool, Never>(false)
    let b = AsyncCurrentValueSubject<Bool, Never>(false)
    let both = a.and(b)
    let either = a.or(b)
    for (x, y) in [(false, false), (false, true), (true, false), (true, true)] {
      a.value = x
      b.value = y
      #expect(both.value == (x && y))
      #expect(either.value == (x || y))
    }
  }

  @Test("and / or: iterating yields the current result, then one per change of either, inside send")
  func iteration() async {
    let a = AsyncCurrentValueSubject<Bool, Never>(true)
    let b = AsyncCurrentValueSubject<Bool, Never>(false)
    let both = a.property.and(b)
    let either = a.or(b.property)
    let recorder = Recorder(both, clock: TestClock())
    let eitherValues = either.subscribe()
    b.value = true  // true && true
    a.value = false  // false && true
    b.value = false  // false && false: unchanged, still yielded
    #expect(recorder.values.map(\.value) == [false, true, false, false])
    a.finish()
    b.finish()
    #expect(await eitherValues.collect() == [true, true, true, false])
  }

  @Test("and chains, and combines with not and removeDuplicates")
  func chains() {
    let name = AsyncCurrentValueSubject<String, Never>("")
    let password = AsyncCurrentValueSubject<String, Never>("")
    let isLoading = AsyncCurrentValueSubject<Bool, Never>(false)
    let canSubmit = name.map { !$0.isEmpty }.and(password.map { $0.count >= 8 }).and(isLoading.not())
      .removeDuplicates()
    let recorder = Recorder(canSubmit, clock: TestClock())
    name.value = "tom"
    password.value = "hunter22"
    isLoading.value = true
    isLoading.value = false
    #expect(canSubmit.value)
    #expect(recorder.values.map(\.value) == [false, true, false, true])
  }

  @Test("all / any over an array: current value at once, a result per change, empty collections")
  func allAny() async {
    let fields = (0..<3).map { _ in AsyncCurrentValueSubject<Bool, Never>(false) }
    let allValid = Property.all(fields)
    let anyValid = Property.any(fields.map(\.property))
    #expect(!allValid.value && !anyValid.value)
    let allValues = allValid.subscribe()
    let anyRecorder = Recorder(anyValid, clock: TestClock())
    fields[1].value = true
    #expect(!allValid.value && anyValid.value)
    fields[0].value = true
    fields[2].value = true
    #expect(allValid.value && anyValid.value)
    fields[1].value = false
    #expect(!allValid.value && anyValid.value)
    #expect(anyRecorder.values.map(\.value) == [false, true, true, true, true])
    for field in fields { field.finish() }
    #expect(await allValues.collect() == [false, false, false, true, false])
    let none: [Property<Bool>] = []
    #expect(Property.all(none).value == true)
    #expect(Property.any(none).value == false)
    #expect(await Property.all(none).collect() == [true])
  }

  @Test("and / all finish once every source has finished")
  func finishes() async {
    let a = AsyncCurrentValueSubject<Bool, Never>(true)
    let b = AsyncCurrentValueSubject<Bool, Never>(true)
    let recorder = Recorder(Property.all([a, b]), clock: TestClock())
    a.finish()
    #expect(recorder.end == nil)
    b.finish()
    #expect(recorder.end?.value.isFinished == true)
  }
}

extension Recorder.End {
  fileprivate var isFinished: Bool {
    if case .finished = self { return true }
    return false
  }
}
