#!/usr/bin/env python3
"""Generates the failure-type overloads of the flatten operators (flatMap, flatMapLatest, flatMapFirst, concatMap).

    python3 Scripts/generate-flatmap.py                  # rewrites the two *+FlatMap.swift files and the test
    python3 Scripts/generate-flatmap.py --output-dir D   # writes them under D instead
    python3 Scripts/generate-flatmap.py --check          # fails if the files differ from what it would write (CI)

Each spelling is one strategy (`flatMap { }` merges, `flatMap(maxConcurrent:)` limits, `concatMap`,
`flatMapLatest`, `flatMapFirst`) and comes in five overloads that differ only in how the failure types of the outer
sequence, the inner sequences and the transform combine into the result's:

- neither side can fail                         -> `Never` (plain `for await`);
- both fail with the same type                  -> that type;
- only the inner sequences can fail             -> theirs;
- only the outer sequence can fail              -> its;
- the transform throws, or the two types differ -> `any Error`.

Swift cannot write this once: the result's failure type is a function of two types (`Never` absorbs), which
neither typed throws nor a generic signature can compute, and funnelling everything through `any Error` would
lose the typed failures the library keeps everywhere else. The first overload is the most constrained, so it wins
where several apply (both sides `Never`). This script is their one template: it writes the stream forms (any
`Sendable` async sequence, the unlabeled merge only on the library's own `ReactiveSequence`s), the hot forms
(`HotSequence` sources, result a `HotSignal` evaluated inside the outer `send`), and
Tests/AsyncReactiveTests/Operators/FlatMapOverloadTests.swift, which calls every overload and checks the result's
type. The output goes through `swift format` with the repository's .swift-format.
"""

import argparse
import os
import sys
import textwrap

import generated_files

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = "Scripts/generate-flatmap.py"
STREAM_PATH = "Sources/AsyncReactive/Operators/FlatMap/AsyncSequence+FlatMap.swift"
HOT_PATH = "Sources/AsyncReactive/Operators/FlatMap/HotSequence+FlatMap.swift"
TEST_PATH = "Tests/AsyncReactiveTests/Operators/FlatMapOverloadTests.swift"

# The five failure combinations: requirements, result failure, and how each side's failure maps into it.
VARIANTS = ["never", "shared", "inner", "outer", "any"]
REQUIREMENTS = {
    "never": ["Failure == Never", "Inner.Failure == Never"],
    "shared": ["Inner.Failure == Failure"],
    "inner": ["Failure == Never"],
    "outer": ["Inner.Failure == Never"],
    "any": [],
}
RESULT_FAILURE = {"never": "Never", "shared": "Failure", "inner": "Inner.Failure", "outer": "Failure", "any": "any Error"}
STREAM_MAPS = {
    "never": ("absurd", "absurd"),
    "shared": ("{ $0 }", "{ $0 }"),
    "inner": ("absurd", "{ $0 }"),
    "outer": ("{ $0 }", "absurd"),
    "any": ("{ $0 }", "{ $0 }"),
}
HOT_MAPS = {
    "never": ("neverFailure", "neverFailure", "absurdTransformFailure"),
    "shared": ("{ $0 }", "{ $0 }", "absurdTransformFailure"),
    "inner": ("neverFailure", "{ $0 }", "absurdTransformFailure"),
    "outer": ("{ $0 }", "neverFailure", "absurdTransformFailure"),
    "any": ("{ $0 }", "{ $0 }", "{ $0 }"),
}
STREAM_THROWS = {
    "never": "nothing: neither side can fail, so the result is iterated with plain `for await`.",
    "shared": "the first failure of the outer sequence or of an inner sequence (both have the same typed `Failure`).",
    "inner": (
        "the first failure of an inner sequence, typed as the inner sequences' `Failure`; the outer sequence "
        "cannot fail."
    ),
    "outer": "the first failure of the outer sequence, typed as its `Failure`; the inner sequences cannot fail.",
    "any": (
        "the first error of the transform, the outer sequence or an inner sequence, as `any Error`. This form also "
        "takes outer and inner sequences whose typed failures differ."
    ),
}
HOT_THROWS = {
    "never": "nothing: neither the outer nor the inner sequences can fail.",
    "shared": "the common `Failure` of the outer and inner sequences, as soon as any fails.",
    "inner": "the inner sequences' `Failure`, as soon as one fails.",
    "outer": "the outer sequence's `Failure`, as soon as it fails.",
    "any": "the first error of the outer sequence, an inner sequence or the transform, as `any Error`.",
}
# The inner sequence of each variant's example, and how its result is iterated.
EXAMPLE_INNER = {
    "never": ("Signal<Int, Never>.just(value * 10)", "for await"),
    "shared": ("Signal<Int, any Error>.future { try await api.load(value) }", "for try await"),
    "inner": ("Signal<Int, any Error>.future { try await api.load(value) }", "for try await"),
    "outer": ("Signal<Int, Never>.just(value * 10)", "for try await"),
    "any": ("try api.request(for: value)", "for try await"),
}


