import AsyncReactive
import AsyncReactiveTesting
import Testing

@Suite("AsyncStream interop")
struct AsyncStreamBridgeTests {
  @Test("a subject handed out as an AsyncStream keeps values sent right after")
  func subjectAsStream() async {
    let subject = AsyncPassthroughSubject<Int, Never>()
    let stream: AsyncStream<Int> = subject.asAsyncStream()
    subject.send(1)
    subject.send(2)
    subject.finish()
    #expect(await stream.collect() == [1, 2])
  }

  @Test("terminating the AsyncStream cancels the upstream work")
  func streamTerminationCancelsUpstream() async {
    let cancelled = Gate()
    let signal = Signal<Int, Never>.create { emitter in
      emitter.send(1)
      return { cancelled.open() }
    }
    for await _ in signal.asAsyncStream() { break }
    await cancelled.wait()
    #expect(cancelled.isOpen)
  }

  @Test("a failing sequence becomes an AsyncThrowingStream that throws the same error")
  func throwingStream() async {
    let signal = Signal<Int, TestError> { (emitter) throws(TestError) in
      emitter.send(1)
      throw TestError(code: 4)
    }
    let result = await signal.asAsyncThrowingStream().collectResult()
    #expect(result.values == [1])
    #expect(result.failure as? TestError == TestError(code: 4))
  }

  @Test("an AsyncStream is accepted wherever a sequence is: erased, observed, made re-iterable")
  func streamAsInput() async {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    continuation.yield(1)
    continuation.finish()
    #expect(await stream.eraseToSignal().collect() == [1])
  }
}
