#!/usr/bin/env python3
"""Generates the failure-type overloads of the flatten operators (flatMap, flatMapLatest, flatMapFirst, concatMap).

    python3 Scripts/generate-flatmap.py                  # rewrites AsyncSequence+FlatMap.swift and the test
    python3 Scripts/generate-flatmap.py --output-dir D   # writes them under D instead
    python3 Scripts/generate-flatmap.py --check          # fails if the files differ from what it would write (CI)

Each spelling is one strategy (`flatMap { }` merges, `flatMap(maxConcurrent:)` limits, `concatMap`,
`flatMapLatest`, `flatMapFirst`) and comes in four overloads that differ only in how the failure types of the outer
sequence, the inner sequences and the transform combine into the result's:

- both fail with the same type (`Never` included) -> that type;
- only the inner sequences can fail               -> theirs;
- only the outer sequence can fail                -> its;
- the transform throws, or the two types differ   -> `any Error`.

Swift cannot write this once: the result's failure type is a function of two types (`Never` absorbs), which
neither typed throws nor a generic signature can compute, and funnelling everything through `any Error` would
lose the typed failures the library keeps everywhere else. Only the first is a plain overload; the other three are
`@_disfavoredOverload`, so that a call where several apply (both sides `Never`) picks the first without the type
checker ranking every combination along a chain (measured: a chain's type-check time drops ~10x). This script is their one template. It writes the forms on any sequence
(a `Signal`, hot when the outer sequence is; the unlabelled merge only on the library's own `ReactiveSequence`s)
and Tests/AsyncReactiveTests/Operators/FlatMapOverloadTests.swift, which calls every overload and checks the
result's type and, on a hot outer, that the result is hot. Every form builds the one hot flatten node (`FlattenConnection`). The
output goes through `swift format` with the repository's .swift-format.
"""

import argparse
import os
import textwrap

import generated_files

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = "Scripts/generate-flatmap.py"
ANY_PATH = "Sources/AsyncReactive/Operators/FlatMap/AsyncSequence+FlatMap.swift"
TEST_PATH = "Tests/AsyncReactiveTests/Operators/FlatMapOverloadTests.swift"

VARIANTS = ["shared", "inner", "outer", "any"]
REQUIREMENTS = {
    "never": ["Failure == Never", "Inner.Failure == Never"],
    "shared": ["Inner.Failure == Failure"],
    "inner": ["Failure == Never"],
    "outer": ["Inner.Failure == Never"],
    "any": [],
}
RESULT_FAILURE = {"never": "Never", "shared": "Failure", "inner": "Inner.Failure", "outer": "Failure", "any": "any Error"}
MAPS = {
    "never": ("neverFailure", "neverFailure", "absurdTransformFailure"),
    "shared": ("{ $0 }", "{ $0 }", "absurdTransformFailure"),
    "inner": ("neverFailure", "{ $0 }", "absurdTransformFailure"),
    "outer": ("{ $0 }", "neverFailure", "absurdTransformFailure"),
    "any": ("{ $0 }", "{ $0 }", "{ $0 }"),
}
THROWS = {
    "never": "nothing: neither side can fail, so the result is iterated with plain `for await`.",
    "shared": "the first failure of the outer sequence or of an inner sequence (both have the same typed `Failure`); "
    "nothing when neither can fail (a `Never` result is iterated with plain `for await`).",
    "inner": "the first failure of an inner sequence, typed as theirs; the outer sequence cannot fail.",
    "outer": "the first failure of the outer sequence, typed as its `Failure`; the inner sequences cannot fail.",
    "any": "the first error of the transform, the outer sequence or an inner sequence, as `any Error`.",
}


class Spelling:
    def __init__(self, name, labels, parameters, strategy, summary, details, parameter_docs, example, hot=True,
                 buffering=False, limit=False, any_only=False, receiver="AsyncSequence",
                 finishes="when the outer sequence and every running inner sequence have finished."):
        self.name = name
        self.labels = labels
        self.parameters = parameters  # before the transform, one per line
        self.strategy = strategy
        self.summary = summary
        self.details = details
        self.parameter_docs = parameter_docs
        self.example = example
        self.hot = hot  # has a hot form
        self.buffering = buffering
        self.limit = limit
        self.receiver = receiver
        self.finishes = finishes  # the **Finishes:** paragraph


