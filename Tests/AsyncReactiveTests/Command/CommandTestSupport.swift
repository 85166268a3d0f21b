import AsyncReactive

/// A gate whose wait can be cancelled: `pass()` returns once `open()` was called, and throws
/// `CancellationError` if the waiting task is cancelled first. Work closures use it to block until the test
/// releases them while still honouring cancellation.
final class Latch: Sendable {
  private struct State {
    var isOpen = false
    var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    var nextID = 0
  }

  private let state = Locked(State())

  func open() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
      state.isOpen = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  func pass() async throws {
    let id = state.withLock { state -> Int in
      defer { state.nextID += 1 }
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let result = state.withLock { state -> Result<Void, any Error>? in
          if state.isOpen { return .success(()) }
          // Read under the lock: a cancellation handler that ran before this found nothing to resume.
          if Task.isCancelled { return .failure(CancellationError()) }
          state.waiters[id] = continuation
          return nil
        }
        if let result { continuation.resume(with: result) }
      }
    } onCancel: {
      let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.resume(throwing: CancellationError())
    }
  }
}

/// Starts `body` in a task that runs synchronously up to its first suspension: a loop of these calls
/// `execute` in a known order, each caller admitted (or parked) before the next starts.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
func startNow<Success: Sendable>(
  _ body: sending @escaping () async throws -> Success
) -> Task<Success, any Error> {
  Task.immediate(operation: body)
}

/// The non-throwing form of `startNow`.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
func startNow<Success: Sendable>(
  _ body: sending @escaping () async -> Success
) -> Task<Success, Never> {
  Task.immediate(operation: body)
}

/// Reads every remaining element of a non-failing iterator (its sequence must finish).
func drain<Iterator: AsyncIteratorProtocol>(_ iterator: inout Iterator) async -> [Iterator.Element]
where Iterator.Failure == Never {
  var elements: [Iterator.Element] = []
  while let element = await iterator.next(isolation: #isolation) { elements.append(element) }
  return elements
}

/// Reads the next `count` elements of a non-failing iterator.
func take<Iterator: AsyncIteratorProtocol>(_ count: Int, from iterator: inout Iterator) async -> [Iterator.Element]
where Iterator.Failure == Never {
  var elements: [Iterator.Element] = []
  while elements.count < count, let element = await iterator.next(isolation: #isolation) {
    elements.append(element)
  }
  return elements
}

/// What a finished call returned, comparable in expectations.
enum Outcome<Value: Equatable & Sendable>: Equatable, Sendable {
  case value(Value)
  case disabled
  case cancelled
  case noValue
  case failed(TestError)
  case other(String)

  /// Reads a ``CommandError`` of any `Failure` (a task's `value` erases it), a `CancellationError`, or a
  /// `TestError` thrown by something that is not a command.
  init(catching body: () async throws -> Value) async {
    do {
      self = .value(try await body())
    } catch let error as any ErasedCommandError {
      self = error.outcome()
    } catch is CancellationError {
      self = .cancelled
    } catch let error as TestError {
      self = .failed(error)
    } catch {
      self = .other("\(error)")
    }
  }

  /// What the call returned; `nil` if it did not return.
  var returned: Value? {
    guard case .value(let value) = self else { return nil }
    return value
  }
}

/// A ``CommandError`` whatever its `Failure`, for `Outcome`.
protocol ErasedCommandError: Error {
  func outcome<Value>() -> Outcome<Value>
}

extension CommandError: ErasedCommandError {
  func outcome<Value>() -> Outcome<Value> {
    switch self {
    case .disabled: return .disabled
    case .cancelled: return .cancelled
    case .noValue: return .noValue
    case .failed(let error as TestError): return .failed(error)
    case .failed(let error): return .other("failed(\(error))")
    }
  }
}

/// The outcome of each call, in the order of `calls`.
func awaitAll<Value>(_ calls: [Task<Outcome<Value>, Never>]) async -> [Outcome<Value>] {
  var outcomes: [Outcome<Value>] = []
  for call in calls { outcomes.append(await call.value) }
  return outcomes
}
