#!/usr/bin/env python3
"""Generates the one-engine behaviour matrix: every public operator, one timeline, every shape of input.

    python3 Scripts/generate-matrix.py           # rewrites Tests/AsyncReactiveTests/Engine/OneEngineMatrixRows.swift
    python3 Scripts/generate-matrix.py --check   # fails if the file differs from what it would write (CI)

An operator's behaviour must not depend on the static type of its inputs. Each row below is one operator applied to
two inputs, `a` and `b`, written once; the script writes it out once per shape, so that the compiler resolves it for
that shape's static types:

- `concrete`: `a` an `AsyncPassthroughSubject<Int, Never>`, `b` an `AsyncCurrentValueSubject<Int, Never>` (0);
- `generic`:  the same values, seen through a generic `some AsyncSequence` parameter;
- `erased`:   the same values, `eraseToSignal()`ed;
- `erasedHot`: the same values, `eraseToHotSignal()`ed;
- `cold`:     cold `Signal`s that play the same timeline, run twice;
- `stream`:   `AsyncStream`s fed with the same timeline, read once.

The test (OneEngineMatrixTests) plays a timeline on a `TestClock` and records each result's events with their
instants: the four hot shapes must record exactly the same; the cold shape records what the concrete one records
on a timeline without ties (unless a row's behaviour with a cold input differs by design: its cold input restarts),
and its second run the same as its first; the stream's second run records what the operator makes of inputs that
have ended. A last test reads the public API baseline (.ci/api/AsyncReactive.txt) and fails for an operator that has
no row here.
"""

import argparse
import os

import generated_files

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = "Scripts/generate-matrix.py"
PATH = "Tests/AsyncReactiveTests/Engine/OneEngineMatrixRows.swift"