SPELLINGS = [
    Spelling(
        "flatMap", "_:", [], ".merge",
        "Maps each element to an inner sequence and merges their elements as they are produced (RAC `flattenMap`, "
        "RxSwift `flatMap`)",
        [
            "The inner sequences run concurrently; their elements interleave as they are produced. This spelling "
            "exists on the library's own sequences (every ``ReactiveSequence``); on any other sequence `.flatMap { }` "
            "stays the standard library's sequential one, and `flatMap(.merge) { }` merges.",
        ],
        [],
        "let wallets = users.flatMap { user in Signal.future { try await api.wallet(for: user) } }",
        hot=False, receiver="ReactiveSequence",
    ),
    Spelling(
        "flatMap", "_:_:", ["_ strategy: FlattenStrategy,"], "strategy",
        "Maps each element to an inner sequence and flattens them as `strategy` says (ReactiveSwift "
        "`flatMap(_:_:)`)",
        ["`.merge` runs them concurrently, `.concat` one at a time, `.latest` switches to the newest, `.first` "
         "ignores elements while one runs."],
        ["- strategy: how the inner sequences are flattened."],
        "let wallets = stream.flatMap(.merge) { user in Signal.future { try await api.wallet(for: user) } }",
    ),
    Spelling(
        "flatMap", "maxConcurrent:buffering:_:",
        ["maxConcurrent: Int,", "buffering: FlattenBuffering = .unbounded,"], ".concurrent(limit: maxConcurrent)",
        "Maps each element to an inner sequence and merges them, running at most `maxConcurrent` at once (RAC "
        "`flatten(.concurrent(limit:))`, RxSwift `merge(maxConcurrent:)`)",
        ["The transform runs as each outer element arrives; while `maxConcurrent` inner sequences run, new ones "
         "wait as `buffering` says, in order."],
        ["- maxConcurrent: the largest number of inner sequences running at once; at least 1.",
         "- buffering: what happens to the inner sequences that wait; by default every one waits its turn."],
        "let thumbnails = photos.flatMap(maxConcurrent: 3) { photo in Signal.future { await render(photo) } }",
        buffering=True, limit=True,
    ),
    Spelling(
        "flatMapLatest", "_:", [], ".latest",
        "Maps each element to an inner sequence and runs only the newest (RxSwift `flatMapLatest`, ReactiveSwift "
        "`flatMap(.latest)`)",
        ["A new outer element stops the running inner sequence before the new one starts: no stale value arrives "
         "after a switch."],
        [],
        "let results = query.flatMapLatest { text in Signal.future { try await api.search(text) } }",
        finishes="when the outer sequence and the current inner sequence have finished. The outer's end stops "
        "nothing: the current inner keeps running and its elements still come, and a consumer that joins then is "
        "given its latest element, as while the outer ran; with no inner running, the result finishes with the "
        "outer. A failure of the outer fails the result at once and cancels the current inner (as in RxSwift).",
    ),
    Spelling(
        "flatMapFirst", "_:", [], ".first",
        "Maps each element to an inner sequence unless one is running (RxSwift `flatMapFirst`, ReactiveSwift "
        "`flatMap(.throttle)`)",
        ["Outer elements that arrive while an inner sequence runs are ignored (the transform is not called)."],
        [],
        "let logins = taps.flatMapFirst { Signal.future { try await api.login() } }",
    ),
    Spelling(
        "concatMap", "buffering:_:", ["buffering: FlattenBuffering = .unbounded,"], ".concat",
        "Maps each element to an inner sequence and runs them one at a time, in order (RxSwift `concatMap`, RAC "
        "`flatMap(.concat)`)",
        ["The transform runs as each outer element arrives; the inner sequences wait for the previous ones as "
         "`buffering` says."],
        ["- buffering: what happens to the inner sequences that wait; by default every one waits its turn."],
        "let saves = edits.concatMap { draft in Signal.future { try await api.save(draft) } }",
        buffering=True,
    ),
]


