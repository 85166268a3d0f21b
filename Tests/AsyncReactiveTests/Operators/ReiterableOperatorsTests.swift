import AsyncReactive
import AsyncReactiveTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every operator of the library over a re-iterable input is re-iterable, so that `retry` follows it.
///
/// ``retryAfterEveryOperator()`` is the compile-time check: it applies `.retry(1)` after each operator over a
/// ``Signal``, and does not compile if one of them lost its ``ReiterableAsyncSequence`` conformance. The test
/// ``everyOperatorIsListed()`` keeps the list complete: it reads the operators' sources and fails for a public
/// operator that the list does not name, so a new operator cannot land without its line.
@Suite("re-iterable operators: retry after every operator")
struct ReiterableOperatorsTests {
  /// Operators that are not re-iterable on purpose, with the reason (the DocC article "Design decisions").
  static let notReiterable: [String: String] = [
    "share": "hot: a new iteration may join a run another consumer started; retry before sharing instead",
    "connect": "a ConnectableSignal's method, not an operator: it returns a connection",
    "cancel": "a connection's method, not an operator",
  ]

  @Test("retry compiles after every operator over a Signal, and a retried chain runs")
  func retryAfterEveryOperator() async throws {
    let values = Signal<Int, TestError>([1, 2, 3])
    let bools = Signal<Bool, TestError>([true])
    let never = Signal<Int, Never>([1])
    let trigger = Signal<Void, Never>.just(())
    let inner: @Sendable (Int) -> Signal<Int, TestError> = { .just($0) }

    // The library's map and compactMap, and the standard library's operators over a re-iterable base.
    _ = values.map { $0 + 1 }.retry(1)
    _ = values.compactMap { $0 }.retry(1)
    _ = values.map { value async in value }.retry(1)
    _ = values.filter { $0 > 0 }.retry(1)
    _ = values.prefix(2).retry(1)
    _ = values.dropFirst().retry(1)
    _ = values.prefix { $0 < 3 }.retry(1)
    _ = values.drop { $0 < 3 }.retry(1)
    // Transforming.
    _ = values.scan(0, +).retry(1)
    _ = values.combinePrevious().retry(1)
    _ = values.combinePrevious(0).retry(1)
    _ = values.prefix(while: { $0 < 3 }, inclusive: true).retry(1)
    _ = values.prepend(0).retry(1)
    _ = values.prepend(contentsOf: [0]).retry(1)
    _ = values.removeDuplicates().retry(1)
    _ = values.removeDuplicates(by: ==).retry(1)
    _ = values.removeDuplicates(by: \.self).retry(1)
    _ = values.handleEvents(onValue: { _ in }).retry(1)
    _ = bools.not().retry(1)
    _ = values.buffer(count: 2).retry(1)
    _ = values.eraseToSignal().retry(1)
    _ = values.debug("values", sink: DebugSink { _ in }).retry(1)
    _ = values.trackActivity(ActivityTracker()).retry(1)
    // Errors.
    _ = values.catch { _ in Signal<Int, TestError>.just(0) }.retry(1)
    _ = values.replaceError(with: 0).retry(1)
    _ = values.mapError { $0 }.retry(1)
    _ = values.materialize().retry(1)
    _ = values.materialize().dematerialize().retry(1)
    _ = values.reduce(0, +).retry(1)
    _ = values.reduce(into: 0) { $0 += $1 }.retry(1)
    _ = values.toArray().retry(1)
    _ = values.takeLast(2).retry(1)
    _ = values.last().retry(1)
    _ = values.ignoreElements().retry(1)
    _ = values.ifEmpty(default: 0).retry(1)
    _ = values.first().retry(1)
    _ = values.single().retry(1)
    _ = values.single(where: { $0 > 0 }).retry(1)
    _ = values.element(at: 1).retry(1)
    _ = values.enumerated().retry(1)
    _ = values.groupBy { $0 % 2 }.retry(1)
    _ = values.window(count: 2).retry(1)
    // Two inputs.
    _ = values.withLatestFrom(never).retry(1)
    _ = values.withLatestFrom(never) { $0 + $1 }.retry(1)
    _ = values.take(until: trigger).retry(1)
    _ = values.skip(until: trigger).retry(1)
    _ = values.ifEmpty(switchTo: values).retry(1)
    _ = values.delaySubscription(for: .seconds(1)).retry(1)
    _ = values.sample(on: trigger).retry(1)
    _ = concat(values, values).retry(1)
    _ = concat([values, values]).retry(1)
    // Flattening.
    _ = values.flatMap(inner).retry(1)
    _ = values.flatMap(maxConcurrent: 2, inner).retry(1)
    _ = values.flatMap(.merge, inner).retry(1)
    _ = values.flatMapLatest(inner).retry(1)
    _ = values.flatMapFirst(inner).retry(1)
    _ = values.concatMap(inner).retry(1)
    // Time.
    _ = values.debounce(for: .seconds(1)).retry(1)
    _ = values.throttle(for: .seconds(1)).retry(1)
    _ = values.delay(for: .seconds(1)).retry(1)
    _ = values.timeout(.seconds(1)).retry(1)
    _ = values.timeout(.seconds(1), fallback: Signal<Int, Never>.just(0)).retry(1)
    _ = values.buffer(every: .seconds(1)).retry(1)
    // Retrying.
    _ = values.retry(1).retry(1)
    _ = values.retry().retry(1)
    _ = values.retry(1, delay: .constant(.zero)).retry(1)
    _ = values.retry(while: { _, _ in false }).retry(1)
    _ = values.retry(when: trigger).retry(1)
    // n-ary operators: see the arity files.
    _ = combineLatest(values, values).retry(1)
    _ = combineLatest([values, values]).retry(1)
    _ = zip(values, values).retry(1)
    _ = zip([values, values]).retry(1)
    _ = merge(values, values).retry(1)
    _ = merge([values, values]).retry(1)
    _ = values.amb(values).retry(1)
    _ = amb([values, values]).retry(1)
    // Connectable: each iteration registers with the subject of the moment.
    _ = values.publish().retry(1)
    _ = values.replay(1).retry(1)
    _ = values.replayAll().retry(1)
    _ = values.multicast(AsyncReplaySubject<Int, TestError>(bufferSize: 1)).retry(1)
    _ = values.multicast(makeSubject: { AsyncPassthroughSubject<Int, TestError>() }).retry(1)
    _ = values.publish().refCount().retry(1)
    // Not re-iterable on purpose (see `notReiterable`): values.share()

    // And a retried chain runs every operator again.
    let attempts = Counter()
    let flaky = Signal<Int, TestError> { (emitter) throws(TestError) in
      emitter.send(attempts.increment())
      if attempts.value == 1 { throw TestError(code: 1) }
    }
    let chain = flaky.scan(0, +).prepend(0).removeDuplicates().handleEvents().buffer(count: 2).retry(1)
    #expect(try await chain.collect() == [[0, 1], [0, 2]])
  }