class Operator:
    def __init__(
        self, name, labels, parameters, strategy, summary, details, parameter_docs, example_call, hot_example,
        peers, buffering=False, limit=False
    ):
        self.name = name
        self.labels = labels  # DocC's spelling of the argument labels, e.g. "maxConcurrent:buffering:_:"
        self.parameters = parameters  # the parameters before the transform, one per line
        self.strategy = strategy  # the FlattenStrategy expression the engines get
        self.summary = summary
        self.details = details  # paragraphs of the full documentation, before the example
        self.parameter_docs = parameter_docs
        self.example_call = example_call  # e.g. "users.flatMap"
        self.hot_example = hot_example
        self.peers = peers  # what ReactiveSwift and RxSwift call it
        self.buffering = buffering
        self.limit = limit


def stream_operators():
    cancel_all = (
        "**Cancellation:** cancelling the consumer or dropping the iterator cancels the outer sequence and every "
        "running inner sequence."
    )
    merge_details = [
        "**Finishes:** when the outer sequence and every inner sequence it started have finished.",
        cancel_all,
    ]
    return [
        Operator(
            "flatMap", "_:", [], ".merge",
            "Maps each element to an inner sequence and merges their elements as they are produced",
            [
                "Unlike the standard library's sequential `AsyncSequence.flatMap`, which finishes one inner sequence "
                "before it starts the next, this one runs the inner sequences concurrently. It exists on the "
                "library's own sequences (every ``ReactiveSequence``: signals, subjects, subscriptions, operators); "
                "on any other sequence, `.flatMap { }` stays the standard library's, and "
                "``_Concurrency/AsyncSequence/flatMap(_:_:)->AsyncFlattenSequence<Self,Inner,Never>`` with "
                "``FlattenStrategy/merge`` merges. For one inner sequence at a time, use `concatMap`.",
            ] + merge_details,
            ["- transform: makes the inner sequence for an element of this sequence."],
            "users.flatMap", "users.flatMap { user in Signal.future { try await api.wallet(for: user) } }",
            "RAC `flattenMap`, RxSwift `flatMap`",
        ),
        Operator(
            "flatMap", "_:_:", ["_ strategy: FlattenStrategy,"], "strategy",
            "Maps each element to an inner sequence and merges their elements as they are produced, on any "
            "`Sendable` async sequence",
            [
                "The spelling of a merge that does not depend on the receiver's type: on a sequence from outside "
                "the library (an `AsyncStream`, a `some AsyncSequence`, a generic parameter), `.flatMap { }` is the "
                "standard library's sequential `flatMap`, which the library leaves alone; `flatMap(.merge) { }` "
                "merges there too. On the library's own sequences it does what `.flatMap { }` does.",
            ] + merge_details,
            [
                "- strategy: ``FlattenStrategy/merge``; the other strategies have operators of their own "
                "(`flatMap(maxConcurrent:)`, `concatMap`, `flatMapLatest`, `flatMapFirst`).",
                "- transform: makes the inner sequence for an element of this sequence.",
            ],
            "stream.flatMap(.merge)", "",
            "RAC `flatMap(.merge)`, RxSwift `flatMap`",
        ),
        Operator(
            "flatMap", "maxConcurrent:buffering:_:",
            ["maxConcurrent: Int,", "buffering: FlattenBuffering = .unbounded,"], ".concurrent(limit: maxConcurrent)",
            "Maps each element to an inner sequence and merges their elements, running at most `maxConcurrent` "
            "inner sequences at once",
            [
                "**Finishes:** when the outer sequence and every inner sequence it started have finished.",
                "**Buffering:** the outer sequence is read all the time and the transform runs as each element "
                "arrives; while `maxConcurrent` inner sequences run, the new ones wait as `buffering` says (by "
                "default, every one waits its turn, in order). `maxConcurrent: 1` is `concatMap`.",
                cancel_all,
            ],
            [
                "- maxConcurrent: the largest number of inner sequences running at once; at least 1.",
                "- buffering: what happens to the inner sequences that find `maxConcurrent` running; by default "
                "each waits its turn.",
                "- transform: makes the inner sequence for an element of this sequence.",
            ],
            "photos.flatMap(maxConcurrent: 3)", "",
            "RAC `flatten(.concurrent(limit:))`, RxSwift `merge(maxConcurrent:)`", buffering=True, limit=True,
        ),
        Operator(
            "flatMapLatest", "_:", [], ".latest",
            "Maps each element to an inner sequence and keeps only the newest one: a new outer element cancels the "
            "running inner sequence before the next one starts",
            [
                "**Finishes:** when the outer sequence has finished and so has the last inner sequence.",
                "**Cancellation:** cancelling the consumer or dropping the iterator cancels the outer sequence and "
                "the running inner sequence.",
            ],
            ["- transform: makes the inner sequence for an element of this sequence."],
            "queries.flatMapLatest", "",
            "RxSwift `flatMapLatest`, RAC `flatMap(.latest)`",
        ),
        Operator(
            "flatMapFirst", "_:", [], ".first",
            "Maps an element to an inner sequence only while no inner sequence runs: elements that arrive meanwhile "
            "are ignored, and the transform is not called for them",
            [
                "The classic use: a button whose taps start a request, where taps during the request must do "
                "nothing.",
                "**Finishes:** when the outer sequence has finished and so has the running inner sequence.",
                "**Cancellation:** cancelling the consumer or dropping the iterator cancels the outer sequence and "
                "the running inner sequence.",
                "**Buffering:** none: an element that finds an inner sequence running is dropped.",
            ],
            ["- transform: makes the inner sequence for an element that arrives while none runs."],
            "taps.flatMapFirst", "",
            "RxSwift `flatMapFirst`, RxJS `exhaustMap`, RAC `flatMap(.throttle)`",
        ),
        Operator(
            "concatMap", "buffering:_:", ["buffering: FlattenBuffering = .unbounded,"], ".concat",
            "Maps each element to an inner sequence and delivers the inner sequences one after another, in order",
            [
                "**Finishes:** when the outer sequence and every inner sequence have finished.",
                "**Buffering:** the outer sequence is read all the time and the transform runs as each element "
                "arrives (so a throwing transform fails the result at once); each inner sequence waits for the "
                "previous ones to finish, as `buffering` says (by default, every one waits its turn).",
                cancel_all,
            ],
            [
                "- buffering: what happens to the inner sequences that wait for the running one; by default each "
                "waits its turn.",
                "- transform: makes the inner sequence for an element of this sequence.",
            ],
            "files.concatMap", "",
            "RxSwift `concatMap`, RAC `flatMap(.concat)`", buffering=True,
        ),
    ]


