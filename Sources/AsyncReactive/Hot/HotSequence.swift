/// A hot sequence whose operators run inside `send`: subjects, properties, a command's streams, a resource's
/// values, and every operator applied to them (ReactiveSwift's `Signal`).
///
/// When `subject.send(x)` returns, every hot operator downstream of the subject has processed `x`: its closure
/// ran, every ``Signal/sink(in:onValue:onEnd:)`` observer was called, and each iterating consumer has the
/// result in its own queue. Operators on a hot sequence (`map`, `filter`, `combineLatest`, `withLatestFrom`,
/// `merge`, …) return a ``Signal`` that is hot again: a chain of them is a graph evaluated at the send, with no
/// task inside it; only each `for await` loop is a task of its own. To store or expose a hot chain with a type that
/// says it is hot, erase it with ``eraseToHotSignal()``.
///
/// **Shared evaluation:** every consumer of one operator value shares one evaluation: a closure runs once per
/// event, however many loops iterate the result, and an operator observes its inputs from its first consumer
/// to its last. What is sent while an operator has no consumer is not seen by it (it is hot).
///
/// **Order:** one event at a time through a graph, in the order the subjects admitted the sends; all consumers
/// see the same order. A send made from inside an operator closure or an observer is delivered after the
/// current event, never recursively, and no closure runs while a lock of the library is held.
///
/// Conforming: the library's subjects, ``Property``, ``HotSignal``, the streams of ``Command`` and
/// ``Resource/values``; a type of your own that wraps one of them conforms by returning its ``hotSignal``.
///
/// ```swift
/// let taps = AsyncPassthroughSubject<Void, Never>()
/// let password = AsyncPassthroughSubject<String, Never>()
/// let submits = taps.withLatestFrom(password) { $1 }   // Signal<String, Never>, hot
/// password.send("secret")
/// taps.send()                                     // `submits` has produced "secret" when this returns
/// ```
public protocol HotSequence<Element, Failure>: ReactiveSequence, Sendable where Element: Sendable {
  /// This sequence as a ``HotSignal``: the shared node that operators observe. Cheap: no copy, no task.
  var hotSignal: HotSignal<Element, Failure> { get }
}

extension HotSequence {
  /// This chain as a ``HotSignal``, to store it in a property: erasing a hot chain keeps it hot (the cold
  /// eraser is ``Signal``).
  ///
  /// ```swift
  /// actor SearchViewModel {
  ///   nonisolated let results: HotSignal<[Repo], Never>
  ///   init(api: API) { results = query.removeDuplicates().map { api.cached($0) }.eraseToHotSignal() }
  /// }
  /// ```
  @inlinable public func eraseToHotSignal() -> HotSignal<Element, Failure> { hotSignal }
}

extension AsyncPassthroughSubject {
  /// This subject as a ``HotSignal``: operators observe it inside ``send(_:)``. It does not keep the subject
  /// alive: releasing the subject still finishes it.
  @inlinable public var hotSignal: HotSignal<Element, Failure> { HotSignal(node: storage) }
}

extension AsyncCurrentValueSubject {
  /// This subject as a ``HotSignal``: operators observe it inside ``send(_:)``, starting from its current
  /// value. It does not keep the subject alive: releasing the subject still finishes it.
  @inlinable public var hotSignal: HotSignal<Element, Failure> { HotSignal(node: storage) }
}

extension AsyncReplaySubject {
  /// This subject as a ``HotSignal``: operators observe it inside ``send(_:)``, starting from what it
  /// replays. It does not keep the subject alive: releasing the subject still finishes it.
  @inlinable public var hotSignal: HotSignal<Element, Failure> { HotSignal(node: storage) }
}