  @Test("every public operator in Sources/AsyncReactive/Operators has its line in the test above")
  func everyOperatorIsListed() throws {
    let testFile = try #require(readFile(#filePath))
    let sourceRoot = String(#filePath.prefix(upTo: try #require(#filePath.firstRange(of: "/Tests/")).lowerBound))
    let operatorFiles = swiftFiles(under: sourceRoot + "/Sources/AsyncReactive/Operators")
    #expect(operatorFiles.count > 20)
    var operators: Set<String> = []
    for path in operatorFiles {
      for name in publicOperatorNames(in: try #require(readFile(path))) { operators.insert(name) }
    }
    #expect(operators.isSuperset(of: ["flatMap", "retry", "scan", "take", "sample", "concat"]))
    let listed = testFile.split(separator: "\n").filter { !$0.contains("Not re-iterable on purpose") }.joined()
    for name in operators.sorted() where Self.notReiterable[name] == nil {
      #expect(listed.contains(".\(name)") || listed.contains(" \(name)("), "no `.retry(1)` line for `\(name)`")
    }
  }
}

/// The names of the public operators declared in `source`: functions that are not static, not members of an
/// iterator (`next`, `makeAsyncIterator`), and not helpers of a type (they take no `self` sequence).
private func publicOperatorNames(in source: String) -> [String] {
  var names: [String] = []
  for line in source.split(separator: "\n") {
    let trimmed = line.trimmingPrefix(while: { $0 == " " })
    guard let range = trimmed.firstRange(of: "public func ") else { continue }
    guard !trimmed[..<range.lowerBound].contains("static") else { continue }
    let name = trimmed[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "`" }
    let bare = name.filter { $0 != "`" }
    guard !["next", "makeAsyncIterator"].contains(bare), !bare.isEmpty else { continue }
    names.append(bare)
  }
  return names
}

/// The `.swift` files under `directory`, recursively.
private func swiftFiles(under directory: String) -> [String] {
  guard let handle = opendir(directory) else { return [] }
  defer { closedir(handle) }
  var files: [String] = []
  while let entry = readdir(handle) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    guard name != ".", name != ".." else { continue }
    let path = directory + "/" + name
    if Int32(entry.pointee.d_type) == Int32(DT_DIR) {
      files += swiftFiles(under: path)
    } else if name.hasSuffix(".swift") {
      files.append(path)
    }
  }
  return files
}

/// The contents of the file at `path`, or `nil` if it cannot be read.
private func readFile(_ path: String) -> String? {
  guard let file = fopen(path, "r") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count <= 0 { break }
    bytes += buffer[..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}
