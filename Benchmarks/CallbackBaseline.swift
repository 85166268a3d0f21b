import AsyncReactive

// A minimal ReactiveCocoa-style callback implementation, the baseline every case is compared with:
// observers are closures, a lock guards the observer list and operator state (as RAC's do), and
// subscribing returns a disposable. It is deliberately small but not naive: it is what RAC does per event.

/// An event of a callback stream.
enum CallbackEvent<Value> {
  case next(Value)
  case failed(any Error)
  case completed
}

/// Cancels a subscription.
final class CallbackDisposable: Sendable {
  private let action = BaselineLocked<(@Sendable () -> Void)?>(nil)

  init(_ action: @escaping @Sendable () -> Void = {}) {
    self.action.withLock { $0 = action }
  }

  func dispose() {
    let action = self.action.withLock { state -> (@Sendable () -> Void)? in
      defer { state = nil }
      return state
    }
    action?()
  }
}

/// A hot subject: a lock-protected list of observer closures (RACSubject).
final class CallbackSubject<Value: Sendable>: Sendable {
  typealias Observer = @Sendable (CallbackEvent<Value>) -> Void

  private struct State: Sendable {
    var observers: [(id: Int, observer: Observer)] = []
    var nextID = 0
  }

  private let state = BaselineLocked(State())

  @discardableResult
  func observe(_ observer: @escaping Observer) -> CallbackDisposable {
    let id = state.withLock { state -> Int in
      defer { state.nextID += 1 }
      state.observers.append((state.nextID, observer))
      return state.nextID
    }
    return CallbackDisposable { [weak self] in
      self?.state.withLock { $0.observers.removeAll { $0.id == id } }
    }
  }

  func send(_ event: CallbackEvent<Value>) {
    // RAC copies the subscriber list under the lock and calls each outside it.
    let observers = state.withLock { $0.observers }
    for entry in observers { entry.observer(event) }
  }

  var signal: CallbackSignal<Value> {
    CallbackSignal { observer in self.observe(observer) }
  }
}

/// A cold signal: subscribing runs `start` (RACSignal createSignal:).
struct CallbackSignal<Value: Sendable>: Sendable {
  typealias Observer = @Sendable (CallbackEvent<Value>) -> Void

  let start: @Sendable (@escaping Observer) -> CallbackDisposable

  init(_ start: @escaping @Sendable (@escaping Observer) -> CallbackDisposable) {
    self.start = start
  }

  @discardableResult
  func observe(_ observer: @escaping Observer) -> CallbackDisposable { start(observer) }

  func map<T: Sendable>(_ transform: @escaping @Sendable (Value) -> T) -> CallbackSignal<T> {
    CallbackSignal<T> { observer in
      self.observe { event in
        switch event {
        case .next(let value): observer(.next(transform(value)))
        case .failed(let error): observer(.failed(error))
        case .completed: observer(.completed)
        }
      }
    }
  }

  func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> CallbackSignal<Value> {
    CallbackSignal { observer in
      self.observe { event in
        if case .next(let value) = event, !isIncluded(value) { return }
        observer(event)
      }
    }
  }

  /// flattenMap: inner signals run concurrently; completes when the outer and every inner completed.
  func flatMap<T: Sendable>(_ transform: @escaping @Sendable (Value) -> CallbackSignal<T>) -> CallbackSignal<T> {
    CallbackSignal<T> { observer in
      let state = BaselineLocked(FlatMapState())
      let disposables = BaselineLocked<[CallbackDisposable]>([])
      let finishOne: @Sendable () -> Void = {
        let complete = state.withLock { state -> Bool in
          state.active -= 1
          if state.active == 0, !state.done {
            state.done = true
            return true
          }
          return false
        }
        if complete { observer(.completed) }
      }
      let outer = self.observe { event in
        switch event {
        case .next(let value):
          state.withLock { $0.active += 1 }
          let inner = transform(value).observe { innerEvent in
            switch innerEvent {
            case .next(let inner): observer(.next(inner))
            case .failed(let error): observer(.failed(error))
            case .completed: finishOne()
            }
          }
          disposables.withLock { $0.append(inner) }
        case .failed(let error): observer(.failed(error))
        case .completed: finishOne()
        }
      }
      return CallbackDisposable {
        outer.dispose()
        for disposable in disposables.withLock({ $0 }) { disposable.dispose() }
      }
    }
  }

