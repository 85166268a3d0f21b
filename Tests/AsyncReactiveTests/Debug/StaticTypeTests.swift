import AsyncReactive
import AsyncReactiveTesting
import Testing

/// Operators on a hot sequence stay hot in their static type (a `HotSignal` or a `Property`, which have
/// `debugGraph()`) when nothing else says what type is wanted, whatever extra defaulted arguments (the caller's
/// `#fileID` and `#line`) they take: each result is bound without a type (also as a closure's result, where Swift
/// ranks overloads differently) and then asked for its graph, which a `Signal` or a standard library sequence does
/// not have (a compile-time check; the runtime check counts the nodes).
@Test("every operator on a subject is typed hot without a type annotation")
func operatorsOnHotSequencesAreStaticallyHot() async {
  let clock = TestClock()
  let s = AsyncPassthroughSubject<Int, Never>()
  let f = AsyncPassthroughSubject<Int, TestError>()
  let b = AsyncCurrentValueSubject<Bool, Never>(false)
  let t = AsyncPassthroughSubject<Void, Never>()
  let p = AsyncCurrentValueSubject<Int, Never>(0)
  let tracker = ActivityTracker()
  var graphs: [DebugGraph] = []
  let tracked = s.trackActivity(tracker)
  graphs.append(tracked.debugGraph())
  let trackedInClosure = AsyncReactiveDebug.tracing { s.trackActivity(tracker) }
  graphs.append(trackedInClosure.debugGraph())
  let v0 = s.map { $0 }
  let w0 = AsyncReactiveDebug.tracing { s.map { $0 } }
  graphs.append(w0.debugGraph())
  graphs.append(v0.debugGraph())
  let v1 = s.filter { _ in true }
  let w1 = AsyncReactiveDebug.tracing { s.filter { _ in true } }
  graphs.append(w1.debugGraph())
  graphs.append(v1.debugGraph())
  let v2 = s.compactMap { $0 }
  let w2 = AsyncReactiveDebug.tracing { s.compactMap { $0 } }
  graphs.append(w2.debugGraph())
  graphs.append(v2.debugGraph())
  let v3 = s.prefix(2)
  let w3 = AsyncReactiveDebug.tracing { s.prefix(2) }
  graphs.append(w3.debugGraph())
  graphs.append(v3.debugGraph())
  let v4 = s.prefix { _ in true }
  let w4 = AsyncReactiveDebug.tracing { s.prefix { _ in true } }
  graphs.append(w4.debugGraph())
  graphs.append(v4.debugGraph())
  let v5 = s.dropFirst()
  let w5 = AsyncReactiveDebug.tracing { s.dropFirst() }
  graphs.append(w5.debugGraph())
  graphs.append(v5.debugGraph())
  let v6 = s.dropFirst(2)
  let w6 = AsyncReactiveDebug.tracing { s.dropFirst(2) }
  graphs.append(w6.debugGraph())
  graphs.append(v6.debugGraph())
  let v7 = s.drop { _ in true }
  let w7 = AsyncReactiveDebug.tracing { s.drop { _ in true } }
  graphs.append(w7.debugGraph())
  graphs.append(v7.debugGraph())
  let v8 = s.removeDuplicates()
  let w8 = AsyncReactiveDebug.tracing { s.removeDuplicates() }
  graphs.append(w8.debugGraph())
  graphs.append(v8.debugGraph())
  let v9 = s.removeDuplicates { $0 == $1 }
  let w9 = AsyncReactiveDebug.tracing { s.removeDuplicates { $0 == $1 } }
  graphs.append(w9.debugGraph())
  graphs.append(v9.debugGraph())
  let v10 = s.scan(0, +)
  let w10 = AsyncReactiveDebug.tracing { s.scan(0, +) }
  graphs.append(w10.debugGraph())
  graphs.append(v10.debugGraph())
  let v11 = s.prepend(1)
  let w11 = AsyncReactiveDebug.tracing { s.prepend(1) }
  graphs.append(w11.debugGraph())
  graphs.append(v11.debugGraph())
  let v12 = s.combinePrevious()
  let w12 = AsyncReactiveDebug.tracing { s.combinePrevious() }
  graphs.append(w12.debugGraph())
  graphs.append(v12.debugGraph())
  let v13 = s.combinePrevious(0)
  let w13 = AsyncReactiveDebug.tracing { s.combinePrevious(0) }
  graphs.append(w13.debugGraph())
  graphs.append(v13.debugGraph())
  let v14 = s.debounce(for: .seconds(1), clock: clock)
  let w14 = AsyncReactiveDebug.tracing { s.debounce(for: .seconds(1), clock: clock) }
  graphs.append(w14.debugGraph())
  graphs.append(v14.debugGraph())
  let v15 = s.throttle(for: .seconds(1), clock: clock)
  let w15 = AsyncReactiveDebug.tracing { s.throttle(for: .seconds(1), clock: clock) }
  graphs.append(w15.debugGraph())
  graphs.append(v15.debugGraph())
  let v16 = s.delay(for: .seconds(1), clock: clock)
  let w16 = AsyncReactiveDebug.tracing { s.delay(for: .seconds(1), clock: clock) }
  graphs.append(w16.debugGraph())
  graphs.append(v16.debugGraph())
  let v17 = s.timeout(.seconds(1), clock: clock)
  let w17 = AsyncReactiveDebug.tracing { s.timeout(.seconds(1), clock: clock) }
  graphs.append(w17.debugGraph())
  graphs.append(v17.debugGraph())
  let v18 = s.timeout(.seconds(1), clock: clock, fallback: s)
  let w18 = AsyncReactiveDebug.tracing { s.timeout(.seconds(1), clock: clock, fallback: s) }
  graphs.append(w18.debugGraph())
  graphs.append(v18.debugGraph())
  let v19 = s.buffer(count: 2)
  let w19 = AsyncReactiveDebug.tracing { s.buffer(count: 2) }
  graphs.append(w19.debugGraph())
  graphs.append(v19.debugGraph())
  let v20 = s.buffer(every: .seconds(1), clock: clock)
  let w20 = AsyncReactiveDebug.tracing { s.buffer(every: .seconds(1), clock: clock) }
  graphs.append(w20.debugGraph())
  graphs.append(v20.debugGraph())
  let v21 = s.sample(on: t)
  let w21 = AsyncReactiveDebug.tracing { s.sample(on: t) }
  graphs.append(w21.debugGraph())
  graphs.append(v21.debugGraph())
  let v22 = s.take(until: t)
  let w22 = AsyncReactiveDebug.tracing { s.take(until: t) }
  graphs.append(w22.debugGraph())
  graphs.append(v22.debugGraph())
  let v23 = s.withLatestFrom(p)
  let w23 = AsyncReactiveDebug.tracing { s.withLatestFrom(p) }
  graphs.append(w23.debugGraph())
  graphs.append(v23.debugGraph())
  let v24 = s.withLatestFrom(s)
  let w24 = AsyncReactiveDebug.tracing { s.withLatestFrom(s) }
  graphs.append(w24.debugGraph())
  graphs.append(v24.debugGraph())
  let v25 = s.flatMap { _ in s }
  let w25 = AsyncReactiveDebug.tracing { s.flatMap { _ in s } }
  graphs.append(w25.debugGraph())
  graphs.append(v25.debugGraph())
  let v26 = s.flatMapLatest { _ in s }
  let w26 = AsyncReactiveDebug.tracing { s.flatMapLatest { _ in s } }
  graphs.append(w26.debugGraph())
  graphs.append(v26.debugGraph())
  let v27 = s.flatMapFirst { _ in s }
  let w27 = AsyncReactiveDebug.tracing { s.flatMapFirst { _ in s } }
  graphs.append(w27.debugGraph())
  graphs.append(v27.debugGraph())
  let v28 = s.concatMap { _ in s }
  let w28 = AsyncReactiveDebug.tracing { s.concatMap { _ in s } }
  graphs.append(w28.debugGraph())
  graphs.append(v28.debugGraph())
  let v29 = s.share(replay: 1)
  let w29 = AsyncReactiveDebug.tracing { s.share(replay: 1) }
  graphs.append(w29.debugGraph())
  graphs.append(v29.debugGraph())
  let v30 = s.materialize()
  let w30 = AsyncReactiveDebug.tracing { s.materialize() }
  graphs.append(w30.debugGraph())
  graphs.append(v30.debugGraph())
  let v31 = s.handleEvents(onValue: { _ in })
  let w31 = AsyncReactiveDebug.tracing { s.handleEvents(onValue: { _ in }) }
  graphs.append(w31.debugGraph())
  graphs.append(v31.debugGraph())
  let v32 = s.debug("x", sink: DebugSink { _ in })
  let w32 = AsyncReactiveDebug.tracing { s.debug("x", sink: DebugSink { _ in }) }
  graphs.append(w32.debugGraph())
  graphs.append(v32.debugGraph())
  let v33 = f.mapError { _ in TestError() }
  let w33 = AsyncReactiveDebug.tracing { f.mapError { _ in TestError() } }
  graphs.append(w33.debugGraph())
  graphs.append(v33.debugGraph())
  let v34 = f.replaceError(with: 0)
  let w34 = AsyncReactiveDebug.tracing { f.replaceError(with: 0) }
  graphs.append(w34.debugGraph())
  graphs.append(v34.debugGraph())
  let v35 = b.not()
  let w35 = AsyncReactiveDebug.tracing { b.not() }
  graphs.append(w35.debugGraph())
  graphs.append(v35.debugGraph())
  let v36 = combineLatest(s, s)
  let w36 = AsyncReactiveDebug.tracing { combineLatest(s, s) }
  graphs.append(w36.debugGraph())
  graphs.append(v36.debugGraph())
  let v37 = merge(s, s)
  let w37 = AsyncReactiveDebug.tracing { merge(s, s) }
  graphs.append(w37.debugGraph())
  graphs.append(v37.debugGraph())
  let v38 = zip(s, s)
  let w38 = AsyncReactiveDebug.tracing { zip(s, s) }
  graphs.append(w38.debugGraph())
  graphs.append(v38.debugGraph())
  let v39 = combineLatest([s, s])
  let w39 = AsyncReactiveDebug.tracing { combineLatest([s, s]) }
  graphs.append(w39.debugGraph())
  graphs.append(v39.debugGraph())
  let v40 = merge([s, s])
  let w40 = AsyncReactiveDebug.tracing { merge([s, s]) }
  graphs.append(w40.debugGraph())
  graphs.append(v40.debugGraph())
  let v41 = zip([s, s])
  let w41 = AsyncReactiveDebug.tracing { zip([s, s]) }
  graphs.append(w41.debugGraph())
  graphs.append(v41.debugGraph())
  let v42 = p.map { $0 }
  let w42 = AsyncReactiveDebug.tracing { p.map { $0 } }
  graphs.append(w42.debugGraph())
  graphs.append(v42.debugGraph())
  let v43 = p.removeDuplicates()
  let w43 = AsyncReactiveDebug.tracing { p.removeDuplicates() }
  graphs.append(w43.debugGraph())
  graphs.append(v43.debugGraph())
  let v44 = combineLatest(p, p)
  let w44 = AsyncReactiveDebug.tracing { combineLatest(p, p) }
  graphs.append(w44.debugGraph())
  graphs.append(v44.debugGraph())
  #expect(graphs.count == 92)
  #expect(graphs.indices.filter { graphs[$0].nodeCount < 2 } == [])
}