def hot_operators():
    return [
        Operator(
            "flatMap", "_:_:", ["_ strategy: FlattenStrategy = .merge,"], "strategy",
            "Maps each element to an inner sequence inside the outer `send` and merges their elements: inner "
            "sequences run concurrently, outputs interleave as produced",
            ["`flatMap { }` and `flatMap(.merge) { }` are this one operator."],
            [
                "- strategy: ``FlattenStrategy/merge``, the default.",
                "- transform: makes the inner sequence for an element; runs on the sending thread.",
            ],
            "", "let wallets = users.flatMap { user in Signal.future { try await api.wallet(for: user) } }",
            "RAC `flatMap(.merge)`, RxSwift `flatMap`",
        ),
        Operator(
            "flatMap", "maxConcurrent:_:", ["maxConcurrent: Int,"], ".concurrent(limit: maxConcurrent)",
            "Maps each element to an inner sequence inside the outer `send` and merges their elements, running at "
            "most `maxConcurrent` inner sequences at once",
            [
                "The inner sequences that find `maxConcurrent` running wait their turn, in order, in a queue without "
                "bound (a `send` never waits). For another ``FlattenBuffering``, pass `buffering:`, which gives the "
                "stream form.",
            ],
            [
                "- maxConcurrent: the largest number of inner sequences running at once; at least 1.",
                "- transform: makes the inner sequence for an element; runs on the sending thread.",
            ],
            "", "let thumbnails = photos.flatMap(maxConcurrent: 3) { photo in Signal.future { await render(photo) } }",
            "RAC `flatten(.concurrent(limit:))`, RxSwift `merge(maxConcurrent:)`", limit=True,
        ),
        Operator(
            "flatMapLatest", "_:", [], ".latest",
            "Maps each element to an inner sequence inside the outer `send` and follows only the latest one: a new "
            "element cancels the running inner sequence, whose later elements never arrive",
            [], ["- transform: makes the inner sequence for an element; runs on the sending thread."],
            "", "let results = submits.flatMapLatest { Signal.future { try await api.signUp() } }.materialize()",
            "RxSwift `flatMapLatest`, RAC `flatMap(.latest)`",
        ),
        Operator(
            "flatMapFirst", "_:", [], ".first",
            "Maps each element to an inner sequence inside the outer `send`, ignoring elements that arrive while an "
            "inner sequence runs: the transform is not even called for them",
            [], ["- transform: makes the inner sequence for an element; runs on the sending thread."],
            "", "let logins = loginTaps.flatMapFirst { Signal.future { try await api.logIn() } }   // double taps ignored",
            "RxSwift `flatMapFirst`, RAC `flatMap(.throttle)`",
        ),
        Operator(
            "concatMap", "_:", [], ".concat",
            "Maps each element to an inner sequence inside the outer `send` and runs the inner sequences one at a "
            "time, in order",
            [
                "Later inner sequences wait their turn in a queue without bound (a `send` never waits). For another "
                "``FlattenBuffering``, pass `buffering:`, which gives the stream form.",
            ],
            ["- transform: makes the inner sequence for an element; runs on the sending thread."],
            "", "let uploads = photos.concatMap { photo in Signal.future { try await api.upload(photo) } }",
            "RxSwift `concatMap`, RAC `flatMap(.concat)`",
        ),
    ]