  /// flatten(.concurrent(limit:)): at most `maxConcurrent` inner signals run at once; the others wait in a queue,
  /// in order, and start as running ones complete.
  func flatMap<T: Sendable>(
    maxConcurrent: Int,
    _ transform: @escaping @Sendable (Value) -> CallbackSignal<T>
  ) -> CallbackSignal<T> {
    CallbackSignal<T> { observer in
      let flattening = LimitedFlatMap(maxConcurrent: maxConcurrent, observer: observer)
      let outer = self.observe { event in
        switch event {
        case .next(let value): flattening.arrived(transform(value))
        case .failed(let error): observer(.failed(error))
        case .completed: flattening.outerCompleted()
        }
      }
      return CallbackDisposable {
        outer.dispose()
        flattening.dispose()
      }
    }
  }

  /// retry: on failure subscribe again, up to `count` more times.
  func retry(_ count: Int) -> CallbackSignal<Value> {
    CallbackSignal { observer in
      let remaining = BaselineLocked(count)
      let current = BaselineLocked<CallbackDisposable?>(nil)
      @Sendable func subscribe() {
        let disposable = self.observe { event in
          if case .failed = event {
            let retry = remaining.withLock { remaining -> Bool in
              guard remaining > 0 else { return false }
              remaining -= 1
              return true
            }
            if retry {
              subscribe()
              return
            }
          }
          observer(event)
        }
        current.withLock { $0 = disposable }
      }
      subscribe()
      return CallbackDisposable { current.withLock { $0 }?.dispose() }
    }
  }

  static func just(_ value: Value) -> CallbackSignal<Value> {
    CallbackSignal { observer in
      observer(.next(value))
      observer(.completed)
      return CallbackDisposable()
    }
  }
}

/// combineLatest of three signals (RACSignal combineLatest:).
func callbackCombineLatest<A: Sendable, B: Sendable, C: Sendable>(
  _ a: CallbackSignal<A>, _ b: CallbackSignal<B>, _ c: CallbackSignal<C>
) -> CallbackSignal<(A, B, C)> {
  CallbackSignal { observer in
    let state = BaselineLocked(CombineState<A, B, C>())
    @Sendable func emit(_ update: (inout CombineState<A, B, C>) -> Void) {
      let tuple = state.withLock { state -> (A, B, C)? in
        update(&state)
        guard let a = state.a, let b = state.b, let c = state.c else { return nil }
        return (a, b, c)
      }
      if let tuple { observer(.next(tuple)) }
    }
    @Sendable func complete() {
      let all = state.withLock { state -> Bool in
        state.completed += 1
        return state.completed == 3
      }
      if all { observer(.completed) }
    }
    let first = a.observe { event in
      switch event {
      case .next(let value): emit { $0.a = value }
      case .failed(let error): observer(.failed(error))
      case .completed: complete()
      }
    }
    let second = b.observe { event in
      switch event {
      case .next(let value): emit { $0.b = value }
      case .failed(let error): observer(.failed(error))
      case .completed: complete()
      }
    }
    let third = c.observe { event in
      switch event {
      case .next(let value): emit { $0.c = value }
      case .failed(let error): observer(.failed(error))
      case .completed: complete()
      }
    }
    return CallbackDisposable {
      first.dispose()
      second.dispose()
      third.dispose()
    }
  }
}

/// combineLatest of two signals (RACSignal combineLatestWith:): the latest of each behind a lock, a pair sent when
/// both have one.
func callbackCombineLatest<A: Sendable, B: Sendable>(
  _ a: CallbackSignal<A>, _ b: CallbackSignal<B>
) -> CallbackSignal<(A, B)> {
  CallbackSignal { observer in
    let state = BaselineLocked(CombineState<A, B, Void>())
    @Sendable func emit(_ update: (inout CombineState<A, B, Void>) -> Void) {
      let pair = state.withLock { state -> (A, B)? in
        update(&state)
        guard let a = state.a, let b = state.b else { return nil }
        return (a, b)
      }
      if let pair { observer(.next(pair)) }
    }
    @Sendable func complete() {
      let all = state.withLock { state -> Bool in
        state.completed += 1
        return state.completed == 2
      }
      if all { observer(.completed) }
    }
    let first = a.observe { event in
      switch event {
      case .next(let value): emit { $0.a = value }
      case .failed(let error): observer(.failed(error))
      case .completed: complete()
      }
    }
    let second = b.observe { event in
      switch event {
      case .next(let value): emit { $0.b = value }
      case .failed(let error): observer(.failed(error))
      case .completed: complete()
      }
    }
    return CallbackDisposable {
      first.dispose()
      second.dispose()
    }
  }
}

