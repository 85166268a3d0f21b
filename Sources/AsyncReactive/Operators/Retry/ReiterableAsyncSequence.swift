/// An async sequence whose every iteration runs its work anew, so that iterating it again after a failure
/// means trying again: what ``ReiterableAsyncSequence/retry(_:)`` needs.
///
/// ``Signal`` conforms, and so do the operators of this library (and the standard library's `map`, `filter`,
/// `compactMap`, `prefix`, `dropFirst`, …) when their upstream conforms. An `AsyncStream` does not: it can be
/// iterated only once, so "retrying" it would silently replay nothing. Make it retryable by building a fresh
/// stream per iteration with ``Signal/deferred(_:)``:
///
/// ```swift
/// let orders = Signal.deferred {
///   AsyncThrowingStream<[Order], any Error> { continuation in
///     api.requestOrders { result in
///       continuation.yield(with: result)
///       continuation.finish()
///     }
///   }
/// }
/// for try await list in orders.retry(3) { show(list) }
/// ```
///
/// Careful: `Signal(stream)` and `stream.eraseToSignal()` wrap the one stream you pass, so such a signal is only
/// as re-iterable as that stream (a retry would find it already finished); build the stream inside
/// ``Signal/deferred(_:)`` instead.
///
/// Conform your own type only if each `makeAsyncIterator()` starts an independent run of the work. A subject is
/// not re-iterable in that sense: a new iteration subscribes again to the same hot source.
///
/// A helper that hides its type keeps `retry` by naming this protocol:
/// `var orders: some ReiterableAsyncSequence<[Order], any Error> & Sendable { … }`.
public protocol ReiterableAsyncSequence<Element, Failure>: AsyncSequence {}

extension Signal: ReiterableAsyncSequence {}

extension AsyncMapSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncThrowingMapSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncFilterSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncThrowingFilterSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncCompactMapSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncThrowingCompactMapSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncPrefixSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncPrefixWhileSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncThrowingPrefixWhileSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncDropFirstSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncDropWhileSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
extension AsyncThrowingDropWhileSequence: ReiterableAsyncSequence where Base: ReiterableAsyncSequence {}