def doc(lines):
    out = []
    in_code = False
    for line in lines:
        if line.startswith("```"):
            in_code = not in_code
        if in_code or line.startswith("```") or line.lstrip().startswith("- ") or not line:
            out.append(line)
        else:
            out += textwrap.wrap(line, width=114, break_long_words=False, break_on_hyphens=False)
    return "\n".join(("  /// " + line).rstrip() for line in out) + "\n"


TRANSFORM_DOC = "- transform: makes the inner sequence for an element of this sequence."


def parameters_doc(entries):
    """A `- Parameters:` list, or `- Parameter name:` when there is one entry."""
    if len(entries) == 1:
        return ["- Parameter " + entries[0][len("- "):]]
    return ["- Parameters:"] + ["  " + entry for entry in entries]


def overload_doc(sp, variant, hot):
    result = "HotSignal" if hot else "Signal"
    if variant == "shared":
        lines = [sp.summary + ".", ""] + sp.details + [""]
        if hot:
            lines += ["The transform runs inside the outer `send`, once for all consumers; an immediate inner "
                      "(`Signal.just`) is delivered in place, a hot one is observed inside its sends, a cold one "
                      "started at once.", ""]
        else:
            lines += ["One implementation whatever the outer sequence is: on a hot one (a subject, a ``Signal`` "
                      "that erases one) the result is hot and the transform runs inside its `send`; on a cold one, "
                      "each run flattens anew. An immediate inner (`Signal.just`) is delivered in place, a hot one "
                      "observed inside its sends, a cold one started at once.", ""]
        lines += [
            f"**Finishes:** {sp.finishes}",
            "",
            f"**Throws:** {THROWS[variant]}",
            "",
            "**Cancellation:** when the last consumer stops, the outer sequence and every running inner sequence stop.",
            "",
            "```swift",
            sp.example,
            "```",
        ] + parameters_doc(sp.parameter_docs + [TRANSFORM_DOC]) + [
            f"- Returns: a ``{result}`` of the inner sequences' elements.",
        ]
    else:
        lines = [sp.summary + ".", "", f"As the overload whose sides share one failure type; **Throws:** {THROWS[variant]}"]
    return doc(lines)


def requirements(variant):
    return ", ".join(["Inner.Element: Sendable"] + REQUIREMENTS[variant])


def overload(sp, variant, hot):
    transform = "(Element) throws -> Inner" if variant == "any" else "(Element) -> Inner"
    params = "".join(f"    {p}\n" for p in sp.parameters)
    result = f"{'HotSignal' if hot else 'Signal'}<Inner.Element, {RESULT_FAILURE[variant]}>"
    outer, inner, trans = MAPS[variant]
    buffering = " buffering: buffering," if sp.buffering else ""
    origin = f"origin: NodeOrigin(.{sp.name}, fileID: fileID, line: line),\n      "
    call = (f"{'hotFlatten' if hot else 'liftFlatten'}(\n      {origin}{sp.strategy},{buffering} transform: transform,"
            f" outerFailure: {outer}, innerFailure: {inner},\n      transformFailure: {trans})")
    body = f"    {call}\n"
    if sp.limit:
        body = (f'    precondition(maxConcurrent >= 1, "flatMap(maxConcurrent: \\(maxConcurrent)): maxConcurrent must '
                f'be at least 1")\n    return {call}\n')
    attributes = "@inlinable" if variant == "shared" else "@_disfavoredOverload @inlinable"
    return (
        overload_doc(sp, variant, hot)
        + f"  {attributes} public func {sp.name}<Inner: AsyncSequence & Sendable>(\n{params}"
        + f"    _ transform: @escaping @Sendable {transform},\n    fileID: StaticString = #fileID, line: UInt = #line\n"
        + f"  ) -> {result}\n"
        + f"  where {requirements(variant)} {{\n{body}  }}\n"
    )


HEADER = (
    f"// Generated by {SCRIPT}: do not edit by hand. Change the script and run\n"
    f"// `python3 {SCRIPT}`; `.ci/run` fails when this file is not what the script writes.\n"
)


