// Stand-ins with the names Combine declares, for a test that imports them beside AsyncReactive the way a SwiftUI
// view file sees Combine (SwiftUI re-exports it). Linux has no Combine; these have its names and its shapes, which
// is all the compiler's name lookup looks at. Nothing here is meant to work like Combine beyond that.

/// Combine's `Subject` protocol, by name.
public protocol Subject<Output, Failure>: AnyObject {
  associatedtype Output
  associatedtype Failure: Error
  /// Combine's `send(_:)`.
  func send(_ value: Output)
}

/// Combine's `PassthroughSubject`, by name: remembers what was sent so a test can read it back.
public final class PassthroughSubject<Output, Failure: Error>: Subject {
  /// What `send` received, in order.
  public private(set) var sent: [Output] = []
  /// Creates an empty subject.
  public init() {}
  /// Appends `value` to ``sent``.
  public func send(_ value: Output) { sent.append(value) }
}

/// Combine's `CurrentValueSubject`, by name.
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
  /// The last value sent, or the initial one.
  public private(set) var value: Output
  /// Creates a subject holding `value`.
  public init(_ value: Output) { self.value = value }
  /// Replaces ``value``.
  public func send(_ value: Output) { self.value = value }
}

/// Combine's `AnyCancellable`, by name.
public final class AnyCancellable {
  private let cancelAction: () -> Void
  /// Wraps `cancel`.
  public init(_ cancel: @escaping () -> Void) { cancelAction = cancel }
  /// Runs the wrapped action.
  public func cancel() { cancelAction() }
}

/// Combine's `@Published`, by name.
@propertyWrapper
public struct Published<Value> {
  /// The stored value.
  public var wrappedValue: Value
  /// Wraps `wrappedValue`.
  public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}
