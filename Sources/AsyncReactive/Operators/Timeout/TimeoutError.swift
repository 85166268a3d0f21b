/// The error that `timeout(_:clock:)` throws when neither a value nor the end
/// arrived in time, for an upstream that cannot fail or fails with `any Error`.
///
/// ```swift
/// do {
///   for try await reading in sensor.readings.timeout(.seconds(5)) { show(reading) }
/// } catch is TimeoutError {
///   showOffline()
/// }
/// ```
public struct TimeoutError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Creates the error; the timeout operator does this for you.
  ///
  /// ```swift
  /// #expect(recorder.end?.value == .failed(TimeoutError()))
  /// ```
  public init() {}

  /// `"TimeoutError: no value or end arrived within the timeout interval"`.
  ///
  /// ```swift
  /// print(TimeoutError())
  /// ```
  public var description: String { "TimeoutError: no value or end arrived within the timeout interval" }
}

/// How `timeout(_:clock:)` fails over an upstream with a typed failure: it timed
/// out, or the upstream failed.
///
/// Over an upstream that cannot fail, or fails with `any Error`, the operator throws ``TimeoutError`` instead.
///
/// ```swift
/// do throws(TimeoutFailure<APIError>) {
///   for try await page in pages.timeout(.seconds(10)) { show(page) }
/// } catch .timedOut {
///   showSlowNetworkHint()
/// } catch .upstream(let error) {
///   show(error)
/// }
/// ```
public enum TimeoutFailure<Upstream: Error>: Error {
  /// Neither a value nor the end arrived within the interval.
  case timedOut
  /// The upstream failed in time.
  case upstream(Upstream)
}

extension TimeoutFailure: Equatable where Upstream: Equatable {}

extension TimeoutFailure: Hashable where Upstream: Hashable {}