def any_source():
    parts = [HEADER, "//\n// The flatten operators on any sequence: a `Signal`, hot when the outer sequence is, built on the hot\n"
             "// flatten engine (`FlattenConnection`); each spelling has four failure-type overloads, three of them disfavored.\n"]
    for receiver in ("ReactiveSequence", "AsyncSequence"):
        parts.append(f"\nextension {receiver} where Self: Sendable, Element: Sendable {{\n")
        first = True
        for sp in SPELLINGS:
            if sp.receiver != receiver:
                continue
            for variant in VARIANTS:
                parts.append(("" if first else "\n") + overload(sp, variant, hot=False))
                first = False
        parts.append("}\n")
    return "".join(parts)


CALLS = {
    "_:": "outer.flatMap",
    "_:_:": "outer.flatMap(.merge)",
    "maxConcurrent:buffering:_:": "outer.flatMap(maxConcurrent: 2)",
    "flatMapLatest": "outer.flatMapLatest",
    "flatMapFirst": "outer.flatMapFirst",
    "concatMap": "outer.concatMap",
}
OUTER = {"never": "Never", "shared": "TestError", "inner": "Never", "outer": "TestError", "any": "TestError"}
INNER = {"never": "Never", "shared": "TestError", "inner": "TestError", "outer": "Never", "any": "OtherError"}


def test_source():
    tests = []
    for sp in SPELLINGS:
        call = CALLS.get(sp.labels if sp.name == "flatMap" else sp.name)
        name = sp.name + {"_:": "", "_:_:": "Strategy", "maxConcurrent:buffering:_:": "MaxConcurrent"}.get(
            sp.labels if sp.name == "flatMap" else "", "")
        body = []
        for variant in ["never"] + VARIANTS:
            result = {"never": "Never", "shared": "TestError", "inner": "TestError", "outer": "TestError",
                      "any": "any Error"}[variant]
            body.append(
                f"    do {{\n"
                f"      let outer = Signal<Int, {OUTER[variant]}>([1, 2])\n"
                f"      let flattened = {call} {{ Signal<Int, {INNER[variant]}>.just($0 * 10) }}\n"
                f"      let _: Signal<Int, {result}> = flattened\n"
                f"      #expect({'' if variant == 'never' else 'try '}await flattened.collect().sorted() == [10, 20])\n"
                f"    }}\n"
            )
            if sp.hot:
                body.append(
                    f"    do {{\n"
                    f"      let outer = AsyncPassthroughSubject<Int, {OUTER[variant]}>()\n"
                    f"      let flattened = {call.replace('(maxConcurrent: 2)', '(maxConcurrent: 2)')} "
                    f"{{ Signal<Int, {INNER[variant]}>.just($0 * 10) }}\n"
                    f"      let _: Signal<Int, {result}> = flattened\n"
                    f"      #expect(flattened.isHot)\n"
                    f"    }}\n"
                )
        tests.append(
            f'\n  @Test("{sp.name}({sp.labels}): every failure combination, on a cold outer and a hot one")\n'
            f"  func {name}() async throws {{\n" + "".join(body) + "  }\n"
        )
    return (
        HEADER
        + "//\n// Every flatten overload, called as users call it: the result's type (a Signal, hot on a hot outer) and its\n"
        "// failure type, and the values of a cold run.\n"
        "import AsyncReactive\nimport AsyncReactiveTesting\nimport Testing\n\n"
        "private struct OtherError: Error {}\n\n"
        '@Suite("flatten overloads")\nstruct FlatMapOverloadTests {' + "".join(tests) + "}\n"
    )


def outputs():
    fmt = lambda text: generated_files.swift_format(ROOT, text)
    return [(ANY_PATH, fmt(any_source())), (TEST_PATH, fmt(test_source()))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", help="write the files under this directory instead of the repository")
    parser.add_argument("--check", action="store_true", help="fail if the files differ from what this writes")
    arguments = parser.parse_args()
    files = outputs()
    if arguments.check:
        stale = generated_files.stale_files(ROOT, files, SCRIPT)
        generated_files.exit_if_stale(stale, SCRIPT, "the flatten overloads changed")
        print(f"generated flatten overloads are current ({len(files)} files)")
        return
    root = arguments.output_dir or ROOT
    for path, text in files:
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as handle:
            handle.write(text)


if __name__ == "__main__":
    main()
