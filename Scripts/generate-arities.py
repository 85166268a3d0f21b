#!/usr/bin/env python3
"""Generates the arity overloads of combineLatest, zip and merge.

    python3 Scripts/generate-arities.py                  # rewrites the three *+Arities.swift files and the tests
    python3 Scripts/generate-arities.py --output-dir D   # writes them under D instead (what CI diffs)
    python3 Scripts/generate-arities.py --check          # fails if the files differ from what it would write (CI)
    python3 Scripts/generate-arities.py --topics         # prints the DocC Topics links for the landing page

Swift cannot write these overloads once: parameter packs reject same-element requirements (merge) and are not
specialised on Swift 6.3.1 (10-15x slower per element), so each arity is an overload of its own. This script is
their one template. Per operator and arity it writes two public overloads, which differ only in their generic
requirements and return type:

- inputs that share a failure type (`Never` included)  -> a `Signal` failing with that type;
- inputs whose failure types differ                     -> a `Signal` failing with `any Error`.

Both build one node with one internal builder per arity, on the hot engine (`NaryConnection`). They look at their
inputs' values once: when any input is hot, the node is built now and shared (a hot signal); when all are cold,
each run builds it anew. The `any Error` overload is `@_disfavoredOverload`: it changes no choice and halves a
call's type-check time. The two-input forms carry the full documentation; the others point at them.
It also writes Tests/AsyncReactiveTests/Operators/NaryArityTests.swift, which calls every overload. The output goes
through `swift format` (the toolchain's, with the repository's .swift-format), so the generated files pass the
format lint as they are. Needs Python 3 and the Swift toolchain only.
"""

import argparse
import os
import sys
import tempfile
import textwrap

import generated_files

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = "Scripts/generate-arities.py"
TEST_PATH = "Tests/AsyncReactiveTests/Operators/NaryArityTests.swift"
MAX_INPUTS = 8
WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def bases(n):
    return [f"Base{k}" for k in range(1, n + 1)]


def tuple_of(items):
    return "(" + ", ".join(items) + ")"


def element_tuple(n):
    return tuple_of(f"Base{k}.Element" for k in range(1, n + 1))


class Operator:
    name = ""
    path = ""
    same_element = False

    def output(self, n):
        return element_tuple(n)

    @property
    def maker(self):
        return "make" + self.name[0].upper() + self.name[1:]

    def link(self, result, n=2, failure="shared"):
        labels = "_:" * n + "fileID:line:"
        output = self.output(n).replace(" ", "")
        return f"``{self.name}({labels})->{result}<{output},{'Base1.Failure' if failure == 'shared' else 'Error'}>``"


class CombineLatest(Operator):
    name = "combineLatest"
    path = "Sources/AsyncReactive/Operators/CombineLatest/CombineLatest+Arities.swift"
    summary = "Combines the latest elements of {count} sequences into tuples"
    full_summary = (
        "Combines the latest elements of two sequences into tuples: first once every input has produced, then on "
        "every element of any input (RxSwift and ReactiveSwift `combineLatest`)."
    )
    finishes = (
        "when every input has finished, or earlier, when an input produces while another has produced nothing yet "
        "and every input but the one producing has finished (no combination can ever come). An input that finishes "
        "before producing does not end the result by itself, so a later failure of another input still fails it "
        "(RxSwift's rule): `a.finish()`, then `b.send(1)`, finishes the result at `b`'s send."
    )
    example = [
        "let form = combineLatest(username, password)   // hot: evaluated inside the subjects' sends",
        "for await (name, password) in form { loginEnabled.send(!name.isEmpty && password.count >= 8) }",
    ]

    def body(self, n):
        latest = tuple_of(f"Base{k}.Element?" for k in range(1, n + 1))
        full = tuple_of(f"latest.{k}!" for k in range(n))
        inputs = "\n".join(
            f"    Inputs.attach(any: base{k + 1}, failure: failure{k + 1}) {{ rule, element in"
            f" rule.receive(from: {k}) {{ $0.{k} = element }} }},"
            for k in range(n)
        )
        replays = ", ".join(f"inputReplaysCurrent(base{k})" for k in range(1, n + 1))
        return (
            f"  typealias Rule = CombineLatestRule<{latest}, {element_tuple(n)}>\n"
            f"  typealias Inputs = NaryConnection<Rule, Rule.Output, Failure>\n"
            f"  let inputs: [Inputs.Attach] = [\n{inputs}\n  ]\n"
            f"  // A combination of current values is current too (combineLatest of properties).\n"
            f"  return Inputs.node(\n"
            f"    inputs, replay: combinedReplay([{replays}]), origin: origin,\n"
            f"    inputNodes: {graph_inputs(n)}\n"
            f"  ) {{\n"
            f"    Rule(inputCount: {n}, empty: {tuple_of(['nil'] * n)}) {{ latest in {full} }}\n"
            f"  }}"
        )