/// Says whether `signal` is a ``Signal``: only a `Signal` can be passed.
func isSignal<Element, Failure>(_ signal: Signal<Element, Failure>) -> Bool { true }

/// The library's operators on a cold `Signal` (and on a subscription) stay the library's, typed as a `Signal`, rather
/// than the standard library's `AsyncSequence` methods of the same names (a compile-time check).
@Test("every operator on a cold Signal is the library's, typed as a Signal")
func operatorsOnSignalsAreTheLibrarys() async {
  let clock = TestClock()
  let c = Signal<Int, Never>.just(1)
  let sub = AsyncPassthroughSubject<Int, Never>().subscribe()
  var signals: [Bool] = []
  let c0 = c.map { $0 }
  signals.append(isSignal(c0))
  let d0 = AsyncReactiveDebug.tracing { c.map { $0 } }
  signals.append(isSignal(d0))
  let c1 = c.filter { _ in true }
  signals.append(isSignal(c1))
  let d1 = AsyncReactiveDebug.tracing { c.filter { _ in true } }
  signals.append(isSignal(d1))
  let c2 = c.compactMap { $0 }
  signals.append(isSignal(c2))
  let d2 = AsyncReactiveDebug.tracing { c.compactMap { $0 } }
  signals.append(isSignal(d2))
  let c3 = c.prefix(2)
  signals.append(isSignal(c3))
  let d3 = AsyncReactiveDebug.tracing { c.prefix(2) }
  signals.append(isSignal(d3))
  let c4 = c.prefix { _ in true }
  signals.append(isSignal(c4))
  let d4 = AsyncReactiveDebug.tracing { c.prefix { _ in true } }
  signals.append(isSignal(d4))
  let c5 = c.dropFirst()
  signals.append(isSignal(c5))
  let d5 = AsyncReactiveDebug.tracing { c.dropFirst() }
  signals.append(isSignal(d5))
  let c6 = c.drop { _ in true }
  signals.append(isSignal(c6))
  let d6 = AsyncReactiveDebug.tracing { c.drop { _ in true } }
  signals.append(isSignal(d6))
  let c7 = c.removeDuplicates()
  signals.append(isSignal(c7))
  let d7 = AsyncReactiveDebug.tracing { c.removeDuplicates() }
  signals.append(isSignal(d7))
  let c8 = c.removeDuplicates { $0 == $1 }
  signals.append(isSignal(c8))
  let d8 = AsyncReactiveDebug.tracing { c.removeDuplicates { $0 == $1 } }
  signals.append(isSignal(d8))
  let c9 = c.flatMap { _ in c }
  signals.append(isSignal(c9))
  let d9 = AsyncReactiveDebug.tracing { c.flatMap { _ in c } }
  signals.append(isSignal(d9))
  let c10 = c.flatMapLatest { _ in c }
  signals.append(isSignal(c10))
  let d10 = AsyncReactiveDebug.tracing { c.flatMapLatest { _ in c } }
  signals.append(isSignal(d10))
  let c11 = c.flatMapFirst { _ in c }
  signals.append(isSignal(c11))
  let d11 = AsyncReactiveDebug.tracing { c.flatMapFirst { _ in c } }
  signals.append(isSignal(d11))
  let c12 = c.concatMap { _ in c }
  signals.append(isSignal(c12))
  let d12 = AsyncReactiveDebug.tracing { c.concatMap { _ in c } }
  signals.append(isSignal(d12))
  let c13 = c.withLatestFrom(c)
  signals.append(isSignal(c13))
  let d13 = AsyncReactiveDebug.tracing { c.withLatestFrom(c) }
  signals.append(isSignal(d13))
  let c14 = c.sample(on: c)
  signals.append(isSignal(c14))
  let d14 = AsyncReactiveDebug.tracing { c.sample(on: c) }
  signals.append(isSignal(d14))
  let c15 = c.take(until: c)
  signals.append(isSignal(c15))
  let d15 = AsyncReactiveDebug.tracing { c.take(until: c) }
  signals.append(isSignal(d15))
  let c16 = c.timeout(.seconds(1), clock: clock)
  signals.append(isSignal(c16))
  let d16 = AsyncReactiveDebug.tracing { c.timeout(.seconds(1), clock: clock) }
  signals.append(isSignal(d16))
  let c17 = c.handleEvents(onValue: { _ in })
  signals.append(isSignal(c17))
  let d17 = AsyncReactiveDebug.tracing { c.handleEvents(onValue: { _ in }) }
  signals.append(isSignal(d17))
  let c18 = c.materialize()
  signals.append(isSignal(c18))
  let d18 = AsyncReactiveDebug.tracing { c.materialize() }
  signals.append(isSignal(d18))
  let c19 = sub.map { $0 }
  signals.append(isSignal(c19))
  let d19 = AsyncReactiveDebug.tracing { sub.map { $0 } }
  signals.append(isSignal(d19))
  let c20 = sub.filter { _ in true }
  signals.append(isSignal(c20))
  let d20 = AsyncReactiveDebug.tracing { sub.filter { _ in true } }
  signals.append(isSignal(d20))
  #expect(signals.count == 42)
}