def doc(lines, indent="  "):
    """A doc comment: prose wrapped at the 120-column limit; code blocks and list items kept as they are."""
    out = []
    in_code = False
    width = 120 - len(indent) - 4
    for line in lines:
        if line.startswith("```"):
            in_code = not in_code
        if in_code or line.startswith("```") or not line:
            out.append(line)
        elif line.startswith("- "):
            wrapped = textwrap.wrap(line, width=width - 2, break_long_words=False, break_on_hyphens=False)
            out += [wrapped[0]] + ["  " + rest for rest in wrapped[1:]]
        else:
            out += textwrap.wrap(line, width=width, break_long_words=False, break_on_hyphens=False)
    return "".join((indent + "/// " + line).rstrip() + "\n" for line in out)


def precondition(op):
    if not op.limit:
        return ""
    return (
        f'    precondition(maxConcurrent >= 1, "flatMap(maxConcurrent: \\(maxConcurrent)): '
        f'maxConcurrent must be at least 1")\n'
    )


def where_clause(variant):
    return "where " + ", ".join(["Inner.Element: Sendable"] + REQUIREMENTS[variant])


def stream_link(op):
    return f"``{op.name}({op.labels})->AsyncFlattenSequence<Self,Inner,Never>``"


def stream_overload(op, variant):
    inner, loop = EXAMPLE_INNER[variant]
    example = [
        "```swift",
        f"let values = {op.example_call} {{ value in",
        f"  {inner}",
        "}",
        f"{loop} value in values {{ print(value) }}",
        "```",
    ]
    lines = [f"{op.summary} ({op.peers})."]
    if variant == "never":
        lines += [""]
        for paragraph in op.details:
            lines += [paragraph, ""]
        lines += [
            "The result's failure type: `Never` when neither side can fail; the shared `Failure` when both fail "
            "with the same type; the failing side's type when only one side can fail; `any Error` when the "
            "transform throws or the two failure types differ.",
            "",
            f"**Throws:** {STREAM_THROWS[variant]}",
            "",
        ] + example + ["- Parameters:"] + ["  " + line for line in op.parameter_docs] + [
            "- Returns: a sequence of the inner sequences' elements."
        ]
    else:
        lines += [
            "",
            f"Works as {stream_link(op)} does; only what differs is written here.",
            "",
            f"**Throws:** {STREAM_THROWS[variant]}",
            "",
        ] + example
    throws = " throws" if variant == "any" else ""
    parameters = "".join(f"    {p}\n" for p in op.parameters)
    outer_map, inner_map = STREAM_MAPS[variant]
    transform = "throwingTransform" if variant == "any" else "transform"
    buffering = " buffering: buffering," if op.buffering else ""
    return (
        doc(lines)
        + f"  public func {op.name}<Inner: AsyncSequence & Sendable>(\n"
        + parameters
        + f"    _ transform: @escaping @Sendable (Element) async{throws} -> Inner\n"
        + f"  ) -> AsyncFlattenSequence<Self, Inner, {RESULT_FAILURE[variant]}>\n"
        + f"  {where_clause(variant)} {{\n"
        + precondition(op)
        + f"    {'return ' if op.limit else ''}AsyncFlattenSequence(\n"
        + f"      self, strategy: {op.strategy},{buffering} {transform}: transform,\n"
        + f"      outerFailure: {outer_map}, innerFailure: {inner_map})\n"
        + "  }\n"
    )