class Zip(Operator):
    name = "zip"
    path = "Sources/AsyncReactive/Operators/Zip/Zip+Arities.swift"
    summary = "Pairs the n-th elements of {count} sequences into tuples"
    full_summary = "Pairs the n-th elements of two sequences into tuples (RxSwift and ReactiveSwift `zip`)."
    finishes = (
        "when every input has finished (RxSwift's rule). An input that finished with nothing left to pair does not "
        "end the result by itself: later elements of the other inputs are dropped, and a later failure of one of "
        "them still fails the result. `a.send(1); b.send(2)`, `a.finish()`, `b.send(3)`, `b.finish()` gives "
        "`(1, 2)`, then finishes at `b.finish()`."
    )
    example = [
        "let rounds = zip(questions, answers)",
        'for await (question, answer) in rounds { transcript.append("\\(question) → \\(answer)") }',
    ]

    def body(self, n):
        buffers = tuple_of(f"ZipBuffer<Base{k}.Element>" for k in range(1, n + 1))
        take = tuple_of(f"buffers.{k}.removeFirst()" for k in range(n))
        inputs = "\n".join(
            f"    Inputs.attach(any: base{k + 1}, failure: failure{k + 1}) {{ rule, element in"
            f" rule.receive(from: {k}) {{ $0.{k}.append(element) }} }},"
            for k in range(n)
        )
        return (
            f"  typealias Rule = ZipRule<{buffers}, {element_tuple(n)}>\n"
            f"  typealias Inputs = NaryConnection<Rule, Rule.Output, Failure>\n"
            f"  let inputs: [Inputs.Attach] = [\n{inputs}\n  ]\n"
            f"  return Inputs.node(inputs, replay: .none, origin: origin, inputNodes: {graph_inputs(n)}) {{\n"
            f"    Rule(inputCount: {n}, empty: {tuple_of(['ZipBuffer()'] * n)}) {{ buffers in {take} }}\n"
            f"  }}"
        )


class Merge(Operator):
    name = "merge"
    path = "Sources/AsyncReactive/Operators/Merge/Merge+Arities.swift"
    summary = "Interleaves the elements of {count} sequences as they are produced"
    full_summary = "Interleaves the elements of two sequences as they are produced (RxSwift and ReactiveSwift `merge`)."
    finishes = "when every input has finished."
    same_element = True
    example = [
        "let refreshes = merge(viewWillAppear, pullToRefresh)",
        "for await _ in refreshes { viewModel.refresh.trigger() }",
    ]

    def output(self, n):
        return "Base1.Element"

    def body(self, n):
        inputs = "\n".join(
            f"    Inputs.attach(any: base{k}, failure: failure{k}) {{ _, element in .emit(element) }},"
            for k in range(1, n + 1)
        )
        replays = ", ".join(f"inputReplaysCurrent(base{k})" for k in range(1, n + 1))
        return (
            f"  typealias Inputs = NaryConnection<MergeRule<Base1.Element>, Base1.Element, Failure>\n"
            f"  let inputs: [Inputs.Attach] = [\n{inputs}\n  ]\n"
            f"  // A consumer that joins is given each input's current value, as a fresh subscription would be.\n"
            f"  return Inputs.node(\n"
            f"    inputs, replay: mergedReplay([{replays}]), origin: origin,\n"
            f"    inputNodes: {graph_inputs(n)}\n"
            f"  ) {{ MergeRule() }}"
        )


