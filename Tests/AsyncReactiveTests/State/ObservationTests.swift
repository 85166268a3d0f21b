import AsyncReactive
import Observation
import Testing

/// `AsyncCurrentValueSubject.value` and `Property.value` (derived too) take part in Observation, which is what lets
/// a SwiftUI `body` read `viewModel.isLoading.value` directly.
@Suite("Observation tracking of current values")
struct ObservationTests {
  @Test("withObservationTracking fires exactly once per change of a subject it read")
  func subjectFiresOncePerChange() {
    let count = AsyncCurrentValueSubject<Int, Never>(0)
    let fired = Counter()
    for value in 1...100 {
      withObservationTracking {
        _ = count.value
      } onChange: {
        fired.increment()
      }
      count.value = value
    }
    #expect(fired.value == 100)
    count.value = 101  // nothing tracks it any more: tracking is one-shot
    #expect(fired.value == 100)
  }

  @Test("a subject changed before anyone read it is tracked from its first read on")
  func firstReadStartsTracking() {
    let count = AsyncCurrentValueSubject<Int, Never>(0)
    for value in 1...10 { count.value = value }  // nobody read it: no announcement is needed
    let fired = Counter()
    withObservationTracking {
      #expect(count.value == 10)
    } onChange: {
      fired.increment()
    }
    count.value = 11
    #expect(fired.value == 1)
  }

  @Test("a derived property is tracked through the subjects it reads; an unrelated subject does not fire")
  func derivedIsTracked() {
    let username = AsyncCurrentValueSubject<String, Never>("")
    let password = AsyncCurrentValueSubject<String, Never>("")
    let unrelated = AsyncCurrentValueSubject<Int, Never>(0)
    let isValid = combineLatest(username, password).map { $0.count >= 3 && $1.count >= 8 }
    let fired = Counter()
    let track = {
      withObservationTracking {
        _ = isValid.value
      } onChange: {
        fired.increment()
      }
    }
    track()
    unrelated.value = 1
    #expect(fired.value == 0)
    password.value = "12345678"
    #expect(fired.value == 1)
    track()
    username.value = "tom"
    #expect(fired.value == 2)
    #expect(isValid.value)
  }

  @Test("a command's isEnabled is tracked: a run in flight changes it")
  func commandIsEnabledIsTracked() async throws {
    let release = Latch()
    let started = Gate()
    let command = Command {
      started.open()
      try await release.pass()
    }
    let fired = Counter()
    withObservationTracking {
      _ = command.isEnabled.value
    } onChange: {
      fired.increment()
    }
    let run = Task { try await command.execute() }
    await started.wait()
    #expect(fired.value == 1)
    #expect(command.isEnabled.value == false)
    release.open()
    try await run.value
    #expect(command.isEnabled.value == true)
  }

  @Test("Observations { } yields a derived property's value after each change")
  func observationsSequence() async {
    guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return }
    let count = AsyncCurrentValueSubject<Int, Never>(1)
    let doubled = count.map { $0 * 2 }
    var values = Observations { doubled.value }.makeAsyncIterator()
    #expect(await values.next() == 2)
    count.value = 5
    #expect(await values.next() == 10)
    count.value = 6
    #expect(await values.next() == 12)
  }
}