def hot_link(op):
    return f"``{op.name}({op.labels})->HotSignal<Inner.Element,Never>``"


def hot_overload(op, variant):
    example = ["```swift", op.hot_example, "```"]
    if variant == "never":
        lines = [f"{op.summary} ({op.peers}).", ""]
        for paragraph in op.details:
            lines += [paragraph, ""]
        lines += [
            "The transform runs once per outer element for all consumers; an immediate inner (`Signal.just`) is "
            "delivered in place, a hot one is observed synchronously, any other runs in a task of its own.",
            "",
            "**Finishes:** when the outer sequence and every running inner sequence have finished.",
            "",
            f"**Throws:** {HOT_THROWS[variant]}",
            "",
            "**Cancellation:** when the last consumer stops, the outer sequence is no longer observed and every "
            "running inner sequence is cancelled.",
            "",
        ] + example + ["- Parameters:"] + ["  " + line for line in op.parameter_docs] + [
            "- Returns: a ``HotSignal`` of the inner sequences' elements."
        ]
    else:
        lines = [
            op.summary + ".",
            "",
            f"Works as {hot_link(op)} does; only what differs is written here.",
            "",
            f"**Throws:** {HOT_THROWS[variant]}",
            "",
        ] + example
    throws = " throws" if variant == "any" else ""
    parameters = "".join(f"    {p}\n" for p in op.parameters)
    outer_map, inner_map, transform_map = HOT_MAPS[variant]
    failure = "Inner.Failure" if variant == "inner" else RESULT_FAILURE[variant]
    return (
        doc(lines)
        + f"  @inlinable public func {op.name}<Inner: AsyncSequence & Sendable>(\n"
        + parameters
        + f"    _ transform: @escaping @Sendable (Element){throws} -> Inner\n"
        + f"  ) -> HotSignal<Inner.Element, {failure}>\n"
        + f"  {where_clause(variant)} {{\n"
        + precondition(op)
        + f"    {'return ' if op.limit else ''}hotFlatten(\n"
        + f"      {op.strategy}, transform: transform, outerFailure: {outer_map}, innerFailure: {inner_map},\n"
        + f"      transformFailure: {transform_map})\n"
        + "  }\n"
    )


def generated_note():
    return (
        f"// Generated by {SCRIPT}: do not edit by hand. Change the script and run\n"
        f"// `python3 {SCRIPT}`; `.ci/run` fails when this file is not what the script writes.\n"
        f"//\n"
    )