def graph_inputs(n):
    """The hot input nodes, for a graph dump."""
    return "NodeInputs([" + ", ".join(f"graphInput(base{k})" for k in range(1, n + 1)) + "].compactMap { $0 })"


def doc(lines):
    """A doc comment: prose wrapped at the 120-column limit; code blocks and list items kept as they are."""
    out = []
    in_code = False
    for line in lines:
        if line.startswith("```"):
            in_code = not in_code
        if in_code or line.startswith("```") or line.lstrip().startswith("- ") or not line:
            out.append(line)
        else:
            out += textwrap.wrap(line, width=116, break_long_words=False, break_on_hyphens=False)
    return "\n".join(("/// " + line).rstrip() for line in out) + "\n"


def overload_doc(op, n, failure, hot):
    count = WORDS[n]
    result = "HotSignal" if hot else "Signal"
    if n == 2 and failure == "shared" and not hot:
        lines = [
            op.full_summary,
            "",
            "One implementation, whatever the inputs are: a hot input (a subject, a ``Property``, a ``HotSignal``, a "
            "``Signal`` that erases one) is observed inside its sends; a cold one (a ``Signal``, an `AsyncStream`, "
            "any other sequence) runs as part of the result's graph. When any input is hot, the result is hot: it "
            "is evaluated once for all of its consumers, and each connection runs the cold inputs anew. When all "
            "are cold, each iteration runs them anew, so ``ReiterableAsyncSequence/retry(_:)`` retries them all.",
            "",
            f"**Finishes:** {op.finishes}",
            "",
            "**Throws:** the inputs' common `Failure`, as soon as any input fails (the others are stopped). When no "
            "input can fail, neither can the result: iterate it with plain `for await`.",
            "",
            "**Cancellation:** when the last consumer stops, every input stops.",
            "",
            "```swift",
        ] + op.example + [
            "```",
            "- Parameters:",
            "  - base1: the first input.",
            "  - base2: the second input.",
            f"- Returns: a ``Signal`` of `{op.output(n)}`; hot when any input is.",
        ]
        return doc(lines)
    summary = op.summary.format(count=count)
    if hot:
        what = (
            "Every input is hot, so the result is a ``HotSignal``: evaluated inside the inputs' sends, once for "
            "all of its consumers"
        )
    else:
        what = f"The {count}-input form"
    failing = (
        "The inputs share one `Failure`, and so does the result."
        if failure == "shared"
        else "For inputs whose failure types differ: the result fails with `any Error`."
    )
    lines = [
        f"{summary}.",
        "",
        f"{what}, with the rules of {CURRENT.link('Signal')}. {failing}",
        "",
        f"- Returns: a ``{result}`` of `{op.output(n)}`.",
    ]
    return doc(lines)


def requirements(op, n, shared_failure, hot):
    clauses = []
    for k in range(1, n + 1):
        clause = [] if hot else [f"Base{k}.Element: Sendable"]
        if k > 1 and op.same_element:
            clause.append(f"Base{k}.Element == Base1.Element")
        if k > 1 and shared_failure:
            clause.append(f"Base{k}.Failure == Base1.Failure")
        if clause:
            clauses.append(", ".join(clause))
    return ("where\n  " + ",\n  ".join(clauses) + "\n") if clauses else ""


def overload(op, n, failure, hot):
    protocol = "HotSequence" if hot else "AsyncSequence & Sendable"
    generics = ", ".join(f"{base}: {protocol}" for base in bases(n))
    parameters = ", ".join(f"_ base{k}: Base{k}" for k in range(1, n + 1))
    parameters += ",\n  fileID: StaticString = #fileID, line: UInt = #line"
    result_failure = "Base1.Failure" if failure == "shared" else "any Error"
    result = f"{'HotSignal' if hot else 'Signal'}<{op.output(n)}, {result_failure}>"
    arguments = ", ".join(f"base{k}" for k in range(1, n + 1))
    call = (
        f"{op.maker}({arguments}, origin: NodeOrigin(.{op.name}, fileID: fileID, line: line), "
        f"failures: {', '.join(['{ $0 }'] * n)})"
    )
    if hot:
        body = f"HotSignal(node: {call})"
    else:
        anyHot = " || ".join(f"isHotInput(base{k})" for k in range(1, n + 1))
        body = f"naryResult(anyHot: {anyHot}) {{ {call} }}"
    attributes = "@_disfavoredOverload @inlinable" if failure == "any" else "@inlinable"
    return (
        overload_doc(op, n, failure, hot)
        + f"{attributes} public func {op.name}<{generics}>(\n  {parameters}\n) -> {result}\n"
        + requirements(op, n, failure == "shared", hot)
        + f"{{\n  {body}\n}}\n"
    )


