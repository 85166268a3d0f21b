/// A read-only view of a current value: what a view model exposes so that views can read and observe state
/// but never write it.
///
/// The counterpart of ReactiveSwift's `Property` and RxSwift's read-only `Driver`-style state. Reading
/// ``value`` is synchronous; iterating yields the current value first, then every change.
///
/// ```swift
/// actor SearchViewModel {
///   private let resultsSubject = CurrentValueSubject<[String], Never>([])
///   nonisolated let results: Property<[String]>
///   init() { results = Property(resultsSubject) }
/// }
/// // In the view:
/// for await results in viewModel.results { render(results) }
/// ```
public struct Property<Value: Sendable>: AsyncSequence, Sendable {
  public typealias Element = Value
  public typealias Failure = Never

  private let current: @Sendable () -> Value
  private let register: @Sendable (BufferingPolicy) -> SubjectSubscription<Value, Never>

  /// A read-only view of `subject`: it reflects every value sent to it.
  ///
  /// ```swift
  /// let isLoading = Property(isLoadingSubject)
  /// ```
  public init(_ subject: CurrentValueSubject<Value, Never>) {
    current = { subject.value }
    register = { subject.subscribe(bufferingPolicy: $0) }
  }

  /// A property that never changes: iterating yields `value` and finishes.
  ///
  /// ```swift
  /// let title = Property(value: "Orders")
  /// ```
  public init(value: Value) {
    let subject = ReplaySubject<Value, Never>(bufferSize: 1)
    subject.send(value)
    subject.finish()
    current = { value }
    register = { subject.subscribe(bufferingPolicy: $0) }
  }

  /// The current value.
  public var value: Value { current() }

  /// Registers a consumer now: the current value, then every change.
  ///
  /// ```swift
  /// let changes = viewModel.results.subscribe()
  /// ```
  public func subscribe(bufferingPolicy: BufferingPolicy = .unbounded) -> SubjectSubscription<Value, Never> {
    register(bufferingPolicy)
  }

  /// Starts iterating: the current value first, then every change until the source finishes.
  public func makeAsyncIterator() -> SubjectSubscription<Value, Never>.Iterator {
    subscribe().makeAsyncIterator()
  }
}