# (row name, the operator names it covers, the expression over `a`, `b` and `clock`, whether a cold input behaves
# differently by design: the operator starts a cold input anew where a hot one keeps running)
ROWS = [
    ("map", ["map"], "a.map { $0 * 2 }", False),
    ("compactMap", ["compactMap"], "a.compactMap { $0 % 2 == 0 ? $0 : nil }", False),
    ("filter", ["filter"], "a.filter { $0 != 2 }", False),
    ("prefix", ["prefix"], "a.prefix(3)", False),
    ("prefixWhile", [], "a.prefix(while: { $0 < 4 })", False),
    ("prefixWhileInclusive", [], "a.prefix(while: { $0 < 4 }, inclusive: true)", False),
    ("dropFirst", ["dropFirst"], "a.dropFirst(2)", False),
    ("dropWhile", ["drop"], "a.drop(while: { $0 < 3 })", False),
    ("scan", ["scan"], "a.scan(0, +)", False),
    ("removeDuplicates", ["removeDuplicates"], "a.map { $0 / 2 }.removeDuplicates()", False),
    ("removeDuplicatesBy", [], "a.removeDuplicates { $0 / 2 == $1 / 2 }", False),
    ("prepend", ["prepend"], "a.prepend(-1, -2)", False),
    ("handleEvents", ["handleEvents"], "a.handleEvents(onValue: { _ in })", False),
    ("materialize", ["materialize"], "a.materialize()", False),
    ("combinePrevious", ["combinePrevious"], "a.combinePrevious(0)", False),
    ("enumerated", ["enumerated"], "a.enumerated().map { $0.offset * 100 + $0.element }", False),
    ("elementAt", ["element"], "a.element(at: 2)", False),
    ("first", ["first"], "a.first()", False),
    ("single", ["single"], "a.single(where: { $0 == 3 }).replaceError(with: -1)", False),
    # reduce is the library's on its own sequences only (on a foreign one it stays the standard library's).
    ("reduce", ["reduce"], "a.eraseToSignal().reduce(0, +)", False),
    ("reduceInto", [], "a.eraseToSignal().reduce(into: [Int]()) { $0.append($1) }.map { $0.count }", False),
    ("toArray", ["toArray"], "a.toArray().map { $0.count }", False),
    ("takeLast", ["takeLast"], "a.takeLast(2)", False),
    ("last", ["last"], "a.last()", False),
    ("ignoreElements", ["ignoreElements"], "a.ignoreElements()", False),
    ("ifEmpty", ["ifEmpty"], "a.filter { $0 > 100 }.ifEmpty(default: -1)", False),
    ("dematerialize", ["dematerialize"], "a.materialize().dematerialize()", False),
    ("groupBy", ["groupBy"], "a.groupBy { $0 % 2 }.flatMap { group in group.map { group.key * 100 + $0 } }", False),
    ("window", ["window"], "a.window(count: 2).enumerated().flatMap { i, window in window.map { i * 100 + $0 } }", False),
    ("bufferCount", ["buffer"], "a.buffer(count: 2)", False),
    ("trackActivity", ["trackActivity"], "a.trackActivity(ActivityTracker())", False),
    ("debug", ["debug"], 'a.debug("a", clock: clock, sink: DebugSink { _ in })', False),
    ("not", ["not"], "a.map { $0 % 2 == 0 }.not()", False),
    ("debounce", ["debounce"], "a.debounce(for: .milliseconds(500), clock: clock)", False),
    ("throttle", ["throttle"], "a.throttle(for: .seconds(2), clock: clock, latest: true)", False),
    ("delay", ["delay"], "a.delay(for: .milliseconds(500), clock: clock)", False),
    ("bufferTime", [], "a.buffer(every: .seconds(2), clock: clock)", False),
    ("timeout", ["timeout"], "a.timeout(.milliseconds(1500), clock: clock)", False),
    ("timeoutFallback", [], "a.timeout(.milliseconds(1500), clock: clock, fallback: b)", True),
    ("replaceError", ["replaceError"], "a.timeout(.milliseconds(1500), clock: clock).replaceError(with: -1)", False),
    ("catchError", ["catch"], "a.timeout(.milliseconds(1500), clock: clock).catch { _ in Signal<Int, Never>.just(-2) }", False),
    ("mapError", ["mapError"], "a.timeout(.milliseconds(1500), clock: clock).mapError { _ in MatrixError() }", False),
    ("withLatestFrom", ["withLatestFrom"], "a.withLatestFrom(b) { $0 * 100 + $1 }", False),
    ("sample", ["sample"], "b.sample(on: a)", False),
    ("takeUntil", ["take"], "a.take(until: b.dropFirst())", False),
    ("skipUntil", ["skip"], "a.skip(until: b.dropFirst())", False),
    ("combineLatest", ["combineLatest"], "combineLatest(a, b).map { $0 * 100 + $1 }", False),
    ("combineLatestArray", [], "combineLatest([a.eraseToSignal(), b.eraseToSignal()]).map { $0[0] * 100 + $0[1] }", False),
    ("zip", ["zip"], "zip(a, b).map { $0 * 100 + $1 }", False),
    ("merge", ["merge"], "merge(a, b)", False),
    ("amb", ["amb"], "a.amb(b.dropFirst())", False),
    ("ambArray", [], "amb([a.eraseToSignal(), b.dropFirst().eraseToSignal()])", False),
    ("flatMapMerge", ["flatMap"], "a.flatMap(.merge) { x in Signal<Int, Never>.just(x * 10) }", False),
    ("flatMapLatest", ["flatMapLatest"], "a.flatMapLatest { x in b.prepend(x * 100) }", True),
    (
        "flatMapFirst", ["flatMapFirst"],
        "a.flatMapFirst { x in Signal.timer(after: .seconds(1), clock: clock).map { _ in x } }", False,
    ),
    (
        "flatMapMaxConcurrent", [],
        "a.flatMap(maxConcurrent: 1) { x in Signal.timer(after: .milliseconds(1500), clock: clock).map { _ in x } }",
        False,
    ),
    (
        "concatMap", ["concatMap"],
        "a.concatMap { x in Signal.timer(after: .milliseconds(1500), clock: clock).map { _ in x } }", False,
    ),
    ("ifEmptySwitchTo", [], "a.filter { $0 > 100 }.ifEmpty(switchTo: b.eraseToSignal())", True),
    ("delaySubscription", ["delaySubscription"], "a.delaySubscription(for: .seconds(2), clock: clock)", True),
    ("share", ["share"], "a.share(replay: 1)", False),
    ("publish", ["publish"], "a.publish().refCount()", False),
    ("replay", ["replay"], "a.replay(1).refCount()", False),
    ("replayAll", ["replayAll"], "a.replayAll().refCount()", False),
    ("multicast", ["multicast"], "a.multicast(makeSubject: { AsyncPassthroughSubject<Int, Never>() }).refCount()", False),
    ("concat", ["concat"], "concat(a.eraseToSignal(), b.eraseToSignal())", True),
    ("eraseToSignal", ["eraseToSignal"], "a.eraseToSignal()", False),
    ("eraseToHotSignal", ["eraseToHotSignal"], "a.eraseToSignal().eraseToHotSignal()", False),
]