def stream_source():
    operators = stream_operators()
    merge, rest = operators[0], operators[1:]
    parts = [
        generated_note()
        + "// The stream forms of the flatten operators, one spelling per strategy, each in the five failure-type\n"
        + "// overloads the script explains. The unlabeled merge `flatMap { }` is declared on `ReactiveSequence` only:\n"
        + "// on any other sequence (an `AsyncStream`, a `some AsyncSequence`) `.flatMap { }` stays the standard\n"
        + "// library's sequential one, in every file of a module that imports the library, and `flatMap(.merge) { }`\n"
        + "// merges (checked by ImportVisibilityTests). On a library sequence, `Sendable` and a `@Sendable` transform\n"
        + "// make these more specific than the standard library's `flatMap`, so `.flatMap { }` picks the merge.\n",
        "extension ReactiveSequence where Self: Sendable, Element: Sendable {",
    ]
    parts += [stream_overload(merge, variant) for variant in VARIANTS]
    parts.append("}\n")
    parts.append("extension AsyncSequence where Self: Sendable, Element: Sendable {")
    for op in rest:
        parts += [stream_overload(op, variant) for variant in VARIANTS]
    parts.append("}\n")
    parts.append("/// Converts an impossible failure (`Never`) to any failure type.\nprivate func absurd<Failure>(_ never: Never) -> Failure {}\n")
    return "\n".join(parts)


def hot_source():
    parts = [
        generated_note()
        + "// The hot forms of the flatten operators: on a hot outer sequence the transform runs inside the outer\n"
        + "// `send`, once for all consumers (`let e = taps.flatMapLatest { request }` iterated twice sends one request\n"
        + "// per tap), and the result is a HotSignal. Each spelling has the five failure-type overloads of the stream\n"
        + "// forms, with `Self: HotSequence`, so a hot outer never falls back to the pull form. The transform is\n"
        + "// synchronous: it builds the inner sequence (a `Signal` does its work when it runs); an `async` transform\n"
        + "// gets the stream form, and so does a `buffering:` argument (the hot engine queues without bound).\n",
        "extension HotSequence {",
    ]
    for op in hot_operators():
        parts += [hot_overload(op, variant) for variant in VARIANTS]
    parts.append("}\n")
    parts.append(
        "/// What a non-throwing transform's failure becomes: it cannot happen.\n"
        "@usableFromInline func absurdTransformFailure<Failure>(_ error: any Error) -> Failure {\n"
        '  preconditionFailure("Internal inconsistency: a non-throwing transform threw \\(error)")\n'
        "}\n"
    )
    return "\n".join(parts)


# The outer and inner failure types each variant's test uses, and the result's failure type.
TEST_TYPES = {
    "never": ("Never", "Never", "Never"),
    "shared": ("TestError", "TestError", "TestError"),
    "inner": ("Never", "TestError", "TestError"),
    "outer": ("TestError", "Never", "TestError"),
    "any": ("TestError", "OtherError", "any Error"),
}
STREAM_CALLS = {
    "flatMap(_:)": "outer.flatMap",
    "flatMap(_:_:)": "outer.flatMap(.merge)",
    "flatMap(maxConcurrent:buffering:_:)": "outer.flatMap(maxConcurrent: 2)",
    "flatMapLatest(_:)": "outer.flatMapLatest",
    "flatMapFirst(_:)": "outer.flatMapFirst",
    "concatMap(buffering:_:)": "outer.concatMap",
}
HOT_CALLS = {
    "flatMap(_:_:)": ["subject.flatMap", "subject.flatMap(.merge)"],
    "flatMap(maxConcurrent:_:)": ["subject.flatMap(maxConcurrent: 2)"],
    "flatMapLatest(_:)": ["subject.flatMapLatest"],
    "flatMapFirst(_:)": ["subject.flatMapFirst"],
    "concatMap(_:)": ["subject.concatMap"],
}


def identifier(op):
    suffix = {"maxConcurrent:buffering:_:": "MaxConcurrent", "maxConcurrent:_:": "MaxConcurrent", "_:_:": "Merge"}
    return op.name + suffix.get(op.labels, "")