def builder(op, n):
    generics = ", ".join(f"{base}: AsyncSequence & Sendable" for base in bases(n)) + ", Failure: Error"
    failures = ",\n  ".join(
        ("failures " if k == 1 else "_ ") + f"failure{k}: @escaping @Sendable (Base{k}.Failure) -> Failure"
        for k in range(1, n + 1)
    )
    parameters = ", ".join(f"_ base{k}: Base{k}" for k in range(1, n + 1))
    comment = "/// The node of every overload above, once it chose how each input's failure becomes the result's.\n"
    return (
        (comment if n == 2 else "")
        + f"@inlinable func {op.maker}<{generics}>(\n  {parameters}, origin: NodeOrigin,\n  {failures}\n)"
        + f" -> Node<{op.output(n)}, Failure>\n"
        + requirements(op, n, False, False)
        + f"{{\n{op.body(n)}\n}}\n"
    )


CURRENT = None


def source(op):
    global CURRENT
    CURRENT = op
    parts = [
        f"// Generated by {SCRIPT}: do not edit by hand. Change the script and run\n"
        f"// `python3 {SCRIPT}`; `.ci/run` fails when this file is not what the script writes.\n"
        f"//\n"
        f"// The typed entry points of `{op.name}` for 2 to {MAX_INPUTS} inputs, each for inputs that share a failure type\n"
        f"// or not; the result is a `Signal`, hot when any input is. Both build one node on the hot engine (`NaryConnection`)\n"
        f"// with the operator's rule.\n"
    ]
    for n in range(2, MAX_INPUTS + 1):
        for failure in ("shared", "any"):
            parts.append("\n" + overload(op, n, failure, False))
        parts.append("\n" + builder(op, n))
    return "".join(parts)


def arity_test(op, n):
    count = WORDS[n]
    if op.same_element:
        output = "Int"
        shape = ".sorted()"
        cold_expected = "[" + ", ".join(str(k + 1) for k in range(n)) + "]"
        hot_record = "log.append([$0])"
        hot_expected = "[" + ", ".join(f"[{k + 1}]" for k in range(n)) + "]"
    else:
        output = tuple_of(["Int"] * n)
        shape = ".map { [" + ", ".join(f"$0.{k}" for k in range(n)) + "] }"
        cold_expected = "[[" + ", ".join(str(k + 1) for k in range(n)) + "]]"
        hot_record = "log.append([" + ", ".join(f"$0.{k}" for k in range(n)) + "])"
        hot_expected = "[[" + ", ".join(str(k + 1) for k in range(n)) + "]]"
    cold = ", ".join(f"runs.counted({k}, Signal<Int, TestError>.just({k + 1}))" for k in range(n))
    untyped = ", ".join(
        ["Signal<Int, any Error>.just(1)"] + [f"Signal<Int, TestError>.just({k + 1})" for k in range(1, n)]
    )
    if op.same_element:
        row = "[value]"
        mixed_expected = "[" + ", ".join(f"[{k + 1}]" for k in range(1, n)) + ", [1]]"
    else:
        row = "[" + ", ".join(f"value.{k}" for k in range(n)) + "]"
        mixed_expected = cold_expected
    subjects = ", ".join(f"subjects[{k}]" for k in range(n))
    mixed = ", ".join(["AsyncPassthroughSubject<Int, Never>()"] + [f"subjects[{k}]" for k in range(1, n)])
    one_hot = ", ".join(["subjects[0]"] + [f"Signal<Int, TestError>.just({k + 1})" for k in range(1, n)])
    return f"""
  @Test("{op.name} of {count} inputs: cold ones run anew on every iteration; hot ones are evaluated inside the sends")
  func {op.name}{n}() async throws {{
    let runs = RunCounts(count: {n})
    let cold = {op.name}({cold})
    let _: Signal<{output}, TestError> = cold
    #expect(try await cold.collect(){shape} == {cold_expected})
    #expect(try await cold.collect(){shape} == {cold_expected})
    #expect(runs.all == Array(repeating: 2, count: {n}))
    let _: Signal<{output}, any Error> = {op.name}({untyped})

    let subjects = (0..<{n}).map {{ _ in AsyncPassthroughSubject<Int, TestError>() }}
    let hot = {op.name}({subjects})
    let _: Signal<{output}, TestError> = hot
    #expect(hot.isHot)
    let mixedFailures: Signal<{output}, any Error> = {op.name}({mixed})
    #expect(mixedFailures.isHot)
    let lifetime = Lifetime()
    let log = Log<[Int]>()
    hot.sink(in: lifetime) {{ {hot_record} }}
    for (index, subject) in subjects.enumerated() {{ subject.send(index + 1) }}
    // No await: every send was processed before it returned.
    #expect(log.all == {hot_expected})

    // One hot input among cold ones: a Signal, hot at run time. Its consumer registers when it makes its iterator
    // and connects the node, which runs the cold inputs at once; the subject's value is evaluated at its send.
    let mixedResult = {op.name}({one_hot})
    let _: Signal<{output}, TestError> = mixedResult
    var iterator = mixedResult.makeAsyncIterator()
    subjects[0].send(1)
    subjects[0].finish()
    var mixedValues: [[Int]] = []
    while let value = try await iterator.next() {{ mixedValues.append({row}) }}
    #expect(mixedValues == {mixed_expected})
  }}
"""