extension CallbackSignal {
  /// withLatestFrom (RxSwift; ReactiveSwift `withLatest(from:)`): `other`'s latest value behind a lock, read at
  /// each of this signal's values; values before `other` has one are dropped.
  func withLatestFrom<Other: Sendable, Output: Sendable>(
    _ other: CallbackSignal<Other>, _ combine: @escaping @Sendable (Value, Other) -> Output
  ) -> CallbackSignal<Output> {
    CallbackSignal<Output> { observer in
      let latest = BaselineLocked<Other?>(nil)
      let others = other.observe { event in
        switch event {
        case .next(let value): latest.withLock { $0 = value }
        case .failed(let error): observer(.failed(error))
        case .completed: break
        }
      }
      let values = self.observe { event in
        switch event {
        case .next(let value):
          if let other = latest.withLock({ $0 }) { observer(.next(combine(value, other))) }
        case .failed(let error): observer(.failed(error))
        case .completed: observer(.completed)
        }
      }
      return CallbackDisposable {
        others.dispose()
        values.dispose()
      }
    }
  }
}

/// RACCommand: runs its work, with an `executing` subject observers can watch.
final class CallbackCommand<Input: Sendable, Output: Sendable>: Sendable {
  let executing = CallbackSubject<Bool>()
  private let isExecuting = BaselineLocked(false)
  private let work: @Sendable (Input) -> Output

  init(work: @escaping @Sendable (Input) -> Output) {
    self.work = work
  }

  /// Runs the work unless a run is in flight; nil when refused.
  func execute(_ input: Input) -> Output? {
    let started = isExecuting.withLock { running -> Bool in
      guard !running else { return false }
      running = true
      return true
    }
    guard started else { return nil }
    executing.send(.next(true))
    let output = work(input)
    isExecuting.withLock { $0 = false }
    executing.send(.next(false))
    return output
  }
}

/// The state of a callback flatMap: running inners (plus the outer) and whether it completed.
struct FlatMapState: Sendable {
  var active = 1
  var done = false
}

/// One subscription of a callback flatMap with a concurrency limit: running inners, the queue of waiting ones.
final class LimitedFlatMap<T: Sendable>: Sendable {
  private struct State: Sendable {
    var running = 0
    var waiting: [CallbackSignal<T>] = []
    var waitingHead = 0
    var outerCompleted = false
    var done = false
    var disposables: [CallbackDisposable] = []

    mutating func finishIfIdle() -> Bool {
      guard running == 0, outerCompleted, !done else { return false }
      done = true
      return true
    }
  }

  private let state = BaselineLocked(State())
  private let maxConcurrent: Int
  private let observer: CallbackSignal<T>.Observer

  init(maxConcurrent: Int, observer: @escaping CallbackSignal<T>.Observer) {
    self.maxConcurrent = maxConcurrent
    self.observer = observer
  }

  func arrived(_ inner: CallbackSignal<T>) {
    let starts = state.withLock { state -> Bool in
      guard state.running < maxConcurrent else {
        state.waiting.append(inner)
        return false
      }
      state.running += 1
      return true
    }
    if starts { run(inner) }
  }

  func outerCompleted() {
    let done = state.withLock { state -> Bool in
      state.outerCompleted = true
      return state.finishIfIdle()
    }
    if done { observer(.completed) }
  }

  func dispose() {
    for disposable in state.withLock({ $0.disposables }) { disposable.dispose() }
  }

  private func run(_ first: CallbackSignal<T>) {
    // A loop, not recursion: an inner that completes synchronously hands its slot to the next waiting one.
    var next: CallbackSignal<T>? = first
    while let inner = next {
      next = nil
      let completedAt = BaselineLocked(false)
      let disposable = inner.observe { [observer] event in
        switch event {
        case .next(let value): observer(.next(value))
        case .failed(let error): observer(.failed(error))
        case .completed: completedAt.withLock { $0 = true }
        }
      }
      guard completedAt.withLock({ $0 }) else {
        // Asynchronous inner: not used by the benchmark's one-value inners.
        state.withLock { $0.disposables.append(disposable) }
        return
      }
      let (waiting, done) = state.withLock { state -> (CallbackSignal<T>?, Bool) in
        if state.waitingHead < state.waiting.count {
          defer { state.waitingHead += 1 }
          return (state.waiting[state.waitingHead], false)
        }
        state.running -= 1
        return (nil, state.finishIfIdle())
      }
      if done { observer(.completed) }
      next = waiting
    }
  }
}

/// The state of a callback combineLatest of three.
struct CombineState<A: Sendable, B: Sendable, C: Sendable>: Sendable {
  var a: A?
  var b: B?
  var c: C?
  var completed = 0
}