SHAPES = {
    "concrete": ("AsyncPassthroughSubject<Int, Never>", "AsyncCurrentValueSubject<Int, Never>"),
    "erased": ("Signal<Int, Never>", "Signal<Int, Never>"),
    "erasedHot": ("HotSignal<Int, Never>", "HotSignal<Int, Never>"),
    "cold": ("Signal<Int, Never>", "Signal<Int, Never>"),
}


def case_name(row):
    return row[0]


def shape_functions():
    out = []
    for shape, (a_type, b_type) in SHAPES.items():
        out.append(f"\n  /// Each row over inputs typed as `{a_type}` and `{b_type}`.\n")
        out.append(
            f"  static func {shape}(_ row: MatrixRow, _ a: {a_type}, _ b: {b_type}, clock: TestClock) -> Signal<String, Never> {{\n"
            f"    switch row {{\n"
        )
        for name, _, expression, _ in ROWS:
            out.append(f"    case .{name}: described({expression})\n")
        out.append("    }\n  }\n")
    out.append(
        "\n  /// Each row over inputs seen through generic parameters: what a reusable view model written over\n"
        "  /// `some AsyncSequence<Int, Never>` does.\n"
        "  static func generic<A: AsyncSequence & Sendable, B: AsyncSequence & Sendable>(\n"
        "    _ row: MatrixRow, _ a: A, _ b: B, clock: TestClock\n"
        "  ) -> Signal<String, Never> where A.Element == Int, A.Failure == Never, B.Element == Int, B.Failure == Never {\n"
        "    switch row {\n"
    )
    for name, _, expression, _ in ROWS:
        out.append(f"    case .{name}: described({expression})\n")
    out.append("    }\n  }\n")
    return "".join(out)


def source():
    cases = "".join(f"  case {row[0]}\n" for row in ROWS)
    covers = "".join(
        f'    case .{row[0]}: {"[" + ", ".join(chr(34) + c + chr(34) for c in row[1]) + "]" if row[1] else "[]"}\n'
        for row in ROWS
    )
    differs = ", ".join(f".{row[0]}" for row in ROWS if row[3])
    return (
        f"// Generated by {SCRIPT}: do not edit by hand. Change the script and run\n"
        f"// `python3 {SCRIPT}`; `.ci/run` fails when this file is not what the script writes.\n"
        "//\n"
        "// The rows of the one-engine matrix (OneEngineMatrixTests.swift): one operator each, written out once per\n"
        "// shape of input so that the compiler resolves it for that shape's static types.\n"
        "import AsyncReactive\nimport AsyncReactiveTesting\n\n"
        "/// One operator of the matrix.\n"
        "enum MatrixRow: String, CaseIterable, Sendable, CustomStringConvertible {\n"
        f"{cases}\n"
        "  var description: String { rawValue }\n\n"
        "  /// The public operator names this row covers (checked against the API baseline).\n"
        "  var covers: [String] {\n    switch self {\n"
        f"{covers}"
        "    }\n  }\n\n"
        "  /// Whether a cold input behaves differently by design: the operator starts it anew where a hot one keeps\n"
        "  /// running (a fallback, an inner sequence, the next sequence of a concatenation).\n"
        f"  var coldInputRestarts: Bool {{ [{differs}].contains(self) }}\n"
        "}\n\n"
        "enum MatrixShapes {"
        f"{shape_functions()}"
        "}\n"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the file differs from what this writes")
    arguments = parser.parse_args()
    text = generated_files.swift_format(ROOT, source())
    if arguments.check:
        stale = generated_files.stale_files(ROOT, [(PATH, text)], SCRIPT)
        generated_files.exit_if_stale(stale, SCRIPT, "the matrix rows changed")
        print("the one-engine matrix is current")
        return
    full = os.path.join(ROOT, PATH)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as handle:
        handle.write(text)


if __name__ == "__main__":
    main()