def test_source(operators):
    tests = "".join(arity_test(op, n) for op in operators for n in range(2, MAX_INPUTS + 1))
    return (
        f"// Generated by {SCRIPT}: do not edit by hand. Change the script and run\n"
        f"// `python3 {SCRIPT}`; `.ci/run` fails when this file is not what the script writes.\n"
        f"//\n"
        f"// Every arity overload of combineLatest, zip and merge, called the way users call them: cold inputs give a\n"
        f"// `Signal` that runs them anew on every iteration, hot ones a `Signal` that is hot, evaluated inside the sends;\n"
        f"// the typed failure is checked too (shared, or `any Error` when the inputs' failures differ).\n"
        f"import AsyncReactive\n"
        f"import AsyncReactiveTesting\n"
        f"import Testing\n\n"
        f'@Suite("n-ary arities")\n'
        f"struct NaryArityTests {{{tests}}}\n"
    )


def topics(op):
    """The landing page's links, one per public overload (DocC tells overloads apart by their return type)."""
    array = "[Base.Element]" if not op.same_element else "Base.Element"
    links = [f"- ``{op.name}(_:fileID:line:)->Signal<{array},Base.Failure>``"]
    for n in range(2, MAX_INPUTS + 1):
        for failure in ("shared", "any"):
            links.append("- " + op.link("Signal", n, failure))
    return "\n".join(links)


def outputs(operators):
    files = [(op.path, generated_files.swift_format(ROOT, source(op))) for op in operators]
    files.append((TEST_PATH, generated_files.swift_format(ROOT, test_source(operators))))
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", help="write the files under this directory instead of the repository")
    parser.add_argument("--check", action="store_true", help="fail if the files differ from what this writes")
    parser.add_argument("--topics", action="store_true", help="print the DocC Topics links and exit")
    arguments = parser.parse_args()
    operators = [CombineLatest(), Zip(), Merge()]
    if arguments.topics:
        for op in operators:
            print(topics(op))
        return
    files = outputs(operators)
    if arguments.check:
        stale = generated_files.stale_files(ROOT, files, SCRIPT)
        generated_files.exit_if_stale(stale, SCRIPT, "the arity overloads changed")
        print(f"generated arity overloads are current ({len(files)} files)")
        return
    root = arguments.output_dir or ROOT
    for path, text in files:
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as handle:
            handle.write(text)


if __name__ == "__main__":
    main()