def stream_test(op):
    call = STREAM_CALLS[f"{op.name}({op.labels})"]
    checks = []
    for variant in VARIANTS:
        outer, inner, result = TEST_TYPES[variant]
        # The `any Error` form is also the one for failure types that differ: its test uses both at once.
        inner_type = "Signal<Int, OtherError>" if variant == "any" else f"Signal<Int, {inner}>"
        body = f"Signal<Int, {inner}>.just(value * 10)" if variant != "any" else "try otherInner(value)"
        checks.append(
            f"""    do {{
      let outer = Signal<Int, {outer}>([1, 2])
      let flattened = {call} {{ value in {body} }}
      let _: AsyncFlattenSequence<Signal<Int, {outer}>, {inner_type}, {result}> = flattened
      let outcome = await flattened.collectResult()
      #expect(outcome.values.sorted() == [10, 20])
      #expect(outcome.failure == nil)
    }}
"""
        )
    return f"""
  @Test("{call}: each of the five failure overloads is chosen by the failure types alone")
  func {identifier(op)}Stream() async {{
{"".join(checks)}  }}
"""


def hot_test(op):
    tests = []
    for call in HOT_CALLS[f"{op.name}({op.labels})"]:
        checks = []
        for variant in VARIANTS:
            outer, inner, result = TEST_TYPES[variant]
            body = f"Signal<Int, {inner}>.just(value * 10)" if variant != "any" else "try otherInner(value)"
            checks.append(
                f"""    do {{
      let subject = AsyncPassthroughSubject<Int, {outer}>()
      let flattened = {call} {{ value in {body} }}
      let _: HotSignal<Int, {result}> = flattened
      let log = Log<Int>()
      let lifetime = Lifetime()
      flattened.sink(in: lifetime) {{ log.append($0) }}
      subject.send(1)
      subject.send(2)
      // No await: a `just` inner is delivered inside the send.
      #expect(log.all == [10, 20])
    }}
"""
            )
        name = identifier(op) + ("Explicit" if "(.merge)" in call else "") + "Hot"
        tests.append(
            f"""
  @Test("{call} on a subject: a HotSignal, in each of the five failure overloads")
  func {name}() {{
{"".join(checks)}  }}
"""
        )
    return "".join(tests)


def test_source():
    tests = "".join(stream_test(op) for op in stream_operators())
    tests += "".join(hot_test(op) for op in hot_operators())
    return (
        generated_note()
        + "// Every flatten overload, called the way users call them: the failure types alone choose among the five\n"
        + "// overloads of a spelling, and a hot source gets the hot form (a HotSignal) for every spelling that has one.\n"
        + "import AsyncReactive\n"
        + "import AsyncReactiveTesting\n"
        + "import Testing\n\n"
        + '@Suite("flatten overloads")\n'
        + f"struct FlatMapOverloadTests {{{tests}}}\n\n"
        + "private struct OtherError: Error {}\n\n"
        + "/// A transform that could throw (it does not): it selects the `any Error` overloads.\n"
        + "private func otherInner(_ value: Int) throws -> Signal<Int, OtherError> {\n"
        + "  if value < 0 { throw TestError(code: value) }\n"
        + "  return .just(value * 10)\n"
        + "}\n"
    )


def swift_format(text):
    return generated_files.swift_format(ROOT, text)


def outputs():
    return [(STREAM_PATH, stream_source()), (HOT_PATH, hot_source()), (TEST_PATH, test_source())]


def write(root):
    for path, text in outputs():
        target = os.path.join(root, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as file:
            file.write(swift_format(text))


def check():
    """Compares what the script writes (formatted) with the repository's files."""
    files = [(path, swift_format(text)) for path, text in outputs()]
    stale = generated_files.stale_files(ROOT, files, SCRIPT)
    generated_files.exit_if_stale(stale, SCRIPT, "Edit the script, not the generated files, then")
    print(f"generated flatten overloads are current ({len(files)} files)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", help="write the files under this directory instead of the repository")
    parser.add_argument("--check", action="store_true", help="regenerate into a temporary directory and diff")
    arguments = parser.parse_args()
    if arguments.check:
        check()
        return
    write(arguments.output_dir or ROOT)


if __name__ == "__main__":
    main()
